#!/usr/bin/env python3
"""The Markdown report of a `paper/scripts/ray_place.sh OUT_DIR` run: the Ray job's
merged count and per-shard CPU seconds, the single-process CLI run, and what follows
from them (overhead per shard, speed-up in CPU terms). Reads only OUT_DIR.

    python paper/scripts/ray_place_report.py OUT_DIR [--expect COUNT] > paper/results/ray-place.md
"""

import argparse
import glob
import json
import os
import re


def read(path):
    return open(path, encoding="utf-8").read().strip() if os.path.exists(path) else None


def time_line(path):
    """`/usr/bin/time -f '%e wall %U user %S sys …'` → (wall, user, sys) seconds."""
    t = read(path)
    m = t and re.search(r"([\d.]+) wall ([\d.]+) user ([\d.]+) sys", t)
    return tuple(float(x) for x in m.groups()) if m else None


def g(n):
    """An integer with thin spaces between thousands, as the paper writes them."""
    return f"{n:,}".replace(",", " ")


def job_workers(o):
    """The driver's --workers, from the command line saved beside the run (ray.cmd), if any."""
    m = re.search(r"--workers (\d+)", read(f"{o}/ray.cmd") or "")
    return f"{m.group(1)} local workers" if m else "Ray"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--expect", type=int, default=None, help="the published count, to compare with")
    a = ap.parse_args()
    o = a.out
    lines = []
    shards = sorted(glob.glob(f"{o}/ray/shard-*-of-*.json"), key=lambda p: int(p.split("shard-")[1].split("-")[0]))
    parts = [json.load(open(p)) for p in shards]
    merged = json.loads(read(f"{o}/ray/merged.json")) if read(f"{o}/ray/merged.json") else None
    job = json.loads(read(f"{o}/ray/job.json")) if read(f"{o}/ray/job.json") else {}
    single = json.loads(read(f"{o}/single.json")) if read(f"{o}/single.json") else None
    st = time_line(f"{o}/single.time")
    rt = time_line(f"{o}/ray.time")

    pieces = job.get("pieces") or (single or {}).get("pieces", "?")
    lines.append(f"## {pieces}: {job.get('shards', 'no')} Ray shards against one process")
    lines.append("")
    cmds = [c for c in (read(f"{o}/ray.cmd"), read(f"{o}/single.cmd")) if c]
    if cmds:
        lines += ["```sh", *cmds, "```", ""]
    lines.append("| run | count | CPU s | wall s | load average (start → end) |")
    lines.append("|---|---:|---:|---:|---|")

    def load(name):
        s, e = read(f"{o}/{name}.uptime-start"), read(f"{o}/{name}.uptime-end")
        la = lambda t: t and re.search(r"load average: ([\d., ]+)", t).group(1).strip()
        return f"{la(s) or '–'} → {la(e) or '–'}"

    if merged:
        lines.append(
            f"| Ray, {merged['shards']} shards on {job_workers(o)} (sum of the tasks' CPU; busiest shard "
            f"{merged['cpu_s_max']:.1f}) | {g(merged['count'])} | {merged['cpu_s_sum']:.1f} "
            f"| {merged['wall_s']:.1f} (driver: start Ray, run, merge) | {load('ray')} |"
        )
    elif parts:
        done = sum(p["count"] for p in parts)
        lines.append(f"| Ray, {len(parts)} of {job.get('shards')} shards finished | {g(done)} (partial) "
                     f"| {sum(p['cpu_s'] for p in parts):.1f} | – | {load('ray')} |")
    if single and st:
        lines.append(f"| one process (`place --count --sweep`, rayon threads = cores) | {g(single['count'])} "
                     f"| {st[1] + st[2]:.1f} | {st[0]:.1f} | {load('single')} |")
    else:
        lines.append("| one process | not run | | | |")
    lines.append("")
    if a.expect is not None and merged:
        same = merged["count"] == a.expect and (single is None or single["count"] == a.expect)
        lines.append(f"Published count {g(a.expect)}: {'equal' if same else '**DIFFERENT**'}"
                     f"{'' if single else ' (the Ray merged count; no single-process run in this directory)'}.")
        lines.append("")
    if merged and single and st:
        cpu1 = st[1] + st[2]
        n = merged["shards"]
        lines.append(f"Overhead per shard (CPU): ({merged['cpu_s_sum']:.1f} − {cpu1:.1f}) / {n} = "
                     f"{(merged['cpu_s_sum'] - cpu1) / n:.2f} s.")
        if merged.get("cpu_s_max_worker"):
            lines.append(f"Speed-up in CPU terms (one process's CPU / the busiest worker's CPU): "
                         f"{cpu1 / merged['cpu_s_max_worker']:.2f}.")
        lines.append("")
    lines.append("| shard | layouts | DP states | count | task CPU s | task wall s | worker |")
    lines.append("|---|---:|---:|---:|---:|---:|---|")
    for p in parts:
        lines.append(f"| {p['shard']} | {p['layouts']} | {g(p['states'])} | {g(p['count'])} | {p['cpu_s']:.1f} "
                     f"| {p['time_ms'] / 1000:.1f} | {p.get('worker', '–')} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
