"""Exact pruning of the vLLM / SGLang fused-MoE tuners' grids.

vLLM ``benchmarks/kernels/benchmark_moe.py`` and SGLang ``benchmark/kernels/fused_moe_triton/`` build a
list of dicts (BLOCK_SIZE_M/N/K, GROUP_SIZE_M, num_warps, num_stages) and compile and time every
one; on a 99 KB GPU about half cannot fit and fail only after compiling. ``filter`` keeps exactly
the ones that fit, in one call into tilefit:

    search_space = tilefit.tuning.filter(search_space, kernel="triton_fused_moe",
                                         dtype="fp8_w8a8", block_shape=[128, 128], arch="sm_120")
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from . import _grid
from ._lib import InputError

__all__ = ["filter"]

# The tuners' dtype strings (vLLM/SGLang: None or "auto" -> bf16/f16; "fp8_w8a8").
_MOE_DTYPES = {None: "bf16", "auto": "bf16", "bf16": "bf16", "f16": "f16", "fp8_w8a8": "fp8_w8a8"}
_UNMODELLED = ("int8_w8a16", "int4_w4a16", "int8_w8a8", "fp8_w8a16", "mxfp4", "nvfp4_w4a4")


def _dtype(kernel: str, dtype: Any) -> str:
    d = dtype if dtype is None else str(dtype)
    if kernel == "triton_fused_moe":
        if d in _MOE_DTYPES:
            return _MOE_DTYPES[d]
        t = _grid.dtype_name(d)
        if t in ("f16", "bf16"):
            return t
        if t == "e4m3":
            return "fp8_w8a8"
        if d in _UNMODELLED:
            raise InputError(f"dtype: {d!r} runs another kernel (weight-only / int8 MoE), which tilefit does not model "
                             "yet; allowed: None, \"bf16\", \"f16\", \"fp8_w8a8\"", "dtype")
        raise InputError(f"dtype: {d!r} is not a fused-MoE dtype tilefit knows; allowed: None, \"bf16\", \"f16\", "
                         "\"fp8_w8a8\" (or a torch dtype)", "dtype")
    if kernel == "triton_block_matmul":
        q = {"fp8_w8a8": "fp8_w8a8", "int8_w8a8": "int8_w8a8", "e4m3": "fp8_w8a8", "s8": "int8_w8a8"}.get(
            d if d in ("fp8_w8a8", "int8_w8a8") else _grid.dtype_name(d) if d is not None else None)
        if q is None:
            raise InputError(f"dtype: {d!r} is not a dtype of the block-quantised matmul; allowed: \"fp8_w8a8\", "
                             "\"int8_w8a8\" (or torch.float8_e4m3fn, torch.int8)", "dtype")
        return q
    t = _grid.dtype_name(d) if d is not None else "f16"
    if t is None:
        raise InputError(f"dtype: {d!r} is not a triton_matmul dtype; allowed: f16, bf16, f32, e4m3 (or a torch dtype)",
                         "dtype")
    return t


def _block_shape(block_shape: Any) -> List[int]:
    """[block_n, block_k]: two positive integers, never coerced."""
    if isinstance(block_shape, (str, bytes)) or not hasattr(block_shape, "__iter__"):
        raise InputError(f"block_shape: expected [block_n, block_k] (two integers); got {block_shape!r}", "block_shape")
    out = list(block_shape)
    if len(out) != 2 or any(isinstance(x, bool) or not hasattr(x, "__index__") or x.__index__() < 1 for x in out):
        raise InputError(f"block_shape: {out!r} is not [block_n, block_k]; allowed: two integers 1 or more",
                         "block_shape")
    return [int(x.__index__()) for x in out]


def filter(configs: Sequence[dict], kernel: Any = "triton_fused_moe", dtype: Any = None, arch: Optional[str] = None,
           engine: Optional[str] = None, block_shape: Optional[Sequence[int]] = None, *,
           signature: Optional[dict] = None, constexprs: Optional[dict] = None, results: Optional[list] = None,
           cache: Any = True, processes: int = 1, **fixed: Any) -> List[dict]:
    """The configs (the tuners' dicts, returned as they are, in order) that fit ``arch`` (default: the
    current CUDA device through torch). ``engine`` "vllm" or "sglang" (both run the same fused_moe_kernel)
    or None. ``block_shape`` [n, k]: fp8 block-wise scales (the tuner's ``block_quant_shape``); vLLM's
    launcher clamps BLOCK_SIZE_K to min(block_shape), and so does tilefit. Raises
    ``tilefit.NothingFits`` (with the nearest fitting config) when none fits.

    ``kernel`` a name tilefit models is answered by the C++ model when the installed Triton is one it
    models (``tilefit.triton.MODELLED_TRITON``); the @triton.jit function itself (with ``signature``:
    Triton's type strings, and ``constexprs`` the launcher passes) by the oracle, the installed Triton's
    allocation passes. ``results``: a list to receive one dict per config with ``"source"``
    ("model" / "oracle"), ``smem_bytes``, ``limit_bytes`` and ``status``."""
    from . import _check_engine
    from .triton import current_arch, installed_triton, modelled, MODELLED_TRITON
    _check_engine(engine)
    if not isinstance(kernel, str):
        return _oracle_filter(configs, kernel, arch if arch is not None else current_arch(), signature, constexprs,
                              results, cache, processes)
    if not modelled(kernel):
        _grid.kernel_name(kernel)  # an unknown name says so
        raise InputError(f"kernel: {kernel!r}: the model answers Triton {', '.join(MODELLED_TRITON)} and the installed "
                         f"Triton is {installed_triton()}; pass the @triton.jit function (and signature=) for the "
                         "oracle", "kernel")
    k = _grid.kernel_name(kernel)
    a = arch if arch is not None else current_arch()
    f = {"dtype": _dtype(k, dtype)}
    if block_shape is not None:
        f["block_shape"] = _block_shape(block_shape)
    f.update(fixed)
    cands = list(configs)
    tail = _grid.fixed_tail(f)
    rows = []
    for i, c in enumerate(cands):
        values, warps, stages = _grid.grid_values(c, lambda i=i: f"config #{i}")
        rows.append(_grid.row(values, warps, stages, lambda i=i: f"config #{i}"))

    def text_of(i: int) -> str:
        values, warps, stages = _grid.grid_values(cands[i], f"config #{i}")
        return _grid.config_text(k, values, warps, stages, tail, f"config #{i}")

    if not cands:
        return []
    outcome: list = []
    kept = _grid.prune(cands, text_of, a, lambda c: ", ".join(f"{key}: {v}" for key, v in c.items()), dict, rows,
                       _grid.base_text(k, rows[0], tail), outcome=outcome if results is not None else None)
    if results is not None:
        from . import _target
        t = _target(a)
        names = {0: "fits", 1: "does_not_fit", 2: "invalid"}
        for i, (st, smem) in enumerate(outcome):
            results.append({"name": f"config #{i}", "arch": t.arch, "smem_bytes": smem, "limit_bytes": t.limit_bytes,
                            "status": names[st], "source": "model"})
    return kept


def _oracle_filter(configs, kernel, arch, signature, constexprs, results, cache, processes) -> List[dict]:
    from . import NothingFits
    from .triton import oracle
    cands = list(configs)
    rs = oracle.compile_many(kernel, cands, signature=signature, constexprs=constexprs, arch=arch, cache=cache,
                             processes=processes, names=[f"config #{i}" for i in range(len(cands))])
    if results is not None:
        results.extend(dict(r.to_dict(), source="oracle") for r in rs)
    kept = [c for c, r in zip(cands, rs) if r.fits]
    if cands and not kept:
        raise NothingFits(f"tilefit: none of the {len(cands)} configs fits {rs[0].arch} ({rs[0].limit_bytes} B of "
                          f"shared memory per block; Triton {rs[0].triton_version}'s allocation passes)")
    return kept
