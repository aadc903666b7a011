#!/usr/bin/env python3
"""Writes specs/perft/kingless.perft: perft counts by cshogi on positions where one side or
both have no king (tsume problems have no attacker king), reached by seeded random walks
from a few kingless starts. `tests/perft.rs` checks our counts against them.

Usage: python3 paper/scripts/cshogi_kingless.py > specs/perft/kingless.perft
(needs cshogi; the counts in the committed file are cshogi 1.1.0's)
"""
import random
import sys

import cshogi

from cshogi_engine import perft  # this directory: sys.path[0] of a script run by path

STARTS = [
    # Attacker (Sente, to move) without a king: the tsume shape; hands as in specs/tsume/cases.sfen.
    "8k/9/8P/9/9/9/9/9/9 b G 1",
    "7nk/9/7PP/9/9/9/9/9/9 b P2r2b4g4s3n4l15p 1",
    "4k4/9/4P4/9/4R4/9/9/9/9 b 2B2G2S2N2L2P 1",
    "6snl/5+Rgk1/6ppp/9/9/9/9/9/9 b BGSrb2g2s3n3l15p 1",
    "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
    "4k4/9/9/9/9/9/9/9/9 w 2r2b4g4s4n4l18p 1",
    # The other side without a king, and neither side with one.
    "9/9/9/9/9/9/9/9/4K4 w RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "9/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "9/9/9/9/9/9/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    # The initial position without one king or both.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
    "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
]


def main():
    rng = random.Random(1)
    board = cshogi.Board()
    seen = set()
    out = [
        "# Positions without one king or both: perft counts by cshogi 1.1.0 (PyPI).",
        "# Source: paper/scripts/cshogi_kingless.py (seeded walks from kingless starts), "
        "python3 paper/scripts/cshogi_kingless.py > specs/perft/kingless.perft",
    ]
    n = 0
    for i, start in enumerate(STARTS):
        for walk in range(12):
            board.set_sfen(start)
            plies = rng.randrange(0, 60)
            for ply in range(plies + 1):
                if ply % 6 == walk % 6 or ply == plies:
                    sfen = board.sfen()
                    key = " ".join(sfen.split()[:3])
                    if key not in seen:
                        seen.add(key)
                        n += 1
                        out.append("")
                        out.append(f"id kingless-{n}")
                        out.append(f"sfen {sfen}")
                        out.append(f"perft 1 {perft(board, 1)}")
                        p2 = perft(board, 2)
                        out.append(f"perft 2 {p2}")
                        if p2 <= 4000:
                            out.append(f"perft 3 {perft(board, 3)}")
                moves = list(board.legal_moves)
                if not moves or ply == plies:
                    break
                board.push(rng.choice(moves))
    print("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
