#!/usr/bin/env python3
"""cshogi as a line engine for `shogi-lab diff` (cshogi: PyPI, GPL, run out of process).

  moves (default): one SFEN a line in, its legal USI moves (space-separated) a line out
  perft:           one "<depth> <SFEN>" a line in, the perft count a line out
"""
import sys

import cshogi


def perft(board, depth):
    """The number of legal move sequences of `depth` plies (bulk-counted at the last ply)."""
    moves = list(board.legal_moves)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    n = 0
    for m in moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def main():
    board = cshogi.Board()
    mode = sys.argv[1] if len(sys.argv) > 1 else "moves"
    for line in sys.stdin:
        if mode == "perft":
            depth, sfen = line.split(" ", 1)
            board.set_sfen(sfen.strip())
            print(perft(board, int(depth)))
        else:
            board.set_sfen(line.strip())
            print(" ".join(cshogi.move_to_usi(m) for m in board.legal_moves))


# The other cshogi scripts import `perft` from here; run as a program, this is the engine.
if __name__ == "__main__":
    main()
