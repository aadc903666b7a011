#!/usr/bin/env bash
# A placement count through the Ray driver against the single-process CLI run,
# one after the other (never in parallel), each bracketed by the load average.
#
# usage: paper/scripts/ray_place.sh OUT_DIR [SET] [SHARDS] [WORKERS] [which: both|ray|single]
#   SET defaults to the 39-piece −飛 set P18L4N4S4G4K2R1B2 (7 466 522 698 296,
#   specs/placement.md; ~30 CPU-min a run), SHARDS to 16, WORKERS to 2.
#   Needs target/release/shogi-lab (cargo build --release) and shogi_lab + ray in the
#   active Python (pip install . "ray>=2.9"). OUT_DIR (outside the repository) gets
#   single.json/.time/.cmd, ray/ (the driver's --out: shards with cpu_s, merged.json),
#   ray.time/.cmd and the uptime lines; rerunning resumes the Ray job from its finished
#   shards. Ends with the Markdown report (paper/scripts/ray_place_report.py OUT_DIR).
# Ray starts its workers at nice 15; RAY_worker_niceness=0 runs them at the CLI's
# priority so that on a shared machine both runs compete for CPU alike.
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [SET] [SHARDS] [WORKERS] [both|ray|single]}
set_=${2:-P18L4N4S4G4K2R1B2}
shards=${3:-16}
workers=${4:-2}
which=${5:-both}
expect=
[ "$set_" = P18L4N4S4G4K2R1B2 ] && expect=7466522698296   # specs/placement.md
exe=$(pwd)/target/release/shogi-lab
[ -x "$exe" ] || { echo "shogi-lab binary not found: $exe (cargo build --release)" >&2; exit 2; }
mkdir -p "$out"
fmt='%e wall %U user %S sys %M maxrssKB'

if [ "$which" != single ]; then
  cmd=(python -m shogi_lab.cluster place "$set_" --sweep --shards "$shards" --workers "$workers" --out "$out/ray")
  echo "RAY_worker_niceness=0 ${cmd[*]}" >"$out/ray.cmd"
  { date -u; uptime; } >"$out/ray.uptime-start"
  RAY_worker_niceness=0 /usr/bin/time -f "$fmt" -o "$out/ray.time" "${cmd[@]}" >"$out/ray.json"
  { date -u; uptime; } >"$out/ray.uptime-end"
fi
if [ "$which" != ray ]; then
  { date -u; uptime; } >"$out/single.uptime-start"
  echo "shogi-lab place --count --sweep --json $set_" >"$out/single.cmd"
  /usr/bin/time -f "$fmt" -o "$out/single.time" "$exe" place --count --sweep --json "$set_" >"$out/single.json"
  { date -u; uptime; } >"$out/single.uptime-end"
fi
python "$(dirname "$0")/ray_place_report.py" "$out" ${expect:+--expect "$expect"}
