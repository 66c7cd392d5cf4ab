#!/usr/bin/env python3
"""Counts of a rows file (tests/data/engines-triton-3.6.jsonl) for engines-triton-3.6.md.
usage: describe.py ROWS.jsonl"""
import collections
import json
import sys

rows = [json.loads(l) for l in open(sys.argv[1])]
archs = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_103", "sm_120", "sm_121"]
print(f"{len(rows)} rows, {sum(len(r.get('also', [])) for r in rows) + len(rows)} (table, key, arch) launches covered, "
      f"{len({r['table'] for r in rows} | {a['table'] for r in rows for a in r.get('also', [])})} tables\n")
by = collections.Counter((r["engine"] + " " + r["kernel"], r["arch"], r["expect"]["status"]) for r in rows)
kernels = sorted({k for k, _, _ in by})
print("| kernel | " + " | ".join(archs) + " |")
print("| --- |" + " --- |" * len(archs))
for k in kernels:
    cells = []
    for a in archs:
        f, d, i = (by[(k, a, s)] for s in ("fits", "does_not_fit", "invalid"))
        cells.append(f"{f}/{d}/{i}")
    print(f"| {k} | " + " | ".join(cells) + " |")
print("\n(fits / does_not_fit / invalid)\n")
var = collections.Counter()
for r in rows:
    c = r["context"]
    q = c["quant"] + (" block" if c.get("block_shape") else (" per-channel" if c.get("per_channel") else ""))
    if c.get("variant"):
        q += f" ({c['variant']})"
    flags = [f for f in ("swap_ab", "use_tma", "naive_block_assignment") if c.get(f)]
    if "num_ctas" in r["entry"]:
        flags.append("num_ctas in entry")
    if r["launch"].get("defaults_applied") and set(r["launch"]["defaults_applied"]) & {"num_warps", "num_stages"}:
        flags.append("Triton default warps/stages")
    gemm = c.get("shape", {}).get("gemm", "")
    var[(r["engine"], r["kernel"], q, gemm, ", ".join(flags))] += 1
print("| engine | kernel | quantisation | GEMM | flags | rows |")
print("| --- | --- | --- | --- | --- | --- |")
for k, v in sorted(var.items()):
    print("| " + " | ".join(k) + f" | {v} |")
err = collections.Counter((r["engine"] + " " + r["kernel"], r["expect"]["error"][:110]) for r in rows
                          if r["expect"]["status"] == "invalid")
print("\n| kernel | error (invalid rows) | rows |\n| --- | --- | --- |")
for (k, e), v in err.most_common():
    print(f"| {k} | `{e}` | {v} |")
