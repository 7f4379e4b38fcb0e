# Shared by the benchmark scripts (sourced): where the sources and the Release build are, building targets there,
# generating a cache once, and a median.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}

build_targets() {  # TARGET...
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
  cmake --build "$build" --target "$@" >/dev/null
}

ensure_cache() {  # MODULES DIR: a generated cache of MODULES modules, made once
  if [[ ! -d "$2" ]]; then
    echo "generating $1 modules in $2 ..."
    "$build/tests/tools/ingot-make-cache" "$2" --modules "$1" --extra-files 2
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
