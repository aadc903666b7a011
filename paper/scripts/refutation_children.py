#!/usr/bin/env python3
"""The positions an alternative check leaves the attacker after each defender reply.

    python3 paper/scripts/refutation_children.py SFEN PREFIX CHECK [CHECK ...] > OUT.sfen

SFEN is the problem, PREFIX the USI moves played first (one argument, space-separated,
may be empty) and each CHECK a USI move the attacker could play next. OUT gets one
`CHECK-REPLY<TAB>SFEN` line per legal defender reply, a problem file for `shogi-lab tsume`
(log S34: the exact lengths behind 無双8's costly refutations). Needs cshogi (the CI
virtualenv has it): `shogi-lab moves` takes full positions only, with both kings.
"""
import sys

import cshogi


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sfen, prefix = sys.argv[1], sys.argv[2].split()
    for check in sys.argv[3:]:
        board = cshogi.Board(sfen)
        for m in prefix + [check]:
            board.push_usi(m)
        for reply in board.legal_moves:
            board.push(reply)
            print(f"{check}-{cshogi.move_to_usi(reply)}\t{board.sfen()}")
            board.pop()


if __name__ == '__main__':
    main()
