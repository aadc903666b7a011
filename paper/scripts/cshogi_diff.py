#!/usr/bin/env python3
"""Differential test of shogi-lab's legal moves against cshogi: a thin user of
`shogi-lab diff moves` with paper/scripts/cshogi_engine.py as the engine.

Usage: python3 paper/scripts/cshogi_diff.py [--positions 10000] [--seed 1] [--kingless] [--bin target/release/shogi-lab]
(--kingless: walks from tsume positions, the attacker without a king; cshogi generates moves there)
Exit status: that of `shogi-lab diff moves` (0 iff every position agrees).
"""
import argparse
import shlex
import subprocess
import sys
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--positions", type=int, default=10000)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--kingless", action="store_true")
ap.add_argument("--bin", default="target/release/shogi-lab")
a = ap.parse_args()
adapter = Path(__file__).with_name("cshogi_engine.py")
engine = f"{shlex.quote(sys.executable)} {shlex.quote(str(adapter))}"
cmd = [a.bin, "diff", "moves", "--engine", engine, "--positions", str(a.positions), "--seed", str(a.seed)]
if a.kingless:
    cmd.append("--kingless")
sys.exit(subprocess.run(cmd).returncode)
