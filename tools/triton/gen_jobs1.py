# Job generator for the first device run: (A) every in-sample row of triton-3.6.jsonl again, to get the
# allocator's per-buffer picture; (H) an out-of-sample hold-out set, scored before the model is adjusted;
# (D) development probes. usage: python3 gen_jobs1.py out_jobs.json
import json
import os, random, sys

GT = os.environ.get("TRITON_GT", "tests/data/triton-3.6.jsonl")  # the shared ground truth
P2 = [16, 32, 64, 128, 256]


def gt_job(cfg):
    k = "matmul" if cfg["kernel"] == "triton_matmul" else "moe"
    dt = cfg["dtype"]
    j = {"kernel": k, "cc": int(cfg["arch"][3:]), "bm": cfg["tile"][0], "bn": cfg["tile"][1],
         "bk": cfg["tile"][2], "warps": cfg["num_warps"], "stages": cfg["stages"]}
    if k == "moe" and cfg.get("block_shape"):
        j["dtype"] = "fp8_block"; j["block"] = cfg["block_shape"]
    else:
        j["dtype"] = dt
    if k == "matmul":
        j["out"] = cfg["d"]
    return j


def rand_job(rng, archs=(80, 86, 89, 90, 100, 120)):
    cc = rng.choice(archs)
    kern = rng.choice(["matmul", "moe"])
    j = {"kernel": kern, "cc": cc, "bm": rng.choice(P2), "bn": rng.choice(P2), "bk": rng.choice(P2),
         "warps": rng.choices([2, 4, 8], [0.2, 0.4, 0.4])[0], "stages": rng.randint(1, 7),
         "group_m": rng.choice([1, 4, 8, 16, 32])}
    if kern == "matmul":
        dts = ["f16", "bf16", "f32"] + (["e4m3"] if cc >= 89 else [])
        j["dtype"] = rng.choice(dts)
        default = "f16" if j["dtype"] in ("f16", "e4m3") else j["dtype"]
        j["out"] = default if rng.random() < 0.5 else rng.choice(["f16", "bf16", "f32"])
    else:
        dts = ["bf16", "f16"] + (["fp8_w8a8", "fp8_block"] if cc >= 89 else [])
        j["dtype"] = rng.choice(dts)
        if j["dtype"] == "fp8_block":
            j["block"] = rng.choice([[128, 128], [128, 128], [64, 64], [128, 64], [64, 128]])
    return j


def main():
    jobs = []
    rows = [json.loads(l) for l in open(GT)]
    rng = random.Random(36)
    dump_ids = set(rng.sample(range(len(rows)), 60))
    for i, r in enumerate(rows):
        j = gt_job(r["config"]); j["id"] = "A/" + r["id"]
        if i in dump_ids:
            j["dump"] = True
        jobs.append(j)
    rh = random.Random(20260)
    for i in range(520):
        j = rand_job(rh); j["id"] = f"H/{i}"
        jobs.append(j)
    rd = random.Random(777)
    for i in range(560):
        j = rand_job(rd); j["id"] = f"D/rand{i}"
        jobs.append(j)
    # sm_121 vs sm_120
    for i in range(24):
        j = rand_job(rd, archs=(120,)); j2 = dict(j); j2["cc"] = 121
        j["id"] = f"D/p120_{i}"; j2["id"] = f"D/p121_{i}"
        jobs += [j, j2]
    # GROUP_SIZE_M sweep
    for i in range(10):
        base = rand_job(rd)
        for g in (1, 8, 64):
            j = dict(base); j["group_m"] = g; j["id"] = f"D/grp{i}_{g}"; jobs.append(j)
    # moe f16 with an f16 C vs bf16 C
    for i in range(16):
        j = rand_job(rd, archs=(80, 90, 100, 120)); j["kernel"] = "moe"; j["dtype"] = "f16"; j.pop("out", None)
        j2 = dict(j); j2["cdt"] = "f16"; j["id"] = f"D/cbf_{i}"; j2["id"] = f"D/cf16_{i}"
        jobs += [j, j2]
    # MUL_ROUTED_WEIGHT (vLLM's second GEMM) for information
    for i in range(30):
        j = rand_job(rd); j["kernel"] = "moe"; j.pop("out", None)
        if j["dtype"] not in ("bf16", "f16", "fp8_w8a8", "fp8_block"):
            j["dtype"] = "bf16"
        if j["cc"] < 89 and j["dtype"].startswith("fp8"):
            j["dtype"] = "bf16"
        if j["dtype"] == "fp8_block":
            j["block"] = [128, 128]
        j2 = dict(j); j2["mrw"] = True; j["id"] = f"D/mrw0_{i}"; j2["id"] = f"D/mrw1_{i}"
        jobs += [j, j2]
    # num_warps 16 and 1, few
    for i in range(16):
        j = rand_job(rd); j["warps"] = rd.choice([1, 16]); j["id"] = f"D/w{j['warps']}_{i}"; jobs.append(j)
    # e4m3 / fp8 on sm_80/86 (expected invalid)
    for cc in (80, 86):
        jobs.append({"kernel": "matmul", "cc": cc, "dtype": "e4m3", "out": "f16", "bm": 64, "bn": 64, "bk": 64,
                     "warps": 4, "stages": 3, "id": f"D/e4m3_{cc}"})
        jobs.append({"kernel": "moe", "cc": cc, "dtype": "fp8_w8a8", "bm": 64, "bn": 64, "bk": 64,
                     "warps": 4, "stages": 3, "id": f"D/fp8moe_{cc}"})
    # a few full dumps among the probes
    for j in jobs:
        if j["id"].startswith("D/rand") and int(j["id"][6:]) % 12 == 0:
            j["dump"] = True
    json.dump({"procs": 15, "jobs": jobs}, open(sys.argv[1], "w"))
    print(len(jobs), "jobs", sum(1 for j in jobs if j.get("dump")), "dumps")


main()
