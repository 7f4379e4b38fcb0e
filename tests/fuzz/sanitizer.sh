#!/usr/bin/env bash
# The core tests under AddressSanitizer + UndefinedBehaviorSanitizer, and a short fuzzing pass of every parser,
# in a build of its own made with clang (no GUI: the core rooms, ingot-cli and their tests).
#   tests/fuzz/sanitizer.sh SOURCE_DIR BUILD_DIR [CLANG++]     (FUZZ_SECONDS=60 by default)
# Run by the test suite as `sanitizer_core_and_fuzz`. Fails on any test failure, sanitizer report or fuzz crash.
set -euo pipefail
src=$1
build=$2
cxx=${3:-clang++-14}
secs=${FUZZ_SECONDS:-60}
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DINGOT_FUZZ=ON -DINGOT_BUILD_GUI=OFF -DINGOT_SANITIZER_TESTS=OFF -DINGOT_FUZZ_SECONDS="$secs" >/dev/null
cmake --build "$build" -j"$(nproc)"
# Qt keeps some process-wide allocations until exit: leaks are checked by the fuzzers, not in the unit tests.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" -j2 --output-on-failure -E 'backend_train|hub_conformance|tst_hubconformance' \
  | grep -v '^QWARN' | tail -n 60
exit "${PIPESTATUS[0]}"
