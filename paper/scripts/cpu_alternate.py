#!/usr/bin/env python3
"""CPU seconds of two or more binaries run alternately on the same arguments.

    python3 paper/scripts/cpu_alternate.py ROUNDS "ARGS" BIN1 BIN2 ...

Each round runs every binary once, in order, with ARGS (split on spaces), and reads its
user + system CPU from `os.wait4`; stdout must be JSON lines with a `nodes` field (e.g.
`shogi-lab tsume FILE --json`), summed per run. Prints every run, then per binary the
node counts seen and the median and minimum CPU. Alternating keeps a busy machine's load
on both sides; CPU time, not wall time, is what is compared.
"""
import json
import os
import statistics
import subprocess
import sys


def main():
    rounds = int(sys.argv[1])
    args = sys.argv[2].split()
    bins = sys.argv[3:]
    cpu = {b: [] for b in bins}
    nodes = {b: set() for b in bins}
    for _ in range(rounds):
        for b in bins:
            p = subprocess.Popen([b] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out = p.stdout.read().decode()
            _, _, ru = os.wait4(p.pid, 0)
            n = sum(json.loads(line)["nodes"] for line in out.splitlines() if line.strip())
            t = ru.ru_utime + ru.ru_stime
            cpu[b].append(t)
            nodes[b].add(n)
            print(f"{b}\tcpu {t:.2f}\tuser {ru.ru_utime:.2f}\tnodes {n}", flush=True)
    for b in bins:
        med = statistics.median(cpu[b])
        n = min(nodes[b])
        print(f"SUMMARY {b}\tnodes {sorted(nodes[b])}\tmedian {med:.2f}\tmin {min(cpu[b]):.2f}"
              f"\tnodes/CPU-s {n / med / 1000:.0f} k")


if __name__ == "__main__":
    main()
