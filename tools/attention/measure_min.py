# Targeted compiles for the attention kernel model (attnmodel): compiles the kernels extracted by
# extract_min.py for a GPUTarget with warmup() (nothing launched), records metadata.shared or the
# compile error, and dumps the TTGIR + the module after AllocateSharedMemoryNv (buffer offsets),
# as tools/triton/measure2.py does. Arguments are built generically from the kernel signature:
# pointers by name (dtype from the job), every other int 16 (Triton's divisibility-16
# specialisation, as the engines' strides are), floats 0.1.
# usage: python3 measure_min.py jobs.json out.jsonl dumpdir
import json, os, sys, time, re, importlib
from multiprocessing import Pool
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "triton"))
DUMPDIR = None
PTR = {"Q": "q", "K": "kv", "V": "kv", "K_Buffer": "kv", "V_Buffer": "kv", "Out": "q", "o": "q",
       "Att_Out": "f32", "Mid_O": "f32", "lse": "f32", "Sinks": "f32", "k_scale": "f32", "v_scale": "f32",
       "Req_to_tokens": "i32", "B_Seqlen": "i32", "B_Start_Loc": "i32"}
FLOATS = {"sm_scale"}


def work(job):
    os.environ["TRITON_CACHE_DIR"] = f"/tmp/tcache{os.getpid()}"
    import torch, triton
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    from measure2 import alloc_ir, summarize
    mod = importlib.import_module(job["mod"])
    fn = getattr(mod, job["fn"])
    cc = job["cc"]
    driver.active.get_current_target = lambda: GPUTarget("cuda", cc, 32)
    dc = getattr(fn, "device_caches", None)
    if dc is not None:
        dc.clear()
    DT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32, "fp8_e4m3": torch.float8_e4m3fn,
          "i32": torch.int32}
    out = dict(job)
    try:
        args = []
        for p in fn.params:
            if p.is_constexpr:
                continue
            n = p.name
            if n in PTR:
                kind = PTR[n]
                dt = DT[job.get(kind + "_dtype", kind) if kind in ("q", "kv") else kind]
                args.append(torch.empty((4096,), device="cuda", dtype=torch.float16 if dt.itemsize == 1 else dt).to(dt)
                            if dt.itemsize == 1 else torch.empty((4096,), device="cuda", dtype=dt))
            elif n in FLOATS:
                args.append(0.1)
            else:
                args.append(job.get("ints", {}).get(n, 16))
        k = fn.warmup(*args, grid=(1,), num_warps=job["warps"], num_stages=job["stages"], **job["cx"])
        out["shared"] = int(k.metadata.shared)
        ttgir = k.asm.get("ttgir", "")
        try:
            aout = alloc_ir(ttgir, cc, job["warps"], job["stages"], str(job["id"]))
            out["alloc"] = summarize(aout)
            if DUMPDIR:
                base = os.path.join(DUMPDIR, str(job["id"]))
                open(base + ".ttgir", "w").write(ttgir)
                open(base + ".alloc.mlir", "w").write(aout)
        except Exception as e:
            out["alloc_error"] = f"{type(e).__name__}: {str(e)[:300]}"
    except Exception as e:
        msg = str(e).strip().splitlines()
        out["error"] = f"{type(e).__name__}: {' | '.join(msg[-3:])[:500]}"
    return out


if __name__ == "__main__":
    jobs = json.load(open(sys.argv[1]))
    DUMPDIR = sys.argv[3]
    os.makedirs(DUMPDIR, exist_ok=True)
    t0 = time.time()
    n = 0
    with open(sys.argv[2], "w") as f, Pool(16) as p:
        for r in p.imap_unordered(work, jobs, chunksize=1):
            f.write(json.dumps(r) + "\n"); f.flush(); n += 1
    print(n, "jobs", round(time.time() - t0, 1), "s")
