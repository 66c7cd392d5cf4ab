#!/usr/bin/env bash
# Times `tilefit check` on a generated 100-config file without a GPU (--builtin; table and JSON)
# next to a bare C++ process that prints one line (build/bench/tilefit_hello), and prints each one's
# ratio to the bare process. The three commands are timed in interleaved rounds (so a load that
# comes and goes hits them alike); each round runs a command RUNS times in a row and records the
# mean wall time of one run (`perf stat -r`, else a shell loop); the figure is the median over
# ROUNDS rounds. Usage: bench/time_check.sh [build dir] [rounds, default 15] [runs, default 20]
set -euo pipefail
build=${1:-build}
rounds=${2:-15}
runs=${3:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo '{"configs": ['
  for i in $(seq 0 99); do
    n=$(( (i % 4 + 1) * 32 ))
    sep=$([ "$i" -lt 99 ] && echo , || true)
    echo "{\"name\": \"c$i\", \"arch\": \"sm120\", \"tile\": [128, $n, 128], \"dtype\": \"nvfp4\", \"grouped\": $([ $((i % 2)) -eq 0 ] && echo true || echo false)}$sep"
  done
  echo ']}'
} >"$tmp/100.json"
names=("bare process" "check, table" "check --format json")
cmds=("$build/bench/tilefit_hello" "$build/tilefit check $tmp/100.json --builtin"
      "$build/tilefit check $tmp/100.json --builtin --format json")
for c in "${cmds[@]}"; do $c >/dev/null || [ $? -le 1 ]; done  # warm the page cache; exit 1 is a verdict
one_run_us() {  # mean wall microseconds of one run of "$@", over $runs runs
  if command -v perf >/dev/null && perf stat -x, -r 1 true 2>/dev/null >/dev/null; then
    perf stat -r "$runs" "$@" 2>&1 >/dev/null | awk '/seconds time elapsed/ {printf "%d\n", $1 * 1e6}'
  else
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$runs"); do "$@" >/dev/null || true; done
    end=$(date +%s%N)
    echo $(( (end - start) / runs / 1000 ))
  fi
}
for r in $(seq "$rounds"); do
  for i in "${!cmds[@]}"; do
    # shellcheck disable=SC2086
    one_run_us ${cmds[$i]} >>"$tmp/t$i"
  done
done
median() { sort -n "$1" | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
base=$(median "$tmp/t0")
echo "median of $rounds interleaved rounds of $runs runs each (wall time of one run):"
for i in "${!cmds[@]}"; do
  m=$(median "$tmp/t$i")
  printf '  %-22s %6d us  %s x the bare process  (rounds: %s .. %s us)\n' "${names[$i]}" "$m" \
    "$(awk -v a="$m" -v b="$base" 'BEGIN {printf "%.2f", a / b}')" "$(sort -n "$tmp/t$i" | head -1)" "$(sort -n "$tmp/t$i" | tail -1)"
done
