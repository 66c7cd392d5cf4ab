#!/usr/bin/env bash
# Times `tilefit check` on a generated 100-config file without a GPU (--builtin, table and JSON)
# next to a bare C++ process that prints one line (build/bench/tilefit_hello), with hyperfine
# when present, else a loop of 50 runs each. Usage: bench/time_check.sh [build dir]
set -euo pipefail
build=${1:-build}
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
cmds=("$build/bench/tilefit_hello" "$build/tilefit check $tmp/100.json --builtin"
      "$build/tilefit check $tmp/100.json --builtin --format json")
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 10 -i "${cmds[@]}"
else
  for cmd in "${cmds[@]}"; do
    start=$(date +%s%N)
    for _ in $(seq 50); do $cmd >/dev/null || true; done
    end=$(date +%s%N)
    echo "$cmd: $(( (end - start) / 50000 )) us per run (mean of 50)"
  done
fi
