#!/usr/bin/env python3
"""Certificate size, extraction and check time against solve time (issue 17).

Runs `shogi-lab tsume FILE --any-mate` (text output) on three corpora and reads,
per answer, the `certified` line: certificate nodes and bytes, and the CPU time of
the solve, the extraction and the in-process independent check (thread CPU time
from CLOCK_THREAD_CPUTIME_ID, ns resolution; /proc/thread-self/schedstat, 4 ms
granularity on this kernel, only where that clock is missing; whole-run
process CPU from getrusage is reported beside the sums). Answers that are not
certified are listed with the reason the CLI gives on stderr.

Corpora:
  classics     specs/tsume/classics.sfen (図巧/無双, 200), --nodes NODES each
  microcosmos  specs/tsume/microcosmos.sfen (ミクロコスモス), --nodes MC_NODES
  random       500 positions: `shogi-lab gen tsume --plies L --count 50 --seed 1`
               for L = 1 3 5 7 9 (250 mates), and the same 250 positions with the
               attacker's hand emptied (mate or nomate), solved with
               --defender-hand-as-given

Usage: python3 paper/scripts/certificate_bench.py [--bin target/release/shogi-lab]
           [--nodes 5000000] [--mc-nodes 60000000] [--memory 1024] [--out paper/results/certificates.md]
           [--only classics,microcosmos,random]
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
import time

HEAD = re.compile(r"^(\S+): (mate|nomate|unknown)$")
CERT = re.compile(
    r"^  certified  (\d+) nodes  (\d+) bytes  cpu ms: solve ([\d.]+) extraction ([\d.]+) check ([\d.]+)"
)
NODES = re.compile(r"^  nodes (\d+)  time ([\d.]+) s$")
PLIES = re.compile(r"^  plies (\d+)")
NOT = re.compile(r"^(\S+): (mate|nomate) not certified: (.*)$")


def run(cmd):
    """Runs cmd; returns (stdout, stderr, process CPU seconds, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout, p.stderr, cpu, wall


def parse(stdout, stderr):
    rows, cur = [], None
    for line in stdout.splitlines():
        m = HEAD.match(line)
        if m:
            cur = {"id": m[1], "result": m[2], "certified": None, "plies": None}
            rows.append(cur)
            continue
        if cur is None:
            continue
        if m := PLIES.match(line):
            cur["plies"] = int(m[1])
        elif m := CERT.match(line):
            cur.update(certified=True, cert_nodes=int(m[1]), bytes=int(m[2]), solve=float(m[3]),
                       extract=float(m[4]), check=float(m[5]))
        elif line.startswith("  NOT certified"):
            cur["certified"] = False
        elif m := NODES.match(line):
            cur["nodes"] = int(m[1])
    why = {m[1]: m[3] for m in map(NOT.match, stderr.splitlines()) if m}
    for r in rows:
        if r["certified"] is False:
            r["reason"] = why.get(r["id"], "?")
    return rows


def summary(name, rows, cpu, wall, cmd):
    cert = [r for r in rows if r["certified"]]
    out = [f"### {name}", "", f"Command: `{cmd}`", ""]
    by = {k: sum(r["result"] == k for r in rows) for k in ("mate", "nomate", "unknown")}
    out.append(
        f"{len(rows)} problems: {by['mate']} mate, {by['nomate']} nomate, {by['unknown']} unknown within limits; "
        f"**{len(cert)} of {by['mate'] + by['nomate']} answers certified**"
        + (f", {sum(r['certified'] is False for r in rows)} not certified" if any(r["certified"] is False for r in rows) else "")
        + "."
    )
    out.append("")
    if cert:
        s = lambda k: sum(r[k] for r in cert)
        ratios = [r["check"] / r["solve"] for r in cert if r["solve"] > 0]
        faster = sum(r["check"] <= r["solve"] for r in cert)
        cheap = sum(r["extract"] <= r["solve"] for r in cert)
        out += [
            "| certified | cert. nodes (total / median / max) | bytes (total / max) | solve CPU s | extraction CPU s | check CPU s | check ≤ solve | median check/solve | extraction ≤ solve |",
            "|---|---|---|---|---|---|---|---|---|",
            f"| {len(cert)} | {s('cert_nodes')} / {statistics.median(r['cert_nodes'] for r in cert):.0f} / {max(r['cert_nodes'] for r in cert)} "
            f"| {s('bytes')} / {max(r['bytes'] for r in cert)} | {s('solve') / 1e3:.2f} | {s('extract') / 1e3:.2f} | {s('check') / 1e3:.2f} "
            f"| {faster} of {len(cert)} | {statistics.median(ratios) if ratios else float('nan'):.2f} | {cheap} of {len(cert)} |",
            "",
            f"Whole run: {cpu:.1f} s process CPU ({wall:.1f} s wall) for solve + extraction + check + start-up.",
            "",
        ]
    bad = [r for r in rows if r["certified"] is False]
    if bad:
        out += ["Not certified:", ""] + [f"- {r['id']} ({r['result']}): {r['reason']}" for r in bad] + [""]
    unk = [r["id"] for r in rows if r["result"] == "unknown"]
    if unk:
        out += [f"Unknown within the node limit (not certified, nothing to certify): {', '.join(unk)}.", ""]
    return out


def table(rows):
    out = ["| id | result | plies | nodes | cert. nodes | bytes | solve ms | extraction ms | check ms |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.get("certified"):
            out.append(f"| {r['id']} | {r['result']} | {r['plies'] or ''} | {r.get('nodes', '')} | {r['cert_nodes']} | {r['bytes']} "
                       f"| {r['solve']:.0f} | {r['extract']:.0f} | {r['check']:.0f} |")
        else:
            status = "not certified" if r["certified"] is False else ""
            out.append(f"| {r['id']} | {r['result']} {status} | {r['plies'] or ''} | {r.get('nodes', '')} | | | | | |")
    return out


def hand_emptied(sfen):
    """The SFEN with the side to move's hand emptied (the other side's hand kept)."""
    board, side, hands, num = sfen.split(" ")
    if hands == "-":
        return sfen
    keep = "".join(re.findall(r"\d*[a-z]" if side == "b" else r"\d*[A-Z]", hands))
    return f"{board} {side} {keep or '-'} {num}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/shogi-lab")
    ap.add_argument("--nodes", type=int, default=5_000_000)
    ap.add_argument("--mc-nodes", type=int, default=60_000_000)
    ap.add_argument("--memory", type=int, default=1024)
    ap.add_argument("--out", default="paper/results/certificates.md")
    ap.add_argument("--only", default="classics,microcosmos,random")
    a = ap.parse_args()
    only = a.only.split(",")
    doc = [
        "# Certificates: size, extraction and check time against solve time",
        "",
        "Generated by `python3 paper/scripts/certificate_bench.py"
        + "".join(f" {k} {v}" for k, v in (("--nodes", a.nodes), ("--mc-nodes", a.mc_nodes), ("--memory", a.memory)))
        + "` (one run, single thread per process, nothing else of ours running; the machine is shared).",
        "Every answer is solved with `--any-mate` (the first proof: the certificate proves plain mate, so the",
        "minimality search of the default mode is not what it certifies), then its certificate is extracted",
        "from the solver's table and checked in-process by the independent checker (`src/certificate/check/`:",
        "the rules core's naive play-and-test generator and petgraph only). Times are thread CPU times",
        "(CLOCK_THREAD_CPUTIME_ID, ns resolution); 'nodes' are solver nodes, 'cert. nodes' certificate nodes.",
        "",
    ]
    per_problem = []
    base = [a.bin, "tsume", "--any-mate", "--memory", str(a.memory)]
    if "classics" in only:
        cmd = base + ["specs/tsume/classics.sfen", "--nodes", str(a.nodes)]
        o, e, cpu, wall = run(cmd)
        rows = parse(o, e)
        doc += summary("図巧/無双 (200 classics)", rows, cpu, wall, " ".join(cmd[1:]))
        per_problem = rows
    if "microcosmos" in only:
        cmd = base + ["specs/tsume/microcosmos.sfen", "--nodes", str(a.mc_nodes)]
        o, e, cpu, wall = run(cmd)
        rows = parse(o, e)
        doc += summary("ミクロコスモス", rows, cpu, wall, " ".join(cmd[1:]))
        doc += table(rows) + [""]
    if "random" in only:
        with tempfile.TemporaryDirectory() as d:
            mates = []
            gen_cmds = []
            for plies in (1, 3, 5, 7, 9):
                gcmd = [a.bin, "gen", "tsume", "--plies", str(plies), "--count", "50", "--seed", "1"]
                gen_cmds.append(" ".join(gcmd[1:]))
                o, _, _, _ = run(gcmd)
                mates += [(f"gen{plies}-{i:02}", json.loads(l)["sfen"]) for i, l in enumerate(o.splitlines())]
            path = os.path.join(d, "random.sfen")
            with open(path, "w") as f:
                for pid, sfen in mates:
                    f.write(f"{pid}\t{sfen}\n")
                for pid, sfen in mates:
                    f.write(f"{pid}-emptied\t{hand_emptied(sfen)}\n")
            cmd = base + [path, "--nodes", str(a.nodes), "--defender-hand-as-given"]
            o, e, cpu, wall = run(cmd)
            rows = parse(o, e)
            shown = " ".join(cmd[1:]).replace(path, "random.sfen")
            doc += summary("500 random positions", rows, cpu, wall, shown)
            doc += [f"random.sfen: `{c}` for L = 1 3 5 7 9 (ids genL-NN), then the same positions with the attacker's hand emptied (ids …-emptied)."
                    for c in gen_cmds[:1]] + [""]
    if per_problem:
        doc += ["## 図巧/無双 per problem", ""] + table(per_problem) + [""]
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(doc))
    os.replace(tmp, a.out)
    print("\n".join(doc[: min(len(doc), 60)]))


if __name__ == "__main__":
    main()
