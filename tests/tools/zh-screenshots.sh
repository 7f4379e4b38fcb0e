#!/usr/bin/env bash
# The window in Chinese for docs/screenshots/zh_CN/: runs the screenshot tour (tests/ui/tst_screenshottour: every
# page with a sample cache, the empty cache page, Settings, the consolidation wizard) with INGOT_LANGUAGE=zh_CN, the
# translation installed as the app installs it, and keeps its pictures. The tour fails if a text is clipped.
#   tests/tools/zh-screenshots.sh [BUILD_DIR]     (default: build; the test is built first)
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$src/build}")
if ! fc-list :lang=zh family | grep -q .; then
  echo "zh-screenshots: no font with Chinese glyphs is installed; install one first (Debian: apt-get install fonts-noto-cjk)" >&2
  exit 2
fi
cmake --build "$build" -j2 --target tst_screenshottour

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/runtime"
env QT_QPA_PLATFORM=offscreen INGOT_LANGUAGE=zh_CN INGOT_SCREENSHOT_DIR="$work/shots" \
    XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work/runtime" \
    "$build/tests/ui/tst_screenshottour"
out="$src/docs/screenshots/zh_CN"
rm -rf "$out"
mkdir -p "$out"
cp "$work"/shots/*.png "$out/"
ls "$out"
