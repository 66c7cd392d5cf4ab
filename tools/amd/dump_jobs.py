#!/usr/bin/env python3
"""Device job list that re-compiles chosen rows of tests/data/amd-triton-3.6.tar.xz WITH the dump
(TTGIR + the module after AMD's shared-memory allocation), on each row's target and switch value.

usage: dump_jobs.py A.json IDS.txt OUT.json [--tma]
IDS.txt: one row id a line (amd_e0034_gfx942_d / amd_m0012_gfx950_1). --tma: SGLang down-GEMM
launches whose down table says USE_TMA are compiled with tensor descriptors, as SGLang d6ef6888
launches them on ROCm (support_tensor_descriptor() is true with Triton 3.6; fused_moe.py:359-409).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure_amd as ma  # noqa: E402


def main():
    spec = json.load(open(sys.argv[1]))
    ids = [l.split()[0] for l in open(sys.argv[2]) if l.strip()]
    tma = "--tma" in sys.argv
    base = {b["base"]: b for b in spec["base"]}
    mm = {j["id"]: j for j in ma.matmul_jobs(int(spec.get("matmul", 0)), int(spec.get("seed", 20)))}
    jobs = []
    for rid in ids:
        i = rid[len("amd_"):]
        if i.startswith("m"):
            j = dict(mm[i])
        else:
            b, arch, a = i.split("_")
            j = dict(base[int(b[1:])], arch=arch, hip_async_copy=None if a == "d" else int(a), id=i)
        if tma and j.get("entry", {}).get("USE_TMA") and j.get("shape", {}).get("gemm") == "down":
            j["use_tma"] = True
        j["dump"] = True
        jobs.append(j)
    json.dump({"procs": spec.get("procs", 16), "jobs": jobs}, open(sys.argv[3], "w"))
    print(len(jobs), "jobs", sum(1 for j in jobs if j.get("use_tma")), "with descriptors")


if __name__ == "__main__":
    main()
