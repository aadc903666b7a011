"""Quantum shogi (量子将棋, shogitter rule) convergence and exact probabilities.

A *world* is 20 piece domains, as on the command line: a string such as
``"RL RL R * * * * * * * * * * * * * * * * *"`` or a list of 20 tokens
(``*`` = any kind; letters K R B G S N L P).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple, Union, cast

from . import _args, _native

World = Union[str, Sequence[str]]


def _text(world: World) -> str:
    return world if isinstance(world, str) else " ".join(world)


def converge(world: World, engine: str = "counting") -> dict:
    """Converges ``world`` with one of the engines ``counting``, ``peel``, ``sat``,
    ``enumeration``. Returns the object ``shogi-lab quantum converge --json`` prints:
    ``{"consistent": True, "world": [...], "used_up": "…", "conflict": None}`` or
    ``{"consistent": False, "world": None, "used_up": None, "conflict": [piece indices]}``.
    Ctrl-C stops the ``sat`` engine between two solver calls (varisat cannot be interrupted
    inside one; a call takes milliseconds, on rare worlds seconds) and raises
    ``KeyboardInterrupt``; the other engines are quick."""
    return json.loads(_native.quantum_converge(_text(world), engine))


def probabilities(world: World) -> Tuple[List[Dict[str, Fraction]], int]:
    """Exact probabilities (uniform over the consistent worlds): for each of the 20
    pieces a dict kind letter → ``Fraction`` (kinds with probability 0 left out),
    and the number of worlds as an int. Raises ``ShogiLabError`` for a contradictory world."""
    kinds, counts, total = _native.quantum_probabilities(_text(world))
    if total == 0:
        raise _native.ShogiLabError("the world is contradictory")
    return (
        [{k: Fraction(c, total) for k, c in zip(kinds, row) if c} for row in counts],
        total,
    )


def observe(world: World, piece: int, seed: int) -> dict:
    """Observes ``piece`` (0..19): its kind drawn with its exact probability from a
    ChaCha8 stream seeded by ``seed`` (the CLI's ``quantum observe --seed``). Returns the
    object ``shogi-lab quantum observe --json`` prints, key for key and in its order:
    ``{"piece", "kind", "probability", "world", "used_up", "consistent": True, "conflict": None}``,
    ``probability`` a ``Fraction`` (the CLI's ``"1/3"``). A contradictory world is an answer
    as for the CLI and ``converge``: ``{"piece": …, "kind": None, "probability": None,
    "world": None, "used_up": None, "consistent": False, "conflict": [piece indices]}``
    (earlier builds raised ``ShogiLabError`` and had neither ``consistent`` nor ``conflict``)."""
    _args.unsigned("piece", piece)
    _args.unsigned("seed", seed)
    d = _native.quantum_observe(_text(world), piece, seed)
    if d["probability"] is not None:
        d["probability"] = Fraction(cast(str, d["probability"]))
    return d


def perft(depth: int, shard: Optional[Tuple[int, int]] = None) -> int:
    """Quantum shogi perft from the initial position (``shogi-lab quantum perft``);
    ``shard=(i, n)`` counts only the sequences under the i-th of n parts of the root moves.
    ``depth`` is 0 to 1000; the count runs with the GIL released, and Ctrl-C stops it
    (``KeyboardInterrupt``)."""
    _args.unsigned("depth", depth, 32)
    _args.shard(shard)
    return _native.quantum_perft(depth, shard)
