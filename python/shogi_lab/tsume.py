"""The df-pn tsume solver (``shogi-lab tsume``) from Python."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Union, cast

from . import _args, _native


@dataclass(frozen=True)
class TsumeResult:
    """One solved problem: the object of ``shogi-lab tsume --json``, field for field and in
    its order (``output::tsume::TsumeOut`` in the crate builds both, so
    ``dataclasses.asdict(r) == json.loads(line)`` of the CLI's line on the same limits,
    apart from ``time_ms``; ``specs/schema/commands.md``)."""

    id: str
    """The problem's id: ``"1"``, as the CLI's for a single SFEN."""
    sfen: str
    """The problem as solved (the defender's hand filled in)."""
    result: str
    """``"mate"`` (line replayed by the independent checker), ``"nomate"`` (complete disproof) or ``"unknown"`` (limits reached)."""
    plies: Optional[int]
    """For a mate: the length of the line; else ``None``."""
    shortest: Optional[bool]
    """For a mate with ``shortest=True``: whether the line is proven shortest within the limits; else ``None``."""
    usi: Optional[str]
    """For a mate: the line, space-separated USI moves (``"G*1b"``); else ``None``. The list is ``moves``."""
    kif: Optional[str]
    """For a mate: the line in Japanese notation (``▲５二金 …``); else ``None``."""
    no_mate_within: Optional[int]
    """The root is proven not mate within this many plies: with ``max_plies``, the refutation; for a
    mate not proven shortest, the lengths the search ruled out before its limits (``None``: none were)."""
    mate_within: Optional[int]
    """For a mate with ``shortest=True``: the shortest mate has at most this many plies (the
    least budget within which a mate is proven); ``plies`` when ``shortest`` is true; also for an
    ``unknown`` answer whose mate was proven but whose line could not be read (a stop during the
    line walk, or none within ``max_plies``); else ``None``."""
    alternatives: Optional[List[str]]
    """With ``alt_nodes`` > 0: the other mating first moves found (余詰), USI; else ``None``."""
    certified: Optional[bool]
    """For a mate or nomate: whether its certificate passed the independent checker
    (``specs/certificate.md``); ``None`` for ``unknown``, with ``certify=False`` or when a
    stop came before the certificate was done."""
    shortest_certified: Optional[bool]
    """For a proven-shortest mate: whether the length claim (mate within L plies, no mate
    within L − 2; counting every reply with ``count_futile=True``, else under the 無駄合
    convention) was certified; ``None`` otherwise."""
    nodes: int
    """Nodes expanded."""
    plays: int
    """Positions entered by a move (the unit YaneuraOu-based engines such as KomoringHeights
    report as nodes; ``specs/schema/commands.md``)."""
    time_ms: int
    """Elapsed milliseconds (wall clock)."""
    error: Optional[str]
    """Always ``None`` here (the CLI's field for a problem it cannot read; ``solve`` raises
    ``ShogiLabError`` instead)."""

    @property
    def moves(self) -> List[str]:
        """The mate line as a list of USI moves (``[]`` unless a mate): ``usi`` split."""
        return self.usi.split() if self.usi else []


def solve(
    sfen: str,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    memory_mib: int = 256,
    shortest: bool = True,
    defender_hand_as_given: bool = False,
    certify: bool = True,
    count_futile: bool = False,
    progress: Optional[Callable[[Dict[str, Union[int, str, None]]], Optional[bool]]] = None,
    progress_every: float = 1.0,
    certificate_nodes: Optional[int] = None,
    alt_nodes: int = 0,
    max_plies: Optional[int] = None,
) -> TsumeResult:
    """Solves a tsume problem given as SFEN (the side to move attacks).

    A text that is no problem raises ``ShogiLabError`` placed as the CLI places it,
    ``bad SFEN: LINE:COL: message`` (the CLI's ``<argument>:LINE:COL: message``; ``COL``
    counts characters from 1).

    ``nodes``/``time`` (seconds, 0 to 1e9 as the CLI's ``--time``: 0 stops the search at its first
    look at the clock; NaN, infinities and negative times raise ``ShogiLabError``) limit the search;
    ``memory_mib`` sizes the table
    (``MemoryError`` if the machine cannot give it). By default the defender holds
    every piece not on the board or in the attacker's hand (the tsume convention).
    The GIL is released while solving. With ``certify`` (the CLI's default) a mate or
    nomate is certified in-process (``certified``; ``tsume --no-certify`` is ``certify=False``).
    ``count_futile`` counts 無駄合 as plies (the CLI's ``--count-futile``: KomoringHeights'
    MinLength and the 詰将棋500万問 convention); it needs ``shortest=True`` (``ShogiLabError``
    otherwise, as the CLI refuses ``--count-futile --any-mate``). ``certificate_nodes`` (the CLI's
    ``--certificate-nodes``) lets each half of a proven length's certificate hold that many
    graph nodes instead of 8 000 000 (``ShogiLabError`` if the machine's memory cannot hold
    them at about 640 bytes a node). ``alt_nodes`` looks for other mating first moves (余詰)
    with that many nodes each (``--alt-nodes``: ``alternatives``); ``max_plies`` looks only
    for mates of at most that many plies (``--max-plies``).

    The result is the CLI's ``tsume SFEN --json`` object (``TsumeResult``; ``dataclasses.asdict``
    gives the dict). Earlier builds returned ``usi`` as a list of moves (``[]`` for no mate); it
    is now the CLI's string (``None`` for no mate), the list is ``moves``; ``shortest`` and ``mate_within``
    are ``None`` unless a mate, as in the CLI.

    The search runs on a thread of its own: Ctrl-C (a notebook's interrupt) stops it and
    raises ``KeyboardInterrupt`` (when called from the main thread, where Python
    delivers signals). ``progress``, if given (a callable, else ``TypeError``), is called every ``progress_every``
    seconds during the search with ``{"nodes": …, "mate_within": …, "no_mate_within":
    …, "certifying": …, "usi": …}``: the bounds on the shortest mate proven so far (``None`` until known; the
    length is proven when they are 2 apart, or at a mate within 1) and ``usi``, a mate line
    within ``mate_within`` plies (USI moves separated by spaces, as the result's ``usi``) read off
    the solver's table when that bound (or, for a moment, the next shorter one) was proven: legal, every attacker move a check, ending in
    mate (replayed by the checker), possibly shorter than ``mate_within`` (it shows the defence the
    table holds, not one shown longest); ``None`` before the first proof, or when that proof's line
    could not be read off the table alone (the read searches nothing: the node counts do not
    change, its moves are counted in ``plays``). Returning ``False``
    (the bool) stops the search, which answers what it has, uncertified: a line whose
    length may be unproven, or ``unknown`` (a stop while the line is read lets the walk
    search at most 4 096 more nodes; ``specs/tsume.md``, stop requests). An exception it raises stops the search and
    propagates. ``progress`` is called while the certificate is built too, with
    ``"certifying": True`` (the nodes then stay at the search's); a stop there ends the
    extraction: the answer stands, and what was not certified by then (``certified``, and
    ``shortest_certified`` unless the length certificate was done) is ``None``.
    """
    for name, value in (("nodes", nodes), ("memory_mib", memory_mib), ("certificate_nodes", certificate_nodes),
                        ("alt_nodes", alt_nodes)):
        _args.unsigned(name, value)
    _args.unsigned("max_plies", max_plies, 16)
    d = _native.tsume_solve(
        sfen, nodes, time, memory_mib, shortest, defender_hand_as_given, certify, count_futile,
        progress, progress_every, certificate_nodes, alt_nodes, max_plies,
    )
    return TsumeResult(**cast(Dict[str, Any], d))
