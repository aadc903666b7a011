#!/usr/bin/env bash
# Renders every figure SVG that `shogi-lab experiments` wrote into DIR (default
# paper/results) to a PNG beside it, with headless Chromium (render_svg.sh: Debian
# packages chromium and fonts-noto-cjk, installed with apt-get if missing).
# Usage: paper/scripts/render_figures.sh [DIR]
set -euo pipefail
here=$(dirname "$0")
dir=${1:-paper/results}
shopt -s nullglob
svgs=("$dir"/*.svg)
if [ ${#svgs[@]} -eq 0 ]; then
    echo "no SVG in $dir: run \`cargo run --release -- experiments --out $dir\` (or --figures-only) first" >&2
    exit 2
fi
for svg in "${svgs[@]}"; do
    "$here/render_svg.sh" "$svg" "${svg%.svg}.png"
done
