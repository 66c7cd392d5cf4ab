#!/usr/bin/env python3
"""Compile the jobs of gen_amd_jobs.py with Triton 3.6 for GPUTarget("hip", ARCH, 64) and record
CompiledKernel.metadata.shared (or the compile error, and Triton's warnings).

usage: measure_amd.py JOBS.json OUT.jsonl [DUMPDIR]

Method (tools/engines/measure_engines.py's, for HIP): the driver's current target is replaced by
GPUTarget("hip", arch, 64) (no AMD GPU needed, nothing is launched: kernel.warmup(..., grid=(1,)));
TRITON_HIP_USE_ASYNC_COPY is set per job (unset, "0" or "1") before the compile, with a
TRITON_CACHE_DIR per process and switch value; device caches are cleared per job. fp8 tensors are
torch.float8_e4m3fnuz on gfx942 and float8_e4m3fn on gfx950 (vLLM platforms/rocm.py fp8_dtype()).
`dump: true` jobs also write the TTGIR and the module after AMD's shared-memory allocation: the
passes of HIPBackend.make_llir (read from the installed wheel with inspect) up to and including the
allocate-shared-memory pass, re-run on the TTGIR (every buffer's allocation.offset; alloc_shared
must equal shared).
"""
import inspect
import gzip
import json
import os
import re
import sys
import textwrap
import time
import warnings
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "engines"))
sys.path.insert(0, os.path.join(HERE, "..", "triton"))
import measure_engines as me  # noqa: E402

DUMPDIR = None
_ORIG_DT = me._dt


def alloc_ir(ttgir_text, arch, opts, tag):
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.backends.amd import compiler as C
    backend = C.HIPBackend(GPUTarget("hip", arch, 64))
    options = backend.parse_options(opts)
    src = textwrap.dedent(inspect.getsource(C.HIPBackend.make_llir)).splitlines()
    start = next(i for i, l in enumerate(src) if "pm = ir.pass_manager" in l)
    end = next(i for i, l in enumerate(src) if "allocate" in l and "shared_memory" in l)
    body = textwrap.dedent("\n".join(src[start:end + 1])) + "\npm.run(mod" + (
        ', "alloc")' if "pm.run(mod, " in "\n".join(src) else ")")
    path = f"/tmp/amdalloc_{os.getpid()}_{tag}.ttgir"
    with open(path, "w") as f:
        f.write(ttgir_text)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(path, ctx)
    mod.context = ctx
    ns = dict(vars(C))
    ns.update(mod=mod, src=mod, options=options, metadata={})
    exec(body, ns)
    os.unlink(path)
    return str(mod), body


ARCHS = ("gfx942", "gfx950")
ASYNC = (None, 1)


def matmul_jobs(n, seed):
    """n tutorial-matmul configs (random.Random(seed)), each for both targets and both switch values."""
    import random
    rng = random.Random(seed)
    jobs, seen = [], set()
    while len(seen) < n:
        dt = rng.choice(["f16", "bf16", "fp8"])
        bm, bn, bk = (rng.choice([16, 32, 64, 128, 256]) for _ in range(3))
        if bm * bn * bk > 256 * 256 * 128:
            continue
        cfg = dict(dtype=dt, bm=bm, bn=bn, bk=bk, warps=rng.choice([1, 2, 4, 4, 8, 8]),
                   stages=rng.choice([1, 2, 2, 3, 4]))
        if rng.random() < 0.5:
            cfg["waves_per_eu"] = rng.choice([0, 1, 2, 4])
        if rng.random() < 0.6:
            cfg["matrix_instr_nonkdim"] = rng.choice([16, 32])
        if rng.random() < 0.4:
            cfg["kpack"] = rng.choice([1, 2])
        key = tuple(sorted(cfg.items()))
        if key in seen:
            continue
        seen.add(key)
        c = len(seen) - 1
        for arch in ARCHS:
            for a in ASYNC:
                jobs.append(dict(kernel="matmul", arch=arch, hip_async_copy=a, base=c,
                                 id=f"m{c:04d}_{arch}_{'d' if a is None else a}", dump=c < 6, **cfg))
    return jobs


def expand(spec):
    """The device job list: every base launch (gen_amd_jobs.py) for both targets and switch values
    (and TRITON_HIP_USE_ASYNC_COPY=0 for every tenth), then the tutorial matmul's."""
    jobs = []
    for b in spec.get("base", []):
        for arch in ARCHS:
            for a in ASYNC + ((0,) if b["base"] % 10 == 0 else ()):
                j = dict(b, arch=arch, hip_async_copy=a, id=f"e{b['base']:04d}_{arch}_{'d' if a is None else a}")
                j["dump"] = bool(b.get("dump")) and a != 0
                jobs.append(j)
    jobs += matmul_jobs(int(spec.get("matmul", 0)), int(spec.get("seed", 20)))
    import random
    random.Random(7).shuffle(jobs)  # a time limit then cuts every kind of job alike
    return jobs


def matmul_build(job, torch, tl, fp8):
    import matmul_kernel as mk
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "fp8": fp8}[job["dtype"]]
    odt = torch.bfloat16 if job["dtype"] == "bf16" else torch.float16
    M, N, K = 4096, 4096, 4096
    a = torch.empty((M, K), device="cuda", dtype=dt)
    b = torch.empty((N, K), device="cuda", dtype=dt).T  # K-major B (tools/triton/measure2.py)
    c = torch.empty((M, N), device="cuda", dtype=odt)
    args = [a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    kw = dict(BLOCK_SIZE_M=job["bm"], BLOCK_SIZE_N=job["bn"], BLOCK_SIZE_K=job["bk"], GROUP_SIZE_M=8,
              num_warps=job["warps"], num_stages=job["stages"])
    for k in ("waves_per_eu", "matrix_instr_nonkdim", "kpack"):
        if k in job:
            kw[k] = job[k]
    return mk.matmul_kernel, args, kw


def work(job):
    asy = job.get("hip_async_copy")
    os.environ["TRITON_CACHE_DIR"] = f"/tmp/tcache_amd{os.getpid()}_{asy}"
    if asy is None:
        os.environ.pop("TRITON_HIP_USE_ASYNC_COPY", None)
    else:
        os.environ["TRITON_HIP_USE_ASYNC_COPY"] = str(asy)
    import torch
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    arch = job["arch"]
    fp8 = torch.float8_e4m3fnuz if arch == "gfx942" else torch.float8_e4m3fn
    me._dt = lambda t, name: fp8 if name == "fp8" else _ORIG_DT(t, name)
    target = GPUTarget("hip", arch, 64)
    driver.active.get_current_target = lambda: target
    out = {"id": job["id"], "job": {k: v for k, v in job.items() if k not in ("id",)}}
    t0 = time.time()
    errpath = f"/tmp/stderr_amd{os.getpid()}.txt"
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(errpath, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    os.close(fd)
    try:
        with warnings.catch_warnings(record=True) as wlist:
            warnings.simplefilter("always")
            me.DEVICE[0] = "cuda"
            if job["kernel"] == "matmul":
                fn, args, kw = matmul_build(job, torch, tl, fp8)
                mods = []
            else:
                km = me.kernels()
                mods = list(km.values())
                try:
                    fn, args, kw = me.BUILDERS[(job["engine"], job["kernel"])](job, torch, tl, km)
                except torch.OutOfMemoryError:
                    me.DEVICE[0] = "cpu"
                    torch.cuda.empty_cache()
                    fn, args, kw = me.BUILDERS[(job["engine"], job["kernel"])](job, torch, tl, km)
                    out["tensors"] = "cpu"
            import matmul_kernel as mk
            mods.append(mk)
            for mod in mods:
                for name in dir(mod):
                    dc = getattr(getattr(mod, name), "device_caches", None)
                    if dc is not None:
                        dc.clear()
            out["launch"] = {k: me._plain(v) for k, v in kw.items()}
            k = fn.warmup(*args, grid=(1,), **kw)
            md = k.metadata
            out["shared"] = int(md.shared)
            out["num_warps"], out["num_stages"] = int(md.num_warps), int(md.num_stages)
            for f in ("waves_per_eu", "matrix_instr_nonkdim", "kpack"):
                if hasattr(md, f):
                    out[f] = getattr(md, f)
            out["target_arch"] = str(md.target.arch)
            out["compile_s"] = round(time.time() - t0, 2)
            if job.get("dump") and DUMPDIR:
                ttgir = k.asm.get("ttgir", "")
                base = os.path.join(DUMPDIR, str(job["id"]))
                with open(base + ".ttgir", "w") as f:
                    f.write(ttgir)
                try:
                    opts = {"num_warps": out["num_warps"], "num_stages": out["num_stages"]}
                    for f in ("waves_per_eu", "matrix_instr_nonkdim", "kpack"):
                        if f in out:
                            opts[f] = out[f]
                    aout, body = alloc_ir(ttgir, arch, opts, str(os.getpid()))
                    m = re.search(r'"?ttg\.shared"?\s*=\s*(\d+)', aout)
                    out["alloc_shared"] = int(m.group(1)) if m else None
                    out["alloc"] = me.summarize(aout)
                    with open(base + ".alloc.mlir", "w") as f:
                        f.write(aout)
                except Exception as e:
                    out["alloc_error"] = f"{type(e).__name__}: {str(e)[:300]}"
        if wlist:
            out["warnings"] = sorted({str(w.message)[:200] for w in wlist})
    except Exception as e:
        lines = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
        reason = lines[-1] if type(e).__name__ == "CompilationError" and lines else (lines[0] if lines else "")
        out["error"] = f"{type(e).__name__}: {reason[:300]}"
        if lines and lines[0] != reason:
            out["error_at"] = lines[0][:100]
        out["compile_s"] = round(time.time() - t0, 2)
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
    try:
        with open(errpath, errors="replace") as f:
            txt = f.read()
        diag = [l.strip() for l in txt.splitlines() if " error: " in l or "note: Pipeline failed" in l]
        if "error" in out and diag:
            out["mlir"] = [re.sub(r"^\S*/kernels/", "kernels/", d)[:300] for d in diag[:3]]
        warn = [l.strip()[:200] for l in txt.splitlines() if "arn" in l and "error" not in l]
        if warn:
            out["stderr_warnings"] = sorted(set(warn))[:4]
    except OSError:
        pass
    return out


def main():
    global DUMPDIR
    spec = json.load(gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1]))
    if len(sys.argv) > 3:
        DUMPDIR = sys.argv[3]
        os.makedirs(DUMPDIR, exist_ok=True)
    jobs = spec["jobs"] if "jobs" in spec else expand(spec)
    if os.environ.get("MEASURE_FIRST"):
        jobs = jobs[:int(os.environ["MEASURE_FIRST"])]
    # dumps first, so a time limit never loses them
    jobs = sorted(jobs, key=lambda j: not j.get("dump"))
    limit_s = float(os.environ.get("MEASURE_LIMIT_S", "0"))
    t0 = time.time()
    import collections
    import triton
    res = []
    procs = int(spec.get("procs", os.cpu_count() or 4))
    with open(sys.argv[2], "w") as f, Pool(procs, maxtasksperchild=100) as p:
        for r in p.imap_unordered(work, jobs, chunksize=1):
            r["triton"] = triton.__version__
            f.write(json.dumps(r) + "\n")
            f.flush()
            res.append(r)
            if len(res) % 250 == 0:
                print(f"{len(res)}/{len(jobs)} {time.time() - t0:.0f} s", flush=True)
            if limit_s and time.time() - t0 > limit_s:
                print(f"time limit {limit_s} s reached after {len(res)} jobs", flush=True)
                p.terminate()
                break
    ok = sum(1 for r in res if "shared" in r)
    mism = sum(1 for r in res if "alloc_shared" in r and r["alloc_shared"] != r["shared"])
    dt = time.time() - t0
    print(f"{len(res)} jobs, {ok} compiled, {mism} alloc!=shared, {dt:.1f} s, {len(res) / max(dt, 1e-9):.2f} jobs/s")
    print(collections.Counter(r["error"][:100] for r in res if "error" in r).most_common(15))
    print(collections.Counter(w[:120] for r in res for w in r.get("warnings", [])).most_common(5))
    print("alloc errors", collections.Counter(r["alloc_error"][:150] for r in res if "alloc_error" in r).most_common(3))


if __name__ == "__main__":
    main()
