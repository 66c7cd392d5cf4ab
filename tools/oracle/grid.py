"""The proof's grid: kernels x dtypes x targets x tiles x num_warps x num_stages, in a fixed order that
visits every (kernel, target) cell round-robin (a run stopped early still covers every cell)."""
import itertools
import random

import kernels as K

ARCHS = ["sm_75", "sm_80", "sm_89", "sm_90", "sm_100", "sm_120", "gfx942", "gfx950"]
# A launch from torch: unit strides are the constant 1 (Triton's JIT specialises an int equal to 1),
# the other integers divisible by 16 (":16", Triton's AOT form).
UNIT = {
    "matmul": ("stride_ak", "stride_bn", "stride_cn"),
    "moe": ("stride_ak", "stride_bn", "stride_cn"),
    "block_scaled": ("stride_ak", "stride_bn", "stride_cn", "stride_as_k", "stride_bs_n"),
    "attention": (),
    "softmax": (),
}
NO16 = {"moe": ("num_valid_tokens", ), "block_scaled": ("stride_as_m", "stride_bs_k"), "softmax": ("n_rows", "n_cols"),
        "attention": ()}


def signature(kernel, dtype):
    fn, make = K.KERNELS[kernel]
    sig = make(dtype)
    consts = {}
    for n in UNIT.get(kernel, ()):
        sig.pop(n)
        consts[n] = 1
    for n, t in list(sig.items()):
        if t in ("i32", "i64") and n not in NO16.get(kernel, ()):
            sig[n] = t + ":16"
    return sig, consts


def cells():
    """(kernel, dtype, constexprs) candidates per kernel."""
    out = {}
    mm = []
    for t in ("fp16", "bf16", "fp32", "fp8e4nv", "fp8e5"):
        for m, n, k in itertools.product((32, 64, 128), (32, 64, 128), (32, 64, 128)):
            if t == "fp32" and k == 128:
                continue
            mm.append((t, dict(BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=8)))
    out["matmul"] = mm
    moe = []
    for t in ("fp16", "bf16", "fp8e4nv"):
        for m, n, k, r in itertools.product((16, 32, 64, 128), (32, 64, 128), (32, 64, 128), (False, True)):
            moe.append((t, dict(BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=1, MUL_ROUTED_WEIGHT=r,
                                top_k=2)))
    out["moe"] = moe
    bs = []
    for t in ("fp8e4nv", "fp8e5", "bf16"):
        for m, n, k in itertools.product((16, 32, 64, 128), (32, 64, 128), (64, 128)):
            bs.append((t, dict(group_n=128, group_k=128, BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k,
                               GROUP_SIZE_M=8)))
    out["block_scaled"] = bs
    at = []
    for t in ("fp16", "bf16"):
        for d, m, n in itertools.product((64, 128), (32, 64, 128), (16, 32, 64)):
            at.append((t, dict(HEAD_DIM=d, BLOCK_M=m, BLOCK_N=n)))
    out["attention"] = at
    sm = []
    for t in ("fp16", "fp32", "bf16"):
        for b, r in itertools.product((256, 1024, 4096, 16384), (1, )):
            sm.append((t, dict(BLOCK_SIZE=b, ROWS_PER_PROGRAM=r)))
    out["softmax"] = sm
    return out


def grid(seed=0):
    """Every job as (kernel, dtype, arch, constexprs, num_warps, num_stages), round-robin over the
    (kernel, arch) cells, each cell's jobs shuffled with ``seed``."""
    rng = random.Random(seed)
    per_cell = []
    for kernel, items in cells().items():
        for arch in ARCHS:
            jobs = [(kernel, t, arch, c, w, s) for (t, c) in items for w in (4, 8) for s in (1, 2, 3, 4)]
            rng.shuffle(jobs)
            per_cell.append(jobs)
    out = []
    for i in range(max(len(c) for c in per_cell)):
        for c in per_cell:
            if i < len(c):
                out.append(c[i])
    return out
