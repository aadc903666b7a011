#!/usr/bin/env python3
"""Makes a KomoringHeights checkout count its node expansions, for a node rate in the
same unit as shogi-lab's and shtsume's `nodes` (paper/results/tsume-node-rate.md, round 5).

KomoringHeights reports YaneuraOu's `Thread::nodes`, one per `Position::do_move`, which
counts children it plays to evaluate as well; shogi-lab's and shtsume's `nodes` count
expansions. This script edits a checkout in place (a copy built by hand, never the
repository's tree): a counter in namespace `komori`, incremented at the top of
`KomoringHeights::SearchImpl` and `SearchImplForRoot` (one call per expanded node), and an
`info string expansions N` line before the engine's `checkmate` answer, which
`paper/scripts/tsume_peers.py --units` reads. Searching, timing and the reported `nodes`
are unchanged (measured: the same nodes, CPU within one run's noise).

    git clone KomoringHeights /tmp/khc && python3 paper/scripts/kh_count_expansions.py /tmp/khc
    cd /tmp/khc/source && make normal TARGET_CPU=AVX2 COMPILER=g++

Tested against KomoringHeights 1.1.0 (f1627f48); it stops with a message when an anchor
it edits at is missing.
"""
import pathlib
import sys


def edit(path, anchor, insert, after=True):
    text = path.read_text(encoding="utf-8")
    if anchor not in text:
        sys.exit(f"{path}: anchor not found: {anchor!r}")
    new = anchor + insert if after else insert + anchor
    if new in text:
        return
    path.write_text(text.replace(anchor, new, 1), encoding="utf-8")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kh_count_expansions.py KOMORINGHEIGHTS_CHECKOUT")
    src = pathlib.Path(sys.argv[1]) / "source" / "engine" / "user-engine"
    if not src.is_dir():
        sys.exit(f"{sys.argv[1]}: not a KomoringHeights checkout (no source/engine/user-engine)")
    kh = src / "komoring_heights.cpp"
    edit(kh, "namespace komori {\n", "std::uint64_t g_expansions = 0;\n")
    for signature in ("SearchResult KomoringHeights::SearchImpl(Node& n, PnDn thpn, PnDn thdn, "
                      "MateLen len, std::uint32_t& inc_flag) {\n",
                      "SearchResult KomoringHeights::SearchImplForRoot(Node& n, PnDn thpn, PnDn thdn, "
                      "MateLen len) {\n"):
        edit(kh, signature, "  ++g_expansions;\n")
    us = src / "user-search.cpp"
    edit(us, "namespace {\n", "namespace komori { extern std::uint64_t g_expansions; }\n", after=False)
    edit(us, "void PrintResult(bool is_mate_search, LoseKind kind, "
             "const std::string& pv_moves = \"resign\") {\n",
         "  sync_cout << \"info string expansions \" << komori::g_expansions << sync_endl;\n")


if __name__ == "__main__":
    main()
