#!/usr/bin/env python3
"""Measures `shogi-lab gen` (vectors per CPU second) and `shogi-lab diff moves` against the
cshogi adapter (positions per CPU second, ours + the adapter's), by getrusage of the
children; writes paper/results/testdata.md.

Usage: python3 paper/scripts/testdata_bench.py [--bin target/release/shogi-lab] [--python .venv/bin/python]
"""
import argparse
import platform
import resource
import subprocess
import sys
from pathlib import Path


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd):
    t = cpu()
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{cmd}: exit {out.returncode}: {out.stderr.strip()}")
    return cpu() - t, out.stdout


ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/shogi-lab")
ap.add_argument("--python", default=".venv/bin/python")
a = ap.parse_args()
root = Path(__file__).resolve().parents[2]
adapter = root / "paper/scripts/cshogi_engine.py"
runs = [
    ("gen positions (depth 2)", [a.bin, "gen", "positions", "--count", "10000", "--seed", "1"], 10000, "vectors"),
    ("gen positions (depth 3)", [a.bin, "gen", "positions", "--count", "1000", "--seed", "1", "--depth", "3"], 1000, "vectors"),
    ("gen positions (depth 2), part 3/4", [a.bin, "gen", "positions", "--count", "10000", "--seed", "1",
                                           "--shard", "3/4"], 2500, "vectors"),
    ("gen tsume --plies 3", [a.bin, "gen", "tsume", "--count", "200", "--plies", "3", "--seed", "1"], 200, "vectors"),
    ("gen tsume --plies 3, part 3/4", [a.bin, "gen", "tsume", "--count", "200", "--plies", "3", "--seed", "1",
                                       "--shard", "3/4"], 50, "vectors"),
    ("gen tsume --plies 5", [a.bin, "gen", "tsume", "--count", "50", "--plies", "5", "--seed", "1"], 50, "vectors"),
    ("gen quantum", [a.bin, "gen", "quantum", "--count", "2000", "--seed", "1"], 2000, "vectors"),
    ("gen records --to kif", [a.bin, "gen", "records", "--count", "1000", "--seed", "1", "--to", "kif"], 1000, "vectors"),
    ("gen records --to jkf", [a.bin, "gen", "records", "--count", "1000", "--seed", "1", "--to", "jkf"], 1000, "vectors"),
    ("diff moves vs cshogi adapter", [a.bin, "diff", "moves", "--engine", f"{a.python} {adapter}",
                                      "--positions", "20000", "--seed", "1"], 20000, "positions"),
    ("diff perft --depth 2 vs cshogi adapter", [a.bin, "diff", "perft", "--engine", f"{a.python} {adapter} perft",
                                                "--depth", "2", "--positions", "200", "--seed", "1"], 200, "positions"),
]
rows = []
for name, cmd, n, unit in runs:
    secs, _ = timed(cmd)
    shown = " ".join(c if " " not in c else f'"{c}"' for c in cmd).replace(str(root) + "/", "")
    rows.append(f"| {name} | {n} {unit} | {secs:.2f} | {n / max(secs, 1e-9):,.0f} | `{shown}` |")
md = "\n".join([
    "# Test data: generation and differential-check speed",
    "",
    "CPU seconds (user + system of the children, getrusage), one thread; the diff rows include",
    "the cshogi adapter's Python process. Written by `python3 paper/scripts/testdata_bench.py`.",
    "A `part 3/4` row is the last of four `--shard` parts (the parts concatenated are the",
    "unsharded output): `positions` replays the walks before its block, `tsume` computes",
    "only its own vectors.",
    f"Machine: {platform.machine()}, {platform.system()} {platform.release()}, Python {platform.python_version()}.",
    "",
    "| run | output | CPU s | per CPU s | command |",
    "|---|---|---|---|---|",
    *rows,
    "",
])
(root / "paper/results/testdata.md").write_text(md)
print(md)
