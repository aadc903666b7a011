#!/bin/bash
# Classics one at a time in the default mode (the solution) with a large node limit, one
# JSON line per problem with the solver's answer and the process's CPU and peak memory.
# usage: tsume_tail.sh BIN NODES MEMORY_MIB OUT.jsonl ID...
#   (ids of specs/tsume/classics.sfen; the solver alone: --no-certify)
set -euo pipefail
bin=$1; nodes=$2; mem=$3; out=$4; shift 4
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$tmp/all"
for id in "$@"; do
  sfen=$(grep -P "^$id\t" "$here/specs/tsume/classics.sfen" | cut -f2 || true)
  [ -n "$sfen" ] || { echo "tsume_tail.sh: no problem $id in specs/tsume/classics.sfen" >&2; exit 2; }
  /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$bin" tsume "$sfen" --json --nodes "$nodes" \
    --memory "$mem" --no-certify > "$tmp/o" 2>/dev/null || true
  python3 - "$id" "$tmp/o" "$tmp/t" >> "$tmp/all" <<'PY'
import json, sys
id_, o, t = sys.argv[1:]
u, s, rss = open(t).read().split()[-3:]
lines = open(o, encoding='utf-8').read().strip().splitlines()
d = json.loads(lines[-1]) if lines else {"result": "crashed", "plies": None, "shortest": None,
    "no_mate_within": None, "mate_within": None, "nodes": 0, "usi": None}
print(json.dumps({"id": id_, "result": d["result"], "plies": d["plies"], "shortest": d["shortest"],
  "no_mate_within": d["no_mate_within"], "mate_within": d.get("mate_within"), "nodes": d["nodes"],
  "cpu_s": round(float(u) + float(s), 2), "max_rss_kib": int(rss), "usi": d["usi"]},
  ensure_ascii=False))
PY
  tail -n 1 "$tmp/all" | cut -c1-160 >&2
done
cp "$tmp/all" "$out"
