#!/usr/bin/env bash
# Copy benchmark (issue 26; not pass/fail): 1 GiB (one 768 MiB neff and 256 files of 1 MiB) copied to a host and back
# over a real sshd on 127.0.0.1, against a bare `tar | ssh | tar` on the same master connection in the same round,
# ROUNDS rounds (5); prints each round and the median ratios. Needs root (the test sshd), as tst_hostcopy does.
#   ROUNDS=5 tests/benchmarks/run-copy.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_targets tst_hostcopy
INGOT_BENCH=1 INGOT_BENCH_ROUNDS=${ROUNDS:-5} QT_QPA_PLATFORM=offscreen "$build/tests/transfer/tst_hostcopy" benchmarkOneGigabyte 2>&1 |
  sed -n 's/^QINFO *: TestHostCopy::benchmarkOneGigabyte() //p'
