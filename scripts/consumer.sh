#!/usr/bin/env bash
# tilefit inside someone else's build, the ways the README documents, from a clean install:
#   1. cmake --install to a temporary prefix; a project finds it with find_package(tilefit),
#      links tilefit::tilefit (tests/consumer/launcher.cpp) and checks configs at configure time
#      with tilefit_check_configs(): ok.json passes, finalize.json stops configuration.
#   2. pkg-config: the same launcher compiled by hand against the installed tilefit.pc.
#   3. add_subdirectory (as FetchContent does): the check runs at build time and fails the build.
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

echo "== find_package(tilefit): configs that fit configure, and the launcher links"
expect 0 cmake -S "$consumer" -B "$work/pkg" -DCMAKE_PREFIX_PATH="$work/prefix" -DCONSUMER_CONFIGS=ok.json
contains "tilefit: all 2 configs fit (ok.json)"
expect 0 cmake --build "$work/pkg"
# The seed's FINALIZE tile: does not fit, 102400 B, the builder's 3 stages, at most 2, limit 101376.
expect 1 "$work/pkg/launcher" "$finalize"
contains "does_not_fit on sm_120: 102400 B of 101376 B at 3 stages (the builder's); at most 2 fit"
contains "needs 102400 B > 101376 B (over by 1024 B)"
expect 0 "$work/pkg/launcher" '{"tile": "CtaShape128x256x64B", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "swap_ab": true}' sm_120
contains "fits on sm_120: 74752 B of 101376 B at 2 stages (the builder's); at most 2 fit"
expect 2 "$work/pkg/launcher" '{"arch": "sm_120", "tile": [128, 0, 128], "dtype": "nvfp4"}'
contains 'field "tile": 0 is not a valid tile extent' 

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
  # shellcheck disable=SC2046
  expect 0 c++ -std=c++20 "$consumer/launcher.cpp" -o "$work/launcher-pc" \
    $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs tilefit)
  expect 1 "$work/launcher-pc" "$finalize"
  contains "does_not_fit on sm_120: 102400 B of 101376 B at 3 stages (the builder's); at most 2 fit"
else
  echo "   pkg-config is not installed (scripts/bootstrap.sh installs it): skipped"
fi

if [ "$subdirectory" = 1 ]; then
  echo "== add_subdirectory(tilefit): the check runs when the project builds"
  expect 0 cmake -S "$consumer" -B "$work/sub" -DTILEFIT_SOURCE="$root" -DCONSUMER_CONFIGS=finalize.json \
    -DTILEFIT_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Release
  contains "will be checked when this project builds"
  expect 0 cmake --build "$work/sub" -j"$(nproc)" --target launcher
  expect 1 "$work/sub/launcher" "$finalize"
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
