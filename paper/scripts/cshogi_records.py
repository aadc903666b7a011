#!/usr/bin/env python3
"""Cross-check of shogi-lab's KIF and CSA reader/writer against cshogi's (out of process).

Both directions, on random games played with cshogi (seeded):
  1. shogi-lab writes KIF and CSA (`convert --to kif|csa` from a USI line); cshogi's
     KIF.Parser / CSA.Parser read them; the moves must equal the game's.
  2. cshogi's KIF.Exporter / CSA.Exporter write the game; `shogi-lab convert --to usi`
     reads it; the moves must equal the game's.
cshogi's parsers ignore BOD boards and KI2, so only the start position is used here;
our own corpus tests cover the rest.

Usage: python3 paper/scripts/cshogi_records.py [--games 200] [--seed 1] [--bin target/release/shogi-lab]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import cshogi
import cshogi.CSA
import cshogi.KIF


def random_game(rng, plies):
    board = cshogi.Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(cshogi.move_to_usi(m))
        board.push(m)
    return moves


def ours(binary, to, path):
    out = subprocess.run([binary, "convert", "--to", to, path], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default="target/release/shogi-lab")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp()
    bad = 0
    skipped = 0
    total_moves = 0
    for g in range(a.games):
        moves = random_game(rng, rng.randrange(1, 160))
        total_moves += len(moves)
        usi = os.path.join(tmp, f"g{g}.usi")
        with open(usi, "w") as f:
            f.write("position startpos moves " + " ".join(moves) + "\n")
        # 1. shogi-lab writes, cshogi reads.
        for to, parser in (("kif", cshogi.KIF.Parser), ("csa", cshogi.CSA.Parser)):
            # .kif is Shift_JIS by convention (cshogi reads it as cp932); our writer emits UTF-8 text,
            # re-encoded here exactly as a user saving a .kif would.
            path = os.path.join(tmp, f"g{g}.{to}")
            text = ours(a.bin, to, usi)
            if to == "kif" and "不成" in text:
                # cshogi's KIF MOVE_RE has no 不成 and silently drops such lines: it cannot judge this game.
                skipped += 1
                continue
            with open(path, "w", encoding="cp932" if to == "kif" else "utf-8") as f:
                f.write(text)
            try:
                parsed = parser.parse_file(path)
                parsed = parsed[0] if isinstance(parsed, list) else parsed
                got = [cshogi.move_to_usi(m) for m in parsed.moves]
            except Exception as e:  # cshogi failing to read our file is a mismatch too
                got = [f"<cshogi error: {e}>"]
            if got != moves:
                bad += 1
                print(f"MISMATCH game {g} (shogi-lab wrote {to}, cshogi read): {path}: {got[:3]}")
        # 2. cshogi writes, shogi-lab reads.
        for ext, exporter_cls in (("kif", cshogi.KIF.Exporter), ("csa", cshogi.CSA.Exporter)):
            path = os.path.join(tmp, f"g{g}.cshogi.{ext}")
            board = cshogi.Board()
            ex = exporter_cls(path)
            if ext == "kif":
                ex.header(["sente", "gote"])
            else:
                ex.info(board, ["sente", "gote"])
            for u in moves:
                m = board.move_from_usi(u)
                ex.move(m)
                board.push(m)
            if ext == "kif":
                ex.end("resign")
            else:
                ex.endgame("%TORYO")
            ex.close()
            try:
                line = ours(a.bin, "usi", path).strip()
                got = line.split(" moves ")[1].split() if " moves " in line else []
            except RuntimeError as e:
                got = [f"<shogi-lab error: {e}>"]
            if got != moves:
                bad += 1
                print(f"MISMATCH game {g} (cshogi wrote {ext}, shogi-lab read): {path}: {got[:3]}")
    print(
        f"games: {a.games}, moves: {total_moves}, checks: {a.games * 4 - skipped}, mismatches: {bad}, "
        f"skipped: {skipped} (our KIF contains 不成, which cshogi's KIF parser cannot read)"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
