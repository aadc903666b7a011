"""Checks of the integer arguments the native module takes as unsigned (u16 … u64).

PyO3 raised ``OverflowError: can't convert negative int to unsigned`` (or ``out of range
integral type conversion attempted``) for them, naming no argument, where the docstrings
promise ``ShogiLabError``; these raise ``ShogiLabError`` naming the argument. A value that
is no int is left to the native call (its ``TypeError`` names the argument).
"""

from __future__ import annotations

from typing import Optional, Tuple

from ._native import ShogiLabError


def unsigned(name: str, value: object, bits: int = 64) -> None:
    """``ShogiLabError`` unless ``value`` (when an int) is 0 to 2**bits − 1."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ShogiLabError(f"bad {name} {value}: must not be negative")
        if value >= 1 << bits:
            raise ShogiLabError(f"bad {name} {value}: more than {(1 << bits) - 1}")


def shard(value: Optional[Tuple[int, int]]) -> None:
    """The ``shard=(i, n)`` pair: both parts unsigned (the native call checks ``i < n``)."""
    if isinstance(value, tuple) and len(value) == 2:
        for part in value:
            if isinstance(part, int) and not isinstance(part, bool) and not 0 <= part < 1 << 64:
                raise ShogiLabError(f"bad shard {value[0]}/{value[1]}: need 0 <= I < N")
