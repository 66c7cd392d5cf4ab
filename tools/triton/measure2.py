# Compiles the tiled GEMM and vLLM's fused_moe_kernel with Triton for any NVIDIA target (no GPU of
# that kind needed) and records CompiledKernel.metadata.shared, plus a summary of what the shared-memory
# allocator placed where (ops carrying `allocation.offset` after AllocateSharedMemoryNv).
# Extends tools/triton/measure.py (same kernels, same argument specialisation).
# usage: python3 measure2.py jobs.json out.jsonl [dumpdir]
# job: {"kernel": "matmul"|"moe", "dtype": f16|bf16|f32|e4m3 (matmul) or bf16|f16|fp8_w8a8|fp8_block (moe),
#       "cc": 80, "bm", "bn", "bk", "warps", "stages",
#       optional "out": f16|bf16|f32 (matmul C dtype; default as measure.py), "group_m" (default 8 matmul, 1 moe),
#       "block": [gn, gk] (fp8_block; default [128,128]), "mrw": bool (MUL_ROUTED_WEIGHT), "cdt": moe C dtype,
#       "dump": true (write full ttgir + allocated IR into dumpdir), "id": any}
import json, os, sys, time, re, traceback
from multiprocessing import Pool

DUMPDIR = None
LOC_RE = re.compile(r"\s*loc\((#loc\d*|\"[^\"]*\"(:\d+:\d+)?|unknown)\)")


def alloc_ir(ttgir_text, cc, num_warps, num_stages, tag):
    """Re-run the first passes of make_llir (third_party/nvidia/backend/compiler.py) up to
    AllocateSharedMemoryNv and return the printed module."""
    from triton._C.libtriton import ir, passes, nvidia
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend, get_ptx_version_from_options
    target = GPUTarget("cuda", cc, 32)
    backend = CUDABackend(target)
    opts = backend.parse_options({"num_warps": num_warps, "num_stages": num_stages})
    ptxv = get_ptx_version_from_options(opts, target.arch)
    path = f"/tmp/alloc_{os.getpid()}_{tag}.ttgir"
    with open(path, "w") as f:
        f.write(ttgir_text)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(path, ctx)
    mod.context = ctx
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_combine_tensor_select_and_if(pm)
    passes.ttgpuir.add_allocate_warp_groups(pm)
    passes.convert.add_scf_to_cf(pm)
    passes.gluon.add_inliner(pm)
    nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, cc, ptxv)
    nvidia.passes.ttnvgpuir.add_allocate_tensor_memory(pm)
    pm.run(mod, "alloc")
    os.unlink(path)
    return str(mod)


def summarize(text):
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#loc"):
            continue
        if s.startswith("#") or s.startswith("module attributes") or "allocation.offset" in s \
                or "local_alloc" in s or "tmem_alloc" in s or "convert_layout" in s:
            s = LOC_RE.sub("", s)
            out.append(s[:600])
    return out


def work(job):
    os.environ.setdefault("TRITON_CACHE_DIR", f"/tmp/tcache{os.getpid()}")
    import torch, triton, triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    import matmul_kernel as mk
    import vllm_fused_moe as vm
    cc = job["cc"]
    target = GPUTarget("cuda", cc, 32)
    driver.active.get_current_target = lambda: target
    for fn in (mk.matmul_kernel, vm.fused_moe_kernel, vm.write_zeros_to_output):
        dc = getattr(fn, "device_caches", None)
        if dc is not None:
            dc.clear()
    dev = "cuda"
    out = dict(job)
    t0 = time.time()
    try:
        if job["kernel"] == "matmul":
            dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "e4m3": torch.float8_e4m3fn}[job["dtype"]]
            default_out = "f16" if job["dtype"] in ("f16", "e4m3") else job["dtype"]
            odt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[job.get("out", default_out)]
            M, N, K = 4096, 4096, 4096
            a = torch.empty((M, K), device=dev, dtype=torch.float16).to(dt)
            b = torch.empty((N, K), device=dev, dtype=torch.float16).to(dt).T  # K-major B
            c = torch.empty((M, N), device=dev, dtype=odt)
            k = mk.matmul_kernel.warmup(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                        c.stride(0), c.stride(1), BLOCK_SIZE_M=job["bm"], BLOCK_SIZE_N=job["bn"],
                                        BLOCK_SIZE_K=job["bk"], GROUP_SIZE_M=job.get("group_m", 8),
                                        num_warps=job["warps"], num_stages=job["stages"], grid=(1,))
        else:
            E, N, K, top_k, M = 8, 2048, 2048, 2, 256
            fp8 = job["dtype"] in ("fp8_w8a8", "fp8_block")
            adt = torch.float8_e4m3fn if fp8 else {"bf16": torch.bfloat16, "f16": torch.float16}[job["dtype"]]
            cdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[job.get("cdt", "bf16")]
            A = torch.empty((M, K), device=dev, dtype=torch.float16).to(adt)
            B = torch.empty((E, N, K), device=dev, dtype=torch.float16).to(adt)
            C = torch.empty((M, top_k, N), device=dev, dtype=cdt)
            tw = torch.empty((M, top_k), device=dev, dtype=torch.float32)
            sti = torch.empty((M * top_k + E * job["bm"],), device=dev, dtype=torch.int32)
            eids = torch.empty((sti.numel() // job["bm"] + 1,), device=dev, dtype=torch.int32)
            ntp = torch.empty((1,), device=dev, dtype=torch.int32)
            gn = gk = 0
            if job["dtype"] == "fp8_block":
                gn, gk = job.get("block", [128, 128])
                As = torch.empty((M, K // gk), device=dev, dtype=torch.float32)
                Bs = torch.empty((E, N // gn, K // gk), device=dev, dtype=torch.float32)
                sa = (As.stride(0), As.stride(1)); sb = (Bs.stride(0), Bs.stride(2), Bs.stride(1))
            elif fp8:
                As = torch.empty((1,), device=dev, dtype=torch.float32)
                Bs = torch.empty((E,), device=dev, dtype=torch.float32)
                sa = (0, 0); sb = (Bs.stride(0), 0, 0)
            else:
                As = Bs = None; sa = (0, 0); sb = (0, 0, 0)
            ct = tl.bfloat16 if job["dtype"] != "f16" else tl.float16
            k = vm.fused_moe_kernel.warmup(A, B, C, As, Bs, tw, sti, eids, ntp, N, K, sti.numel(), M * top_k,
                A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(1), C.stride(2),
                sa[0], sa[1], sb[0], sb[1], sb[2], group_n=gn, group_k=gk,
                BLOCK_SIZE_M=job["bm"], BLOCK_SIZE_N=job["bn"], BLOCK_SIZE_K=job["bk"],
                GROUP_SIZE_M=job.get("group_m", 1),
                MUL_ROUTED_WEIGHT=bool(job.get("mrw", False)), top_k=top_k, compute_type=ct, use_fp8_w8a8=fp8,
                use_int8_w8a8=False, use_int8_w8a16=False, per_channel_quant=False,
                num_warps=job["warps"], num_stages=job["stages"], grid=(1,))
        out["shared"] = int(k.metadata.shared)
        out["tmem"] = getattr(k.metadata, "tmem_size", None)
        out["target_arch"] = str(k.metadata.target.arch)
        out["compile_s"] = round(time.time() - t0, 2)
        ttgir = k.asm.get("ttgir", "")
        try:
            aout = alloc_ir(ttgir, cc, job["warps"], job["stages"], str(job.get("id", "x")).replace("/", "_"))
            out["alloc"] = summarize(aout)
            m = re.search(r'"?ttg\.shared"?\s*=\s*(\d+)', aout)
            out["alloc_shared"] = int(m.group(1)) if m else None
            if job.get("dump") and DUMPDIR:
                base = os.path.join(DUMPDIR, str(job.get("id", "x")).replace("/", "_"))
                with open(base + ".ttgir", "w") as f:
                    f.write(ttgir)
                with open(base + ".alloc.mlir", "w") as f:
                    f.write(aout)
        except Exception as e:
            out["alloc_error"] = f"{type(e).__name__}: {str(e)[:300]}"
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {str(e)[:400]}"
    return out


if __name__ == "__main__":
    spec = json.load(open(sys.argv[1]))
    if len(sys.argv) > 3:
        DUMPDIR = sys.argv[3]
        os.makedirs(DUMPDIR, exist_ok=True)
    jobs = spec["jobs"]
    t0 = time.time()
    import triton, collections
    res = []
    # write each row as soon as it is done, so a timeout loses nothing already measured
    with open(sys.argv[2], "w") as f, Pool(int(spec.get("procs", 15))) as p:
        for r in p.imap_unordered(work, jobs, chunksize=2):
            r["triton"] = triton.__version__
            f.write(json.dumps(r) + "\n")
            f.flush()
            res.append(r)
    ok = sum(1 for r in res if "shared" in r)
    ae = sum(1 for r in res if "alloc_error" in r)
    mism = sum(1 for r in res if "shared" in r and r.get("alloc_shared") not in (None, r["shared"]))
    print(f"{len(res)} jobs, {ok} compiled, {ae} alloc errors, {mism} alloc!=shared, {time.time()-t0:.1f} s")
    for r in [r for r in res if "alloc_error" in r][:3]:
        print("AERR", r["alloc_error"])
    errs = [r for r in res if "error" in r]
    print(collections.Counter(e["error"][:90] for e in errs).most_common(12))
