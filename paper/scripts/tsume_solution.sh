#!/bin/bash
# The solution (default) against the first proof found (--any-mate) on a problem file,
# one problem at a time, the two modes alternating; node limits make the counts
# reproducible. Prints one JSON line per (problem, mode) and a summary.
# usage: tsume_solution.sh BIN FILE NODES OUT.jsonl [MODES]
#   MODES: "solution any-mate" (default) or one of them.
#   TSUME_FLAGS (environment): more flags for every run, e.g. "--no-certify" to measure the
#   solver alone (session 13 on: the default mode's length certificate costs 1-9x the solve).
set -euo pipefail
bin=$1; file=$2; nodes=${3:-1000000}; out=${4:-/dev/stdout}; modes=${5:-"solution any-mate"}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: > "$tmp/all"
grep -v '^#' "$file" | while IFS=$'\t' read -r id sfen ref rest; do
  [ -z "$id" ] && continue
  for mode in $modes; do
    flag=(); [ "$mode" = any-mate ] && flag=(--any-mate)
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" tsume "$sfen" --json --nodes "$nodes" --memory 512 "${flag[@]}" ${TSUME_FLAGS:-} > "$tmp/o" 2>/dev/null || true
    python3 - "$id" "$mode" "$ref" "$tmp/o" "$tmp/t" >> "$tmp/all" <<'PY'
import json, sys
id_, mode, ref, o, t = sys.argv[1:]
out = open(o).read().strip().splitlines()
u, s = map(float, open(t).read().split()[-2:])
if not out:
    # No JSON line: the process died (a crash is a finding, not a reason to stop the run).
    print(json.dumps({"id": id_, "mode": mode, "reference": int(ref) if ref.isdigit() else None,
      "result": "crashed", "plies": None, "shortest": None, "no_mate_within": None,
      "nodes": 0, "cpu_s": round(u + s, 2)}))
    sys.exit(0)
d = json.loads(out[-1])
print(json.dumps({"id": id_, "mode": mode, "reference": int(ref) if ref.isdigit() else None,
  "result": d["result"], "plies": d["plies"], "shortest": d.get("shortest"),
  "no_mate_within": d.get("no_mate_within"),
  "nodes": d["nodes"], "cpu_s": round(u + s, 2)}))
PY
  done
done
cp "$tmp/all" "$out"
python3 - "$tmp/all" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for mode in ("solution", "any-mate"):
    r = [x for x in rows if x["mode"] == mode]
    if not r:
        continue
    mate = [x for x in r if x["result"] == "mate"]
    crashed = [x["id"] for x in r if x["result"] == "crashed"]
    if crashed:
        print(f"{mode}: CRASHED on {', '.join(crashed)}")
    print(f"{mode}: {len(r)} problems, {len(mate)} mate, "
          f"{sum(1 for x in mate if x['shortest'])} proven shortest, "
          f"{sum(1 for x in mate if x['plies'] == x['reference'])} at the upstream length, "
          f"nodes {sum(x['nodes'] for x in r)}, CPU {sum(x['cpu_s'] for x in r):.1f} s")
PY
