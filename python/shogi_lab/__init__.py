"""shogi-lab from Python: rules (``Position``), game records, the df-pn tsume
solver (``shogi_lab.tsume``), quantum shogi (``shogi_lab.quantum``), 利かずの駒並べ
(``shogi_lab.placement``), seeded test vectors (``shogi_lab.gen``) and a Ray
batch driver (``python -m shogi_lab.cluster``).

Errors are :class:`ShogiLabError` (a ``ValueError``) carrying the command line's
one-line message (an integer argument out of range too, negative ones included, for
every function and ``Position`` method: ``bad count -1: must not be negative``); a table that does not fit in memory raises ``MemoryError``.
Long calls release the GIL.

>>> import shogi_lab
>>> p = shogi_lab.Position.from_usi("position startpos moves 7g7f")
>>> len(p.legal_moves()), p.perft(2)
(30, 1110)

A tsume problem (the attacker without a king) is a ``Position`` too:

>>> t = shogi_lab.Position.from_sfen("8k/9/8P/9/9/9/9/9/9 b G 1")
>>> len(t.legal_moves()), t.perft(3)
(81, 1380)
>>> t.play("G*1b"); t.outcome()
('sente_win', 'checkmate')
"""

from __future__ import annotations

from os import PathLike
from typing import Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import Position, ShogiLabError

__version__: str = _native.__version__

__all__ = [
    "Position",
    "ShogiLabError",
    "read_record",
    "write_record",
    "gen",
    "placement",
    "quantum",
    "tsume",
]


def read_record(path: Union[str, PathLike[str]]) -> Tuple[str, List[str], Dict[str, str]]:
    """Reads the first game of a KIF/KI2/CSA/USI file (UTF-8 or Shift_JIS).

    Returns ``(start_sfen, moves, headers)``: the start position as SFEN, the
    main-line moves in USI, and the headers (``開始日時``, ``先手``, CSA ``N+`` …)
    in file order.
    """
    sfen, moves, headers = _native.read_record(path)
    return sfen, moves, dict(headers)


def write_record(
    start: str,
    moves: Union[str, Sequence[str]],
    to: str = "kif",
    headers: Optional[Dict[str, str]] = None,
) -> str:
    """The text of a record: ``start`` is a SFEN or ``startpos`` (a game's start, or a tsume
    problem's, one side without a king, as ``read_record`` and ``Position`` take it), ``moves`` USI moves (a
    list, or one space-separated string such as ``TsumeResult.usi``), ``to`` one of
    ``"kif"``, ``"ki2"``, ``"csa"``, ``"jkf"`` (one JSON object and a newline: what
    ``shogi-lab convert --to jkf`` writes for the same game), ``"usi"``."""
    hs = list(headers.items()) if headers else None
    # A string is its moves, not its characters ("7g7f" was read as moves "7", "g", …).
    ms = moves.split() if isinstance(moves, str) else list(moves)
    return _native.write_record(start, ms, to, hs)


from . import gen, placement, quantum, tsume  # noqa: E402  (submodules use the names above)
