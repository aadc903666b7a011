#!/usr/bin/env python3
"""Where a peer's mate line and our proven-shortest length part, ply by ply, proven.

    python3 paper/scripts/explain_length_differences.py RUN.jsonl \
        --bin target/release/shogi-lab [--pair shogi-lab,shtsume] [--nodes 5000000] \
        [--memory 1024] [--ids a,b] > OUT.md

RUN.jsonl is a `tsume_peers.py --lines` run. For every problem where the first engine
proved its length L shortest and the second engine's line (replayed to mate by cshogi) has
another length n, each position of the peer's line with the attacker to move (after 2, 4,
… plies) is solved by shogi-lab in the default mode (the solution, 無駄合 neither counted
nor shown, specs/tsume.md). With k plies played and the position's proven shortest length
r, f(k) = k + r is the length the line can still reach when the attacker plays shortest
and the defender longest from there on; f(0) = L, and f ends at n. An attacker move can
only raise f (a slower mate), a defender reply only lower it (a shorter defence), except a
reply our convention does not count, a 無駄合, which the peer's line shows with its capture
(+2). So the steps where f changes add up to n − L exactly when every f is proven. Each
step is one attacker move and the defender's reply (f proven before and after): at a fall
every reply there is solved too, and the longest is named with its f (it can exceed f
before the step when the attacker's move was slow) and whether it is an interposition (a
drop, or a move of another piece to an empty square: where the peer's convention on 無駄合
may differ from ours). At a rise after an interposition the row says "a 無駄合 shown, or ▲
slower" (the two are not told apart).

Positions whose length the node limit leaves unproven are skipped: the change from the
last proven f to the next is reported as a net change over those plies. A row is
"explained" when every f along the line is proven and at every fall a reply is proven to
last at least as long as f before it.

Needs cshogi (the replies at a fall; `tsume_peers.py --verify` needs it too).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tsume_peers import is_interposition  # noqa: E402


def solve(binary, lines, nodes, memory):
    """Solves `lines` ([(id, position)]) in one shogi-lab process; {id: answer}."""
    text = "".join(f"{pid}\t{pos}\n" for pid, pos in lines)
    out = subprocess.run(
        [binary, "tsume", "-", "--json", "--nodes", str(nodes), "--memory", str(memory),
         "--no-certify"],
        input=text, capture_output=True, text=True)
    answers = {}
    for line in out.stdout.splitlines():
        if line.strip():
            a = json.loads(line)
            answers[a["id"]] = a
    missing = [pid for pid, _ in lines if pid not in answers]
    if missing:  # exit status 1 only says some answer is unknown; no answer is a failure
        sys.exit(f"{binary}: no answer for {missing[0]}: {out.stderr.strip()[:300]}")
    return answers


def interval(k, a):
    """[lo, hi] for f(k) = k + the position's shortest mate length, from answer `a`."""
    if a["result"] == "error":
        sys.exit(f"{a['id']}: {a['error']}")
    lo = k + (a["no_mate_within"] + 2 if a.get("no_mate_within") is not None else 1)
    if a["result"] == "nomate":
        return (float("inf"), float("inf"))
    if a["result"] != "mate":  # unknown within the limits
        return (lo, float("inf"))
    if a["shortest"]:
        return (k + a["plies"], k + a["plies"])
    hi = k + (a["mate_within"] if a["mate_within"] is not None else a["plies"])
    return (lo, hi)


def fmt(iv):
    lo, hi = iv
    if lo == hi:
        return str(lo)
    return f"{lo}–{hi}" if hi != float("inf") else f"≥{lo}"


def explain(binary, pid, sfen, L, line, nodes, memory):
    """Change points of f along `line` (list of USI moves) from `sfen`, whose proven length is L."""
    import cshogi

    ks = list(range(2, len(line), 2))
    pos = lambda k: f"position sfen {sfen} moves {' '.join(line[:k])}"
    answers = solve(binary, [(f"{pid}@{k}", pos(k)) for k in ks], nodes, memory)
    ivs = {0: (L, L)}
    for k in ks:
        ivs[k] = interval(k, answers[f"{pid}@{k}"])
    ivs[len(line)] = (len(line), len(line))  # the line ends in mate (or only 無駄合 left)
    complete = all(lo == hi for lo, hi in ivs.values())
    points = []
    k0, f0 = 0, L  # the last position whose f is proven
    for k in ks + [len(line)]:
        lo, hi = ivs[k]
        if lo != hi:
            continue
        if lo != f0:
            kind = "rise" if lo > f0 else "fall"
            point = {"from_ply": k0 + 1, "k": k, "kind": kind, "from": f0, "to": lo,
                     "moves": line[k0:k]}
            if k0 == k - 2:
                board = cshogi.Board(sfen)
                for m in line[:k - 1]:
                    board.push_usi(m)
                point["drop_reply"] = is_interposition(board, board.move_from_usi(line[k - 1]))
                if kind == "fall":
                    replies = [cshogi.move_to_usi(m) for m in board.legal_moves]
                    alt = solve(binary, [(f"{pid}@{k}/{r}", f"{pos(k - 1)} {r}") for r in replies],
                                nodes, memory)
                    best = None
                    for r in replies:
                        iv = interval(k, alt[f"{pid}@{k}/{r}"])
                        # The longest by its upper bound, then its lower (an unproven
                        # reply shows its interval).
                        if best is None or (iv[1], iv[0]) > (best[1][1], best[1][0]):
                            best = (r, iv)
                    point["longest"] = best[0]
                    point["longest_f"] = fmt(best[1])
                    point["interposition"] = is_interposition(board, board.move_from_usi(best[0]))
                    # Explained: a reply proven to last at least as long as f before.
                    complete = complete and best[1][0] >= f0
            points.append(point)
        k0, f0 = k, lo
    return points, complete


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--pair", default="shogi-lab,shtsume")
    ap.add_argument("--nodes", type=int, default=5_000_000)
    ap.add_argument("--memory", type=int, default=1024)
    ap.add_argument("--ids", default="")
    a = ap.parse_args()
    if a.nodes <= 0 or a.memory <= 0:
        sys.exit("--nodes and --memory must be positive")
    ours, peer = a.pair.split(",")
    rows = [json.loads(l) for l in open(a.run, encoding="utf-8") if l.strip()]
    by = {(r["engine"], r["id"]): r for r in rows}
    want = set(a.ids.split(",")) if a.ids else None
    print(f"| problem | {ours} (proven) | {peer} | where {peer}'s line parts from the proven length "
          "(ply: move, f before → after; at a fall the longest reply) | explained |")
    print("|---|---|---|---|---|")
    tally = {"falls": 0, "rises": 0, "interpositions": 0, "complete": 0, "problems": 0}
    for pid in dict.fromkeys(r["id"] for r in rows):
        if want and pid not in want:
            continue
        x, y = by.get((ours, pid)), by.get((peer, pid))
        if not x or not y or not x["proven"] or y["check"] not in ("ok", "only interpositions left"):
            continue
        L, line = len(x["usi"]), y["usi"]
        if L == len(line):
            continue
        points, complete = explain(a.bin, pid, x["sfen"], L, line, a.nodes, a.memory)
        cells = []
        for p in points:
            span = f"{p['from_ply']}–{p['k']}"
            moves = " ".join(p["moves"])
            tally[p["kind"] + "s"] += 1
            if "drop_reply" not in p:
                what = "net rise" if p["kind"] == "rise" else "net fall"
                what += " (the positions between unproven)"
                cells.append(f"{span} ({moves}): {what}, {p['from']} → {p['to']}")
            elif p["kind"] == "rise":
                what = "a 無駄合 shown, or ▲ slower" if p["drop_reply"] else "▲ slower"
                cells.append(f"{span} ({moves}): {what}, {p['from']} → {p['to']}")
            else:
                tally["interpositions"] += p["interposition"]
                alt = "an interposition" if p["interposition"] else "no interposition"
                cells.append(f"{span} ({moves}): △ shorter, {p['from']} → {p['to']} "
                             f"(longest △{p['longest']}: {p['longest_f']}, {alt})")
        tally["problems"] += 1
        tally["complete"] += complete
        print(f"| {pid} | {L} | {len(line)} | {'; '.join(cells) or '–'} | "
              f"{'yes' if complete else 'no: a length unproven'} |", flush=True)
    print()
    print(f"{tally['problems']} problems: {tally['falls']} shorter defences ({tally['interpositions']} "
          f"of them where the longest reply is an interposition), {tally['rises']} slower attacker "
          f"moves; every f proven on {tally['complete']}.")


if __name__ == "__main__":
    main()
