#!/usr/bin/env python3
"""Checks `shogi-lab gen positions` vectors against cshogi (PyPI, GPL, out of process):
legal moves, perft at every listed depth, in_check, and the outcome (mate / no legal move).

Usage: python3 paper/scripts/cshogi_gen_check.py [--count 10000] [--seed 1] [--depth 2] [--bin target/release/shogi-lab]
Exit status 0 iff every vector agrees.
"""
import argparse
import json
import subprocess
import sys
import time

import cshogi

from cshogi_engine import perft  # this directory: sys.path[0] of a script run by path


ap = argparse.ArgumentParser()
ap.add_argument("--count", type=int, default=10000)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--depth", type=int, default=2)
ap.add_argument("--bin", default="target/release/shogi-lab")
a = ap.parse_args()
t = time.process_time()
out = subprocess.run([a.bin, "gen", "positions", "--count", str(a.count), "--seed", str(a.seed),
                      "--depth", str(a.depth)], capture_output=True, text=True, check=True)
bad = 0
n = 0
for line in out.stdout.splitlines():
    v = json.loads(line)
    n += 1
    b = cshogi.Board(v["sfen"])
    moves = sorted(cshogi.move_to_usi(m) for m in b.legal_moves)
    counts = [perft(b, d) for d in range(1, a.depth + 1)]
    reason = v["outcome"]["reason"]
    want_reason = None if moves else ("checkmate" if b.is_check() else "no_legal_moves")
    ok = moves == v["moves"] and counts == v["perft"] and b.is_check() == v["in_check"] and reason == want_reason
    if not ok:
        bad += 1
        if bad <= 10:
            print("MISMATCH", v["sfen"], "moves" if moves != v["moves"] else "", counts, v["perft"])
print(f"gen positions vectors: {n} (depth {a.depth}), mismatches with cshogi: {bad}, "
      f"check CPU {time.process_time() - t:.1f} s")
sys.exit(1 if bad or n != a.count else 0)
