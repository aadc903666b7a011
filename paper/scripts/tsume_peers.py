#!/usr/bin/env python3
"""Side-by-side tsume timing: shogi-lab against peers you have built by hand.

It never builds anything. Each engine is a USI binary that answers `go mate`:
    python3 paper/scripts/tsume_peers.py --engine shogi-lab="target/release/shogi-lab usi" \
        --engine shtsume=/path/to/shtsume-usi --engine kh=/path/to/KomoringHeights \
        --problems specs/tsume/classics.sfen --ids zukou-001,zukou-100 --ms 600000
Every engine gets the same `position sfen …` + `go mate <ms>`, one problem at a time,
with USI_Hash 1024. Prints a Markdown table: engine, id, answer, wall ms (measured here,
from `go` to the `checkmate` line).
"""
import argparse, shlex, subprocess, time

def solve(cmd, sfen, ms):
    p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(line):
        p.stdin.write(line + "\n"); p.stdin.flush()
    def wait_for(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line.strip()
        return None
    send("usi"); wait_for("usiok")
    send("setoption name USI_Hash value 1024"); send("isready"); wait_for("readyok")
    send("position sfen " + sfen)
    t = time.monotonic(); send(f"go mate {ms}")
    answer = wait_for("checkmate")
    wall = (time.monotonic() - t) * 1000
    try:
        send("quit"); p.wait(timeout=10)
    except Exception:
        p.kill()
    return answer or "checkmate (none)", wall

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="name=command")
    ap.add_argument("--problems", default="specs/tsume/classics.sfen")
    ap.add_argument("--ids", default="", help="comma-separated ids (default: all)")
    ap.add_argument("--ms", type=int, default=60000)
    a = ap.parse_args()
    wanted = set(filter(None, a.ids.split(",")))
    probs = []
    for line in open(a.problems, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if not wanted or cols[0] in wanted:
            probs.append((cols[0], cols[1]))
    print("| engine | id | answer | wall ms |\n|---|---|---|---|")
    for pid, sfen in probs:
        for spec in a.engine:
            name, cmd = spec.split("=", 1)
            ans, wall = solve(cmd, sfen, a.ms)
            words = ans.split()[1:]
            shown = words[0] if words and words[0] in ("nomate", "timeout") else f"{len(words)} plies"
            print(f"| {name} | {pid} | {shown} | {wall:.0f} |", flush=True)

if __name__ == "__main__":
    main()
