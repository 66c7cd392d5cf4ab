#!/usr/bin/env python3
"""Compare measured rows (measure.py's output, or any file in the format of
tests/data/fp8-engines-cutlass-4.7.jsonl) with tilefit's model.

Usage:
  compare.py ROWS.jsonl [--tilefit build/tilefit]

Every row's config is checked with `tilefit check --builtin --format json` (the same reader and
model the tests use); status, stages, smem_bytes, epilogue_smem and mainloop_smem are compared
with the row's "expect" wherever the row has them. Prints one line per disagreement and a count;
exit status 1 when any row disagrees.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

KEYS = ("status", "stages", "smem_bytes", "epilogue_smem", "mainloop_smem")
# The result's key for a row's "expect" key (results schema_version 2 renamed the byte counts).
RESULT_KEY = {"epilogue_smem": "epilogue_smem_bytes", "mainloop_smem": "mainloop_smem_bytes"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--tilefit", default="build/tilefit")
    a = ap.parse_args()
    rows = [json.loads(line) for line in open(a.rows) if line.strip()]
    rows = [r for r in rows if "expect" in r and "config" in r]
    configs = [dict(r["config"], name=r["id"]) for r in rows]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"configs": configs}, f)
        path = f.name
    try:
        p = subprocess.run([a.tilefit, "check", path, "--builtin", "--format", "json"],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr)
        return 2
    results = {r["index"]: r for r in json.loads(p.stdout)["results"]}
    bad = 0
    for i, row in enumerate(rows):
        got = results.get(i)
        if got is None:
            print("NOT READ %s" % row["id"])
            bad += 1
            continue
        diff = [(k, row["expect"][k], got.get(RESULT_KEY.get(k, k))) for k in KEYS
                if k in row["expect"] and row["expect"][k] != got.get(RESULT_KEY.get(k, k))]
        if diff:
            bad += 1
            print("DIFFERS %s: %s" % (row["id"], ", ".join("%s measured %s, model %s" % d for d in diff)))
    print("%s: %d/%d rows agree (status, stages, smem_bytes, epilogue_smem, mainloop_smem)" %
          (a.rows, len(rows) - bad, len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
