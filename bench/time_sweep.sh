#!/usr/bin/env bash
# Times `tilefit sweep` over bench/sweep_space.json (1,000,000 candidates, sm_90) with CSV output,
# to /dev/null and to a file, and reports the wall time, user time and peak RSS of each run
# (GNU time). Usage: bench/time_sweep.sh [build dir] [runs=3]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timer=/usr/bin/time
[ -x "$timer" ] || { echo "needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 2; }
for target in /dev/null "$out"; do
  for _ in $(seq "$runs"); do
    "$timer" -f "sweep 1e6 candidates, CSV to $target: %e s wall, %U s user, %M KB max RSS" \
      "$build/tilefit" sweep bench/sweep_space.json --format csv >"$target"
  done
done
echo "rows written: $(($(wc -l <"$out") - 1))"
