#!/usr/bin/env python3
"""Run the engines' attention launchers (copied by extract.py into kernels/) on fake tensors for
a faked TARGET, intercept every kernel launch, record what the launcher passes, and compile that
launch with Triton 3.6 for the target (`warmup`, nothing launched), reading metadata.shared.

usage: measure_attention.py JOBS.json OUT.jsonl [DUMPDIR]
  JOBS.json: {"procs": 15, "jobs": [{"id", "engine": "vllm"|"sglang", "cc", "config": {...},
              "dump": bool}, ...]}  (gen_jobs.py writes it; README.md documents the fields)
  OUT.jsonl: one result per kernel launch (README.md "Row format"); a launcher that refuses the
  config gives one result with status "invalid" and stage "launcher".

The TARGET: tilefit_target.CC/SM_COUNT (read by the vllm.platforms / sglang.srt.utils shims),
torch.cuda.get_device_capability() (SGLang reads it at import), and
triton.runtime.driver.active.get_current_target() = GPUTarget("cuda", cc, 32). The engine
modules are imported again for every target (prefix_prefill.py and extend_attention.py branch
at import time). Tensors are torch.empty on the local GPU with the engine's layouts (only
dtypes, strides, 16-byte alignment and ==1 integers reach the compiler).

Overrides (config block_n, block_h, block_m, tile_size, block_dmodel, block_dpe, block_dv,
num_warps, num_stages) replace the named launch parameter in every intercepted launch of the op
that has it (README.md "Knobs"); num_kv_splits / max_kv_splits enter as the launcher's argument.
"""
import inspect
import json
import os
import re
import sys
import time
import traceback
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, "kernels")
DUMPDIR = None
LOC_RE = re.compile(r"\s*loc\((#loc\d*|\"[^\"]*\"(:\d+:\d+)?|unknown)\)")

DT = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "fp8_e4m3": "float8_e4m3fn"}
TORCH_TO_NAME = {"torch.bfloat16": "bf16", "torch.float16": "f16", "torch.float32": "f32",
                 "torch.float8_e4m3fn": "fp8_e4m3", "torch.int32": "i32", "torch.int64": "i64",
                 "torch.uint8": "u8", "torch.int8": "i8", "torch.float8_e5m2": "fp8_e5m2"}
Q_NAMES = ("Q", "Q_Extend", "query_ptr")
KV_NAMES = ("K_Buffer", "K_cache", "key_cache_ptr")
KV_FALLBACK = ("K",)
OUT_NAMES = ("O", "o", "Out", "O_Extend", "output_ptr")

# knob -> the launch parameter(s) it replaces
KNOB_PARAMS = {"block_n": ["BLOCK_N"], "block_h": ["BLOCK_H"], "block_m": ["BLOCK_M"],
               "tile_size": ["TILE_SIZE"], "block_dmodel": ["BLOCK_DMODEL"], "block_dpe": ["BLOCK_DPE"],
               "block_dv": ["BLOCK_DV"], "block_q": ["BLOCK_Q"]}


def cdiv(a, b):
    return -(-a // b)


def resolve(val, cur):
    """An override value: a number, or "half" / "double" of the launcher's own value."""
    if val == "half":
        return max(1, cur // 2)
    if val == "double":
        return cur * 2
    return val


def alloc_ir(ttgir_text, cc, num_warps, num_stages, tag):
    """The first passes of make_llir (triton 3.6 third_party/nvidia/backend/compiler.py) up to
    AllocateSharedMemoryNv, as tools/triton/measure2.py."""
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
            out.append(LOC_RE.sub("", s)[:600])
    return out


# ----------------------------------------------------------------------------------------------
# target + engine modules
# ----------------------------------------------------------------------------------------------
_STATE = {"cc": None}
CAPTURE = []


def set_target(cc, sm_count, batch_invariant=False):
    import torch
    import tilefit_target as T
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    T.CC, T.SM_COUNT, T.BATCH_INVARIANT = cc, sm_count, batch_invariant
    torch.cuda.get_device_capability = lambda device=None: T.capability()
    target = GPUTarget("cuda", cc, 32)
    driver.active.get_current_target = lambda: target
    key = (cc, sm_count, batch_invariant)
    if _STATE["cc"] != key:
        for m in list(sys.modules):
            if m == "vllm" or m.startswith("vllm.") or m == "sglang" or m.startswith("sglang."):
                del sys.modules[m]
        _STATE["cc"] = key


def install_interceptor():
    from triton.runtime.jit import JITFunction
    if getattr(JITFunction, "_tilefit_orig_run", None):
        return
    JITFunction._tilefit_orig_run = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        if warmup:
            return JITFunction._tilefit_orig_run(self, *args, grid=grid, warmup=warmup, **kwargs)
        CAPTURE.append((self, args, kwargs, grid))
        return None

    JITFunction.run = run


def engine_modules(engine):
    import importlib
    if engine == "vllm":
        return {n: importlib.import_module("vllm.v1.attention.ops." + n) for n in
                ("triton_decode_attention", "triton_unified_attention", "triton_prefill_attention",
                 "prefix_prefill")}
    return {n: importlib.import_module("sglang.kernels.ops.attention." + n) for n in
            ("decode_attention", "extend_attention", "prefill_attention")}


# ----------------------------------------------------------------------------------------------
# fake tensors in the engines' layouts
# ----------------------------------------------------------------------------------------------
def E(shape, dt):
    import torch
    return torch.empty(shape, device="cuda", dtype=getattr(torch, DT.get(dt, dt)))


def shape_of(c):
    """(q_heads, kv_heads, Lk, Lv) per rank from the config."""
    if c.get("kv_lora_rank"):
        return c["q_heads"], 1, c["kv_lora_rank"] + c["rope_dim"], c["kv_lora_rank"]
    return c["q_heads"], c["kv_heads"], c["head_dim"], c.get("head_dim_v") or c["head_dim"]


def vllm_num_kv_splits(max_seq_len, sm_count):
    # vllm/v1/attention/backends/mla/triton_mla.py:38-47 (_MIN_WORK_PER_SPLIT 512, multiplier 2)
    ideal = 1
    n = max(1, max_seq_len // 512)
    while ideal < n:
        ideal *= 2
    return min(ideal, sm_count * 2)


def call_vllm(mods, c, ov):
    import torch
    H, KVH, Lk, Lv = shape_of(c)
    act, kvd = c["act_dtype"], c["kv_dtype"]
    op = c["op"]
    B = c.get("num_seqs", 4)
    ps = c.get("page_size", 16)
    msl = c.get("max_seq_len", 4096)
    nblk = cdiv(msl, ps)
    if op in ("decode", "mla_decode"):
        m = mods["triton_decode_attention"]
        splits = vllm_num_kv_splits(msl, c.get("sm_count", 132))
        if c.get("deterministic"):
            splits = 1  # triton_mla.py:263-264 (VLLM_BATCH_INVARIANT)
        if "num_kv_splits" in ov:  # the launcher's argument (NUM_KV_SPLITS)
            splits = resolve(ov["num_kv_splits"], splits)
        q = E((B, H, Lk), act)
        if op == "mla_decode":
            # mla_attention.py:1389 (num_blocks, block_size, head_size); triton_mla.py:291-293
            cache = E((64, ps, Lk), kvd).unsqueeze(2)
            k, v = cache, cache[..., :Lv]
            is_mla = True
        else:
            kvb = E((64, ps, KVH, Lk + Lv), kvd)
            k, v = kvb[..., :Lk], kvb[..., Lk:]
            is_mla = False
        o = E((B, H, Lv), act)
        lse = E((B, H), act)
        logits = E((B, H, splits, Lv + 1), "f32")
        bt = E((B, nblk), "int32")
        sl = E((B,), "int32")
        ks = E((), "f32")
        m.decode_attention_fwd(q, k, v, o, lse, bt, sl, logits, splits, 1.0 / Lk ** 0.5, ps,
                               logit_cap=c.get("logit_cap", 0.0) or 0.0, k_scale=ks, v_scale=ks,
                               is_mla=is_mla)
        return {"num_kv_splits": splits}
    if op in ("unified_2d", "unified_3d"):
        m = mods["triton_unified_attention"]
        msq = c.get("max_seqlen_q", 1)
        T_ = B * msq
        # the query in q_dtype: vLLM's Attention layer quantizes it to fp8 with an fp8 KV cache
        # (model_executor/layers/attention/attention.py:462-480, 504-516); the output stays in
        # the activation type (output_dtype = query.dtype before the quantization)
        qd = c.get("q_dtype") or act
        q = E((T_, H, Lk), qd)
        out = E((T_, H, Lk), act)
        # triton_attn.py:327-378: logical (B, H, N, 2*hs), NHD stride order -> physical
        # (num_blocks, block_size, kv_heads, 2*hs); forward: transpose(1, 2), split(hs)
        kv = E((64, ps, KVH, 2 * Lk), kvd)
        k, v = kv[..., :Lk], kv[..., Lk:]
        cu = E((B + 1,), "int32")
        sl = E((B,), "int32")
        bt = E((B, nblk), "int32")
        thr = 128 // KVH  # triton_attn.py:141 (MIN_LAUNCH_GRID_SIZE_2D // num_heads_kv)
        if op == "unified_3d":
            assert msq == 1 and B <= thr, "unified_3d needs max_seqlen_q 1 and num_seqs <= 128 // kv_heads"
        segs = 16  # triton_attn.py:56 NUM_PAR_SOFTMAX_SEGMENTS
        hp = 1 << (Lk - 1).bit_length()
        so = E((thr, H, segs, hp), "f32")
        smax = E((thr, H, segs), "f32")
        ssum = E((thr, H, segs), "f32")
        sinks = E((H,), "f32") if c.get("sinks") else None
        fp8 = kvd == "fp8_e4m3"
        kd = E((1,), "f32").expand((B, KVH)) if True else None
        sw = c.get("sliding_window") or 0
        window = (sw - 1, 0) if sw > 0 else (-1, -1)
        from vllm.v1.kv_cache_interface import KVQuantMode
        mode = KVQuantMode.FP8_PER_TENSOR if fp8 else KVQuantMode.NONE
        # q_descale: layer._q_scale when the cache is FP8_PER_TENSOR and q is fp8
        # (backends/triton_attn.py:669-676)
        qs = E((1,), "f32") if fp8 and qd == "fp8_e4m3" else None
        m.unified_attention(q, k, v, out, cu, msq, sl, msl, 1.0 / Lk ** 0.5, True, window, bt,
                            c.get("logit_cap", 0.0) or 0.0, qs, kd, kd,
                            seq_threshold_3D=thr, num_par_softmax_segments=segs,
                            softmax_segm_output=so, softmax_segm_max=smax, softmax_segm_expsum=ssum,
                            sinks=sinks, kv_quant_mode=mode)
        return {}
    if op == "prefill":
        m = mods["triton_prefill_attention"]
        msq = c.get("max_seqlen_q", 1024)
        T_ = B * msq
        q = E((T_, H, Lk), act)
        k = E((T_, KVH, Lk), act)
        v = E((T_, KVH, Lv), act)
        o = E((T_, H, Lv), act)
        st = E((B + 1,), "int32")
        sl = E((B,), "int32")
        sw = c.get("sliding_window") or 0
        sinks = E((H,), "f32") if c.get("sinks") else None
        m.context_attention_fwd(q, k, v, o, st, sl, msq, is_causal=False, softmax_scale=1.0 / Lk ** 0.5,
                                sliding_window_q=(sw - 1) if sw > 0 else -1,
                                sliding_window_k=(sw - 1) if sw > 0 else -1, sinks=sinks)
        return {}
    if op == "prefix_prefill":
        m = mods["prefix_prefill"]
        msq = c.get("max_seqlen_q", 512)
        T_ = B * msq
        q = E((T_, H, Lk), act)
        k = E((T_, KVH, Lk), act)
        v = E((T_, KVH, Lk), act)
        o = E((T_, H, Lk), act)
        store = "u8" if kvd == "fp8_e4m3" else kvd
        esz = 1 if kvd == "fp8_e4m3" else 2
        x = 16 // esz
        # paged_attn.py layout: k [num_blocks, kv_heads, head_size // x, block_size, x],
        # v [num_blocks, kv_heads, head_size, block_size]
        kc = E((64, KVH, Lk // x, ps, x), "uint8" if store == "u8" else store)
        vc = E((64, KVH, Lk, ps), "uint8" if store == "u8" else store)
        bl = E((B, nblk), "int32")
        st = E((B + 1,), "int32")
        sl = E((B,), "int32")
        ks = E((1,), "f32")
        sinks = E((H,), "f32") if c.get("sinks") else None
        alibi = E((H,), "f32") if c.get("alibi") else None  # config "alibi" (added field)
        m.context_attention_fwd(q, k, v, o, "fp8" if kvd == "fp8_e4m3" else "auto", kc, vc, bl, st, sl,
                                msl, msq, ks, ks, alibi_slopes=alibi,
                                sliding_window=c.get("sliding_window") or None, sinks=sinks)
        return {}
    raise ValueError(f"vllm launcher has no op '{op}'")


def sglang_max_kv_splits(c):
    # server_args.py:1595-1598 triton_attention_num_kv_splits = 8; triton_backend.py:208-214
    # (_mla_decode_kv_splits_cap 67-74, _MLA_DECODE_MIN_BLOCK_KV 32); deterministic: 232-250
    # (split_tile_size 256 -> cdiv(context_len, 256))
    ctx = c.get("context_len", 131072)
    if c.get("deterministic"):
        return cdiv(ctx, 256)
    base = 8
    if c["op"] == "mla_decode":
        np2 = lambda n: 1 << (max(1, n) - 1).bit_length()
        return max(base, min(np2(c.get("sm_count", 132)), np2(cdiv(ctx, 32))))
    return base


def call_sglang(mods, c, ov):
    H, KVH, Lk, Lv = shape_of(c)
    act, kvd = c["act_dtype"], c["kv_dtype"]
    op = c["op"]
    B = c.get("num_seqs", 4)
    ps = c.get("page_size", 1)
    slots = 4096
    mla = op in ("mla_decode",) or bool(c.get("kv_lora_rank"))

    def kvbufs():
        # memory_pool: k/v buffers [size, head_num, head_dim] (3-D legacy layout); MLA: one
        # kv buffer [size, 1, kv_lora_rank + rope], v = its first kv_lora_rank columns
        if mla:
            kb = E((slots, 1, Lk), kvd)
            return kb, kb[..., :Lv]
        return E((slots, KVH, Lk), kvd), E((slots, KVH, Lv), kvd)

    if op in ("decode", "mla_decode"):
        m = mods["decode_attention"]
        mks = sglang_max_kv_splits(c)
        if "max_kv_splits" in ov:  # the launcher's argument (MAX_KV_SPLITS)
            mks = resolve(ov["max_kv_splits"], mks)
        q = E((B, H, Lk), act)
        kb, vb = kvbufs()
        o = E((B, H, Lv), act)
        indptr = E((B + 1,), "int32")
        indices = E((B * 64,), "int64")
        logits = E((B, H, mks, Lv), "f32")
        lse = E((B, H, mks), "f32")
        nks = E((B,), "int32")
        sinks = E((H,), "f32") if c.get("sinks") else None
        use_pdl = c.get("use_pdl", c["_cc"] >= 90)  # jit_kernel/utils/arch.py:116-119
        m.decode_attention_fwd(q, kb, vb, o, indptr, indices, logits, lse, nks, mks, 1.0 / Lk ** 0.5,
                               1.0, 1.0, logit_cap=c.get("logit_cap", 0.0) or 0.0, sinks=sinks,
                               has_mla=mla, use_pdl=use_pdl, page_size=ps)
        return {"max_kv_splits": mks, "use_pdl": bool(use_pdl)}
    if op in ("extend", "extend_unified"):
        m = mods["extend_attention"]
        msq = c.get("max_seqlen_q", 512)
        T_ = B * msq
        kb, vb = kvbufs()
        q = E((T_, H, Lk), act)
        o = E((T_, H, Lv), act)
        qo = E((B + 1,), "int32")
        kvi = E((B + 1,), "int32")
        idx = E((B * 1024,), "int64")
        sinks = E((H,), "f32") if c.get("sinks") else None
        sw = c.get("sliding_window") or -1
        if op == "extend":
            ke = E((T_, KVH, Lk), act)
            ve = E((T_, KVH, Lv), act)
            m.extend_attention_fwd(q, ke, ve, o, kb, vb, qo, kvi, idx, None, True, None, msq, 1.0, 1.0,
                                   logit_cap=c.get("logit_cap", 0.0) or 0.0, sliding_window_size=sw,
                                   sinks=sinks, page_size=ps)
        else:
            pl = E((B,), "int32")
            m.extend_attention_fwd_unified(q, o, kb, vb, 1.0, 1.0, qo, kvi, idx, pl, msq,
                                           logit_cap=c.get("logit_cap", 0.0) or 0.0,
                                           sliding_window_size=sw, sinks=sinks, page_size=ps)
        return {}
    if op == "prefill":
        m = mods["prefill_attention"]
        msq = c.get("max_seqlen_q", 1024)
        T_ = B * msq
        q = E((T_, H, Lk), act)
        k = E((T_, KVH, Lk), act)
        v = E((T_, KVH, Lv), act)
        o = E((T_, H, Lv), act)
        m.context_attention_fwd(q, k, v, o, E((B,), "int32"), E((B,), "int32"), msq, is_causal=True)
        return {}
    raise ValueError(f"sglang launcher has no op '{op}'")


# ----------------------------------------------------------------------------------------------
# one launch -> record + compile
# ----------------------------------------------------------------------------------------------
def jsonable(v):
    import torch
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return v
    if isinstance(v, torch.dtype):
        return TORCH_TO_NAME.get(str(v), str(v))
    if hasattr(v, "fn") and hasattr(v, "params"):  # a JITFunction passed as constexpr
        return "jit:" + v.fn.__name__
    return str(v)


def describe(fn, args, kwargs, grid):
    import torch
    names = [p.name for p in fn.params]
    const = {p.name for p in fn.params if p.is_constexpr}
    argkw = {k: v for k, v in kwargs.items() if k in names}
    opts = {k: v for k, v in kwargs.items() if k not in names}
    sig = inspect.signature(fn.fn)
    b = sig.bind(*args, **argkw)
    b.apply_defaults()
    bound = dict(b.arguments)
    rec = {"kernel": fn.fn.__name__, "file": os.path.relpath(inspect.getsourcefile(fn.fn), KDIR),
           "constexprs": {}, "specialised_ints": {}, "ints": {}, "floats": {}, "tensors": {}, "none_args": []}
    for n in names:
        v = bound[n]
        if n in const:
            rec["constexprs"][n] = jsonable(v)
        elif v is None:
            rec["none_args"].append(n)
        elif isinstance(v, torch.Tensor):
            rec["tensors"][n] = {"dtype": TORCH_TO_NAME.get(str(v.dtype), str(v.dtype)),
                                 "shape": list(v.shape), "strides": list(v.stride())}
        elif isinstance(v, bool):
            rec["ints"][n] = int(v)
        elif isinstance(v, int):
            rec["ints"][n] = v
            if v == 1:
                rec["specialised_ints"][n] = 1
        elif isinstance(v, float):
            rec["floats"][n] = v
    rec["options"] = {k: jsonable(v) for k, v in opts.items()}
    if callable(grid):
        meta = dict(bound)
        meta.update(opts)
        grid = grid(meta)
    rec["grid"] = [int(g) for g in grid]

    def dt(cands):
        for n in cands:
            if n in rec["tensors"]:
                return rec["tensors"][n]["dtype"]
        return None
    rec["q_dtype"] = dt(Q_NAMES)
    rec["kv_dtype"] = dt(KV_NAMES) or dt(KV_FALLBACK)
    rec["out_dtype"] = dt(OUT_NAMES)
    return rec


STAGE_OF = {"_fwd_kernel_stage1": "stage1", "_fwd_grouped_kernel_stage1": "stage1",
            "_fwd_kernel_stage2": "stage2", "reduce_segments": "reduce"}


def compile_launch(fn, args, kwargs, grid, job, ov, tag):
    from triton.runtime.jit import JITFunction
    kwargs = dict(kwargs)
    names = {p.name for p in fn.params}
    applied = {}
    for knob, params in KNOB_PARAMS.items():
        if knob in ov:
            for p in params:
                if p in names:
                    # a positional constexpr would be overwritten by kwargs: none of these kernels
                    # takes a block size positionally (asserted)
                    assert p in kwargs, f"{p} not passed by keyword"
                    kwargs[p] = resolve(ov[knob], kwargs[p])
                    applied[knob] = kwargs[p]
    if "block_m" in ov and fn.fn.__name__ == "kernel_unified_attention":
        # the launcher's BLOCK_Q = BLOCK_M // num_queries_per_kv (triton_unified_attention.py:927-930)
        kwargs["BLOCK_Q"] = kwargs["BLOCK_M"] // kwargs["num_queries_per_kv"]
    # Triton's CUDA defaults when the launcher passes none (num_warps 4, num_stages 3)
    for knob, dflt in (("num_warps", 4), ("num_stages", 3)):
        if knob in ov:
            kwargs[knob] = resolve(ov[knob], kwargs.get(knob, dflt))
            applied[knob] = kwargs[knob]
    rec = describe(fn, args, kwargs, grid)
    rec["stage"] = STAGE_OF.get(rec["kernel"], "main")
    rec["overrides_applied"] = applied
    res = {"launch": rec}
    t0 = time.time()
    cc = job["cc"]
    try:
        k = JITFunction._tilefit_orig_run(fn, *args, grid=grid if not callable(grid) else (1,), warmup=True, **kwargs)
        res["status"] = "ok"
        res["shared"] = int(k.metadata.shared)
        rec["num_warps"] = int(k.metadata.num_warps)
        rec["num_stages"] = int(k.metadata.num_stages)
        res["tmem"] = getattr(k.metadata, "tmem_size", None)
        res["target_arch"] = str(k.metadata.target.arch)
        ttgir = k.asm.get("ttgir", "")
        try:
            aout = alloc_ir(ttgir, cc, rec["num_warps"], rec["num_stages"], tag)
            res["alloc"] = summarize(aout)
            mm = re.search(r'"?ttg\.shared"?\s*=\s*(\d+)', aout)
            res["alloc_shared"] = int(mm.group(1)) if mm else None
            if job.get("dump") and DUMPDIR:
                d = os.path.join(DUMPDIR, tag)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "kernel.ttgir"), "w") as f:
                    f.write(ttgir)
                with open(os.path.join(d, "alloc.mlir"), "w") as f:
                    f.write(aout)
                res["dump"] = tag
        except Exception as e:
            res["alloc_error"] = f"{type(e).__name__}: {str(e)[:300]}"
    except Exception as e:
        res["status"] = "invalid"
        msg = str(e).strip().splitlines()
        reason = msg[-1] if msg else type(e).__name__
        res["error"] = f"{type(e).__name__}: {reason[:400]}"
        res["error_full"] = str(e)[-1500:]
        rec.setdefault("num_warps", kwargs.get("num_warps", 4))
        rec.setdefault("num_stages", kwargs.get("num_stages", 3))
    res["compile_s"] = round(time.time() - t0, 2)
    return res


def work(job):
    os.environ.setdefault("TRITON_CACHE_DIR", f"/tmp/tcache{os.getpid()}")
    if KDIR not in sys.path:
        sys.path.insert(0, KDIR)
    try:  # triton_decode_attention.py:35 compares triton.__version__ with packaging.version
        import packaging.version  # noqa: F401
    except ImportError:
        import types
        pk, pv = types.ModuleType("packaging"), types.ModuleType("packaging.version")
        pv.parse = lambda v: tuple(int(x) for x in re.findall(r"\d+", v)[:3])
        pk.version = pv
        sys.modules["packaging"], sys.modules["packaging.version"] = pk, pv
    c = dict(job["config"])
    c["_cc"] = job["cc"]
    ov = job.get("overrides", {})
    base = {k: v for k, v in job.items() if k not in ("overrides",)}
    out = []
    try:
        set_target(job["cc"], c.get("sm_count", 132), bool(c.get("deterministic")) and job["engine"] == "vllm")
        install_interceptor()
        mods = engine_modules(job["engine"])
        CAPTURE.clear()
        extra = (call_vllm if job["engine"] == "vllm" else call_sglang)(mods, c, ov)
        launches = list(CAPTURE)
        CAPTURE.clear()
    except Exception as e:
        msg = str(e).strip().splitlines()
        r = dict(base)
        r.update({"status": "invalid", "stage": "launcher",
                  "error": f"launcher: {type(e).__name__}: {(msg[-1] if msg else '')[:400]}",
                  "error_full": traceback.format_exc()[-1500:]})
        return [r]
    for i, (fn, args, kwargs, grid) in enumerate(launches):
        tag = f"{job['id']}.{i}"
        r = dict(base)
        r["launcher_inputs"] = extra
        try:
            r.update(compile_launch(fn, args, kwargs, grid, job, ov, tag.replace("/", "_")))
        except Exception as e:
            r.update({"status": "harness_error", "error": f"{type(e).__name__}: {e}"[:400],
                      "error_full": traceback.format_exc()[-1500:]})
        r["stage"] = r.get("launch", {}).get("stage")
        out.append(r)
    return out


if __name__ == "__main__":
    spec = json.load(open(sys.argv[1]))
    if len(sys.argv) > 3:
        DUMPDIR = sys.argv[3]
        os.makedirs(DUMPDIR, exist_ok=True)
    jobs = spec["jobs"]
    t0 = time.time()
    import collections
    import triton
    n = ok = 0
    errs = collections.Counter()
    with open(sys.argv[2], "w") as f, Pool(int(spec.get("procs", 15)), maxtasksperchild=200) as p:
        for rs in p.imap_unordered(work, jobs, chunksize=1):
            for r in rs:
                r["triton"] = triton.__version__
                f.write(json.dumps(r) + "\n")
                n += 1
                ok += r.get("status") == "ok"
                if r.get("status") != "ok":
                    errs[str(r.get("error"))[:100]] += 1
            f.flush()
    print(f"{len(jobs)} jobs, {n} launches, {ok} compiled, {time.time() - t0:.1f} s")
    for e, k in errs.most_common(15):
        print(k, e)
