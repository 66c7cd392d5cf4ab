#!/usr/bin/env bash
# Set-up command 2 (README): build the rest (the test suite, the C library, the benchmarks) and run
# every test with CTest. Tests labelled `gpu` skip themselves where no GPU is present. Then the
# Python package, installed as users install it (scripts/python_package.sh; needs PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The Python package as users install it (a fresh venv, the wheel, pytest against it, the real
# Triton from PyPI): scripts/python_package.sh. TILEFIT_PYTHON_PACKAGE=0 leaves it out (no PyPI).
if [ "${TILEFIT_PYTHON_PACKAGE:-1}" != 0 ]; then
  scripts/python_package.sh
fi
