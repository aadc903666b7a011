#!/usr/bin/env python3
"""Side-by-side tsume timing: shogi-lab against peers you have built by hand.

It never builds anything. Each engine is a USI binary that answers `go mate`:

    python3 paper/scripts/tsume_peers.py --ms 120000 --verify \
        --engine shogi-lab="target/release/shogi-lab usi" \
        --engine shtsume=/path/to/shtsume \
        --engine kh=/path/to/KomoringHeights-by-gcc \
        --option kh:Threads=1 --option kh:PostSearchLevel=None \
        --problems specs/tsume/classics.sfen --ids zukou-001,zukou-100

Every engine is started afresh for each problem and gets `usi`, `setoption name
USI_Hash value <--hash>`, its `--option`s, `isready`, `usinewgame`, `position sfen …`
and `go mate <ms>`, one problem at a time. Columns:
- answer: `mate` / `nomate` / `timeout` as the engine said it; `(at limit)` is appended
  when the answer came after 95 % of the limit (shtsume, for one, prints `checkmate
  nomate` when its clock runs out, see paper/results/tsume-peers.md);
- plies: length of the returned line;
- check: with `--verify`, the line is replayed by cshogi (an independent C++ rules
  implementation; PyPI, GPL, used only from this script): every move legal, every
  attacker move gives check, the final position is mate (cshogi's legal moves exclude
  打ち歩詰め). `ok`, or the first failure; `only interpositions left` when the final
  position is check and every legal reply is an interposition (a line that leaves out
  無駄合, as composed problems and shogi-lab's default do); `–` when there is no line;
- wall ms: measured here, from sending `go` to reading the `checkmate` line;
- CPU s: user + system CPU of the whole engine process (start to exit, so it includes
  allocating the table), from `os.wait4`; it is less sensitive to machine load;
- nodes: the last `nodes N` any `info` line reported before `checkmate` (an engine that
  prints `info` only periodically under-reports; `?` if it printed none);
- shortest: `proven` when the engine proved the length minimal — shogi-lab says so in an
  `info string … (proven shortest)`, KomoringHeights (PostSearchLevel MinLength) by an
  `info … score mate -N` (no mate within N plies) with N = plies − 1; `–` otherwise.
With `--units`, two more columns: `plays`, the positions entered by a move (shogi-lab's
`info string plays N`; the unit of YaneuraOu-based engines' `nodes`, one per `do_move`, so
KomoringHeights' `nodes` are its plays), and `expansions` from an `info string expansions N`,
which only a KomoringHeights build counting its `SearchImpl` calls prints
(`paper/results/tsume-node-rate.md`); shogi-lab's and shtsume's expansions are their `nodes`
column. `?` where unknown.
An engine that has not answered `--grace` seconds after the limit is killed (`killed`).
"""
import argparse
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time


def verify(sfen, moves):
    """Replays `moves` from `sfen` with cshogi; returns "ok" or the first failure."""
    import cshogi

    board = cshogi.Board(sfen)
    attacker = board.turn
    for i, usi in enumerate(moves):
        m = board.move_from_usi(usi)
        if not m or not board.is_legal(m):
            return f"illegal ply {i + 1} ({usi})"
        board.push(m)
        if board.turn != attacker and not board.is_check():
            return f"ply {i + 1} ({usi}) is no check"
    if board.turn == attacker:
        return "line ends with a defender move"
    if not board.is_check():
        return "final position is not check"
    replies = list(board.legal_moves)
    if not replies:
        return "ok"
    # A line that ends with nothing but interpositions left follows a 無駄合 convention
    # (the interpositions are futile and not shown); whether they are futile is the
    # engine's claim, not checked here.
    if all(is_interposition(board, m) for m in replies):
        return "only interpositions left"
    return "final position is not mate"


def is_interposition(board, move):
    """A reply to a check (cshogi `board`, `move`) that neither moves the king nor captures
    (a drop, or a move to an empty square) can only block the checking line."""
    import cshogi

    if cshogi.move_is_drop(move):
        return True
    king = board.king_square(board.turn)
    return cshogi.move_from(move) != king and board.piece(cshogi.move_to(move)) == 0


def solve(cmd, options, hash_mib, sfen, ms, grace):
    p = subprocess.Popen(
        shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, bufsize=1, errors="replace",
    )
    lines = queue.Queue()

    def reader():
        for line in p.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()

    def send(line):
        try:
            p.stdin.write(line + "\n")
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    info = {"id": None, "nodes": None, "proven": None, "disproved": None, "plays": None,
            "expansions": None}

    def wait_for(prefix, deadline):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            if line.startswith("id name "):
                info["id"] = line[len("id name "):].strip()
            if line.startswith("info"):
                m = re.search(r"\bnodes (\d+)", line)
                if m:
                    info["nodes"] = int(m.group(1))
                # shogi-lab: "info string mate in N plies (proven shortest)";
                # KomoringHeights (MinLength): "score mate -N" = no mate within N plies.
                m = re.match(r"info string (plays|expansions) (\d+)\s*$", line)
                if m:
                    info[m.group(1)] = int(m.group(2))
                if "(proven shortest)" in line:
                    info["proven"] = True
                m = re.search(r"\bscore mate -(\d+)", line)
                if m:
                    info["disproved"] = max(info["disproved"] or 0, int(m.group(1)))
            if line.startswith(prefix):
                return line.strip()

    setup_deadline = time.monotonic() + 120
    send("usi")
    wait_for("usiok", setup_deadline)
    send(f"setoption name USI_Hash value {hash_mib}")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    send("isready")
    wait_for("readyok", setup_deadline)
    send("usinewgame")
    send("position sfen " + sfen)
    t = time.monotonic()
    send(f"go mate {ms}")
    answer = wait_for("checkmate", t + ms / 1000 + grace)
    wall = (time.monotonic() - t) * 1000
    killed = answer is None
    if not killed:
        send("quit")
    deadline = time.monotonic() + (0 if killed else 10)
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() >= deadline:
            os.kill(p.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.05)
    p.returncode = status
    cpu = usage.ru_utime + usage.ru_stime
    return answer, killed, wall, cpu, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="name=command")
    ap.add_argument("--option", action="append", default=[], help="name:Option=value (setoption for that engine)")
    ap.add_argument("--problems", default="specs/tsume/classics.sfen")
    ap.add_argument("--ids", default="", help="comma-separated ids (default: all), in this order")
    ap.add_argument("--ms", type=int, default=60000, help="go mate <ms>")
    ap.add_argument("--hash", type=int, default=1024, help="USI_Hash MiB for every engine")
    ap.add_argument("--grace", type=float, default=30.0, help="seconds after the limit before killing")
    ap.add_argument("--verify", action="store_true", help="replay mate lines with cshogi")
    ap.add_argument("--units", action="store_true",
                    help="also print plays and expansions (info string plays / expansions N)")
    ap.add_argument("--lines", help="also write every answer with its USI line here (JSON lines)")
    a = ap.parse_args()
    engines = [spec.split("=", 1) for spec in a.engine]
    options = {name: [] for name, _ in engines}
    for spec in a.option:
        name, kv = spec.split(":", 1)
        key, value = kv.split("=", 1)
        options[name].append((key, value))
    wanted = [w for w in a.ids.split(",") if w]
    probs = {}
    for path in a.problems.split(","):
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if not wanted or cols[0] in wanted:
                probs[cols[0]] = cols[1]
    order = wanted or list(probs)
    missing = [w for w in order if w not in probs]
    if missing:
        raise SystemExit(f"unknown ids: {missing}")
    print(f"go mate {a.ms}, USI_Hash {a.hash}; options: "
          + "; ".join(f"{n}: {', '.join(f'{k}={v}' for k, v in o) or '–'}" for n, o in options.items()))
    print()
    extra = " plays | expansions |" if a.units else ""
    print("| engine | id | answer | plies | shortest | check | wall ms | CPU s | nodes |" + extra)
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if a.units else ""))
    ids = {}
    out_lines = open(a.lines + ".tmp", "w", encoding="utf-8") if a.lines else None
    for pid in order:
        sfen = probs[pid]
        for name, cmd in engines:
            ans, killed, wall, cpu, info = solve(cmd, options[name], a.hash, sfen, a.ms, a.grace)
            ids.setdefault(name, info["id"])
            words = ans.split()[1:] if ans else []
            if killed:
                shown, moves = "killed", []
            elif words and words[0] in ("nomate", "timeout", "notimplemented"):
                shown, moves = words[0], []
            else:
                shown, moves = "mate", words
            if not killed and (wall >= 0.95 * a.ms or cpu >= 0.95 * a.ms / 1000):
                shown += " (at limit)"
            check = verify(sfen, moves) if a.verify and moves else "–"
            nodes = "?" if info["nodes"] is None else str(info["nodes"])
            plies = str(len(moves)) if moves else "–"
            proven = moves and (info["proven"] or info["disproved"] == len(moves) - 1)
            short = "proven" if proven else "–"
            units = ""
            if a.units:
                units = "".join(" ? |" if info[k] is None else f" {info[k]} |" for k in ("plays", "expansions"))
            print(f"| {name} | {pid} | {shown} | {plies} | {short} | {check} | {wall:.0f} | {cpu:.2f} | {nodes} |"
                  + units, flush=True)
            if out_lines:
                out_lines.write(json.dumps({"engine": name, "id": pid, "sfen": sfen, "answer": shown,
                                            "usi": moves, "proven": short == "proven", "check": check,
                                            "cpu_s": round(cpu, 3), "nodes": info["nodes"],
                                            "plays": info["plays"], "expansions": info["expansions"]},
                                           ensure_ascii=False) + "\n")
                out_lines.flush()
    if out_lines:
        out_lines.close()
        os.replace(a.lines + ".tmp", a.lines)
    print()
    for name, ident in ids.items():
        print(f"- {name}: `id name {ident}`")


if __name__ == "__main__":
    main()
