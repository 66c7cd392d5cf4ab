# Turn the allocator dumps of the first device run (ttg.shared written by AllocateSharedMemoryNv, which is
# what CompiledKernel.metadata.shared reads: third_party/nvidia/backend/compiler.py:424) into rows in the
# format of triton-3.6.jsonl. Only D/* (new, out-of-sample) jobs are emitted.
import json, re, glob, os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ref_model import LIMITS
jobs = {j["id"].replace("/", "_"): j for j in json.load(open(sys.argv[1]))["jobs"]}
out = open(sys.argv[3], "w")
n = 0
for p in sorted(glob.glob(sys.argv[2] + "/D_*.alloc.mlir")):
    key = os.path.basename(p).replace(".alloc.mlir", "")
    j = jobs[key]
    shared = int(re.search(r"ttg.shared = (\d+)", open(p).read()).group(1))
    kern = "triton_matmul" if j["kernel"] == "matmul" else "triton_fused_moe"
    arch = f"sm_{j['cc']}"
    cfg = {"name": None, "arch": arch, "kernel": kern, "tile": [j["bm"], j["bn"], j["bk"]], "num_warps": j["warps"],
           "stages": j["stages"]}
    if kern == "triton_matmul":
        cfg["dtype"] = j["dtype"]; cfg["d"] = j.get("out", "f16" if j["dtype"] in ("f16", "e4m3") else j["dtype"])
    else:
        if j["dtype"] == "fp8_block":
            cfg["dtype"] = "fp8_w8a8"; cfg["block_shape"] = j.get("block", [128, 128])
        else:
            cfg["dtype"] = j["dtype"]
        cfg["d"] = "f16" if j["dtype"] == "f16" else "bf16"
    if "group_m" in j:
        cfg["group_m"] = j["group_m"]
    name = f"triton3.6x_{j['kernel']}_{j['dtype']}_{arch.replace('_','')}_{j['bm']}x{j['bn']}x{j['bk']}_w{j['warps']}_s{j['stages']}"
    if cfg.get("block_shape"):
        name += f"_bs{cfg['block_shape'][0]}x{cfg['block_shape'][1]}"
    cfg["name"] = name
    lim = LIMITS[j["cc"]]
    row = {"id": name, "config": cfg,
           "expect": {"status": "fits" if shared <= lim else "does_not_fit", "smem_bytes": shared, "limit_bytes": lim},
           "triton": {"version": "3.6.0", "metadata_shared": shared, "source": "AllocateSharedMemoryNv re-run on the kernel's TTGIR (device run 1)",
                      "job": j}}
    out.write(json.dumps(row) + "\n"); n += 1
print(n, "rows")
