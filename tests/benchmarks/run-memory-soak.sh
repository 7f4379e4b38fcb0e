#!/usr/bin/env bash
# GUI memory soak (issue 26: memory of the GUI with a 100k cache open for an hour, the watcher on).
#   tests/benchmarks/run-memory-soak.sh [SECONDS] [MODULES] [CACHE_DIR]
# Builds Ingot (Release), generates a cache of MODULES modules (default 100000) once, starts the GUI offscreen on it
# (a settings folder of its own: watching for changes is on, the default), and for SECONDS (default 3600) keeps the
# cache changing the way compiles change it: every 5 s a module folder is created, locked, filled, unlocked (the
# watcher rescans), and every 60 s the ones it made are removed again. Samples the GUI's resident memory every
# 30 s and prints the samples, the first after the first scan, the peak, the last, and the growth per hour from a
# least-squares line over the second half. Figures are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/common.sh"
seconds=${1:-3600}
modules=${2:-100000}
cache=${3:-/var/tmp/ingot-bench-soak-$modules/cache}

build_targets ingot ingot-make-cache
ensure_cache "$modules" "$cache"
version=$(ls "$cache" | grep '^neuronxcc-' | sort | tail -1)
work=$(mktemp -d)
trap 'kill "$gui" 2>/dev/null || true; rm -rf "$work" "$cache/$version"/MODULE_soak*' EXIT
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache HOME=$work QT_QPA_PLATFORM=offscreen
"$build/app/ingot" --cache-dir "$cache" >"$work/gui.log" 2>&1 &
gui=$!
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$gui/status"; }
sleep 20  # the first scan
start=$(date +%s); n=0
echo "t_s rss_kb"
samples=()
while (( $(date +%s) - start < seconds )); do
  t=$(( $(date +%s) - start ))
  if (( t % 30 < 5 )); then r=$(rss); samples+=("$t $r"); echo "$t $r"; fi
  m="$cache/$version/MODULE_soak$n+d41d8cd9"; n=$((n + 1))
  mkdir "$m"; : >"$m/model.hlo_module.pb.lock"; head -c 65536 /dev/urandom >"$m/model.hlo_module.pb"
  sleep 1; head -c 65536 /dev/urandom >"$m/model.neff"; rm "$m/model.hlo_module.pb.lock"
  (( n % 12 == 0 )) && rm -rf "$cache/$version"/MODULE_soak*
  kill -0 "$gui" 2>/dev/null || { echo "the GUI exited: $(tail -5 "$work/gui.log")"; exit 1; }
  sleep 4
done
printf '%s\n' "${samples[@]}" | awk -v secs="$seconds" '
  {t[NR]=$1; r[NR]=$2; if ($2 > peak) peak = $2}
  END {
    h = int(NR / 2) + 1; n = 0; sx = sy = sxx = sxy = 0
    for (i = h; i <= NR; i++) { n++; sx += t[i]; sy += r[i]; sxx += t[i] * t[i]; sxy += t[i] * r[i] }
    slope = (n > 1 && n * sxx != sx * sx) ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
    printf "GUI, 100k modules, watcher on, %d s: first %.1f MB, peak %.1f MB, last %.1f MB, second half %+.1f MB per hour\n",
      secs, r[1] / 1024, peak / 1024, r[NR] / 1024, slope * 3600 / 1024
  }'
echo "$(nproc) cores, $(date -u +%F)"
