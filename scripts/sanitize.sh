#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang, no CUDA).
# Usage: scripts/sanitize.sh [build dir]
# The same build holds the libFuzzer target (-DTILEFIT_FUZZ=ON: every library also carries
# coverage instrumentation), so CI's fuzz run (FUZZ_BUILD=build-asan scripts/fuzz.sh) builds only it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
# -O1 with line tables only (what the sanitizers' documentation suggests): reports still name file
# and line, and the build takes less of CI's time than -O2 -g.
CXX=clang++ CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEFIT_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
  -DTILEFIT_FUZZ=ON -DTILEFIT_WITH_CUDA=OFF -DTILEFIT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -LE package  # package: an unsanitized install
