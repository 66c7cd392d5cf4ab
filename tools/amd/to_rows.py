#!/usr/bin/env python3
"""Device results (measure_amd.py) -> rows of tests/data/amd-triton-3.6.jsonl.

usage: to_rows.py RESULTS.jsonl JOBS.json OUT.jsonl
(context.use_tma: SGLang's down GEMM compiled with tensor descriptors, as SGLang launches it on ROCm)
Engine rows follow tests/data/engines-triton-3.6.jsonl (table, table_name, key, entry, arch, kernel,
launch, context, expect, triton) plus hip_async_copy (null: TRITON_HIP_USE_ASYNC_COPY unset, 0, 1) and
split ("dev": used while writing the rules, "holdout": never looked at before the score);
tutorial-matmul rows follow tests/data/triton-3.6.jsonl (a config for the config reader).
Launches that Triton's launcher rejects before compiling (TypeError: SPLIT_K missing) give no row."""
import hashlib
import gzip
import json
import sys

LIMITS = {"gfx942": 65536, "gfx950": 163840}


def mm_split(j):
    key = json.dumps(sorted((k, v) for k, v in j.items() if k in ("dtype", "bm", "bn", "bk", "warps", "stages",
                                                                    "waves_per_eu", "matrix_instr_nonkdim", "kpack")))
    return "holdout" if hashlib.sha1(key.encode()).hexdigest()[0] in "0123" else "dev"


def expect(r, arch):
    if "shared" in r:
        s = r["shared"]
        return {"status": "fits" if s <= LIMITS[arch] else "does_not_fit", "smem_bytes": s,
                "limit_bytes": LIMITS[arch]}
    e = {"status": "invalid", "error": r["error"]}
    if r.get("mlir"):
        e["detail"] = r["mlir"][0]
    return e


def main():
    res, jobs, out = sys.argv[1:4]
    base = {b["base"]: b for b in json.load(gzip.open(jobs, "rt") if jobs.endswith(".gz") else open(jobs))["base"]}
    n = 0
    with open(out, "w") as f:
        for line in open(res):
            r = json.loads(line)
            j = r["job"]
            if "error" in r and r["error"].startswith("TypeError"):
                continue
            arch, a = j["arch"], j.get("hip_async_copy")
            tri = {"version": r.get("triton", "3.6.0")}
            if "shared" in r:
                tri["metadata_shared"] = r["shared"]
            for k in ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim", "kpack", "warnings"):
                if k in r:
                    tri[k] = r[k]
            if j["kernel"] == "matmul":
                cfg = {"name": r["id"], "arch": arch, "kernel": "triton_matmul", "tile": [j["bm"], j["bn"], j["bk"]],
                       "dtype": {"fp8": "e4m3"}.get(j["dtype"], j["dtype"]),
                       "d": "bf16" if j["dtype"] == "bf16" else "f16", "num_warps": j["warps"], "stages": j["stages"]}
                if a is not None:
                    cfg["hip_async_copy"] = bool(a)
                row = {"id": "amd_" + r["id"], "config": cfg, "hip_async_copy": a, "split": mm_split(j),
                       "launch": r.get("launch"), "expect": expect(r, arch), "triton": tri}
            else:
                b = base[j["base"]]
                ctx = {"quant": j["quant"], "shape": j["shape"]}
                for k in ("block_shape", "per_channel", "group_size", "variant", "naive_block_assignment", "use_tma"):
                    if j.get(k) not in (None, False):
                        ctx[k] = j[k]
                row = {"id": "amd_" + r["id"], "engine": j["engine"], "commit": b["commit"], "table": b["table"],
                       "table_name": b["table_name"], "key": b["key"], "entry": b["entry"], "arch": arch,
                       "kernel": j["kernel"], "hip_async_copy": a, "split": b["split"], "launch": r.get("launch"),
                       "context": ctx, "expect": expect(r, arch), "triton": tri}
                if len(b["refs"]) > 1:
                    row["also"] = b["refs"][1:4]
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
            n += 1
    print(n, "rows")


if __name__ == "__main__":
    main()
