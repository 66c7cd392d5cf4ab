#!/usr/bin/env python3
"""Turn validate_prune.py's grid-<arch>.jsonl files (what Triton compiled for the 1920-config tuner grid,
CompiledKernel.metadata.shared per config) into ground-truth rows (tests/data/README.md's row format) for
tilefit's triton_matmul: fp16 A, B and C, K-contiguous A and B, as shared/tools/triton/matmul_kernel.py.

usage: grid_to_rows.py --run-note TEXT grid-sm_90.jsonl [grid-sm_120.jsonl ...] > rows.jsonl
The limit of each arch is the opt-in per-block limit validate_prune.py compared against (its summary)."""
import argparse
import json
import re
import sys

LIMITS = {"sm_90": 232448, "sm_120": 101376, "sm_89": 101376, "sm_80": 166912, "sm_86": 101376, "sm_100": 232448}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-note", required=True)
    ap.add_argument("grids", nargs="+")
    args = ap.parse_args()
    for path in args.grids:
        arch = re.search(r"grid-(sm_\d+)\.jsonl$", path).group(1)
        limit = LIMITS[arch]
        for line in open(path):
            r = json.loads(line)
            bm, bn, bk, w, g, s = r["cfg"]
            name = f"triton3.6g_matmul_f16_{arch.replace('_', '')}_{bm}x{bn}x{bk}_w{w}_g{g}_s{s}"
            cfg = {"name": name, "arch": arch, "kernel": "triton_matmul", "tile": [bm, bn, bk], "num_warps": w,
                   "stages": s, "dtype": "f16", "d": "f16", "group_m": g}
            if r.get("error"):
                expect = {"status": "invalid", "smem_bytes": None, "limit_bytes": limit}
                triton = {"version": "3.6.0", "error": r["error"]}
            else:
                shared = r["shared"]
                expect = {"status": "fits" if shared <= limit else "does_not_fit", "smem_bytes": shared,
                          "limit_bytes": limit}
                triton = {"version": "3.6.0", "metadata_shared": shared}
            triton["source"] = args.run_note
            triton["tilefit_kept"] = r["kept"]
            print(json.dumps({"id": name, "config": cfg, "expect": expect, "triton": triton}))


if __name__ == "__main__":
    sys.exit(main())
