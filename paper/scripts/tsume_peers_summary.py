#!/usr/bin/env python3
"""Summary of a `tsume_peers.py --lines FILE` run: one row per engine, then the lengths of
two engines compared problem by problem.

    python3 paper/scripts/tsume_peers_summary.py RUN.jsonl [--pair shogi-lab,shtsume]

Per engine: answers by kind (a mate's line is `ok` when cshogi replayed it to checkmate,
`only interpositions left` when it ends in check with nothing but interpositions — a
line that leaves out 無駄合 —, else it failed the replay), lengths proven shortest (by the
engine's own claim, see tsume_peers.py), CPU seconds summed over all problems. The pair
table counts, over problems both engines answered with a replayed line, how often the first
engine's line is shorter, equal or longer.
"""
import argparse
import collections
import json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--pair", default="")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.run, encoding="utf-8") if l.strip()]
    engines = list(dict.fromkeys(r["engine"] for r in rows))
    print("| engine | problems | mate, replayed to mate | mate, only interpositions left | "
          "mate, replay fails | proven shortest | nomate | no answer (timeout, killed) | CPU s (sum) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in engines:
        rs = [r for r in rows if r["engine"] == e]
        c = collections.Counter()
        for r in rs:
            kind = r["answer"].split()[0]
            if kind == "mate":
                c[{"ok": "ok", "only interpositions left": "interpositions"}.get(r["check"], "fail")] += 1
                c["proven"] += r["proven"]
            elif kind == "nomate" and "(at limit)" not in r["answer"]:
                c["nomate"] += 1
            else:
                c["none"] += 1
        cpu = sum(r["cpu_s"] for r in rs)
        print(f"| {e} | {len(rs)} | {c['ok']} | {c['interpositions']} | {c['fail']} | {c['proven']} | "
              f"{c['nomate']} | {c['none']} | {cpu:.1f} |")
    if a.pair:
        x, y = a.pair.split(",")
        by = {(r["engine"], r["id"]): r for r in rows}
        good = ("ok", "only interpositions left")
        cmp = collections.Counter()
        for pid in dict.fromkeys(r["id"] for r in rows):
            rx, ry = by.get((x, pid)), by.get((y, pid))
            if not rx or not ry or rx["check"] not in good or ry["check"] not in good:
                continue
            lx, ly = len(rx["usi"]), len(ry["usi"])
            cmp["shorter" if lx < ly else "equal" if lx == ly else "longer"] += 1
        print()
        print(f"| {x} against {y}, both lines replayed | {x} shorter | equal | {x} longer |")
        print("|---|---|---|---|")
        print(f"| {sum(cmp.values())} problems | {cmp['shorter']} | {cmp['equal']} | {cmp['longer']} |")


if __name__ == "__main__":
    main()
