#!/usr/bin/env bash
# tilefit inside someone else's build, the ways docs/guide/library.md documents, from a clean install:
#   1. cmake --install to a temporary prefix (only tilefit.hpp and tilefit.h as headers); a project
#      finds it with find_package(tilefit), links tilefit::tilefit (tests/consumer/launcher.cpp,
#      C++17 and C++20), tilefit::device and tilefit::c (c_launcher.c, C99), and checks configs at
#      configure time with tilefit_check_configs(): ok.json passes, finalize.json stops configuration.
#   2. pkg-config: the same launchers compiled by hand against tilefit.pc, tilefit-device.pc and
#      tilefit-c.pc (c++ -std=c++17 / -std=c++20, cc -std=c99).
#   3. the Python package from the install (PYTHONPATH=P/lib/python3/site-packages).
#   4. add_subdirectory (as FetchContent does): the check runs at build time and fails the build.
# Both ways: editing a checked file so that a config no longer fits makes the next
# `cmake --build` check again and fail; a file with no configs is an error that names it.
# Usage: scripts/consumer.sh [tilefit build dir] [--no-subdirectory]
# Run by CTest (test `package_consumer`) and so by scripts/test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
subdirectory=1
[ "${2:-}" = "--no-subdirectory" ] && subdirectory=0
work=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
consumer=$root/tests/consumer
finalize='{"arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"}'
fail() { echo "consumer: FAIL: $*" >&2; exit 1; }

# expect RC COMMAND...: run it, keep its output in $work/out, compare the exit status
# (RC "fail": any non-zero status, as build tools differ).
expect() {
  local want=$1; shift
  set +e; "$@" >"$work/out" 2>&1; local rc=$?; set -e
  if [ "$want" = fail ]; then
    [ "$rc" -ne 0 ] || { cat "$work/out" >&2; fail "exit 0, expected a failure: $*"; }
  else
    [ "$rc" -eq "$want" ] || { cat "$work/out" >&2; fail "exit $rc, expected $want: $*"; }
  fi
}
contains() { grep -qF -- "$1" "$work/out" || { cat "$work/out" >&2; fail "output lacks: $1"; }; }
# The same across the line breaks CMake puts into long messages.
contains_flat() {
  tr '\n' ' ' <"$work/out" | tr -s ' ' | grep -qF -- "$1" || { cat "$work/out" >&2; fail "output lacks: $1"; }
}

echo "== install to $work/prefix"
expect 0 cmake --install "$build" --prefix "$work/prefix"
[ -f "$work/prefix/include/tilefit/tilefit.hpp" ] || fail "tilefit.hpp not installed"
[ -x "$work/prefix/bin/tilefit" ] || fail "bin/tilefit not installed"
[ -f "$work/prefix/lib/cmake/tilefit/tilefitConfig.cmake" ] || fail "tilefitConfig.cmake not installed"
headers=$(cd "$work/prefix/include" && find . -type f | sort | tr '\n' ' ')
[ "$headers" = "./tilefit/tilefit.h ./tilefit/tilefit.hpp " ] || fail "installed headers: $headers (expected tilefit.h and tilefit.hpp only)"
[ -f "$work/prefix/lib/libtilefit.so" ] || fail "libtilefit.so not installed"
# The public headers stand alone: C++17 (and 20) with every warning, C99 pedantic.
for std in 17 20; do
  expect 0 sh -c "echo '#include <tilefit/tilefit.hpp>' | c++ -std=c++$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I'$work/prefix/include' -x c++ -"
done
expect 0 sh -c "echo '#include <tilefit/tilefit.h>' | cc -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only -I'$work/prefix/include' -x c -"
# libtilefit.so exports the C ABI and nothing else.
if command -v nm >/dev/null; then
  others=$(nm -D --defined-only "$work/prefix/lib/libtilefit.so" | awk '{print $3}' | grep -v '^tilefit_' || true)
  [ -z "$others" ] || fail "libtilefit.so exports more than tilefit_*: $(echo "$others" | head -5 | tr '\n' ' ')"
fi

zero='{"arch": "sm_120", "tile": [128, 0, 128], "dtype": "nvfp4"}'
# check_cxx DIR: the C++ launchers (the FINALIZE answer, InputError naming "tile", GPU 0 or a DeviceError).
check_cxx() {
  # The seed's FINALIZE tile: does not fit, 102400 B, the builder's 3 stages, at most 2, limit 101376.
  expect 1 "$1/launcher" "$finalize"
  contains "does_not_fit on sm_120: 102400 B of 101376 B at 3 stages (the builder's); at most 2 fit"
  contains "needs 102400 B > 101376 B (over by 1024 B)"
  expect 2 "$1/launcher" "$zero"
  contains 'field "tile": 0 is not a valid tile extent'
  contains '[field: tile]'
  set +e; "$1/device_launcher" "$finalize" device >"$work/out" 2>&1; local rc=$?; set -e
  case $rc in
    0|1) contains "on sm_" ;;       # a GPU answered
    3) contains "CUDA" ;;            # no GPU (or built without CUDA): DeviceError's line
    *) cat "$work/out" >&2; fail "device_launcher: exit $rc" ;;
  esac
}
# check_c PROGRAM: the C ABI gives the same answer, and the batch call.
check_c() {
  expect 1 env LD_LIBRARY_PATH="$work/prefix/lib" "$1" "$finalize"
  contains '"status":"does_not_fit"'
  contains '"stages":3,"auto_stages":true,"max_stages":2,"max_stages_smem_bytes":74752,"smem_bytes":102400,"limit_bytes":101376'
  contains 'batch: [[1,102400,3,2,74752],[1,102400,3,2,74752],{"status":"error","kind":"input","file":"<config>","index":2,"config":"#2","field":"tile","message":"0 is not a valid tile extent'
  expect 2 env LD_LIBRARY_PATH="$work/prefix/lib" "$1" "$zero"
  contains 'error 2: <config>: config #0: field "tile": 0 is not a valid tile extent'
  contains '[field: tile]'
}

for std in 17 20; do
  echo "== find_package(tilefit), C++$std: configs that fit configure, the launchers link"
  expect 0 cmake -S "$consumer" -B "$work/pkg$std" -DCMAKE_PREFIX_PATH="$work/prefix" -DCONSUMER_CONFIGS=ok.json \
    -DCONSUMER_CXX_STANDARD=$std
  contains "tilefit: all 2 configs fit (ok.json)"
  expect 0 cmake --build "$work/pkg$std"
  grep -q -- "-std=c++$std" "$work/pkg$std/CMakeFiles/launcher.dir/flags.make" || fail "launcher not built as C++$std"
  grep -q -- "-std=c99" "$work/pkg$std/CMakeFiles/c_launcher.dir/flags.make" || fail "c_launcher not built as C99"
  check_cxx "$work/pkg$std"
  check_c "$work/pkg$std/c_launcher"
done
expect 0 "$work/pkg17/launcher" '{"tile": "CtaShape128x256x64B", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "swap_ab": true}' sm_120
contains "fits on sm_120: 74752 B of 101376 B at 2 stages (the builder's); at most 2 fit"

echo "== find_package(tilefit): a config that does not fit stops configuration"
expect 1 cmake -S "$consumer" -B "$work/pkg-bad" -DCMAKE_PREFIX_PATH="$work/prefix" -DCONSUMER_CONFIGS=finalize.json
contains "tilefit: 1 of 2 configs in finalize.json cannot run:"
contains "moe_128x256 (sm_120): 102400 B > 101376 B, over by 1024 B: the builder picks 3 stages"

echo "== find_package(tilefit): editing a checked file re-runs the check at the next build"
cp "$consumer/ok.json" "$work/edited.json"
expect 0 cmake -S "$consumer" -B "$work/pkg-edit" -DCMAKE_PREFIX_PATH="$work/prefix" -DCONSUMER_CONFIGS="$work/edited.json"
contains_flat "tilefit: all 2 configs fit ($work/edited.json)"
expect 0 cmake --build "$work/pkg-edit"
cp "$consumer/finalize.json" "$work/edited.json"
expect fail cmake --build "$work/pkg-edit"
contains_flat "tilefit: 1 of 2 configs in $work/edited.json cannot run:"
contains "moe_128x256 (sm_120): 102400 B > 101376 B, over by 1024 B"

echo "== find_package(tilefit): a file with no configs stops configuration and is named"
echo '{"configs": []}' > "$work/empty.json"
expect 1 cmake -S "$consumer" -B "$work/pkg-empty" -DCMAKE_PREFIX_PATH="$work/prefix" -DCONSUMER_CONFIGS="$work/empty.json"
contains_flat "tilefit: no configs in $work/empty.json"

echo "== pkg-config"
if command -v pkg-config >/dev/null; then
  expect 0 env PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --modversion tilefit
  contains "$("$work/prefix/bin/tilefit" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+')"
  pc() { PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config "$@"; }
  for std in 17 20; do
    mkdir -p "$work/pc$std"
    # shellcheck disable=SC2046
    expect 0 c++ -std=c++$std "$consumer/launcher.cpp" -o "$work/pc$std/launcher" $(pc --cflags --libs tilefit)
    # shellcheck disable=SC2046
    expect 0 c++ -std=c++$std -DCONSUMER_WITH_DEVICE "$consumer/launcher.cpp" -o "$work/pc$std/device_launcher" \
      $(pc --cflags --libs tilefit-device)
    check_cxx "$work/pc$std"
  done
  # shellcheck disable=SC2046
  expect 0 cc -std=c99 -Wall -Wextra -pedantic -Werror "$consumer/c_launcher.c" -o "$work/c_launcher-pc" \
    $(pc --cflags --libs tilefit-c)
  check_c "$work/c_launcher-pc"
else
  echo "   pkg-config is not installed (scripts/bootstrap.sh installs it): skipped"
fi

echo "== the Python package from the install"
if command -v python3 >/dev/null; then
  expect 0 env -u TILEFIT_LIBRARY PYTHONPATH="$work/prefix/lib/python3/site-packages" python3 -c 'import tilefit; r = tilefit.analyze({"arch": "sm_120", "dtype": "nvfp4", "grouped": True, "epilogue": "finalize", "tile": "CtaShape128x256x64B"}); print(r.fits, r.smem_bytes, r.stages, r.max_stages, r.limit_bytes); print(tilefit._lib.path)'
  contains "False 102400 3 2 101376"
  contains "$work/prefix/lib/python3/site-packages/tilefit/libtilefit.so"
else
  echo "   python3 is not installed: skipped"
fi

if [ "$subdirectory" = 1 ]; then
  echo "== add_subdirectory(tilefit): the check runs when the project builds"
  # Unoptimised and without debug info: this proves the integration (targets, the build-time
  # check), not the code, and builds tilefit's libraries in about half the time of -O3.
  expect 0 cmake -S "$consumer" -B "$work/sub" -DTILEFIT_SOURCE="$root" -DCONSUMER_CONFIGS=finalize.json \
    -DTILEFIT_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0
  contains "will be checked when this project builds"
  expect 0 cmake --build "$work/sub" -j"$(nproc)" --target launcher c_launcher
  expect 1 "$work/sub/launcher" "$finalize"
  contains "does_not_fit on sm_120: 102400 B of 101376 B at 3 stages (the builder's); at most 2 fit"
  expect 1 "$work/sub/c_launcher" "$finalize"
  contains '"stages":3,"auto_stages":true,"max_stages":2,"max_stages_smem_bytes":74752,"smem_bytes":102400'
  expect fail cmake --build "$work/sub" --target tilefit_check_1
  contains "moe_128x256 (sm_120): 102400 B > 101376 B, over by 1024 B"
  echo "== add_subdirectory(tilefit): editing a checked file re-runs the build-time check"
  cp "$consumer/ok.json" "$work/sub-edited.json"
  # Two files: the list survives the custom command.
  expect 0 cmake -S "$consumer" -B "$work/sub" "-DCONSUMER_CONFIGS=$consumer/ok.json;$work/sub-edited.json"
  expect 0 cmake --build "$work/sub" --target tilefit_check_1
  contains_flat "tilefit: all 4 configs fit ($consumer/ok.json, $work/sub-edited.json)"
  expect 0 cmake --build "$work/sub" --target tilefit_check_1
  grep -qF "configs fit" "$work/out" && fail "the check ran again with nothing changed"
  cp "$consumer/finalize.json" "$work/sub-edited.json"
  expect fail cmake --build "$work/sub" --target tilefit_check_1
  contains "moe_128x256 (sm_120): 102400 B > 101376 B, over by 1024 B"
  echo '{"configs": []}' > "$work/sub-edited.json"
  expect fail cmake --build "$work/sub" --target tilefit_check_1
  contains_flat "tilefit: no configs in $work/sub-edited.json"
fi
echo "consumer: all passed"
