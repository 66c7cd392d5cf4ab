#!/usr/bin/env python3
"""Jobs for SGLang d6ef6888's USE_TMA down GEMM below sm_90 (tensor-descriptor loads that Triton
3.6 rewrites to pointer loads), measured with measure_cpu.py, and the rows they give.

usage:
  gen_tma_jobs.py ROWS.jsonl JOBS.json N SEED   N jobs: the launch of a measured USE_TMA row
                                                (its table, key, shape, quantisation) with the
                                                entry varied (BLOCK_SIZE_M/N/K, num_warps,
                                                num_stages), on sm_80, sm_86 or sm_89
  gen_tma_jobs.py --rows JOBS.json RESULTS.jsonl OUT.jsonl
                                                rows in tests/data/engines-triton-3.6.jsonl's
                                                format (appended by the caller); `source` says
                                                the entry was varied from the table's

ROWS.jsonl: the rows of tests/data/engines-triton-3.6.jsonl (the build tree unpacks it).
"""
import json
import random
import sys

LIMITS = {"sm_80": 166912, "sm_86": 101376, "sm_89": 101376}
COMMIT = "d6ef68881e263812d4901f632786015005c4d050"


def gen(rows_path, out, n, seed):
    rng = random.Random(seed)
    base = [json.loads(l) for l in open(rows_path)]
    base = [r for r in base if r["engine"] == "sglang" and r["kernel"] == "fused_moe_kernel"
            and r["context"].get("use_tma")]
    jobs, seen = [], set()
    while len(jobs) < n:
        q = rng.choice(sorted({b["context"]["quant"] for b in base}))  # each quantisation alike
        r = rng.choice([b for b in base if b["context"]["quant"] == q])
        arch = "sm_89" if q == "fp8_w8a8" and rng.random() < 0.85 else rng.choice(["sm_80", "sm_86", "sm_89"])
        entry = {"BLOCK_SIZE_M": rng.choice([16, 32, 64, 128]),
                 "BLOCK_SIZE_N": rng.choice([32, 64, 128, 256]),
                 "BLOCK_SIZE_K": rng.choice([32, 64, 128, 256]),
                 "GROUP_SIZE_M": rng.choice([1, 16, 64]),
                 "num_warps": rng.choice([2, 4, 4, 8]),
                 "num_stages": rng.choice([1, 2, 3, 4, 5]), "USE_TMA": True}
        key = (r["table"], arch, json.dumps(entry, sort_keys=True))
        if key in seen:
            continue
        seen.add(key)
        cfg = {k: v for k, v in entry.items() if k != "USE_TMA"}
        c = r["context"]
        job = {"id": f"cputma_{len(jobs):04d}_{arch}", "engine": "sglang", "kernel": "fused_moe_kernel",
               "cc": int(arch[3:]), "arch": arch, "quant": q, "shape": c["shape"], "config": cfg,
               "use_tma": True, "mrw": r["launch"].get("MUL_ROUTED_WEIGHT", True),
               "table": r["table"], "table_name": r["table_name"], "key": r["key"], "entry": entry}
        for k in ("block_shape", "per_channel", "swap_ab", "c_sorted", "filter_expert"):
            if k in c:
                job[k] = c[k]
        jobs.append(job)
    json.dump({"procs": 2, "jobs": jobs}, open(out, "w"), indent=0)


def to_rows(jobs_path, res_path, out):
    jobs = {j["id"]: j for j in json.load(open(jobs_path))["jobs"]}
    with open(out, "w") as f:
        for line in open(res_path):
            res = json.loads(line)
            j = jobs[res["id"]]
            launch = dict(res.get("launch", {}))
            for k in ("num_warps", "num_stages", "num_ctas"):
                if k in res:
                    launch[k] = res[k]
            launch["defaults_applied"] = [k for k in ("num_warps", "num_stages", "num_ctas")
                                          if k not in j["config"]]
            ctx = {"quant": j["quant"], "shape": j["shape"]}
            for k in ("block_shape", "per_channel", "swap_ab", "use_tma", "c_sorted", "filter_expert"):
                if k in j:
                    ctx[k] = j[k]
            row = {"id": j["id"], "engine": "sglang", "commit": COMMIT, "table": j["table"],
                   "table_name": j["table_name"], "key": j["key"], "entry": j["entry"], "arch": j["arch"],
                   "kernel": j["kernel"], "launch": launch, "context": ctx,
                   "source": "tools/engines/gen_tma_jobs.py: the table's launch with the entry varied, "
                             "compiled by tools/engines/measure_cpu.py (Triton 3.6.0, no GPU)"}
            if "shared" in res:
                s = res["shared"]
                lim = LIMITS[j["arch"]]
                row["expect"] = {"status": "fits" if s <= lim else "does_not_fit", "smem_bytes": s,
                                 "limit_bytes": lim}
                row["triton"] = {"version": res.get("triton", "3.6.0"), "metadata_shared": s}
            else:
                row["expect"] = {"status": "invalid", "error": res["error"]}
                row["triton"] = {"version": res.get("triton", "3.6.0")}
            f.write(json.dumps(row, separators=(",", ":")) + "\n")  # the row file's format


if __name__ == "__main__":
    if sys.argv[1] == "--rows":
        to_rows(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        gen(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
