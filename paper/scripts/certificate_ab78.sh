#!/bin/bash
# Alternating A/B of two shogi-lab binaries on the length certificates of 図巧/無双 1-39
# (78 problems) at 2 M nodes: for each problem, OLD then NEW, each
# `tsume <problem> --nodes 2000000 --certificate DIR/c.jsonl` under /usr/bin/time.
# One row per problem and binary in OUT (TSV): id, binary, "user sys maxrss_kb",
# length certified (0/1), length-certificate nodes.
# Usage (from the repository root): bash paper/scripts/certificate_ab78.sh OLD NEW OUT
# Session 25: OLD = e61f1cb, NEW = the by_checker leaves (paper/results/certificates.md).
set -euo pipefail
old=$1 new=$2 out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' specs/tsume/classics.sfen | grep -P '^(zukou|musou)-0([0-2][0-9]|3[0-9])\t' > "$work/set.sfen"
: > "$out"
while IFS= read -r line; do
  id=$(cut -f1 <<< "$line")
  printf '%s\n' "$line" > "$work/one.sfen"
  for b in "$old" "$new"; do
    rm -rf "$work/cert" && mkdir "$work/cert"
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$b" tsume "$work/one.sfen" --nodes 2000000 \
      --certificate "$work/cert/c.jsonl" > "$work/stdout" 2> "$work/stderr" || true
    t=$(tail -1 "$work/time")
    certified=$(grep -c "shortest certified:" "$work/stdout" || true)
    nodes=$(grep -o "shortest certified: .*  [0-9]* nodes" "$work/stdout" | grep -o "[0-9]* nodes" | head -1 || true)
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$b" "$t" "$certified" "$nodes" >> "$out"
  done
done < "$work/set.sfen"
