#!/usr/bin/env bash
# Renders a `shogi-lab show --svg` picture to PNG with headless Chromium, to check
# the SVG the way a browser draws it.
# Needs the Debian packages chromium and fonts-noto-cjk (installed with apt-get if missing).
# Usage: paper/scripts/render_svg.sh IN.svg OUT.png   (every figure: render_figures.sh)
set -euo pipefail
in=$(realpath "$1")
out=$(realpath -m "$2")
if ! command -v chromium >/dev/null || ! fc-list | grep -qi "Noto.*CJK"; then
    apt-get install -y -q chromium fonts-noto-cjk >/dev/null
fi
# The picture's size from the root element's width/height attributes.
# (grep -m1 on the first lines: `grep | head` dies of SIGPIPE under pipefail on a large file.)
root=$(grep -m1 '<svg' "$in")
w=$(grep -o -m1 'width="[0-9]*"' <<<"$root" | tr -dc 0-9)
h=$(grep -o -m1 'height="[0-9]*"' <<<"$root" | tr -dc 0-9)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
    --window-size="$w,$h" --screenshot="$out" "file://$in" 2>/dev/null
echo "$out (${w}x${h})"
