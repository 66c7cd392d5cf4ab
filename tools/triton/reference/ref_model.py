#!/usr/bin/env python3
"""Reference model of Triton 3.6.0's shared-memory allocation for two kernels:
  triton_matmul    - the tutorial-style tiled GEMM (tools/triton/matmul_kernel.py)
  triton_fused_moe - vLLM's fused_moe_kernel (vLLM 000d1458...), bf16/f16, fp8_w8a8 per-tensor, block-wise fp8.
It mirrors the compiler passes named in MODEL.md (file:line at Triton v3.6.0 = main acd8104, see MODEL.md).

usage: python3 ref_model.py [rows.jsonl ...]   (default: tests/data/triton-3.6.jsonl)
       prints the match count and every mismatch; `--breakdown` prints the parts of every row."""
import json
import sys

try:
    from . import ll as L
    from .alloc import allocate
except ImportError:  # run as a script
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ll as L
    from alloc import allocate

LIMITS = {80: 166912, 86: 101376, 87: 166912, 89: 101376, 90: 232448, 100: 232448, 103: 232448,
          110: 232448, 120: 101376, 121: 101376}
BITS = {"f16": 16, "bf16": 16, "f32": 32, "e4m3": 8, "fp8_w8a8": 8}


def log2(x):
    return x.bit_length() - 1


# ----------------------------------------------------------------------------------------------
# layouts chosen by the Coalesce pass (Coalesce.cpp, CoalesceUtils.cpp:17-93, TritonGPUAttrDefs.td:813)
def blocked_get(shape, spt, order, num_warps):
    rank = len(shape)
    tpw, wpc = [0] * rank, [0] * rank
    rem_lanes, rem_threads, rem_warps = 32, 32 * num_warps, num_warps
    prev_l, prev_w = 1, 1
    for d in range(rank - 1):
        i = order[d]
        tpc = min(max(rem_threads, 1), max(1, shape[i] // spt[i]))
        tpc = max(tpc, 1)
        tpw[i] = min(max(tpc, 1), rem_lanes)
        wpc[i] = min(max(tpc // tpw[i], 1), rem_warps)
        rem_warps //= wpc[i]; rem_lanes //= tpw[i]; rem_threads //= tpc
        prev_l *= tpw[i]; prev_w *= wpc[i]
    tpw[order[-1]] = 32 // prev_l
    wpc[order[-1]] = num_warps // prev_w
    return spt, tpw, wpc, order


def coalesced(shape, contig_dim, bits, num_warps, contig_elems, extra_align=0):
    """sizePerThread along the contiguous dim = min(16 bytes of alignment, contiguity, 128 bits,
    max(numElems / numThreads, 1)); `extra_align` = per-thread elements of another access of the same
    shape and order in the slice (max-ed in, CoalesceUtils.cpp:64-72)."""
    numel = 1
    for s in shape:
        numel *= s
    align_elems = 16 // max(bits // 8, 1)              # tt.divisibility = 16 bytes
    per = min(align_elems, contig_elems, 128 // bits)  # getNumElementsPerThread
    per = max(per, extra_align)
    per = min(per, max(numel // (32 * num_warps), 1))
    rank = len(shape)
    spt = [1] * rank
    spt[contig_dim] = per
    order = [contig_dim] + [d for d in reversed(range(rank)) if d != contig_dim]
    return blocked_get(shape, spt, order, num_warps)


def blocked_ll(shape, blk):
    spt, tpw, wpc, order = blk
    return L.blocked_ll(shape, spt, tpw, wpc, order)


# ----------------------------------------------------------------------------------------------
# MMA selection (AccelerateMatmul.cpp:34-70, Analysis/Utility.cpp:862-927, Transforms/Utility.cpp:29-87)
def mma_version(cc, BM, BN, BK, bits, W):
    if cc < 90 or cc >= 110:
        return 2
    kmin = 256 // bits
    if cc < 100:  # Hopper: wgmma
        if W % 4 == 0 and BM % 64 == 0 and BN % 16 == 0 and BK >= kmin:
            return 3
        return 2
    # Blackwell datacenter: tcgen05
    if W in (4, 8) and BK >= kmin and BM % 64 == 0 and BN % 16 == 0:
        return 5
    return 2


def warps_v2(BM, BN, W):
    """warpsPerTileV2 (AccelerateMatmul.cpp:72)"""
    reps = [-(-BM // 16), -(-BN // 8)]
    warps = [1, 1]
    while warps[0] * warps[1] < W:
        if reps[0] >= reps[1]:
            warps[0] *= 2
            if reps[0] != 1:
                reps[0] //= 2
        else:
            warps[1] *= 2
            reps[1] //= 2
    return warps


def v3_instr_n(BM, BN, W):
    """mmaVersionToInstrShape v3 (Transforms/Utility.cpp:40)"""
    mW = max(BM // 16, 1)
    nW = max(W // mW, 1)
    maxN = max(BN // nW, 8)
    for n in range(256, 7, -8):
        if BN % n == 0 and n <= maxN:
            return n


def warps_v3(BM, BN, W, instr_n):
    """warpsPerTileV3 (AccelerateMatmul.cpp:135)"""
    ret = [4, 1]
    while ret[0] * ret[1] < W:
        if BM > 16 * ret[0]:
            ret[0] *= 2
        else:
            ret[1] *= 2
    return ret


def acc_layout(cc, ver, BM, BN, W):
    """register layout of the dot result / accumulator"""
    if ver == 2:
        wp = warps_v2(BM, BN, W)
        return (lambda shape: L.nvidia_mma_ll(shape, 2, wp)), ("mma_v2", wp)
    if ver == 3:
        n = v3_instr_n(BM, BN, W)
        wp = warps_v3(BM, BN, W, n)
        return (lambda shape: L.nvidia_mma_ll(shape, 3, wp, n)), ("mma_v3", wp, n)
    # ver 5: TMEM load layout
    ll = L.tmem_ld_ll(BM, BN, W)
    def fn(shape):
        # LinearEncodingAttr::toLinearLayout (Dialect.cpp:1116): fit the stored layout to `shape`
        if list(shape) == [BM, BN]:
            return ll
        return L.ensure_not_larger(ll, {"dim0": shape[0], "dim1": shape[1]}, broadcast_registers=False)
    return fn, ("tmem_32x32b", BM, BN, W)


def slice_of(fn, dim, n):
    return L.slice_ll(dim, fn, [n])


def nvmma_align(contig_bytes):
    """NVMMASharedEncodingAttr builder (TritonGPUAttrDefs.td:420-451) + getAlignment (Dialect.cpp:2152)"""
    if contig_bytes >= 128 and contig_bytes % 128 == 0:
        sw = 128
    elif contig_bytes >= 64 and contig_bytes % 64 == 0:
        sw = 64
    elif contig_bytes >= 32 and contig_bytes % 32 == 0:
        sw = 32
    else:
        sw = 0
    return 128 * (sw // 16 if sw else 1)


# ----------------------------------------------------------------------------------------------
def parse(cfg):
    kern = cfg["kernel"]
    cc = int(str(cfg["arch"]).replace("sm_", "").replace("a", ""))
    BM, BN, BK = cfg["tile"]
    dt = cfg["dtype"]
    W = cfg["num_warps"]
    S = cfg["stages"]
    bs = cfg.get("block_shape")
    if kern == "triton_matmul":
        in_bits = BITS[dt]
        out = cfg.get("d") or ("f16" if dt in ("f16", "e4m3") else dt)
        out_bits = BITS[out]
        fp8 = dt == "e4m3"
        block = None
    else:
        in_bits = 8 if dt == "fp8_w8a8" else 16
        out_bits = 16  # the cvt runs on compute_type (bf16/f16) values
        fp8 = dt == "fp8_w8a8"
        block = bs if (fp8 and bs and all(bs)) else None
    return dict(kern=kern, cc=cc, BM=BM, BN=BN, BK=BK, dt=dt, W=W, S=S, in_bits=in_bits,
                out_bits=out_bits, fp8=fp8, block=block)


def invalid_reason(p):
    if p["fp8"] and p["cc"] < 89:
        return "fp8e4nv (float8_e4m3fn) is not supported below sm_89 (core.py:573, compiler.py:186-190)"
    kmin = 32 if p["in_bits"] == 8 else 16
    if p["BK"] < kmin:
        return (f"tl.dot needs K >= {kmin} for {p['in_bits']}-bit operands "
                "(semantic.py:1528 with min_dot_size, backends/nvidia/compiler.py:19-31)")
    for v in (p["BM"], p["BN"], p["BK"]):
        if v <= 0 or v & (v - 1):
            return "BLOCK_SIZE_M/N/K must be powers of two (tl.arange)"
    return None


def model(cfg):
    """Returns dict(status, smem_bytes, parts, buffers, notes)."""
    p = parse(cfg)
    lim = LIMITS.get(p["cc"], 101376)
    bad = invalid_reason(p)
    if bad:
        return dict(status="invalid", smem_bytes=None, reason=bad, parts={}, limit=lim)
    cc, BM, BN, BK, W, S = p["cc"], p["BM"], p["BN"], p["BK"], p["W"], p["S"]
    ib, ob = p["in_bits"], p["out_bits"]
    eb = ib // 8
    ver = mma_version(cc, BM, BN, BK, ib, W)
    acc_fn, acc_desc = acc_layout(cc, ver, BM, BN, W)
    notes = [f"mma={acc_desc}"]

    # ---- operand loads: pipelined with cp.async / kept in registers (AssignLatencies.cpp:100-148,
    # PipeliningUtility.cpp:380-407, LowerLoops.cpp:446-513)
    def per_thread(numel, contig):
        return min(128 // ib, contig, 16 // eb, max(numel // (32 * W), 1))
    pa = per_thread(BM * BK, BK)
    pb = per_thread(BK * BN, BK)
    a_pipe = S > 1 and pa * ib >= 32
    b_pipe = S > 1 and pb * ib >= 32
    fp8_block = p["block"] is not None
    # fp8 operands of an mma v2 dot are promoted to f16 unless the target has fp8 mma.sync
    # (AccelerateMatmul.cpp:906-944: only sm_89 and sm_120)
    fp8_promoted = ver == 2 and ib == 8 and cc not in (89, 120)
    # tcgen05: is the MMA made asynchronous (AssignLatencies.cpp:151-207, MMAv5PipelineUtility.cpp:87-141)?
    # fp8 block-wise reads the MMA result in the loop (hasLoadsAfterMMA) -> only if both operands pipeline.
    mma_async = ver == 5 and S > 1 and ((a_pipe and b_pipe) or not fp8_block)
    # number of buffers of a pipelined load = def->use stage distance (LowerLoops.cpp:80-134, 455-499)
    if ver == 2:
        nbuf = S - 1                       # cp.async, loads at stage 0, dot at stage S-1
    elif ver == 3:
        nbuf = S                           # + loadRequiresAdditionalBuffer (wgmma, LowerLoops.cpp:419-444, 494-497)
    else:
        nbuf = S if mma_async else S - 1   # the MMA's wait_barrier one stage later still uses the buffers
    a_tile = BM * BK * eb
    b_tile = BK * BN * eb
    if ver in (3, 5):
        a_al = nvmma_align(BK * eb)
        b_al = nvmma_align(BK * eb)
    else:
        a_al = b_al = 16
    kw = max(32 // ib, 1)
    wp2 = warps_v2(BM, BN, W) if ver == 2 else None

    def operand_needs_smem(op):
        """mma v2: the blocked->dot-operand convert of a register operand goes through a local_alloc only
        when cvtNeedsSharedMemory (ReduceDataDuplication.cpp); wgmma/tcgen05 always read smem."""
        if ver != 2:
            return True
        shape = [BM, BK] if op == 0 else [BK, BN]
        blk = coalesced(shape, 1 if op == 0 else 0, ib, W, BK)
        return L.cvt_needs_smem_exact(blocked_ll(shape, blk), L.nvidia_dot_ll(shape, op, kw, wp2))

    bufs = []
    parts = {}
    T_PRE, T_END, T_LOOP, T_EPI = 10, 100, 40, 150
    # register operands: [start, end) of the in-loop local_alloc.  Normally the allocs are hoisted next to
    # their loads (ReorderInstructions.cpp) and both live until the dot; with promoted fp8 each
    # alloc/local_load pair is adjacent, so they do not overlap.
    reg_iv = {0: (T_LOOP, T_LOOP + 3), 1: (T_LOOP + 1, T_LOOP + 3)}
    if fp8_promoted:
        reg_iv = {0: (T_LOOP, T_LOOP + 1), 1: (T_LOOP + 2, T_LOOP + 3)}
    for op, name, pipe, tile, al, pthr in ((0, "A", a_pipe, a_tile, a_al, pa), (1, "B", b_pipe, b_tile, b_al, pb)):
        if pipe:
            bufs.append(dict(name=f"{name}_pipelined", size=nbuf * tile, align=al, start=T_PRE + op, end=T_END))
            parts[f"{name}_buffers"] = f"{nbuf} x {tile}"
            continue
        why = "num_stages=1" if S == 1 else f"{pthr * ib}-bit loads < 32"
        if not operand_needs_smem(op):
            parts[f"{name}_buffers"] = f"0 (not pipelined: {why}; convert to dot operand stays in the warp)"
            continue
        if mma_async:
            # the async MMA of iteration i is waited for in iteration i+1: two copies live across the loop
            bufs.append(dict(name=f"{name}_regs_to_smem_x2", size=2 * tile, align=al, start=T_PRE + op, end=T_END))
            parts[f"{name}_buffers"] = f"2 x {tile} (not pipelined: {why}; async tcgen05 keeps the previous copy)"
        else:
            s0, e0 = reg_iv[op]
            bufs.append(dict(name=f"{name}_regs_to_smem", size=tile, align=al, start=s0, end=e0))
            parts[f"{name}_buffers"] = f"1 x {tile} (not pipelined: {why})"

    # ---- tcgen05 completion barriers (LowerLoops.cpp:709-790: numStages = waitStage - mmaStage + 1)
    if ver == 5:
        nbar = 2 if mma_async else 1
        bufs.append(dict(name="mbarriers", size=8 * nbar, align=16, start=T_PRE + 2, end=T_END))
        parts["barriers"] = 8 * nbar

    # ---- block-wise fp8 scales.  A convert_layout stays in the loop when the scale load is "expensive"
    # (numel >= 32*num_warps, Transforms/Utility.cpp:592-610), otherwise the load is rematerialised in the
    # needed layout.  With an async tcgen05 MMA the consumer of the scales moves to a later cluster
    # (LowerLoops.cpp:740-760 splitClusterBefore) and a cheap b_scale load becomes a 1-deep cp.async
    # buffer (getDefUseStageDiff, LowerLoops.cpp:110-121).
    if fp8_block:
        t = T_LOOP + 10
        if BM >= 32 * W:
            src = L.blocked_ll([BM], *blocked_get([BM], [min(4, max(BM // (32 * W), 1))], [0], W))
            dst = slice_of(acc_fn, 1, BM)
            if L.cvt_needs_smem_exact(src, dst):
                sz = L.cvt_scratch_elems(src, dst, 32, cc) * 4
                bufs.append(dict(name="a_scale_cvt", size=sz, align=128, start=t, end=t + 1))
                parts["a_scale_cvt"] = sz
        t += 1
        if mma_async:
            # the b_scale load becomes a 1-deep cp.async buffer read back with local_load in the layout the
            # multiply needs (so no convert remains)
            bufs.append(dict(name="b_scale_async_buffer", size=BN * 4, align=16, start=T_PRE + 3, end=T_END))
            parts["b_scale_buffer"] = BN * 4
        elif BN >= 32 * W:
            src = L.blocked_ll([BN], *blocked_get([BN], [1], [0], W))
            dst = slice_of(acc_fn, 0, BN)
            if L.cvt_needs_smem_exact(src, dst):
                sz = L.cvt_scratch_elems(src, dst, 32, cc) * 4
                bufs.append(dict(name="b_scale_cvt", size=sz, align=128, start=t, end=t + 1))
                parts["b_scale_cvt"] = sz

    # ---- epilogue convert_layout: accumulator layout -> coalesced store layout (Allocation.cpp:89-97,
    # NVIDIA Allocation.cpp:45-76)
    st_blk = coalesced([BM, BN], 1, ob, W, BN)
    src = acc_fn([BM, BN])
    dst = blocked_ll([BM, BN], st_blk)
    if L.cvt_needs_smem_exact(src, dst):
        sz = L.cvt_scratch_elems(src, dst, ob, cc) * ob // 8
        bufs.append(dict(name="epilogue_cvt", size=sz, align=128, start=T_EPI, end=T_EPI + 1))
        parts["epilogue_cvt"] = sz
    else:
        parts["epilogue_cvt"] = 0

    total, placed = allocate(bufs)
    parts["total"] = total
    status = "fits" if total <= lim else "does_not_fit"
    return dict(status=status, smem_bytes=total, parts=parts, limit=lim, notes=notes,
                buffers=[(b["name"], b["offset"], b["size"]) for b in placed])


def main(argv):
    paths = [a for a in argv if not a.startswith("--")] or ["tests/data/triton-3.6.jsonl"]
    show = "--breakdown" in argv
    ok_b = ok_s = n = 0
    for path in paths:
        for line in open(path):
            r = json.loads(line)
            cfg = r["config"]
            exp = r["expect"]
            n += 1
            try:
                m = model(cfg)
            except Exception as e:  # pragma: no cover
                m = dict(status="error", smem_bytes=None, parts={}, err=repr(e))
            sb = m.get("smem_bytes") == exp.get("smem_bytes")
            ss = m["status"] == exp["status"]
            ok_b += sb
            ok_s += ss
            if show or not (sb and ss):
                print(("OK  " if sb and ss else "BAD ") + r["id"], "exp", exp.get("smem_bytes"), exp["status"],
                      "got", m.get("smem_bytes"), m["status"], m.get("parts"), m.get("notes", ""), m.get("err", ""))
    print(f"smem_bytes match {ok_b}/{n}, status match {ok_s}/{n}")


if __name__ == "__main__":
    main(sys.argv[1:])
