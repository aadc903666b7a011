#!/bin/bash
# A/B of shogi-lab binaries on tsume problems: one process per problem and binary, the
# binaries alternating problem by problem; one line per run appended to OUT:
#   <binary name> <id> <user CPU s> <system CPU s> <nodes> <plies> <shortest>
# usage: paper/scripts/tsume_ab.sh PROBLEMS.sfen MEMORY_MIB NODES OUT BIN1 BIN2 ...
set -eu
f=$1; mem=$2; nodes=$3; out=$4; shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS= read -r line || [ -n "$line" ]; do
  [ -z "$line" ] && continue; case "$line" in \#*) continue;; esac
  id=$(printf '%s\n' "$line" | cut -f1); printf '%s\n' "$line" > "$tmp/one.sfen"
  for b in "$@"; do
    t=$( { /usr/bin/time -f "%U %S" "$b" tsume "$tmp/one.sfen" --json --nodes "$nodes" --memory "$mem" --no-certify > "$tmp/out.json"; } 2>&1 | tail -1)
    n=$(python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print(d['nodes'],d['plies'],d['shortest'])" "$tmp/out.json")
    echo "$(basename "$b") $id $t $n" >> "$out"
  done
done < "$f"
