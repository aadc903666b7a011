#!/usr/bin/env python3
"""Tables from the JSON lines of `tsume_ab.py` runs (A/B of solver binaries).

    python3 paper/scripts/tsume_ab_summary.py FILE.jsonl [RUN]

FILE holds `tsume_ab.py` rows, optionally with a `run` field naming the run (as
`paper/results/tsume-horizon-refute.jsonl`). Prints, per run and binary, the problems,
mates, proven shortest lengths, nodes and CPU seconds; with RUN, also one row per problem
(plies, `*` when not proven, nodes and CPU s of every binary, in the order they ran) and
the problems whose answers differ between the binaries, and the sums over the problems
every binary proved shortest.
"""
import json
import sys
from collections import defaultdict


def fmt(n):
    return f"{n:,}".replace(",", " ")


def main():
    rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
    only = sys.argv[2] if len(sys.argv) > 2 else None
    runs = defaultdict(list)
    for r in rows:
        runs[r.get("run", "-")].append(r)
    print("| run | binary | problems | mates | proven | nodes | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for run, rs in runs.items():
        bins = list(dict.fromkeys(r["bin"] for r in rs))
        for b in bins:
            mine = [r for r in rs if r["bin"] == b]
            print(f"| {run} | {b} | {len(mine)} | {sum(r['result'] == 'mate' for r in mine)} | "
                  f"{sum(r['shortest'] is True for r in mine)} | {fmt(sum(r['nodes'] for r in mine))} | "
                  f"{sum(r['cpu'] for r in mine):.2f} |")
    if only is None:
        return
    rs = runs[only]
    bins = list(dict.fromkeys(r["bin"] for r in rs))
    by = defaultdict(dict)
    for r in rs:
        by[r["id"]][r["bin"]] = r
    print()
    head = ["problem"] + [f"plies {b}" for b in bins] + [f"nodes {b}" for b in bins] + [f"CPU s {b}" for b in bins]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    differ = []
    for pid, d in by.items():
        cells = [pid]
        cells += [f"{d[b]['plies']}{'' if d[b]['shortest'] else '*'}" if b in d else "–" for b in bins]
        cells += [fmt(d[b]["nodes"]) if b in d else "–" for b in bins]
        cells += [f"{d[b]['cpu']:.2f}" if b in d else "–" for b in bins]
        print("| " + " | ".join(cells) + " |")
        answers = {(x["result"], x["plies"], x["shortest"], x["low"]) for x in d.values()}
        if len(answers) > 1:
            differ.append(pid)
    print()
    print("answers differ:", " ".join(differ) if differ else "none")
    both = [d for d in by.values() if len(d) == len(bins) and all(x["shortest"] is True for x in d.values())]
    print(f"proven by every binary: {len(both)};",
          "; ".join(f"{b} {fmt(sum(d[b]['nodes'] for d in both))} nodes, "
                    f"{sum(d[b]['cpu'] for d in both):.2f} CPU s" for b in bins))


if __name__ == "__main__":
    main()
