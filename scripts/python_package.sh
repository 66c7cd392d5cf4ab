#!/usr/bin/env bash
# The Python package as its users install it: in a fresh virtual environment, `python -m build`
# makes the sdist and, from it, the wheel (libtilefit.so and the tilefit tool built with CMake
# through scikit-build-core); pip installs the wheel; the package's tests (python/tests) run
# against the installed wheel from `/`, not against the source tree, with the real Triton 3.6
# from PyPI (compile only, no GPU). Every package from PyPI is pinned (python/constraints.txt).
# Needs python3 with venv (Debian: python3-venv) and PyPI. Usage: scripts/python_package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/build-wheel
py=${PYTHON:-python3}
if ! "$py" -c "import venv, ensurepip" 2>/dev/null; then
  echo "== installing python3-venv"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv
fi
rm -rf "$work/venv" "$work/dist"
mkdir -p "$work"
"$py" -m venv "$work/venv"
export PIP_CONSTRAINT=$root/python/constraints.txt PIP_DISABLE_PIP_VERSION_CHECK=1
# ccache when there is one (the C++ build is most of the time).
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"$work/venv/bin/pip" install -q build pytest triton
echo "== python -m build (sdist, then the wheel from it)"
"$work/venv/bin/python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
ls "$work/dist"
wheel=$(ls "$work/dist"/tilefit-*.whl)
# A platform wheel that carries the library and the tool.
"$work/venv/bin/python" - "$wheel" <<'PY'
import sys, zipfile
w = sys.argv[1]
assert "-py3-none-linux_" in w, f"{w}: not a platform-tagged wheel"
names = set(zipfile.ZipFile(w).namelist())
for need in ("tilefit/libtilefit.so", "tilefit/bin/tilefit", "tilefit/py.typed", "tilefit/__main__.py"):
    assert need in names, f"{w}: no {need}"
PY
"$work/venv/bin/pip" install -q "$wheel"
echo "== pytest python/tests against the installed wheel (from /)"
cd /
env -u TILEFIT_LIBRARY -u TILEFIT_BINARY TILEFIT_TEST_INSTALLED=1 TILEFIT_REPO="$root" \
  TRITON_CACHE_DIR="$work/triton-cache" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
