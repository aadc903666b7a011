#!/usr/bin/env python3
"""Validates shogi-lab's JSON Kifu Format output against the published schema
(specs/schema/jkf/json-kifu-format.schema.json, JSON Schema 2020-12, `jsonschema` from PyPI),
and checks each record's moves against the USI moves of the same generated game.

Usage: python3 paper/scripts/jkf_check.py [--games 200] [--seed 1] [--bin target/release/shogi-lab]
Exit status 0 iff every record validates and agrees.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import jsonschema

CSA = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}
FILES = "abcdefghi"

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=200)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--bin", default="target/release/shogi-lab")
a = ap.parse_args()
root = Path(__file__).resolve().parents[2]
schema = json.loads((root / "specs/schema/jkf/json-kifu-format.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema)
out = subprocess.run([a.bin, "gen", "records", "--to", "jkf", "--count", str(a.games), "--seed", str(a.seed)],
                     capture_output=True, text=True, check=True)
bad = 0
moves_checked = 0
for line in out.stdout.splitlines():
    g = json.loads(line)
    jkf = json.loads(g["text"])
    errors = list(validator.iter_errors(jkf))
    usi = []
    for m in jkf["moves"][1:]:
        if "move" not in m:
            continue
        mv = m["move"]
        to = f"{mv['to']['x']}{FILES[mv['to']['y'] - 1]}"
        if "from" in mv:
            usi.append(f"{mv['from']['x']}{FILES[mv['from']['y'] - 1]}{to}{'+' if mv.get('promote') else ''}")
        else:
            usi.append(f"{CSA[mv['piece']]}*{to}")
    moves_checked += len(usi)
    if errors or usi != g["moves"]:
        bad += 1
        if bad <= 5:
            print("BAD", g["start"], [e.message for e in errors[:3]], "moves agree:", usi == g["moves"])
print(f"JKF records: {a.games}, moves: {moves_checked}, invalid or disagreeing: {bad}")
sys.exit(1 if bad else 0)
