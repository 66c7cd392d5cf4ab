#!/usr/bin/env python3
"""GPU validation of tilefit.triton.prune (docs/dev/tuner-pruning.md): the tutorial matmul (fp16) over the
1920-config grid BLOCK_M {16,32,64,128,256} x BLOCK_N {32,64,128,256} x BLOCK_K {64,128,256} x warps {4,8}
x GROUP_M {1,16,32,64} x stages {2,3,4,5}, pruned by tilefit and compiled by Triton:

  native (the GPU here, e.g. H200 sm_90): every config compiled (in parallel); every kept config must have
  metadata.shared <= the opt-in limit, every dropped one more; then kept configs are launched on a small
  problem (and checked against torch) and dropped ones must raise OutOfResources at launch; finally the
  pruner drives a real @triton.autotune.
  cross (--cross 120,89): the grid compiled for GPUTarget("cuda", cc, 32) without launching; kept must be
  exactly the configs whose metadata.shared fits the limit.

usage: python3 validate_prune.py --kernel-dir DIR --out OUTDIR [--procs 15] [--cross 120,89] [--launch 300]
Needs torch, triton and tilefit (PYTHONPATH) with TILEFIT_LIBRARY or the .so next to the package.
"""
import argparse
import itertools
import json
import os
import sys
import time

GRID = list(itertools.product((16, 32, 64, 128, 256), (32, 64, 128, 256), (64, 128, 256), (4, 8), (1, 16, 32, 64),
                              (2, 3, 4, 5)))
_KDIR = None


def _init(kdir, cc):
    global _KDIR
    _KDIR = kdir
    sys.path.insert(0, kdir)
    os.environ["TRITON_CACHE_DIR"] = f"/tmp/tcache-{cc}-{os.getpid()}" if cc else "/tmp/tcache-native"
    if cc:
        from triton.backends.compiler import GPUTarget
        from triton.runtime import driver
        target = GPUTarget("cuda", cc, 32)
        driver.active.get_current_target = lambda: target


def _tensors(M=512, N=512, K=512):
    import torch
    a = torch.empty((M, K), device="cuda", dtype=torch.float16)
    b = torch.empty((N, K), device="cuda", dtype=torch.float16).T  # K-major B, as tilefit's triton_matmul
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    return a, b, c


def compile_one(job):
    import matmul_kernel as mk
    bm, bn, bk, w, g, s = job
    a, b, c = _tensors()
    M, K = a.shape
    N = b.shape[1]
    t = time.perf_counter()
    out = {"cfg": job}
    try:
        k = mk.matmul_kernel.warmup(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                    c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=g,
                                    num_warps=w, num_stages=s, grid=(1,))
        out["shared"] = int(k.metadata.shared)
    except Exception as e:  # noqa: BLE001
        out["error"] = f"{type(e).__name__}: {str(e)[:200]}"
    out["seconds"] = time.perf_counter() - t
    return out


class Cfg:  # triton.Config stand-in for the pruner (the real one is used in the autotune step)
    def __init__(self, job):
        bm, bn, bk, w, g, s = job
        self.kwargs = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": g}
        self.num_warps, self.num_stages, self.job = w, s, job


def run_target(cc, arch, limit, args, log):
    import torch
    import tilefit.triton
    cfgs = [Cfg(j) for j in GRID]
    a, b, c = _tensors()
    named = {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": 512, "N": 512, "K": 512}
    t = time.perf_counter()
    kept = {x.job for x in tilefit.triton.prune("triton_matmul", arch=arch)(cfgs, named)}
    prune_ms = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")  # CUDA is initialised here already: no fork
    with ctx.Pool(args.procs, initializer=_init, initargs=(args.kernel_dir, cc)) as p:
        res = p.map(compile_one, GRID, chunksize=4)
    wall = time.perf_counter() - t
    rows = []
    mism = []
    errors = [r for r in res if "error" in r]
    for r in res:
        job = tuple(r["cfg"])
        fits = "shared" in r and r["shared"] <= limit
        ok = (job in kept) == fits
        rows.append({"cfg": job, "shared": r.get("shared"), "error": r.get("error"), "kept": job in kept,
                     "seconds": round(r["seconds"], 3)})
        if not ok:
            mism.append(rows[-1])
    dropped = [r for r in rows if not r["kept"]]
    summary = {"arch": arch, "cc": cc, "limit": limit, "configs": len(GRID), "kept": len(kept),
               "dropped": len(GRID) - len(kept), "mismatches": len(mism), "compile_errors": len(errors),
               "prune_ms": round(prune_ms, 2), "compile_wall_s": round(wall, 1),
               "compile_cpu_s_all": round(sum(r["seconds"] for r in rows), 1),
               "compile_cpu_s_dropped": round(sum(r["seconds"] for r in dropped), 1),
               "max_shared_kept": max((r["shared"] or 0) for r in rows if r["kept"]) if kept else None,
               "min_shared_dropped": min((r["shared"] or 1 << 30) for r in dropped) if dropped else None}
    log(json.dumps(summary))
    for m in mism[:20]:
        log("MISMATCH " + json.dumps(m))
    for e in errors[:5]:
        log("COMPILE-ERROR " + json.dumps(e))
    with open(os.path.join(args.out, f"grid-{arch}.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return summary, rows


def launch_checks(rows, args, log):
    """On the GPU here: kept configs launch (and compute the right product), dropped ones raise OutOfResources."""
    import torch
    import triton
    sys.path.insert(0, args.kernel_dir)
    os.environ["TRITON_CACHE_DIR"] = "/tmp/tcache-native"
    import matmul_kernel as mk
    torch.manual_seed(0)
    M = N = K = 256
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16).T
    ref = (a.float() @ b.float())
    kept = [r for r in rows if r["kept"]]
    dropped = [r for r in rows if not r["kept"]]
    step = max(1, len(kept) // args.launch)
    launched = bad = wrong = 0
    t = time.perf_counter()
    for r in kept[::step][:args.launch]:
        bm, bn, bk, w, g, s = r["cfg"]
        c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        try:
            mk.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=g,
                                   num_warps=w, num_stages=s)
            torch.cuda.synchronize()
            launched += 1
            if not torch.allclose(c.float(), ref, atol=0.5, rtol=0.05):
                wrong += 1
        except Exception as e:  # noqa: BLE001
            bad += 1
            log(f"KEPT-BUT-FAILED {r['cfg']}: {type(e).__name__}: {str(e)[:200]}")
    refused = accepted = 0
    for r in dropped[::max(1, len(dropped) // 60)][:60]:
        bm, bn, bk, w, g, s = r["cfg"]
        c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        try:
            mk.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=g,
                                   num_warps=w, num_stages=s)
            torch.cuda.synchronize()
            accepted += 1
            log(f"DROPPED-BUT-LAUNCHED {r['cfg']} shared {r['shared']}")
        except Exception as e:  # noqa: BLE001
            if type(e).__name__ == "OutOfResources":
                refused += 1
                continue
            log(f"DROPPED-OTHER-ERROR {r['cfg']}: {type(e).__name__}: {str(e)[:160]}")
    out = {"kept_launched": launched, "kept_failed": bad, "kept_wrong_result": wrong, "dropped_tried": refused + accepted,
           "dropped_out_of_resources": refused, "dropped_launched": accepted,
           "seconds": round(time.perf_counter() - t, 1)}
    log("LAUNCH " + json.dumps(out))
    return out


def autotune_check(args, log):
    """The pruner inside a real @triton.autotune (Triton calls early_config_prune(configs, nargs, **kwargs))."""
    import torch
    import triton
    import tilefit
    import tilefit.triton
    sys.path.insert(0, args.kernel_dir)
    import matmul_kernel as mk
    sub = [j for j in GRID if j[4] == 8 or j[4] == 1][::20]
    configs = [triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": g},
                             num_warps=w, num_stages=s) for bm, bn, bk, w, g, s in sub]
    seen = {}
    pruner = tilefit.triton.prune("triton_matmul")  # arch: the current device, through torch

    def recording(configs, named_args, **kwargs):
        kept = pruner(configs, named_args, **kwargs)
        seen["in"], seen["out"], seen["kwargs"] = len(configs), len(kept), sorted(kwargs)
        return kept

    tuned = triton.autotune(configs=configs, key=["M", "N", "K"],
                            prune_configs_by={"early_config_prune": recording})(mk.matmul_kernel)
    M = N = K = 512
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16).T
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"]),)  # noqa: E731
    t = time.perf_counter()
    try:
        tuned[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        torch.cuda.synchronize()
        err = float((c.float() - a.float() @ b.float()).abs().max())
        out = {"configs": len(configs), "pruned_to": seen.get("out"), "kwargs_passed": seen.get("kwargs"),
               "best": str(tuned.best_config), "max_abs_err": err, "seconds": round(time.perf_counter() - t, 1),
               "arch": tilefit.triton.current_arch()}
    except Exception as e:  # noqa: BLE001
        out = {"error": f"{type(e).__name__}: {str(e)[:300]}", "seen": seen}
    log("AUTOTUNE " + json.dumps(out))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel-dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--procs", type=int, default=15)
    ap.add_argument("--cross", default="120,89")
    ap.add_argument("--launch", type=int, default=300)
    ap.add_argument("--skip-native", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.environ["TRITON_CACHE_DIR"] = "/tmp/tcache-native"
    logf = open(os.path.join(args.out, "validate.log"), "a")

    def log(s):
        print(s, flush=True)
        logf.write(s + "\n")
        logf.flush()

    import torch
    import triton
    import tilefit
    log(f"triton {triton.__version__}, torch {torch.__version__}, tilefit {tilefit.__version__} ({tilefit._lib.path}), "
        f"GPU {torch.cuda.get_device_name(0)} cc {torch.cuda.get_device_capability()}")
    try:
        log("device_limits(0): " + json.dumps(tilefit.device_limits(0)))
    except tilefit.DeviceError as e:
        log(f"device_limits(0): DeviceError: {e}")
    result = {}
    if not args.skip_native:
        major, minor = torch.cuda.get_device_capability()
        arch = f"sm_{major}{minor}"
        limit = torch.cuda.get_device_properties(0).shared_memory_per_block_optin
        log(f"native {arch}: opt-in limit {limit} B (tilefit's table: {tilefit.builtin_limits(arch).optin_per_block})")
        summary, rows = run_target(None, arch, limit, args, log)
        result["native"] = summary
        result["launch"] = launch_checks(rows, args, log)
        result["autotune"] = autotune_check(args, log)
    for cc in [int(x) for x in args.cross.split(",") if x]:
        arch = f"sm_{cc}"
        summary, _ = run_target(cc, arch, tilefit.builtin_limits(arch).optin_per_block, args, log)
        result[arch] = summary
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(result, f, indent=1)
    log("SUMMARY " + json.dumps(result))


if __name__ == "__main__":
    main()
