#!/usr/bin/env bash
# Bounded libFuzzer run (AddressSanitizer + UndefinedBehaviorSanitizer) over bytes -> JSON ->
# configs -> model -> table and JSON reports, seeded from configs/ and tests/data/.
#   scripts/fuzz.sh [seconds=30] [extra libFuzzer flags, e.g. -runs=10000000 -jobs=2]
# FUZZ_SEED=0 gives every job a random seed (libFuzzer -seed=0); the default 1 is repeatable.
# Builds build-fuzz/ (clang) first, or FUZZ_BUILD (CI: build-asan, made by scripts/sanitize.sh). Exits non-zero on any finding; the input that caused it
# is left in build-fuzz/fuzz-findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
if [ -f "$build/CMakeCache.txt" ] && grep -q '^TILEFIT_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  # A sanitizer build that already has the fuzz target (scripts/sanitize.sh makes one): reuse it
  # as it is configured (its tests stay built).
  :
else
  CXX=clang++ CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEFIT_SANITIZE=ON \
    -DTILEFIT_FUZZ=ON -DTILEFIT_WITH_CUDA=OFF -DTILEFIT_BUILD_TESTS=OFF -DTILEFIT_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target tilefit_fuzz

corpus=${FUZZ_CORPUS:-$(mktemp -d)}
[ -n "${FUZZ_CORPUS:-}" ] || trap 'rm -rf "$corpus"' EXIT
mkdir -p "$corpus"
cp configs/*.json "$corpus"/
find tests/data -name '*.json' -size -64k -exec cp {} "$corpus"/ \;
# Each ground-truth line as it is (an object the reader rejects field by field) and its
# "config" object wrapped in an array (accepted).
split -l 1 -a 3 tests/data/cutlass-4.7.jsonl "$corpus/gt_"
for f in "$corpus"/gt_???; do
  sed -e 's/^{"id": "[^"]*", "config": /[/' -e 's/, "expect": .*$/]/' "$f" >"$f.cfg.json"
done
mkdir -p "$build/fuzz-findings"
ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/tilefit_fuzz" "$corpus" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" \
  -max_len=8192 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$build/fuzz-findings/" \
  -print_final_stats=1 "$@"
