#!/usr/bin/env python3
"""Writes specs/tsume/near-end.tsv: positions 3 and 5 plies before the end of shtsume's
mating line for each classic (paper/results/solution-vs-shtsume-21.jsonl, session 21's
side-by-side run; shtsume v1.2.7e, github.com/hkijin/shtsume c48a8fa9), as USI position
texts. They are full-board positions from the real problems, independent of our solver's
lines, for the naive twins (tests/tsume_twin.rs).

Usage: python3 paper/scripts/near_end_positions.py > specs/tsume/near-end.tsv
"""
import json
import sys

SOURCE = "paper/results/solution-vs-shtsume-21.jsonl"
BACK = (3, 5)

print("# Positions 3 and 5 plies before the end of shtsume's mating line (attacker to move),")
print(f"# from {SOURCE} (session 21; shtsume v1.2.7e, github.com/hkijin/shtsume c48a8fa9),")
print("# written by paper/scripts/near_end_positions.py. Format: ID<TAB>USI position text.")
for line in open(SOURCE, encoding="utf-8"):
    r = json.loads(line)
    if r["engine"] != "shtsume" or r["answer"] != "mate" or not r["usi"]:
        continue
    moves = r["usi"]
    for back in BACK:
        if len(moves) < back:
            continue
        played = moves[: len(moves) - back]
        text = f"sfen {r['sfen']}" + (" moves " + " ".join(played) if played else "")
        print(f"{r['id']}-{back}\t{text}")
