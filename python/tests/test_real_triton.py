"""The pruner inside the real ``@triton.autotune`` (Triton 3.6 from PyPI; scripts/python_package.sh
installs it), compile-only: no GPU is needed. Skipped where Triton is absent (conftest's stub)."""
import itertools

import pytest
import triton

if getattr(triton, "__tilefit_stub__", False):
    pytest.skip("Triton is not installed (scripts/python_package.sh installs triton==3.6.0)", allow_module_level=True)

import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

import tilefit  # noqa: E402
import tilefit.triton  # noqa: E402

ARCH, CC = "sm_90", 90


class DType:  # what the pruner reads of a torch.Tensor's dtype: str()
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Tensor:
    def __init__(self, dtype):
        self.dtype = DType(dtype)


def configs():
    return [triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": 8},
                          num_warps=w, num_stages=s)
            for m, n, k, w, s in itertools.product((64, 128, 256), (128, 256), (64, 128), (4, 8), (3, 4, 5))]


def body(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
         GROUP_SIZE_M: tl.constexpr):
    # A tiled GEMM (the shape tilefit's triton_matmul models): A and B K-contiguous, fp32 accumulator.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    in_group = GROUP_SIZE_M * num_pid_n
    first_m = (pid // in_group) * GROUP_SIZE_M
    size_m = min(num_pid_m - first_m, GROUP_SIZE_M)
    pid_m = first_m + ((pid % in_group) % size_m)
    pid_n = (pid % in_group) // size_m
    rm = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (rm[:, None] * stride_am + rk[None, :] * stride_ak)
    b_ptrs = b_ptr + (rk[:, None] * stride_bk + rn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(c_ptr + stride_cm * cm[:, None] + stride_cn * cn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


gemm = triton.jit(body)
tuned = triton.autotune(configs=configs(), key=["M", "N", "K"],
                        prune_configs_by={"early_config_prune": tilefit.triton.prune("triton_matmul", arch=ARCH)})(
                            triton.jit(body))

ARGS = (Tensor("torch.float16"), Tensor("torch.float16"), Tensor("torch.float16"), 4096, 4096, 4096, 4096, 1, 1, 4096,
        4096, 1)


def pruned():
    """The configs the real Autotuner keeps, through its own prune step (as Autotuner.run calls it)."""
    tuned.nargs = dict(zip(tuned.arg_names, ARGS))
    try:
        return tuned.prune_configs({})
    finally:
        tuned.nargs = None


def compiled_shared(cfg):
    """Triton 3.6 compiles the config for sm_90 (no GPU needed): CompiledKernel.metadata.shared."""
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
           "stride_cm": "i32", "stride_cn": "constexpr"}
    div16 = [["tt.divisibility", 16]]
    attrs = {(i,): div16 for i in (0, 1, 2, 3, 4, 5, 6, 9, 10)}  # what real 4096x4096 tensors specialise
    const = {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, **cfg.kwargs}
    src = triton.compiler.ASTSource(gemm, sig, constexprs=const, attrs=attrs)
    k = triton.compile(src, target=GPUTarget("cuda", CC, 32),
                       options={"num_warps": cfg.num_warps, "num_stages": cfg.num_stages})
    return int(k.metadata.shared)


def test_the_autotuner_keeps_exactly_the_configs_that_fit():
    assert triton.__version__ == "3.6.0"
    every = tuned.configs
    kept = pruned()
    limit = tilefit.builtin_limits(ARCH).optin_per_block_bytes
    expected = [c for c in every if tilefit.analyze(
        {"kernel": "triton_matmul", "dtype": "f16", "tile": [c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"],
                                                            c.kwargs["BLOCK_SIZE_K"]],
         "group_m": 8, "num_warps": c.num_warps, "stages": c.num_stages}, ARCH).fits]
    assert kept == expected
    assert 0 < len(kept) < len(every)
    # Triton itself, compile only: the largest kept config fits the limit and the smallest
    # dropped one does not, byte for byte as tilefit says.
    dropped = [c for c in every if c not in kept]

    def size(c):
        return c.kwargs["BLOCK_SIZE_M"] * c.kwargs["BLOCK_SIZE_N"] * c.kwargs["BLOCK_SIZE_K"] * c.num_stages

    for c, fits in ((max(kept, key=size), True), (min(dropped, key=size), False)):
        shared = compiled_shared(c)
        assert (shared <= limit) == fits, (c, shared, limit)
        r = tilefit.analyze({"kernel": "triton_matmul", "dtype": "f16", "group_m": 8, "num_warps": c.num_warps,
                             "stages": c.num_stages, "tile": [c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"],
                                                              c.kwargs["BLOCK_SIZE_K"]]}, ARCH)
        assert r.smem_bytes == shared, (c, r.smem_bytes, shared)


def test_nothing_fits_is_an_error_naming_the_nearest():
    huge = [triton.Config({"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8},
                          num_warps=8, num_stages=6)]
    with pytest.raises(tilefit.NothingFits) as e:
        tilefit.triton.prune("triton_matmul", arch=ARCH)(huge, dict(zip(tuned.arg_names, ARGS)))
    assert e.value.nearest is not None and "nearest that fits" in str(e.value)

