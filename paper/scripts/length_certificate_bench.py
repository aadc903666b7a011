#!/usr/bin/env python3
"""Length certificates of `--count-futile` answers (issue 17): how many proven-shortest
mates get their length claim certified (mate within L plies, no mate within L - 2;
version-2 certificates, specs/certificate.md), certificate sizes, and the CPU time of
extraction and check against the solve.

Runs `shogi-lab tsume FILE --count-futile --nodes NODES` (text output) and reads per
answer the `plies N (shortest)` line, the `certified ...` line (certificate nodes and
bytes; thread CPU ms of solve, extraction and the in-process check) and the
`shortest certified` / `shortest NOT certified` line; reasons come from stderr.

Corpora:
  classics  図巧 1-10 and 無双 1-10 of specs/tsume/classics.sfen
  random    50 positions: `shogi-lab gen tsume --plies L --count 10 --seed 1` for
            L = 1 3 5 7 9 (L counts no 無駄合; they are solved here counting every reply)

Only the section between the markers `<!-- length-certificates -->` and
`<!-- /length-certificates -->` of OUT is replaced (appended if missing); the file is
written atomically.

Usage: python3 paper/scripts/length_certificate_bench.py [--bin target/release/shogi-lab]
           [--nodes 5000000] [--out paper/results/certificates.md]

With --default-mode (session 14) it instead runs the default mode (version 3 then, version 4 since session 25; 無駄合 not
counted) on all 200 classics, `shogi-lab tsume <classics without comments> --nodes NODES`,
and prints (writes nothing) the summary per collection and every proven length not
certified with its reason; the `shortest certified:` line of this mode carries the length
certificate's own nodes, bytes and CPU ms of extraction and check.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

HEAD = re.compile(r"^(\S+): (mate|nomate|unknown)$")
PLIES = re.compile(r"^  plies (\d+)( \(shortest\))?")
CERT = re.compile(
    r"^  certified  (\d+) nodes  (\d+) bytes  cpu ms: solve ([\d.]+) extraction ([\d.]+) check ([\d.]+)"
)
LEN_OK = re.compile(r"^  shortest certified: ")
LEN_NOT = re.compile(r"^  shortest NOT certified")
REASON = re.compile(r"^(\S+): shortest length not certified: (.*)$")
BEGIN, END = "<!-- length-certificates -->", "<!-- /length-certificates -->"


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout, p.stderr, cpu


def parse(stdout, stderr):
    rows, cur = [], None
    for line in stdout.splitlines():
        m = HEAD.match(line)
        if m:
            cur = {"id": m[1], "result": m[2], "plies": None, "shortest": False, "length": None}
            rows.append(cur)
            continue
        if cur is None:
            continue
        if m := PLIES.match(line):
            cur["plies"], cur["shortest"] = int(m[1]), bool(m[2])
        elif m := CERT.match(line):
            cur.update(nodes=int(m[1]), bytes=int(m[2]), solve=float(m[3]),
                       extract=float(m[4]), check=float(m[5]))
        elif LEN_OK.match(line):
            cur["length"] = True
        elif LEN_NOT.match(line):
            cur["length"] = False
    why = {m[1]: m[2] for m in map(REASON.match, stderr.splitlines()) if m}
    for r in rows:
        if r["length"] is False:
            r["why"] = why.get(r["id"], "?")
    return rows


LEN_DEFAULT = re.compile(
    r"^  shortest certified: .*  (\d+) nodes  (\d+) bytes  cpu ms: extraction ([\d.]+) check ([\d.]+)"
)


def parse_default(stdout, stderr):
    """Rows of a default-mode run: the length certificate's figures, the solve's CPU ms
    from the plain certificate's line."""
    rows = parse(stdout, stderr)
    by_id = {r["id"]: r for r in rows}
    cur = None
    for line in stdout.splitlines():
        m = HEAD.match(line)
        if m:
            cur = by_id[m[1]]
        elif cur is not None and (m := LEN_DEFAULT.match(line)):
            cur.update(nodes=int(m[1]), bytes=int(m[2]), extract=float(m[3]), check=float(m[4]))
    return rows


def default_mode(a):
    src = open("specs/tsume/classics.sfen", encoding="utf-8").read().splitlines()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "classics.sfen")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines("\t".join(l.split("\t")[:2]) + "\n" for l in src if l and not l.startswith("#"))
        cmd = [a.bin, "tsume", path, "--nodes", str(a.nodes)]
        o, e, cpu = run(cmd)
    rows = parse_default(o, e)
    shown = " ".join(cmd[1:]).replace(path, "<(grep -v '^#' specs/tsume/classics.sfen)")
    out = []
    for prefix, name in (("zukou", "図巧 1–100"), ("musou", "無双 1–100")):
        out += summary(name, [r for r in rows if r["id"].startswith(prefix)], cpu, shown)
    bad = [f"- {r['id']} ({r['plies']} plies): {r.get('why', '?')}" for r in rows if r["length"] is False]
    print("\n".join(out + (["Not length-certified:", ""] + bad if bad else ["All proven lengths length-certified."])))


def summary(name, rows, cpu, cmd):
    short = [r for r in rows if r["result"] == "mate" and r["shortest"]]
    ok = [r for r in short if r["length"]]
    s = lambda k, rs: sum(r[k] for r in rs) / 1e3
    nodes = [r["nodes"] for r in ok]
    out = [
        f"**{name}**: {len(rows)} answers, {sum(r['result'] == 'mate' for r in rows)} mate, "
        f"{len(short)} with `shortest: true`; **{len(ok)} of {len(short)} length-certified**.",
        "",
        f"Command: `{cmd}` (process CPU {cpu:.1f} s).",
        "",
    ]
    if ok:
        out += [
            "| length-certified | cert. nodes (total / median / max) | bytes (total / max) | solve CPU s | extraction CPU s | check CPU s | extraction ≤ solve | check ≤ solve |",
            "|---|---|---|---|---|---|---|---|",
            f"| {len(ok)} | {sum(nodes):,} / {int(statistics.median(nodes)):,} / {max(nodes):,} "
            f"| {sum(r['bytes'] for r in ok):,} / {max(r['bytes'] for r in ok):,} "
            f"| {s('solve', ok):.2f} | {s('extract', ok):.2f} | {s('check', ok):.2f} "
            f"| {sum(r['extract'] <= r['solve'] for r in ok)} of {len(ok)} "
            f"| {sum(r['check'] <= r['solve'] for r in ok)} of {len(ok)} |",
            "",
        ]
    return out


def table(rows):
    out = [
        "| id | result | L | length certified | cert. nodes | bytes | solve ms | extraction ms | check ms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        st = {True: "yes", False: "no", None: "—"}[r["length"]]
        if r["result"] == "mate" and not r["shortest"]:
            st = "— (shortest not proven)"
        L = r["plies"] if r["plies"] is not None else "—"
        if "nodes" in r:
            out.append(f"| {r['id']} | {r['result']} | {L} | {st} | {r['nodes']:,} | {r['bytes']:,} "
                       f"| {r['solve']:.1f} | {r['extract']:.1f} | {r['check']:.1f} |")
        else:
            out.append(f"| {r['id']} | {r['result']} | {L} | {st} | — | — | — | — | — |")
    reasons = [f"- {r['id']}: {r['why']}" for r in rows if r.get("why")]
    if reasons:
        out += ["", "Not length-certified:", ""] + reasons
    return out + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/shogi-lab")
    ap.add_argument("--nodes", type=int, default=5_000_000)
    ap.add_argument("--out", default="paper/results/certificates.md")
    ap.add_argument("--default-mode", action="store_true",
                    help="the default mode on all 200 classics, summary to stdout only")
    a = ap.parse_args()
    if a.default_mode:
        default_mode(a)
        return
    doc = [BEGIN, "## Length certificates (`--count-futile`, version 2)", "",
           "Generated by `paper/scripts/length_certificate_bench.py` "
           f"(`python3 paper/scripts/length_certificate_bench.py --nodes {a.nodes}`). "
           "Times are thread CPU times of one run on the shared 2-core machine; "
           "a certificate's extraction and check are its own (since session 33; before, the plain "
           "certificate's extraction included a failed length extraction before it).", ""]
    with tempfile.TemporaryDirectory() as d:
        src = open("specs/tsume/classics.sfen", encoding="utf-8").read().splitlines()
        want = {f"{k}-{i:03}" for k in ("zukou", "musou") for i in range(1, 11)}
        path = os.path.join(d, "classics.sfen")
        with open(path, "w", encoding="utf-8") as f:
            for l in src:
                if l.split("\t")[0] in want:
                    f.write("\t".join(l.split("\t")[:2]) + "\n")
        cmd = [a.bin, "tsume", path, "--count-futile", "--nodes", str(a.nodes)]
        o, e, cpu = run(cmd)
        rows = parse(o, e)
        shown = " ".join(cmd[1:]).replace(path, "classics-1-10.sfen")
        doc += ["### 図巧 1–10 and 無双 1–10", ""] + summary("20 classics", rows, cpu, shown) + table(rows)

        mates = []
        for plies in (1, 3, 5, 7, 9):
            g = [a.bin, "gen", "tsume", "--plies", str(plies), "--count", "10", "--seed", "1"]
            go, _, _ = run(g)
            mates += [(f"gen{plies}-{i:02}", json.loads(l)["sfen"]) for i, l in enumerate(go.splitlines())]
        path = os.path.join(d, "random.sfen")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(f"{i}\t{s}\n" for i, s in mates)
        cmd = [a.bin, "tsume", path, "--count-futile", "--defender-hand-as-given", "--nodes", str(a.nodes)]
        o, e, cpu = run(cmd)
        rows = parse(o, e)
        shown = " ".join(cmd[1:]).replace(path, "random.sfen")
        doc += ["### 50 random positions", "",
                "random.sfen: `gen tsume --plies L --count 10 --seed 1` for L = 1 3 5 7 9.", ""]
        doc += summary("50 random", rows, cpu, shown)
        bad = [r for r in rows if r["length"] is False or (r["result"] == "mate" and not r["shortest"])]
        if bad:
            doc += ["Not length-certified or not proven shortest:", ""] + table(bad)
    doc.append(END)
    text = open(a.out, encoding="utf-8").read() if os.path.exists(a.out) else ""
    block = "\n".join(doc) + "\n"
    if BEGIN in text and END in text:
        i, j = text.index(BEGIN), text.index(END) + len(END)
        text = text[:i] + block.rstrip("\n") + text[j:]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, a.out)
    print(block)


if __name__ == "__main__":
    main()
