"""利かずの駒並べ (``shogi-lab place``): place pieces so that none is attacked."""

from __future__ import annotations

import json
from typing import Optional, Tuple

from . import _args, _native


def count(
    pieces: str,
    both_directions: bool = False,
    method: str = "search",
    shard: Optional[Tuple[int, int]] = None,
) -> dict:
    """Counts the placements of ``pieces`` (USI letters with counts, e.g. ``"P18L4N4S4G3K2R2B2"``).

    ``method`` is ``"search"`` (strongest-first search) or ``"sweep"`` (the
    independent transfer-matrix sweep; one direction only). ``shard=(i, n)`` counts
    only the i-th (0-based) of n parts — top-level search branches or long-range
    layouts — and the parts' ``count`` and ``mirror_symmetric`` sum to the whole.
    Returns the object ``shogi-lab place --count --json`` prints (``PlaceCount``,
    ``specs/schema/commands.md``): ``{"pieces", "directions", "method", "shard", "count",
    "count_up_to_mirror" (None for a shard: merge count and mirror_symmetric first),
    "mirror_symmetric", "nodes", "layouts", "states", "peak_states", "time_ms"}``, None
    where a method has no such value; the GIL is released, and Ctrl-C (a notebook's
    interrupt) stops the count and raises ``KeyboardInterrupt``.
    """
    _args.shard(shard)
    return json.loads(_native.placement_count(pieces, both_directions, method, shard))


def first(
    pieces: str, both_directions: bool = False, node_limit: Optional[int] = None
) -> dict:
    """One placement (checked square by square) or a proof by exhaustive search that none
    exists: the object ``shogi-lab place --first --json`` prints (``PlaceFirst``):
    ``{"pieces", "directions", "result": "found" | "impossible" | "unknown",
    "sfen": str | None, "nodes": int, "time_ms": int}``. ``node_limit`` (the CLI's
    ``--node-limit``, at least 1, else ``ShogiLabError``) gives up after about that many
    nodes (``"unknown"``; polled every 4 096 nodes of each worker). The GIL is released;
    Ctrl-C stops the search and raises ``KeyboardInterrupt``."""
    _args.unsigned("node_limit", node_limit)
    return json.loads(_native.placement_first(pieces, both_directions, node_limit))
