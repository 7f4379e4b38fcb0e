#!/usr/bin/env bash
# The room rules of cmake/IngotRooms.cmake reject each kind of leak: configures tests/rooms once per case and checks
# that a clean tree configures and that every leak stops the configure step with its own message.
#   rooms_check.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
fail=0
run() {  # case, expected: "ok" or a message fragment
  local b="$work/$1" out
  rm -rf "$b"
  out=$(cmake -S "$src/tests/rooms" -B "$b" -G Ninja -DINGOT_SOURCE="$src" -DCASE="$1" 2>&1); local rc=$?
  if [[ $2 == ok ]]; then
    if ((rc != 0)); then echo "FAIL $1: expected to configure"; echo "$out"; fail=1; else echo "ok   $1"; fi
  elif ((rc == 0)); then
    echo "FAIL $1: configured, expected: $2"; fail=1
  elif ! grep -qF -- "$2" <<<"$(tr -s ' \n' ' ' <<<"$out")"; then
    echo "FAIL $1: expected '$2' in:"; echo "$out"; fail=1
  else
    echo "ok   $1 (refused)"
  fi
}
run clean ok
run app-from-below 'services/jobs/j.cpp: #include "app/cli/cmd.h"'
run unused-room 'room ingot_services_jobs declares ingot_services_cache (services/cache) but none of its sources includes a header from it'
run cli-includes-ui 'app/cli/cmd.cpp: #include "ui/jobs/page.h" cli may include only from'
run undeclared-room 'services/jobs/j.cpp: #include "services/cache/c.h"'
exit $fail
