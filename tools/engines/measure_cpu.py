#!/usr/bin/env python3
"""measure_engines.py's compiles on a machine without a GPU: the same builders (the engines'
launch transformations, measure_engines.BUILDERS), the same `kernel.warmup(..., grid=(1,))`,
with Triton's active driver replaced by a stand-in that only names the target
(GPUTarget("cuda", cc, 32)) and with shape-only tensors (CpuTensor: Triton's MockTensor with the
shape and contiguous strides a torch.empty of that shape has, data_ptr 0 = 16-byte aligned, as a
torch allocation is). Nothing is launched, so nothing else of the driver is asked. The compiled
kernel's metadata.shared is what a GPU machine's compile gives (the method of
tests/data/engines-triton-3.6.md; checked on the rows it re-measures, see --check).

usage:
  measure_cpu.py JOBS.json OUT.jsonl [DUMPDIR]   jobs in gen_jobs.py's format, results in
                                                 measure_engines.py's (to_rows.py joins them)
  measure_cpu.py --check ROWS.jsonl N            re-measures N rows of the row file (every k-th)
                                                 and prints how many agree

Run it with the Triton 3.6.0 virtual environment (no torch needed), under `nice`.
"""
import json
import os
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.append(os.path.dirname(HERE))
from cpu_driver import CpuDriver  # noqa: E402



def cpu_torch():
    import triton.language as tl
    from triton.runtime.jit import MockTensor

    class CpuTensor(MockTensor):
        def __init__(self, shape, dtype):
            super().__init__(dtype)
            self.shape, self.ndim = tuple(shape), len(shape)
            st, acc = [], 1
            for d in reversed(self.shape):
                st.append(acc)
                acc *= d
            self._strides = tuple(reversed(st))

        def stride(self, i=None):
            return self._strides if i is None else self._strides[i]

        def size(self, i=None):
            return self.shape if i is None else self.shape[i]

        def numel(self):
            n = 1
            for d in self.shape:
                n *= d
            return n

    class CpuTorch:
        bfloat16, float16, float32 = tl.bfloat16, tl.float16, tl.float32
        float8_e4m3fn, int8, uint8, int32 = tl.float8e4nv, tl.int8, tl.uint8, tl.int32

        class OutOfMemoryError(Exception):
            pass

        @staticmethod
        def empty(shape, device=None, dtype=None):
            return CpuTensor(shape, dtype)

    return CpuTorch


def work(job):
    os.environ.setdefault("TRITON_CACHE_DIR", f"/tmp/tcache_cpu{os.getpid()}")
    import triton.language as tl
    from triton.runtime import driver
    import measure_engines as me
    driver.set_active(CpuDriver(job["cc"]))
    torch = cpu_torch()
    km = me.kernels()
    out = {"id": job["id"]}
    t0 = time.time()
    try:
        fn, args, kw = me.BUILDERS[(job["engine"], job["kernel"])](job, torch, tl, km)
        for mod in km.values():
            for name in dir(mod):
                dc = getattr(getattr(mod, name), "device_caches", None)
                if dc is not None:
                    dc.clear()
        out["launch"] = {k: me._plain(v) for k, v in kw.items()}
        k = fn.warmup(*args, grid=(1,), **kw)
        md = k.metadata
        out["shared"] = int(md.shared)
        out["num_warps"], out["num_stages"], out["num_ctas"] = int(md.num_warps), int(md.num_stages), int(md.num_ctas)
        out["target_arch"] = str(md.target.arch)
        if job.get("dump") and me.DUMPDIR:
            ttgir = k.asm.get("ttgir", "")
            base = os.path.join(me.DUMPDIR, str(job["id"]).replace("/", "_"))
            aout = me.alloc_ir(ttgir, job["cc"], out["num_warps"], out["num_stages"], out["num_ctas"],
                               str(os.getpid()))
            out["alloc"] = me.summarize(aout)
            with open(base + ".alloc.mlir", "w") as f:
                f.write(aout)
    except Exception as e:
        lines = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
        reason = lines[-1] if type(e).__name__ == "CompilationError" and lines else (lines[0] if lines else "")
        out["error"] = f"{type(e).__name__}: {reason[:300]}"
    out["compile_s"] = round(time.time() - t0, 2)
    return out


def job_of_row(row):
    """The job a row of tests/data/engines-triton-3.6.jsonl was measured from (its context)."""
    c = row["context"]
    launch = row["launch"]
    cfg = {k: v for k, v in row["entry"].items() if k not in ("USE_TMA",)}
    job = {"id": row["id"], "engine": row["engine"], "kernel": row["kernel"],
           "cc": int(row["arch"][3:]), "quant": c["quant"], "shape": c["shape"], "config": cfg}
    for k in ("block_shape", "per_channel", "swap_ab", "use_tma", "use_td", "naive_block_assignment",
              "group_size", "has_zp", "variant", "c_sorted", "filter_expert"):
        if k in c:
            job[k] = c[k]
    if "MUL_ROUTED_WEIGHT" in launch:
        job["mrw"] = launch["MUL_ROUTED_WEIGHT"]
    return job


def main():
    import triton
    if sys.argv[1] == "--check":
        rows = [json.loads(l) for l in open(sys.argv[2])]
        rows = [r for r in rows if r["kernel"].startswith("fused_moe_kernel")]
        n = int(sys.argv[3])
        pick = rows[:: max(1, len(rows) // n)][:n]
        jobs = [job_of_row(r) for r in pick]
        with Pool(int(os.environ.get("PROCS", "1"))) as p:
            res = list(p.imap(work, jobs))
        agree = 0
        for r, m in zip(pick, res):
            want = r["expect"].get("smem_bytes")
            got = m.get("shared")
            ok = (want == got) if want is not None else ("error" in m)
            agree += ok
            if not ok:
                print("DIFF", r["id"], want, got, m.get("error", ""))
        print(f"{agree}/{len(pick)} rows re-measured on the CPU agree")
        return
    spec = json.load(open(sys.argv[1]))
    import measure_engines as me
    if len(sys.argv) > 3:
        me.DUMPDIR = sys.argv[3]
        os.makedirs(me.DUMPDIR, exist_ok=True)
    with open(sys.argv[2], "w") as f, Pool(int(spec.get("procs", 1))) as p:
        for r in p.imap(work, spec["jobs"]):
            r["triton"] = triton.__version__
            f.write(json.dumps(r) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
