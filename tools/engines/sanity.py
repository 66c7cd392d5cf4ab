#!/usr/bin/env python3
"""Sanity check: vLLM 6adad087's fused_moe_kernel with SWAP_AB=False, USE_TD=False against the
plain triton_fused_moe rows of tests/data/triton-3.6.jsonl (measured with vLLM 000d1458's kernel by
tools/triton/measure2.py: E=8, N=K=2048, top_k=2, M=256, GROUP_SIZE_M=1, MUL_ROUTED_WEIGHT=False,
BLOCK_SIZE_K as in the row, fp8 block shape [128, 128] unless the row gives one).

usage: sanity.py jobs ROWS.jsonl N OUT.json   (a seeded sample of N rows -> jobs)
       sanity.py check JOBS.json RESULTS.jsonl  (agree / differ counts, the differing rows)
"""
import json
import random
import sys


def jobs(rows_path, n, out):
    rows = [json.loads(l) for l in open(rows_path)]
    rows = [r for r in rows if r["config"].get("kernel") == "triton_fused_moe"
            and "metadata_shared" in r.get("triton", {})]
    rng = random.Random(6)
    rng.shuffle(rows)
    js = []
    for r in rows[:n]:
        c = r["config"]
        bm, bn, bk = c["tile"]
        q = c["dtype"]
        bs = c.get("block_shape") if q == "fp8_w8a8" and "block_shape" in c else None
        if bs is not None and not isinstance(bs, list):
            bs = [128, 128]
        js.append({"id": "sanity_" + r["id"], "engine": "vllm", "kernel": "fused_moe_kernel",
                   "cc": int(c["arch"][3:]), "arch": c["arch"], "quant": q, "block_shape": bs,
                   "cdt": c.get("d", "bf16") if c.get("d") in ("bf16", "f16", "f32") else "bf16",
                   "shape": {"M": 256, "E": 8, "N": 2048, "K": 2048, "top_k": 2, "gemm": "up"},
                   "swap_ab": False, "use_td": False, "naive_block_assignment": False, "mrw": False,
                   "config": {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 1,
                              "SPLIT_K": 1, "num_warps": c["num_warps"], "num_stages": c["stages"]},
                   "expect_shared": r["triton"]["metadata_shared"]})
    json.dump({"procs": 15, "jobs": js}, open(out, "w"))
    print(len(js), "sanity jobs")


def check(jobs_path, res_path):
    exp = {j["id"]: j for j in json.load(open(jobs_path))["jobs"] if j["id"].startswith("sanity_")}
    agree, differ, err = 0, [], []
    for l in open(res_path):
        r = json.loads(l)
        if r["id"] not in exp:
            continue
        if "shared" not in r:
            err.append((r["id"], r.get("error")))
        elif r["shared"] == exp[r["id"]]["expect_shared"]:
            agree += 1
        else:
            differ.append((r["id"], exp[r["id"]]["expect_shared"], r["shared"]))
    print(f"sanity: {agree} agree, {len(differ)} differ, {len(err)} errors (of {len(exp)} jobs)")
    for d in differ[:40]:
        print("  differ", *d)
    for e in err[:10]:
        print("  error", *e)


if __name__ == "__main__":
    if sys.argv[1] == "jobs":
        jobs(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        check(sys.argv[2], sys.argv[3])
