"""Seeded test vectors (``shogi-lab gen``): the same JSON lines as the CLI.

Each function returns the vectors as dicts, in output order; ``shard=(i, n)``
returns only the i-th (0-based) contiguous block of the ``count`` vectors, so the
n parts concatenated in order are the unsharded run (the CLI's ``--shard I/N``).
The schemas are ``specs/schema/gen-*.md``. ``*_jsonl`` give the exact text the CLI
prints (one JSON object a line). Bad arguments raise ``ShogiLabError``; the GIL is
released while generating, and Ctrl-C (a notebook's interrupt) stops every generator and
raises ``KeyboardInterrupt`` (``positions`` within a perft count, the others between two
vectors).
"""

from __future__ import annotations

import json
from typing import List, Optional, Tuple

from . import _args, _native

Shard = Optional[Tuple[int, int]]


def _check(shard: Shard = None, **ints: object) -> None:
    """``ShogiLabError`` for a negative or oversized integer (``name=value`` or
    ``name=(value, bits)``; 64 bits unless said) and a bad ``shard``."""
    for name, v in ints.items():
        value, bits = v if isinstance(v, tuple) else (v, 64)
        _args.unsigned(name, value, bits)
    _args.shard(shard)


def _rows(text: str) -> List[dict]:
    return [json.loads(line) for line in text.splitlines()]


def positions_jsonl(count: int, seed: int = 1, depth: int = 2, shard: Shard = None) -> str:
    """``shogi-lab gen positions --count C --seed S --depth D [--shard I/N]``'s output."""
    _check(count=count, seed=seed, depth=(depth, 32), shard=shard)
    return _native.gen_positions(count, seed, depth, shard)


def positions(count: int, seed: int = 1, depth: int = 2, shard: Shard = None) -> List[dict]:
    """Reachable positions with legal moves, perft 1..depth, check and outcome."""
    return _rows(positions_jsonl(count, seed, depth, shard))


def tsume_jsonl(
    count: int, plies: int, seed: int = 1, nodes: int = 200_000, max_candidates: int = 100_000,
    shard: Shard = None,
) -> Tuple[str, List[int]]:
    """``shogi-lab gen tsume --count C --plies P …``'s output, and the indices (0-based,
    of the whole run) of the vectors left out because no mate of exactly ``plies`` plies
    was found in ``max_candidates`` candidates (where the CLI exits 1). Ctrl-C stops the
    generator (and the candidate's solve) and raises ``KeyboardInterrupt``."""
    _check(count=count, plies=(plies, 16), seed=seed, nodes=nodes, max_candidates=max_candidates, shard=shard)
    return _native.gen_tsume(count, plies, seed, nodes, max_candidates, shard)


def tsume(
    count: int, plies: int, seed: int = 1, nodes: int = 200_000, max_candidates: int = 100_000,
    shard: Shard = None,
) -> List[dict]:
    """Positions whose proven-shortest mate is exactly ``plies`` plies; raises
    ``ShogiLabError`` if some vector found none (``tsume_jsonl`` keeps the others)."""
    text, missing = tsume_jsonl(count, plies, seed, nodes, max_candidates, shard)
    if missing:
        raise _native.ShogiLabError(
            f"{len(missing)} vectors (the first: vector {missing[0]}) found no mate of exactly "
            f"{plies} plies in {max_candidates} candidate positions")
    return _rows(text)


def quantum_jsonl(count: int, seed: int = 1, shard: Shard = None) -> str:
    """``shogi-lab gen quantum --count C --seed S [--shard I/N]``'s output."""
    _check(count=count, seed=seed, shard=shard)
    return _native.gen_quantum(count, seed, shard)


def quantum(count: int, seed: int = 1, shard: Shard = None) -> List[dict]:
    """Quantum shogi worlds from random observation histories."""
    return _rows(quantum_jsonl(count, seed, shard))


def records_jsonl(count: int, to: str, seed: int = 1, shard: Shard = None) -> str:
    """``shogi-lab gen records --count C --to TO --seed S [--shard I/N]``'s output."""
    _check(count=count, seed=seed, shard=shard)
    return _native.gen_records(count, to, seed, shard)


def records(count: int, to: str, seed: int = 1, shard: Shard = None) -> List[dict]:
    """Random games written as ``to`` records (``"kif"``, ``"ki2"``, ``"csa"``, ``"jkf"``, ``"usi"``)."""
    return _rows(records_jsonl(count, to, seed, shard))
