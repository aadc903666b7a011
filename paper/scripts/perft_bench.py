#!/usr/bin/env python3
"""Perft speed: shogi-lab against cshogi, same positions, same machine, one run.

shogi-lab is timed by its own `perft --json` (single thread, bulk counting at the
last ply). cshogi has no perft entry point, so it is driven from Python the
usual way (push/pop, `len(board.legal_moves)` at the last ply = bulk counting);
the cshogi column therefore includes Python call overhead, which is how cshogi
is used. Node counts of both are checked to be equal.

Usage: python3 paper/scripts/perft_bench.py [--bin target/release/shogi-lab] [--out paper/results/perft-vs-cshogi.md]
"""
import argparse
import json
import platform
import subprocess
import time

import cshogi
from importlib.metadata import version

CASES = [
    ("startpos", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3),
    ("max-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 3),
]


def cshogi_perft(board, depth):
    if depth == 1:
        return len(board.legal_moves)
    n = 0
    for m in list(board.legal_moves):
        board.push(m)
        n += cshogi_perft(board, depth - 1)
        board.pop()
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/shogi-lab")
    ap.add_argument("--out", default="paper/results/perft-vs-cshogi.md")
    a = ap.parse_args()
    rows = []
    for name, sfen, depth in CASES:
        out = subprocess.run([a.bin, "perft", sfen, str(depth), "--json"], capture_output=True, text=True, check=True)
        ours = json.loads(out.stdout)
        board = cshogi.Board(sfen)
        t = time.perf_counter()
        n = cshogi_perft(board, depth)
        secs = time.perf_counter() - t
        assert n == ours["nodes"], (name, n, ours["nodes"])
        # time_ms is an integer; nps is computed from the exact elapsed time.
        our_nps = ours["nps"]
        rows.append((name, depth, n, n / our_nps, our_nps, secs, n / secs, our_nps / (n / secs)))
    lines = [
        "# Perft: shogi-lab vs cshogi",
        "",
        "| position | depth | nodes | shogi-lab s | shogi-lab M nodes/s | cshogi s | cshogi M nodes/s | ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.3f} | {r[4]/1e6:.1f} | {r[5]:.3f} | {r[6]/1e6:.2f} | {r[7]:.1f}× |")
    lines += [
        "",
        f"Command: `cargo build --release && python3 paper/scripts/perft_bench.py` (cshogi {version('cshogi')}, Python {platform.python_version()}, {platform.machine()}).",
        "Both single-threaded with bulk counting at the last ply; cshogi is driven from Python (push/pop), so its column includes interpreter overhead.",
        "Node counts are asserted equal.",
    ]
    text = "\n".join(lines) + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
