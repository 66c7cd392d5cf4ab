#!/usr/bin/env bash
# Times `tilefit check` over every tuned table of the engines' folders on six architectures, as
# JSON, the way a CI gate would run it (issue 16: about 1,080 files in 1 s or less):
#
#   tilefit check FOLDER... --arch sm_80,sm_86,sm_89,sm_90,sm_100,sm_120 --format json > /dev/null
#
# The tables are not in the repository: give the engines' tuned folders (vLLM's
# vllm/model_executor/layers, SGLang's python/sglang, or the config folders themselves).
# Prints what one run read (files, results, errors, warnings, files skipped: from a run to a
# file), then the median and the fastest of RUNS timed runs (wall, user and system seconds).
# Usage: bench/tables_bench.sh [-b build dir] [-n runs, default 11] FOLDER...
set -euo pipefail
build=build
runs=11
while getopts "b:n:" o; do
  case $o in
    b) build=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) echo "usage: $0 [-b build dir] [-n runs] FOLDER..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-b build dir] [-n runs] FOLDER..." >&2; exit 2; }
tilefit=$build/tilefit
archs=sm_80,sm_86,sm_89,sm_90,sm_100,sm_120
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run to a file, for the counts (and to warm the page cache). Exit 1 (a verdict) and 2 (input
# errors in the tables) are results, not failures of the benchmark.
"$tilefit" check "$@" --arch "$archs" --format json >"$tmp/out.json" 2>"$tmp/err.txt" || [ $? -le 2 ]
tables=0
for d in "$@"; do
  tables=$((tables + $(find -L "$d" -type f \( -name 'E=*.json' -o -name 'N=*.json' \) | wc -l)))
done
python3 - "$tmp/out.json" "$tmp/err.txt" "$tables" <<'PY'
import collections, json, sys
doc = json.load(open(sys.argv[1]))
s = doc["summary"]
warnings = collections.Counter(
    d["code"] for r in doc["results"] for d in r["diagnostics"] if d["severity"] == "warning")
notes = sum(1 for line in open(sys.argv[2]) if line.startswith("note: "))
print(f"tables read: {sys.argv[3]}; results: {s['configs']} ({s['fits']} fit, "
      f"{s['does_not_fit']} do not fit, {s['invalid']} invalid); errors: {s['errors']}; "
      f"files skipped: {s.get('files_skipped', 0)} ({notes} notes)")
print("warnings on results: " + (", ".join(f"{c} {n}" for c, n in warnings.most_common()) or "none"))
PY
echo "output: $(wc -c <"$tmp/out.json") bytes of JSON"

for _ in $(seq "$runs"); do
  /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$tilefit" check "$@" --arch "$archs" --format json \
    >/dev/null 2>/dev/null || [ $? -le 2 ]
  grep -E '^[0-9.]+ [0-9.]+ [0-9.]+$' "$tmp/t" >>"$tmp/times"  # not "Command exited with ..."
done
sort -n "$tmp/times" | awk -v n="$runs" '
  { wall[NR] = $1; user[NR] = $2; sys[NR] = $3 }
  END {
    m = int((n + 1) / 2)
    printf "%d runs: median %.2f s wall (%.2f s user, %.2f s system); fastest %.2f s wall\n",
           n, wall[m], user[m], sys[m], wall[1]
  }'
