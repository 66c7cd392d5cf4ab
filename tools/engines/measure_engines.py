#!/usr/bin/env python3
"""Compile the engines' Triton kernels (copied by extract.py into kernels/) with Triton 3.6 for any
NVIDIA target and record CompiledKernel.metadata.shared, or the compile error.

usage: measure_engines.py JOBS.json OUT.jsonl [DUMPDIR]
  JOBS.json: {"procs": 15, "jobs": [job, ...]} (gen_jobs.py writes it; README.md documents a job)

Same method as tools/triton/measure2.py: GPUTarget("cuda", cc, 32) as the driver's current target,
`kernel.warmup(..., grid=(1,))` (compiles, launches nothing, so OutOfResources cannot happen: a
kernel over the limit compiles and reports its `shared`), device_caches cleared per job, one
process per core (multiprocessing.Pool) with its own TRITON_CACHE_DIR. `dump: true` jobs also
write the TTGIR (after the pipeliner, i.e. what the compiler hands to make_llir) and the module
after AllocateSharedMemoryNv (every buffer's allocation.offset) into DUMPDIR.

Argument specialisation: every launch below passes exactly the arguments the engine's launcher
passes at the pinned commit (cited per builder), built from real contiguous tensors of the job's
shapes, so Triton sees the same ==1 / divisible-by-16 integer and 16-byte-aligned pointer
specialisation as in the engine. Tensors are torch.empty on the local GPU (only their pointers,
dtypes and strides matter; nothing runs).
"""
import json
import os
import re
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
DUMPDIR = None
LOC_RE = re.compile(r"\s*loc\((#loc\d*|\"[^\"]*\"(:\d+:\d+)?|unknown)\)")


def cdiv(a, b):
    return -(-a // b)


def alloc_ir(ttgir_text, cc, num_warps, num_stages, num_ctas, tag):
    """The first passes of make_llir (triton 3.6 third_party/nvidia/backend/compiler.py) up to
    AllocateSharedMemoryNv, as in tools/triton/measure2.py."""
    from triton._C.libtriton import ir, passes, nvidia
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend, get_ptx_version_from_options
    target = GPUTarget("cuda", cc, 32)
    backend = CUDABackend(target)
    opts = backend.parse_options({"num_warps": num_warps, "num_stages": num_stages, "num_ctas": num_ctas})
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
            out.append(LOC_RE.sub("", s)[:600])
    return out


# ----------------------------------------------------------------------------------------------
# Builders: (kernel function, positional args, constexpr/launch kwargs) exactly as the engine.
# ----------------------------------------------------------------------------------------------

class FakeTensor:
    """Shape/dtype/strides of a contiguous tensor: lets gen_jobs.py run the builders without torch
    to compute the specialisation signature a launch gets (dedup of identical launches)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.ndim = tuple(shape), dtype, len(shape)
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


class FakeTorch:
    FAKE = True
    bfloat16, float16, float32, float8_e4m3fn = "bf16", "f16", "f32", "fp8e4nv"
    int8, uint8, int32 = "int8", "uint8", "int32"

    @staticmethod
    def empty(shape, device=None, dtype=None):
        return FakeTensor(shape, dtype)


class FakeTl:
    bfloat16, float16 = "bf16", "fp16"


def signature(args, kw):
    """What Triton 3.6 specialises on (runtime/jit.py, backends/nvidia/driver.py): None and
    constexprs by value, ints == 1 or divisible by 16, pointers by dtype (torch allocations are
    16-byte aligned), tensor descriptors by dtype and block shape."""
    sig = []
    for a in args:
        if a is None:
            sig.append("None")
        elif isinstance(a, bool):
            sig.append(f"b{a}")
        elif isinstance(a, int):
            sig.append("1" if a == 1 else ("D" if a % 16 == 0 else "i"))
        elif isinstance(a, FakeTensor):
            sig.append(f"*{a.dtype}")
        elif isinstance(a, tuple) and a and a[0] == "desc":
            sig.append(f"desc{a[1]}{list(a[2])}")
        else:
            sig.append(type(a).__name__)
    return sig + [f"{k}={v}" for k, v in sorted(kw.items())]


def _dt(torch, name):
    return {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32, "fp8": torch.float8_e4m3fn,
            "int8": torch.int8, "uint8": torch.uint8, "int32": torch.int32}[name]


DEVICE = ["cuda"]


def _empty(torch, shape, dt):
    # Only pointer dtype, 16-byte alignment and strides reach the compiler. The largest weights
    # (E x N x K) of 15 compiles at once can exceed the GPU's memory: such a job is built again
    # with host tensors (torch.empty does not touch the pages; warmup() launches nothing, so the
    # device of a tensor is never checked; same dtypes, alignment and strides).
    return torch.empty(shape, device=DEVICE[0], dtype=_dt(torch, dt))


def _act_weight_dtypes(q):
    return {"bf16": ("bf16", "bf16"), "f16": ("f16", "f16"), "fp8_w8a8": ("fp8", "fp8"),
            "int8_w8a8": ("int8", "int8"), "int8_w8a16": ("bf16", "int8"), "int4_w4a16": ("bf16", "uint8")}[q]


def _moe_common(torch, job):
    s = job["shape"]
    M, E, N, K, top_k = s["M"], s["E"], s["N"], s["K"], s["top_k"]
    adt, bdt = _act_weight_dtypes(job["quant"])
    cdt = job.get("cdt", "f16" if job["quant"] == "f16" else "bf16")  # C in the activation dtype
    return M, E, N, K, top_k, adt, bdt, cdt


def _sorted_ids(torch, numel, E, BM):
    # moe_align_block_size: max_num_tokens_padded = numel + E * (BLOCK_SIZE_M - 1)
    # (vLLM fused_moe/moe_align_block_size.py; SGLang the same), expert ids one per block.
    n = numel + E * (BM - 1)
    sti = _empty(torch, (n,), "int32")
    eids = _empty(torch, (cdiv(n, BM),), "int32")
    ntp = _empty(torch, (1,), "int32")
    return sti, eids, ntp


def _scales(torch, job, M_rows, E, N, K):
    """A_scale, B_scale as the engines quantise: per-tensor, per-channel (per-token activations),
    block-wise ([bn, bk]); int8_w8a16 per-channel B scale (E, N)."""
    q, bs, pc = job["quant"], job.get("block_shape"), job.get("per_channel", False)
    if q in ("fp8_w8a8", "int8_w8a8"):
        if bs:
            bn, bk = bs
            return _empty(torch, (M_rows, cdiv(K, bk)), "f32"), _empty(torch, (E, cdiv(N, bn), cdiv(K, bk)), "f32")
        if pc:
            return _empty(torch, (M_rows, 1), "f32"), _empty(torch, (E, N, 1), "f32")
        return _empty(torch, (1,), "f32"), _empty(torch, (E,), "f32")
    if q == "int8_w8a16":
        return None, _empty(torch, (E, N), "bf16")
    return None, None


def _scale_strides(As, Bs):
    # vLLM fused_moe.py:882-886 / SGLang fused_moe_triton_kernels.py:934-938 (same expressions)
    return [As.stride(0) if As is not None and As.ndim == 2 else 0,
            As.stride(1) if As is not None and As.ndim == 2 else 0,
            Bs.stride(0) if Bs is not None and Bs.ndim >= 2 else 0,
            Bs.stride(2) if Bs is not None and Bs.ndim == 3 else 0,
            Bs.stride(1) if Bs is not None and Bs.ndim >= 2 else 0]


def _compute_type(tl, cdt):
    return tl.float16 if cdt == "f16" else tl.bfloat16


def build_vllm_fused_moe(job, torch, tl, km):
    """vLLM 6adad087 invoke_fused_moe_triton_kernel (fused_moe.py:763-905), called from
    fused_experts_impl (fused_moe.py:1785-1810 w1 GEMM: A = hidden states (M, K), C =
    intermediate_cache1 (M, top_k, N), top_k = top_k; the w2 GEMM: A (M*top_k, K), top_k = 1,
    MUL_ROUTED_WEIGHT = not apply_router_weight_on_input)."""
    M, E, N, K, top_k, adt, bdt, cdt = _moe_common(torch, job)
    cfg = dict(job["config"])
    down = job["shape"].get("gemm") == "down"
    rows = M * top_k if down else M
    ktop = 1 if down else top_k
    A = _empty(torch, (rows, K), adt)
    B = _empty(torch, (E, N, K), bdt)
    C = _empty(torch, (M, top_k, N), cdt)
    tw = _empty(torch, (M, top_k), "f32")
    As, Bs = _scales(torch, job, rows, E, N, K)
    naive = bool(job.get("naive_block_assignment", False))
    BM = cfg["BLOCK_SIZE_M"]
    if naive:
        # _prepare_expert_assignment (fused_moe.py:1538-1575): sorted_token_ids None, expert_ids =
        # topk_ids.view(-1), num_tokens_post_padded = numel * BLOCK_SIZE_M; EM = num_tokens * BM (:830)
        sti, eids, ntp = None, _empty(torch, (M * top_k,), "int32"), _empty(torch, (1,), "int32")
        EM = M * top_k * BM
    else:
        sti, eids, ntp = _sorted_ids(torch, M * top_k, E, BM)
        EM = sti.numel()
        if rows < BM:  # fused_moe.py:824-833
            EM = min(sti.numel(), rows * ktop * BM)
    bs = job.get("block_shape")
    args = [A, B, C, None, As, Bs, tw, sti, eids, ntp, B.size(1), B.size(2), EM, rows * ktop,
            A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(1), C.stride(2)] \
        + _scale_strides(As, Bs) + [0, 0, 0 if bs is None else bs[0], 0 if bs is None else bs[1]]
    kw = dict(MUL_ROUTED_WEIGHT=bool(job.get("mrw", down)), top_k=ktop, compute_type=_compute_type(tl, cdt),
              use_fp8_w8a8=job["quant"] == "fp8_w8a8", use_int8_w8a8=job["quant"] == "int8_w8a8",
              use_int8_w8a16=job["quant"] == "int8_w8a16", per_channel_quant=bool(job.get("per_channel", False)),
              naive_block_assignment=naive, HAS_BIAS=False, SWAP_AB=bool(job.get("swap_ab", False)),
              USE_TD=bool(job.get("use_td", False)))
    kw.update(cfg)  # config as the launcher passes it (SPLIT_K=1, BLOCK_SIZE_K clamped: gen_jobs.py)
    return km["vllm_fused_moe"].fused_moe_kernel, args, kw


def _wna16_tensors(torch, job, M, E, N, K, top_k, bdt):
    g = job["group_size"]
    A = _empty(torch, (M, K), "bf16")
    if job["quant"] == "int4_w4a16":
        # moe_wna16 packs two 4-bit weights per uint8 along K (quantization/moe_wna16.py)
        B = _empty(torch, (E, N, K // 2), "uint8")
        Bz = _empty(torch, (E, N // 2, cdiv(K, g)), "uint8") if job.get("has_zp") else None
    else:
        B = _empty(torch, (E, N, K), "int8")
        Bz = _empty(torch, (E, N, cdiv(K, g)), "uint8") if job.get("has_zp") else None
    Bs = _empty(torch, (E, N, cdiv(K, g)), "bf16")
    return A, B, Bs, Bz


def build_vllm_gptq_awq(job, torch, tl, km):
    """vLLM 6adad087 invoke_fused_moe_wna16_triton_kernel (fused_moe.py:673-760): the Triton wna16
    kernel dispatch_fused_moe_kernel (fused_moe.py:907-980) picks for int8_w8a16/int4_w4a16 with
    block_shape[1] > 0 when should_moe_wna16_use_cuda (fused_moe.py:1282-1290) is false.
    **config as in the table entry (+ get_moe_wna16_block_config: {} when BLOCK_SIZE_N/K are set)."""
    M, E, N, K, top_k, adt, bdt, cdt = _moe_common(torch, job)
    cfg = dict(job["config"])
    A, B, Bs, Bz = _wna16_tensors(torch, job, M, E, N, K, top_k, bdt)
    C = _empty(torch, (M, top_k, N), "bf16")
    tw = _empty(torch, (M, top_k), "f32")
    sti, eids, ntp = _sorted_ids(torch, M * top_k, E, cfg["BLOCK_SIZE_M"])
    EM = sti.numel()
    if M < cfg["BLOCK_SIZE_M"]:
        EM = min(sti.numel(), M * top_k * cfg["BLOCK_SIZE_M"])
    args = [A, B, C, Bs, Bz, tw, sti, eids, ntp, B.size(1), A.size(1), EM, M * top_k,
            A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(1), C.stride(2),
            Bs.stride(0), Bs.stride(2), Bs.stride(1),
            Bz.stride(0) if Bz is not None else 0, Bz.stride(2) if Bz is not None else 0,
            Bz.stride(1) if Bz is not None else 0]
    kw = dict(block_k_diviable=A.size(1) % cfg["BLOCK_SIZE_K"] == 0, group_size=job["group_size"],
              MUL_ROUTED_WEIGHT=bool(job.get("mrw", False)), top_k=top_k, compute_type=tl.bfloat16,
              has_zp=Bz is not None, use_int4_w4a16=job["quant"] == "int4_w4a16",
              use_int8_w8a16=job["quant"] == "int8_w8a16")
    kw.update(cfg)
    return km["vllm_fused_moe"].fused_moe_kernel_gptq_awq, args, kw


def build_sglang_fused_moe(job, torch, tl, km):
    """SGLang d6ef6888 invoke_fused_moe_kernel (kernels/ops/moe/fused_moe_triton_kernels.py:714-958)
    from _fused_moe_kernel_sequence (srt/layers/moe/moe_runner/triton_utils/fused_moe.py:513-541 up
    GEMM: A hidden states (M, K), C intermediate_cache1 (total_tokens, N), top_k = topk,
    c_sorted = down_moe_use_tma; :707-743 down GEMM: A intermediate_cache2 (total_tokens, K),
    C intermediate_cache3 (M, topk, N), top_k 1, MUL_ROUTED_WEIGHT, a_use_tma = b_use_tma =
    down_moe_use_tma, router_topk = topk)."""
    if getattr(torch, "FAKE", False):
        def TensorDescriptor(t, shape, strides, block):
            return ("desc", t.dtype, block)
    else:
        from triton.tools.tensor_descriptor import TensorDescriptor
    M, E, N, K, top_k, adt, bdt, cdt = _moe_common(torch, job)
    cfg = dict(job["config"])
    down = job["shape"].get("gemm") == "down"
    tma = bool(job.get("use_tma", False))
    BM = cfg["BLOCK_SIZE_M"]
    padded = min(M * top_k, E + 1) * (BM - 1) if tma else 0  # fused_moe.py:476-481
    total = M * top_k + padded
    rows = total if down else M
    A = _empty(torch, (rows, K), adt)
    B = _empty(torch, (E, N, K), bdt)
    C = _empty(torch, (M, top_k, N), cdt) if down else _empty(torch, (total, N), cdt)
    tw = _empty(torch, (M, top_k), "f32")
    As, Bs = _scales(torch, job, rows, E, N, K)
    sti, eids, ntp = _sorted_ids(torch, M * top_k, E, BM)
    bs = job.get("block_shape")
    ktop = 1 if down else top_k
    a_desc = TensorDescriptor(A, A.shape, A.stride(), [BM, cfg["BLOCK_SIZE_K"]]) if tma else None  # :891-896
    b_desc = TensorDescriptor(B, B.shape, B.stride(), [1, cfg["BLOCK_SIZE_N"], cfg["BLOCK_SIZE_K"]]) \
        if tma else None  # _get_b_tma_desc_cached :679-711
    even_Ks = K % cfg["BLOCK_SIZE_K"] == 0  # :808-813 (padded_size 0: SGLANG_MOE_PADDING unset)
    args = [A, a_desc, B, b_desc, None, C, As, Bs, tw, sti, eids, ntp, None, B.shape[1], B.shape[2],
            sti.shape[0], M * top_k, A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1),
            0, 0, C.stride(-2), C.stride(-1)] + _scale_strides(As, Bs) \
        + [0 if bs is None else bs[0], 0 if bs is None else bs[1]]
    kw = dict(MUL_ROUTED_WEIGHT=bool(job.get("mrw", down)), top_k=ktop, compute_type=_compute_type(tl, cdt),
              use_fp8_w8a8=job["quant"] == "fp8_w8a8", use_int8_w8a8=job["quant"] == "int8_w8a8",
              use_int8_w8a16=job["quant"] == "int8_w8a16", per_channel_quant=bool(job.get("per_channel", False)),
              even_Ks=even_Ks, c_sorted=bool(job.get("c_sorted", False)),
              filter_expert=bool(job.get("filter_expert", False)), swap_ab=bool(job.get("swap_ab", False)),
              FUSE_ADD_TO_OUTPUT=False, MASK_OUTPUT=False, LORA_PRESERVE_BASE=False, FUSE_SUM_ALL_REDUCE=False,
              ROUTER_TOPK=top_k if down else 1)
    kw.update(cfg)
    return km["sglang_fused_moe"].fused_moe_kernel, args, kw


def build_sglang_gptq_awq(job, torch, tl, km):
    """SGLang d6ef6888 invoke_fused_moe_kernel, fused_moe_kernel_gptq_awq branch
    (fused_moe_triton_kernels.py:839-886)."""
    M, E, N, K, top_k, adt, bdt, cdt = _moe_common(torch, job)
    cfg = dict(job["config"])
    down = job["shape"].get("gemm") == "down"
    rows = M * top_k if down else M  # the down GEMM reads intermediate_cache2 (M*topk, K)
    A, B, Bs, Bz = _wna16_tensors(torch, job, rows, E, N, K, top_k, bdt)
    C = _empty(torch, (M, top_k, N), "bf16") if down else _empty(torch, (M * top_k, N), "bf16")
    tw = _empty(torch, (M, top_k), "f32")
    sti, eids, ntp = _sorted_ids(torch, M * top_k, E, cfg["BLOCK_SIZE_M"])
    args = [A, B, C, Bs, Bz, tw, sti, eids, ntp, B.shape[1], A.shape[1], sti.shape[0], M * top_k,
            A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(-2), C.stride(-1),
            Bs.stride(0), Bs.stride(2), Bs.stride(1),
            Bz.stride(0) if Bz is not None else 0, Bz.stride(2) if Bz is not None else 0,
            Bz.stride(1) if Bz is not None else 0]
    # even_Ks from K = B.shape[2] - padded_size (:807-813); for int4 B.shape[2] is K/2 (packed):
    # the engine's own expression, kept as written.
    kw = dict(group_size=job["group_size"], MUL_ROUTED_WEIGHT=bool(job.get("mrw", down)), top_k=1 if down else top_k,
              compute_type=tl.bfloat16, has_zp=Bz is not None, use_int4_w4a16=job["quant"] == "int4_w4a16",
              use_int8_w8a16=job["quant"] == "int8_w8a16", even_Ks=B.shape[2] % cfg["BLOCK_SIZE_K"] == 0,
              filter_expert=bool(job.get("filter_expert", False)))
    kw.update(cfg)
    return km["sglang_fused_moe"].fused_moe_kernel_gptq_awq, args, kw


def build_block_mm(job, torch, tl, km):
    """vLLM w8a8_triton_block_scaled_mm (quantization/utils/fp8_utils.py:860-985) and
    w8a8_block_int8_matmul (int8_utils.py:360-446); SGLang w8a8_block_fp8_matmul_triton
    (kernels/ops/quantization/fp8_kernel.py:1405-1486, + needs_masking) and w8a8_block_int8_matmul
    (int8_kernel.py:364-448). A (M, K) contiguous, B (N, K) contiguous, C (M, N) in the output dtype
    (the linear layers pass the activation dtype, bf16), As (M, cdiv(K, bk)), Bs (cdiv(N, bn), cdiv(K, bk))."""
    s = job["shape"]
    M, N, K = s["M"], s["N"], s["K"]
    bn, bk = job["block_shape"]
    q = "fp8" if job["quant"] == "fp8_w8a8" else "int8"
    A = _empty(torch, (M, K), q)
    B = _empty(torch, (N, K), q)
    C = _empty(torch, (M, N), job.get("out", "bf16"))
    As = _empty(torch, (M, cdiv(K, bk)), "f32")
    Bs = _empty(torch, (cdiv(N, bn), cdiv(K, bk)), "f32")
    cfg = dict(job["config"])
    args = [A, B, C, As, Bs, M, N, K, bn, bk, A.stride(-2), A.stride(-1), B.stride(1), B.stride(0),
            C.stride(-2), C.stride(-1), As.stride(-2), As.stride(-1), Bs.stride(1), Bs.stride(0)]
    kw = dict(cfg)
    eng, kern = job["engine"], job["kernel"]
    if eng == "sglang" and kern == "_w8a8_block_fp8_matmul":
        kw["needs_masking"] = bool(K % cfg["BLOCK_SIZE_K"] != 0)  # fp8_kernel.py:1451
        fn = km["sglang_fp8_kernel"]._w8a8_block_fp8_matmul
    elif eng == "sglang":
        fn = km["sglang_int8_kernel"]._w8a8_block_int8_matmul
    elif kern == "_w8a8_triton_block_scaled_mm":
        fn = km["vllm_fp8_utils"]._w8a8_triton_block_scaled_mm
    else:
        fn = km["vllm_int8_utils"]._w8a8_block_int8_matmul
    return fn, args, kw


BUILDERS = {
    ("vllm", "fused_moe_kernel"): build_vllm_fused_moe,
    ("vllm", "fused_moe_kernel_gptq_awq"): build_vllm_gptq_awq,
    ("sglang", "fused_moe_kernel"): build_sglang_fused_moe,
    ("sglang", "fused_moe_kernel_gptq_awq"): build_sglang_gptq_awq,
    ("vllm", "_w8a8_triton_block_scaled_mm"): build_block_mm,
    ("vllm", "_w8a8_block_int8_matmul"): build_block_mm,
    ("sglang", "_w8a8_block_fp8_matmul"): build_block_mm,
    ("sglang", "_w8a8_block_int8_matmul"): build_block_mm,
}

_KM = None


def kernels():
    global _KM
    if _KM is None:
        sys.path.insert(0, os.path.join(HERE, "kernels"))
        import importlib
        _KM = {m: importlib.import_module(m) for m in
               ("vllm_fused_moe", "vllm_fp8_utils", "vllm_int8_utils", "sglang_fused_moe",
                "sglang_fp8_kernel", "sglang_int8_kernel")}
    return _KM


def _plain(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return str(v)


def work(job):
    os.environ.setdefault("TRITON_CACHE_DIR", f"/tmp/tcache_eng{os.getpid()}")
    import torch
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    km = kernels()
    cc = job["cc"]
    target = GPUTarget("cuda", cc, 32)
    driver.active.get_current_target = lambda: target
    out = {"id": job["id"]}
    t0 = time.time()
    # MLIR prints its diagnostics (and a pass reproducer) on fd 2: keep them per job
    errpath = f"/tmp/stderr_eng{os.getpid()}.txt"
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(errpath, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    os.close(fd)
    try:
        DEVICE[0] = "cuda"
        try:
            fn, args, kw = BUILDERS[(job["engine"], job["kernel"])](job, torch, tl, km)
        except torch.OutOfMemoryError:
            DEVICE[0] = "cpu"
            torch.cuda.empty_cache()
            fn, args, kw = BUILDERS[(job["engine"], job["kernel"])](job, torch, tl, km)
            out["tensors"] = "cpu"
        for mod in km.values():
            for name in dir(mod):
                dc = getattr(getattr(mod, name), "device_caches", None)
                if dc is not None:
                    dc.clear()
        out["launch"] = {k: _plain(v) for k, v in kw.items()}
        k = fn.warmup(*args, grid=(1,), **kw)
        md = k.metadata
        out["shared"] = int(md.shared)
        out["num_warps"], out["num_stages"], out["num_ctas"] = int(md.num_warps), int(md.num_stages), int(md.num_ctas)
        out["tmem"] = getattr(md, "tmem_size", None)
        out["target_arch"] = str(md.target.arch)
        out["compile_s"] = round(time.time() - t0, 2)
        if job.get("dump") and DUMPDIR:
            ttgir = k.asm.get("ttgir", "")
            base = os.path.join(DUMPDIR, str(job["id"]).replace("/", "_"))
            try:
                aout = alloc_ir(ttgir, cc, out["num_warps"], out["num_stages"], out["num_ctas"], str(os.getpid()))
                m = re.search(r'"?ttg\.shared"?\s*=\s*(\d+)', aout)
                out["alloc_shared"] = int(m.group(1)) if m else None
                out["alloc"] = summarize(aout)
                with open(base + ".alloc.mlir", "w") as f:
                    f.write(aout)
            except Exception as e:
                out["alloc_error"] = f"{type(e).__name__}: {str(e)[:300]}"
            with open(base + ".ttgir", "w") as f:
                f.write(ttgir)
    except Exception as e:
        lines = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
        # CompilationError's first line is only "at L:C:"; its reason is the last line
        reason = lines[-1] if type(e).__name__ == "CompilationError" and lines else (lines[0] if lines else "")
        out["error"] = f"{type(e).__name__}: {reason[:300]}"
        if lines and lines[0] != reason:
            out["error_at"] = lines[0][:100]
        out["compile_s"] = round(time.time() - t0, 2)
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
    if "error" in out:
        try:
            with open(errpath, errors="replace") as f:
                diag = [l.strip() for l in f if " error: " in l or "note: Pipeline failed" in l]
            if diag:
                out["mlir"] = [re.sub(r"^\S*/kernels/", "kernels/", d)[:300] for d in diag[:3]]
        except OSError:
            pass
    return out


def main():
    global DUMPDIR
    spec = json.load(open(sys.argv[1]))
    if len(sys.argv) > 3:
        DUMPDIR = sys.argv[3]
        os.makedirs(DUMPDIR, exist_ok=True)
    jobs = spec["jobs"]
    limit_s = float(os.environ.get("MEASURE_LIMIT_S", "0"))  # stop submitting after this many seconds
    t0 = time.time()
    import collections
    import triton
    res = []
    procs = int(spec.get("procs", os.cpu_count() or 4))
    with open(sys.argv[2], "w") as f, Pool(procs, maxtasksperchild=200) as p:
        for r in p.imap_unordered(work, jobs, chunksize=1):
            r["triton"] = triton.__version__
            f.write(json.dumps(r) + "\n")
            f.flush()
            res.append(r)
            if len(res) % 200 == 0:
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


if __name__ == "__main__":
    main()
