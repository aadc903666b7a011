#!/usr/bin/env python3
"""Cross-check of shogi-lab's 入玉宣言 rule (CSA 27-point) against cshogi.

cshogi (PyPI, GPL) is run out of process only. Every vector of
specs/game/declaration.toml is checked with cshogi's Board.is_nyugyoku()
(27-point rule): its verdict must equal the vector's `wins`.

Usage: python3 paper/scripts/cshogi_game.py
Exit status 0 iff every vector agrees.
"""
import sys
import tomllib
from pathlib import Path

import cshogi

root = Path(__file__).resolve().parents[2]
cases = tomllib.loads((root / "specs/game/declaration.toml").read_text())["case"]
bad = 0
for c in cases:
    got = cshogi.Board(c["sfen"]).is_nyugyoku()
    if got != c["wins"]:
        bad += 1
        print(f"MISMATCH {c['id']}: cshogi {got}, specs {c['wins']}")
print(f"declaration vectors: {len(cases)}, mismatches with cshogi: {bad}")
sys.exit(1 if bad else 0)
