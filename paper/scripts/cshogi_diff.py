#!/usr/bin/env python3
"""Differential test of shogi-lab's legal move generator against cshogi.

cshogi (PyPI, GPL) is an independent C++ implementation; it is used only out of
process from this script, never linked. The script plays random games with
cshogi (seeded), collects every position it passes through, asks
`shogi-lab moves` for the legal moves of each, and compares the sets exactly.

Usage: python3 paper/scripts/cshogi_diff.py [--positions 10000] [--seed 1] [--bin target/release/shogi-lab]
Exit status 0 iff every position agrees.
"""
import argparse
import random
import subprocess
import sys
import tempfile

import cshogi

STARTS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
]


def cshogi_moves(board):
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default="target/release/shogi-lab")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    expected = {}
    order = []
    game = 0
    while len(order) < a.positions:
        board = cshogi.Board(STARTS[game % len(STARTS)])
        game += 1
        for _ in range(rng.randrange(20, 220)):
            sfen = board.sfen()
            if sfen not in expected:
                expected[sfen] = cshogi_moves(board)
                order.append(sfen)
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.piece(cshogi.move_to(m)) != 0]
            if captures and rng.random() < 0.4:
                m = rng.choice(captures)
            else:
                m = rng.choice(moves)
            board.push(m)
            if len(order) >= a.positions:
                break
    with tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False) as f:
        f.write("\n".join(order) + "\n")
        path = f.name
    out = subprocess.run([a.bin, "moves", path], capture_output=True, text=True)
    if out.returncode != 0:
        print("shogi-lab moves failed:", out.stderr.strip())
        return 2
    ours = {}
    for line in out.stdout.splitlines():
        sfen, _, moves = line.partition("\t")
        ours[sfen] = sorted(moves.split()) if moves else []
    bad = 0
    total_moves = 0
    for sfen in order:
        exp = expected[sfen]
        got = ours.get(sfen)
        total_moves += len(exp)
        if got != exp:
            bad += 1
            if bad <= 10:
                got_set = set(got or [])
                print(f"MISMATCH {sfen}\n  only shogi-lab: {sorted(got_set - set(exp))}\n  only cshogi:    {sorted(set(exp) - got_set)}")
    print(f"positions: {len(order)} from {game} games, legal moves compared: {total_moves}, mismatches: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
