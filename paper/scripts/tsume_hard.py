#!/usr/bin/env python3
"""The hard problems (specs/tsume/hard.sfen): what shogi-lab solves within a time limit each.

One process per problem, default mode (the solution: the proven-shortest line when the
minimality search finishes, else the best line with `shortest: false` and the lengths
ruled out), the in-process certificate check on (`certified`). CPU = user + system of the
solver process (table allocation included). Every mate line is replayed by cshogi
(`tsume_peers.verify`: legal moves, every attacker move a check, final position mate or
only interpositions left).

usage: tsume_hard.py BIN [--time S] [--memory MIB] [--problems FILE] [--ids a,b]
                         [--out-jsonl PATH] [--out-md PATH] [--flags=--no-certify] [--render-only]
The cshogi replay needs cshogi importable (e.g. run with a virtualenv's python).

OUT-JSONL gets one line per problem; with --ids, the lines of the problems run replace
theirs in an existing OUT-JSONL (the others are kept, in the set's order). In OUT-MD only
the section between the markers `<!-- tsume-hard -->` and `<!-- /tsume-hard -->` is
replaced (appended if missing), with a table of every line of OUT-JSONL; both files are
written atomically.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

BEGIN, END = "<!-- tsume-hard -->", "<!-- /tsume-hard -->"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tsume_peers import verify  # noqa: E402


def read_problems(path):
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        yield parts[0], parts[1], int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None


def run(binary, pid, sfen, seconds, memory, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".sfen", delete=False) as f:
        f.write(f"{pid}\t{sfen}\n")
        path = f.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(
        [binary, "tsume", path, "--json", "--time", str(seconds), "--memory", str(memory), *extra],
        capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.unlink(path)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode not in (0, 1) or not lines:
        return {"id": pid, "result": "crashed", "exit": p.returncode,
                "stderr": p.stderr.strip()[-300:], "cpu_s": round(cpu, 2), "wall_s": round(wall, 1)}
    d = json.loads(lines[-1])
    # Why an answer is not certified is said on stderr (one line per problem).
    d["notes"] = [l for l in p.stderr.splitlines() if "not certified" in l and ":" in l]
    d["cpu_s"] = round(cpu, 2)
    d["wall_s"] = round(wall, 1)
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--time", type=float, default=600)
    ap.add_argument("--memory", type=int, default=12288)
    ap.add_argument("--problems", default="specs/tsume/hard.sfen")
    ap.add_argument("--ids", default="")
    ap.add_argument("--out-jsonl", default="paper/results/tsume-hard.jsonl")
    ap.add_argument("--out-md", default="paper/results/tsume-hard.md")
    ap.add_argument("--flags", default="", help="more flags for every run, written --flags=--no-certify")
    ap.add_argument("--render-only", action="store_true",
                    help="run nothing: rewrite OUT-MD's section from OUT-JSONL")
    a = ap.parse_args()
    ids = set(filter(None, a.ids.split(",")))
    order = [pid for pid, _, _ in read_problems(a.problems)]
    rows = {}
    if (ids or a.render_only) and os.path.exists(a.out_jsonl):
        for line in open(a.out_jsonl, encoding="utf-8"):
            d = json.loads(line)
            rows[d["id"]] = d
    for pid, sfen, ref in read_problems(a.problems):
        if a.render_only or (ids and pid not in ids):
            continue
        d = run(a.binary, pid, sfen, a.time, a.memory, a.flags.split())
        d["reference"] = ref
        d["replay"] = verify(sfen, d["usi"].split()) if d.get("usi") else None
        d["command"] = "python3 paper/scripts/tsume_hard.py " + " ".join(sys.argv[1:])
        rows[pid] = d
        print(json.dumps({k: d.get(k) for k in ("id", "result", "plies", "shortest", "no_mate_within",
                                                "certified", "nodes", "cpu_s", "replay")}),
              flush=True)
    rows = sorted(rows.values(), key=lambda d: order.index(d["id"]) if d["id"] in order else len(order))
    write_atomically(a.out_jsonl, "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in rows))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    commands = sorted({d.get("command", "(not recorded)") for d in rows})
    md = [
        BEGIN,
        "",
        f"Table of `{a.out_jsonl}` as of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
        f"(checkout {commit}), from " + "; ".join(f"`{c}`" for c in commands) + ". Problems and "
        f"sources: `{a.problems}`. Default mode (the solution), one process per problem, `--time` "
        "is wall clock. CPU s = user + system of the solver process. Every line replayed by cshogi "
        "(`tsume_peers.verify`).",
        "",
        "| problem | composer | result | plies | proven shortest | no mate within | certified | cshogi replay | nodes | CPU s | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for d in rows:
        md.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            d["id"], d.get("reference"), d.get("result"), d.get("plies") or "–",
            {True: "yes", False: "no", None: "–"}[d.get("shortest")],
            d.get("no_mate_within") or "–",
            {True: "yes", False: "no", None: "–"}[d.get("certified")],
            d.get("replay") or "–", d.get("nodes", "–"), d["cpu_s"], d["wall_s"]))
    notes = [n for d in rows for n in d.get("notes") or []]
    if notes:
        md += ["", "What the solver said on stderr about certification:", ""]
        md += [f"- `{n}`" for n in notes]
    md += ["", END]
    section = "\n".join(md)
    text = open(a.out_md, encoding="utf-8").read() if os.path.exists(a.out_md) else \
        "# tsume: the hard problems, what shogi-lab solves within a time limit\n\n"
    if BEGIN in text and END in text:
        i, j = text.index(BEGIN), text.index(END) + len(END)
        text = text[:i] + section + text[j:]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    write_atomically(a.out_md, text)


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
