#!/usr/bin/env bash
# Set-up command 1 (README): on a fresh Debian 12 machine, install whatever is missing, build
# tilefit, and run `tilefit check` on the shipped configs/ with the built-in table.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
          pkg-config python3-jsonschema  # scripts/consumer.sh, scripts/validate_schema.py
          librsvg2-bin  # rsvg-convert: CTest svg_render draws the SVG pictures
          python3-pytest  # the Python package's tests (CTest python_package)
          clang libclang-rt-14-dev  # clang + its runtime: scripts/sanitize.sh, scripts/fuzz.sh
          clang-format  # CTest format: the tree is formatted (.clang-format, docs/dev/house-rules.md)
          mkdocs)  # CTest docs_site: the docs build as a site, broken links failing (mkdocs.yml)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "== building the tilefit tool (CUDA is optional: a toolkit found by CMake enables the device query)"
# Only the tool: the test suite, the benchmarks and the C library are built by scripts/test.sh.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target tilefit

echo "== tilefit check configs/*.json --builtin"
set +e
./build/tilefit check configs/*.json --builtin
rc=$?
set -e
case $rc in
  0) echo "== every shipped config fits" ;;
  1) echo "== exit 1: some shipped configs do not fit or are invalid, on purpose (see the notes above)" ;;
  *) echo "== tilefit check failed with exit $rc" >&2; exit "$rc" ;;
esac
