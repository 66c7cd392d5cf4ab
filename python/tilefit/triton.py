"""Exact pruning for Triton's autotuner.

    import tilefit.triton

    @triton.autotune(configs=grid, key=["M", "N", "K"],
                     prune_configs_by={"early_config_prune": tilefit.triton.prune("triton_matmul")})
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, ...): ...

The pruner keeps exactly the ``triton.Config``s whose shared memory fits the GPU (tilefit's model of
Triton 3.6, byte-exact with ``CompiledKernel.metadata.shared``): the others would raise
``OutOfResources`` after compiling. Kernels: ``triton_matmul`` (the tutorial GEMM),
``triton_fused_moe`` (vLLM's / SGLang's ``fused_moe_kernel``) and ``triton_block_matmul`` (their
block-quantised W8A8 matmuls, ``_w8a8_block_fp8_matmul`` and kin).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from . import _grid
from ._lib import InputError

__all__ = ["prune", "current_arch", "config_of"]

# Positional roles of the tensors: the first three pointer arguments are A, B, C in both kernels
# (the tutorial's matmul_kernel(a_ptr, b_ptr, c_ptr, ...) and vLLM's fused_moe_kernel(a_ptr, b_ptr, c_ptr, ...)).
_ROLE_NAMES = (("a_ptr", "a", "A", "x", "input"), ("b_ptr", "b", "B", "w", "weight"), ("c_ptr", "c", "C", "out", "output"))


def current_arch() -> str:
    """The current CUDA device's arch, through torch; InputError asking for ``arch`` without one."""
    try:
        import torch  # noqa: WPS433
    except Exception:  # noqa: BLE001 - any import failure means no torch
        raise InputError("arch: not given and torch is not importable to ask the current CUDA device; pass "
                         "arch=\"sm_90\" (or the GPU's arch)", "arch") from None
    try:
        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA device")
        major, minor = torch.cuda.get_device_capability()
    except Exception as e:  # noqa: BLE001
        raise InputError(f"arch: not given and the current CUDA device cannot be asked ({e}); pass arch=\"sm_90\" "
                         "(or the GPU's arch)", "arch") from None
    return f"sm_{major}{minor}"


def _tensors(named_args: Dict[str, Any]) -> List[Any]:
    """A, B, C: by their usual names, else the first three arguments with a dtype, in order."""
    with_dtype = [v for v in named_args.values() if hasattr(v, "dtype") and not isinstance(v, type)]
    roles: List[Any] = []
    for names in _ROLE_NAMES:
        for n in names:
            v = named_args.get(n)
            if v is not None and hasattr(v, "dtype"):
                roles.append(v)
                break
        else:
            roles.append(None)
    for i in range(3):
        if roles[i] is None and i < len(with_dtype):
            roles[i] = with_dtype[i]
    return roles


def _dtypes(kernel: str, named_args: Dict[str, Any], fixed: Dict[str, Any]) -> Dict[str, Any]:
    """The config's type fields from the tensors (unless given in ``fixed``)."""
    out: Dict[str, Any] = {}
    if "dtype" in fixed or "a" in fixed:
        return out
    a, _b, c = _tensors(named_args)
    if a is None:
        raise InputError("dtype: no tensor among the kernel's arguments to read the dtype from; pass dtype=... to "
                         "tilefit.triton.prune", "dtype")
    da = _grid.dtype_name(a.dtype)
    if da is None or (da == "s8" and kernel != "triton_block_matmul"):
        raise InputError(f"dtype: {a.dtype} is not a type tilefit models for {kernel}; allowed: torch.float16, "
                         "torch.bfloat16, torch.float32, torch.float8_e4m3fn", "dtype")
    if kernel == "triton_block_matmul":
        quant = {"e4m3": "fp8_w8a8", "s8": "int8_w8a8"}.get(da)
        if quant is None:
            raise InputError(f"dtype: {a.dtype} is not a type of the block-quantised matmul; allowed: "
                             "torch.float8_e4m3fn (fp8_w8a8), torch.int8 (int8_w8a8)", "dtype")
        out["dtype"] = quant
        dc = _grid.dtype_name(c.dtype) if c is not None else None
        if dc in ("bf16", "f16", "f32") and "d" not in fixed:
            out["d"] = dc
    elif kernel == "triton_fused_moe":
        if da == "e4m3":
            out["dtype"] = "fp8_w8a8"
            gn, gk = named_args.get("group_n", 0), named_args.get("group_k", 0)
            if "block_shape" not in fixed and isinstance(gn, int) and isinstance(gk, int) and gn > 0 and gk > 0:
                out["block_shape"] = [gn, gk]
        elif da in ("f16", "bf16"):
            out["dtype"] = da
        else:
            raise InputError(f"dtype: {a.dtype} is not a type of the fused-MoE kernel tilefit models; allowed: "
                             "torch.float16, torch.bfloat16, torch.float8_e4m3fn (fp8_w8a8)", "dtype")
        mrw = named_args.get("MUL_ROUTED_WEIGHT")
        if isinstance(mrw, bool) and "mul_routed_weight" not in fixed:
            out["mul_routed_weight"] = mrw
    else:
        out["dtype"] = da
        dc = _grid.dtype_name(c.dtype) if c is not None else None
        if dc is not None and dc != da and "d" not in fixed:
            out["d"] = dc
    return out


def config_of(kernel: str, cfg: Any, base: Dict[str, Any], tail: str, tile_fixed: bool = False) -> str:
    """The tilefit config (JSON text) of one triton.Config: block sizes from its kwargs, else the
    call's arguments (``base``)."""
    kw = getattr(cfg, "kwargs", None) or {}
    if base:
        values = dict(base)
        values.update(kw)
    else:
        values = kw
    return _grid.config_text(kernel, values, getattr(cfg, "num_warps", 4), getattr(cfg, "num_stages", 3), tail,
                             f"triton.Config({_describe(cfg)})", tile_fixed)


def _fields(cfg: Any) -> dict:
    f = dict(getattr(cfg, "kwargs", {}) or {})
    f["num_warps"] = getattr(cfg, "num_warps", 4)
    f["num_stages"] = getattr(cfg, "num_stages", 3)
    return f


def _describe(cfg: Any) -> str:
    kw = getattr(cfg, "kwargs", {}) or {}
    parts = [f"{k}: {v}" for k, v in kw.items()]
    parts += [f"num_warps: {getattr(cfg, 'num_warps', None)}", f"num_stages: {getattr(cfg, 'num_stages', None)}"]
    return ", ".join(parts)


def prune(kernel: str = "triton_matmul", arch: Optional[str] = None, **fixed: Any) -> Callable[..., list]:
    """An ``early_config_prune(configs, named_args, **kwargs)`` for ``@triton.autotune(prune_configs_by=...)``
    that keeps exactly the configs that fit ``arch`` (default: the current CUDA device, asked through
    torch when first called). ``fixed``: config fields that the tensors do not say (``dtype="e4m3"``,
    ``d="bf16"``, ``block_shape=[128, 128]``, ``mul_routed_weight=True``); dtypes are otherwise read
    from the tensors in ``named_args``. When nothing fits it raises ``tilefit.NothingFits`` naming the
    nearest config that fits (Triton would otherwise fail every candidate)."""
    k = _grid.kernel_name(kernel)
    from . import _arch_text, _target
    if arch is not None:
        _target(arch)  # an unknown arch is an error now, not at the first launch
    state = {"arch": _arch_text(arch) if arch is not None else None}

    def early_config_prune(configs, named_args, **kwargs):
        if state["arch"] is None:
            state["arch"] = current_arch()
        named = dict(named_args or {})
        f = _dtypes(k, named, fixed)
        f.update(fixed)
        tail = _grid.fixed_tail(f)
        # Block sizes the configs leave out may be the call's own constexpr arguments.
        base = {key: v for key, v in list(named.items()) + list(kwargs.items()) if key in _grid._KNOWN}
        configs = list(configs)

        def text_of(i: int) -> str:
            return config_of(k, configs[i], base, tail, "tile" in fixed)

        if "tile" in fixed or not configs:  # the block sizes are not the candidates': one text each
            return _grid.prune(configs, text_of, state["arch"], _describe, _fields)
        rows = []
        row = _grid.row
        for c in configs:
            kw = getattr(c, "kwargs", None) or {}
            if base:
                values = dict(base)
                values.update(kw)
            else:
                values = kw
            rows.append(row(values, getattr(c, "num_warps", 4), getattr(c, "num_stages", 3),
                            lambda c=c: f"triton.Config({_describe(c)})"))
        return _grid.prune(configs, text_of, state["arch"], _describe, _fields, rows, _grid.base_text(k, rows[0], tail))

    early_config_prune.tilefit_kernel = k
    return early_config_prune
