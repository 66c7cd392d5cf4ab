#!/usr/bin/env bash
# Set-up command 2 (README): build the rest (the test suite, the C library, the benchmarks) and run
# every test with CTest.
# Tests labelled `gpu` skip themselves where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
