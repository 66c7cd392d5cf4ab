#!/usr/bin/env bash
# Memory and time of `tilefit suggest` at scale: FILES files of CONFIGS configs each (default eight
# of 100,000, the per-file limit), every format; prints the peak RSS (GNU time), the seconds and
# the size of the output. About half the configs do not fit sm_90 (too many stages, or a tile
# too large for any stage count), so most carry suggestions.
#   bench/suggest_memory.sh [build dir=build] [files=8] [configs=100000]
# suggest streams as check does (one file at a time, each result and its suggestions written and
# dropped), so the peak stays near one config's whatever the number of files.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
files=${2:-8}
configs=${3:-100000}
work=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-suggest-mem.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$files" "$configs" <<'PY'
import json, sys
work, files, configs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tiles = [[128, 128, 64], [128, 256, 64], [256, 128, 64], [256, 256, 128]]
for f in range(files):
    with open(f"{work}/cfg{f}.json", "w") as out:
        out.write('{"configs": [')
        for i in range(configs):
            cfg = {"name": f"c{f}_{i}", "dtype": "bf16", "tile": tiles[i % 4], "stages": 2 + i % 7}
            out.write(("," if i else "") + json.dumps(cfg))
        out.write("]}")
PY
for format in json table csv markdown; do
  /usr/bin/time -f "%M %e" -o "$work/time" "$build/tilefit" suggest "$work"/cfg*.json --arch sm_90 \
    --format "$format" >"$work/out" 2>"$work/err" || true
  read -r rss secs < <(tail -n 1 "$work/time")
  echo "suggest --format $format: $files files x $configs configs: peak RSS $((rss / 1024)) MiB," \
       "${secs} s, $(wc -c <"$work/out") bytes of output"
done
