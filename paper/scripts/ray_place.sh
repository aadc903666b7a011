#!/usr/bin/env bash
# A placement count through the Ray driver against the single-process CLI run,
# one after the other (never in parallel), each bracketed by the load average.
#
# usage: paper/scripts/ray_place.sh OUT_DIR [SET] [SHARDS] [WORKERS] [which: both|ray|single]
#   SET defaults to the 39-piece −飛 set P18L4N4S4G4K2R1B2 (7 466 522 698 296,
#   specs/placement.md; ~30 CPU-min a run), SHARDS to 16, WORKERS to 2.
#   Needs target/release/shogi-lab (cargo build --release) and shogi_lab + ray in the
#   active Python (pip install . "ray>=2.9"). OUT_DIR (outside the repository) gets
#   single.json/.time, ray/ (the driver's --out: shards with cpu_s, merged.json),
#   ray.time and the uptime lines; rerunning resumes the Ray job from its finished shards.
# Ray starts its workers at nice 15; RAY_worker_niceness=0 runs them at the CLI's
# priority so that on a shared machine both runs compete for CPU alike.
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [SET] [SHARDS] [WORKERS] [both|ray|single]}
set_=${2:-P18L4N4S4G4K2R1B2}
shards=${3:-16}
workers=${4:-2}
which=${5:-both}
exe=$(pwd)/target/release/shogi-lab
[ -x "$exe" ] || { echo "shogi-lab binary not found: $exe (cargo build --release)" >&2; exit 2; }
mkdir -p "$out"
fmt='%e wall %U user %S sys %M maxrssKB'

if [ "$which" != single ]; then
  { date -u; uptime; } >"$out/ray.uptime-start"
  RAY_worker_niceness=0 /usr/bin/time -f "$fmt" -o "$out/ray.time" \
    python -m shogi_lab.cluster place "$set_" --sweep --shards "$shards" --workers "$workers" \
    --out "$out/ray" >"$out/ray.json"
  { date -u; uptime; } >"$out/ray.uptime-end"
fi
if [ "$which" != ray ]; then
  { date -u; uptime; } >"$out/single.uptime-start"
  /usr/bin/time -f "$fmt" -o "$out/single.time" "$exe" place --count --sweep --json "$set_" >"$out/single.json"
  { date -u; uptime; } >"$out/single.uptime-end"
fi
python - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
if os.path.exists(f"{out}/ray/merged.json"):
    m = json.load(open(f"{out}/ray/merged.json"))
    print("ray:", json.dumps(m))
    for p in sorted(glob.glob(f"{out}/ray/shard-*.json"), key=lambda p: int(p.split("-")[-3])):
        s = json.load(open(p))
        print(f"  {s['shard']}: count {s['count']} layouts {s['layouts']} states {s['states']} cpu_s {s['cpu_s']} "
              f"task wall {s['time_ms'] / 1000:.1f} s")
if os.path.exists(f"{out}/single.json"):
    print("single:", open(f"{out}/single.json").read().strip(), "|", open(f"{out}/single.time").read().strip())
PY
