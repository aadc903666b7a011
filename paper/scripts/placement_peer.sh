#!/usr/bin/env bash
# Side-by-side timing of the 40-piece one-directional 利かずの駒並べ:
# a peer binary (komori-n/shogi-piece-placement, C++, built by hand outside
# this repository; this script never builds it) against `shogi-lab place`.
#
# usage: paper/scripts/placement_peer.sh PEER_BINARY [SHOGI_LAB_BINARY] [REPEATS]
#   SHOGI_LAB_BINARY defaults to target/release/shogi-lab (run `cargo build --release` first).
# Prints a markdown table (wall seconds of each run, best of REPEATS, default 3).
set -euo pipefail
peer=${1:?usage: $0 PEER_BINARY [SHOGI_LAB_BINARY] [REPEATS]}
ours=${2:-target/release/shogi-lab}
repeats=${3:-3}
set_=P18L4N4S4G4K2R2B2
[ -x "$peer" ] || { echo "peer binary not executable: $peer" >&2; exit 2; }
[ -x "$ours" ] || { echo "shogi-lab binary not found: $ours (cargo build --release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best wall time (s) of $repeats runs of "$@", stdout of the last run kept in $tmp/out
best() {
  local b=""
  for _ in $(seq "$repeats"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >"$tmp/out" 2>/dev/null
    t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 ${b:-1e9}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  printf '%.3f' "$b"
}

echo "| program | command | result | wall s (best of $repeats) |"
echo "|---|---|---|---|"
t=$(best "$peer" -a "$set_")
r=$(grep -o 'found [0-9]* solutions' "$tmp/out" | tail -1)
echo "| peer | \`$peer -a $set_\` | $r (listed) | $t |"
t=$(best "$ours" place --count --json "$set_")
r=$(grep -o '"count":[0-9]*' "$tmp/out" | tail -1)
n=$(grep -o '"nodes":[0-9]*' "$tmp/out" | tail -1)
echo "| shogi-lab | \`$ours place --count --json $set_\` | $r, $n (counted, 2 threads) | $t |"
t=$(best "$ours" place --all "$set_")
r=$(grep -c '/' "$tmp/out" || true)
echo "| shogi-lab | \`$ours place --all $set_\` | $r SFEN lines (listed, each checked, 1 thread) | $t |"
echo
echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end of the run."
