#!/usr/bin/env bash
# The docs' pictures (README.md, docs/guide/), made by tilefit from the shipped configs:
#   scripts/pictures.sh BUILD_DIR            regenerate docs/pictures/*.svg with BUILD_DIR/tilefit
#   scripts/pictures.sh --check BUILD_DIR    regenerate into a temporary folder and compare bytes
#                                            with the committed ones (CTest pictures_up_to_date)
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: scripts/pictures.sh [--check] BUILD_DIR" >&2
  exit 2
fi
tilefit="$(cd "$1" && pwd)/tilefit"
[ -x "$tilefit" ] || { echo "error: $tilefit: not built (cmake --build $1 --target tilefit)" >&2; exit 2; }
cd "$(dirname "$0")/.."
committed=docs/pictures
if ((check)); then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
else
  out=$committed
fi

# picture NAME ARGS...: `tilefit ARGS` into NAME (exit 1, "something does not fit", is the point).
picture() {
  local name=$1
  shift
  local rc=0
  "$tilefit" "$@" >"$out/$name" || rc=$?
  if ((rc > 1)); then
    echo "error: tilefit $* exited $rc" >&2
    exit 1
  fi
}

# The SM120 FINALIZE story as budget bars.
picture finalize_budget.svg check configs/sm120_moe_finalize.json --builtin --format svg
# The MoE sweep space of docs/guide/sweeps.md, ported from Hopper to an RTX 5090 and back: the map.
picture moe_map.svg sweep docs/pictures/moe_space.json --arch sm_90,sm_120 --format svg
# An H100-tuned vLLM table checked for an RTX 5090 (sm_120).
picture h100_table_on_sm120.svg check \
  'configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json' \
  --arch sm_120 --format svg
# An FP8 GEMM space on sm_90 and sm_120: what breaks when a Hopper tile table is ported.
picture fp8_port_map.svg sweep docs/pictures/fp8_space.json --arch sm_90,sm_120 --format svg

if ((check)); then
  stale=0
  for f in "$out"/*.svg; do
    name=$(basename "$f")
    if ! cmp -s "$f" "$committed/$name"; then
      echo "error: $committed/$name is out of date (or missing): run scripts/pictures.sh BUILD_DIR and commit it" >&2
      stale=1
    fi
  done
  exit $stale
fi
echo "== wrote $(ls "$out"/*.svg | wc -l) pictures to $out/"
