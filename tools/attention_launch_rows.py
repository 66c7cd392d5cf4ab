#!/usr/bin/env python3
"""Trims attnmeasure's measured attention rows (/work/shared-results/attnmeasure/all.jsonl, the
rows of tests/data/attention-triton-3.6.tar.xz on branch attnmeasure) to what the launcher
inference test compares (tests/attention_launch_test.cpp): id, engine, config, status, holdout
and the launch's kernel, stage, constexprs, specialised ints, num_warps, num_stages and dtypes.

usage: tools/attention_launch_rows.py ALL.jsonl > tests/data/attention-launch-rows.jsonl
"""
import json
import sys

KEEP = ("kernel", "stage", "constexprs", "specialised_ints", "num_warps", "num_stages", "q_dtype",
        "kv_dtype", "out_dtype")
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    r = json.loads(line)
    out = {k: r[k] for k in ("id", "engine", "config", "status", "holdout") if k in r}
    if isinstance(r.get("launch"), dict):
        out["launch"] = {k: r["launch"][k] for k in KEEP if k in r["launch"]}
    print(json.dumps(out, separators=(",", ":")))
