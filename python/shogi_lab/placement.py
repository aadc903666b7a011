"""利かずの駒並べ (``shogi-lab place``): place pieces so that none is attacked."""

from __future__ import annotations

from typing import Optional, Tuple

from . import _native


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
    Returns ``{"count", "mirror_symmetric", "count_up_to_mirror" (unsharded only), …}``; the GIL is released.
    """
    d = _native.placement_count(pieces, both_directions, method, shard)
    if shard is None:  # a shard's half-sum is not meaningful: merge count and mirror_symmetric first
        d["count_up_to_mirror"] = (d["count"] + d["mirror_symmetric"]) // 2
    return d


def first(
    pieces: str, both_directions: bool = False, node_limit: Optional[int] = None
) -> dict:
    """One placement (checked square by square) or a proof by exhaustive search that none
    exists: ``{"result": "found" | "impossible" | "unknown", "sfen": str | None, "nodes": int}``."""
    result, sfen, nodes = _native.placement_first(pieces, both_directions, node_limit)
    return {"result": result, "sfen": sfen, "nodes": nodes}
