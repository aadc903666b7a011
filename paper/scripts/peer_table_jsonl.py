#!/usr/bin/env python3
"""Converts the per-problem Markdown table that `tsume_peers.py` prints (columns
`engine | id | answer | plies | … | CPU s | nodes`, optionally `limit s` and
`shortest`) into JSON lines, one object per (engine, problem), so that
`shogi-lab experiments peers` can draw figures and tables from data instead of
typed-in numbers.

Keys are the column names in lower case with spaces as `_` (`wall ms` → `wall_ms`,
`CPU s` → `cpu_s`, `limit s` → `limit_s`); numbers become numbers, `?` and `–`
become null. `--table HEADING` keeps only the table under that `## ` heading
(default: every table with `engine` and `id` columns); `--set key=value` adds a
constant to every row (e.g. `--set limit_s=60` when the run had one limit).
Every row gets `"source"`: the input file and heading it came from.

usage: peer_table_jsonl.py IN.md OUT.jsonl [--table HEADING] [--set key=value]...
"""
import argparse
import json
import os
import re


def value(cell):
    cell = cell.strip()
    if cell in ("?", "–", "-", ""):
        return None
    if re.fullmatch(r"-?\d+", cell):
        return int(cell)
    if re.fullmatch(r"-?\d+\.\d*", cell):
        return float(cell)
    return cell


def rows(md, path, only):
    heading, cols = None, None
    for n, line in enumerate(md.splitlines(), 1):
        if line.startswith("## "):
            heading, cols = line[3:].strip(), None
            continue
        if not line.startswith("|"):
            cols = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cols is None:
            cols = [re.sub(r"\s+", "_", c.lower()) for c in cells]
            continue
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        if "engine" not in cols or "id" not in cols or (only and heading != only):
            continue
        if len(cells) != len(cols):
            raise SystemExit(f"{path}:{n}: {len(cells)} cells, header has {len(cols)}")
        row = {k: value(c) for k, c in zip(cols, cells)}
        row["source"] = f"{path} § {heading}"
        yield row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--table", default=None, help="only the table under this ## heading")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args()
    extra = {k: value(v) for k, v in (s.split("=", 1) for s in a.set)}
    md = open(a.input, encoding="utf-8").read()
    out = [dict(r, **extra) for r in rows(md, os.path.relpath(a.input), a.table)]
    if not out:
        raise SystemExit(f"{a.input}: no table with engine and id columns"
                         + (f" under ## {a.table}" if a.table else ""))
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    os.replace(tmp, a.output)
    print(f"{a.output}: {len(out)} rows")


if __name__ == "__main__":
    main()
