#!/usr/bin/env bash
# Runs a sweep (default bench/sweep_space.json, every candidate: --all) and checks every result
# against `tilefit check` on the config the sweep printed: the configs go back into check files of
# 100,000 configs each (the reader's limit), and every column both print must be equal.
# Usage: bench/sweep_vs_check.sh [build dir] [space file]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
space=${2:-bench/sweep_space.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tilefit" sweep "$space" --all --format csv --builtin >"$tmp/sweep.csv" || true
python3 - "$tmp" "$build/tilefit" <<'PY'
import csv, json, subprocess, sys
tmp, tilefit = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{tmp}/sweep.csv")))
configs = [json.loads(r["config"]) for r in rows]
by_name = {r["name"]: r for r in rows}
checked = 0
for start in range(0, len(configs), 100_000):
    path = f"{tmp}/part{start}.json"
    json.dump({"configs": configs[start:start + 100_000]}, open(path, "w"))
    out = subprocess.run([tilefit, "check", path, "--builtin", "--format", "csv"], capture_output=True, text=True).stdout
    for c in csv.DictReader(out.splitlines()):
        s = by_name[c["name"]]
        for col in ("arch", "kernel", "tile", "stages", "auto_stages", "max_stages", "max_stages_smem_bytes",
                    "smem_bytes", "limit_bytes", "headroom_bytes", "ctas_per_sm", "status", "epilogue_smem",
                    "mainloop_smem", "config"):
            if c[col] != s[col]:
                sys.exit(f"MISMATCH {c['name']} {col}: check {c[col]!r} sweep {s[col]!r}")
        checked += 1
print(f"{len(rows)} sweep results, {checked} checked against `tilefit check` on their config: all equal")
if checked != len(rows):
    sys.exit("some results were not checked")
PY
