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

Any other kernel, or any other installed Triton version, is answered by the compile-only oracle
(``tilefit.triton.oracle``): the installed Triton's own stages up to its allocation passes, no GPU.
Pass the kernel itself, or nothing inside ``@triton.autotune`` (the pruner finds the Autotuner's kernel):

    @triton.autotune(configs=grid, key=["N"], prune_configs_by={"early_config_prune": tilefit.triton.prune(arch="sm_90")})
    @triton.jit
    def my_kernel(x_ptr, N, BLOCK: tl.constexpr): ...

After each call the pruner's ``results`` holds one dict per config with ``"source": "model"`` or
``"oracle"`` (which answered), ``smem_bytes``, ``limit_bytes`` and ``status``.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from .. import _grid
from .._lib import InputError

__all__ = ["prune", "current_arch", "config_of", "verify", "modelled", "MODELLED_TRITON"]

# The Triton versions tilefit's C++ model was measured against (its kernels' rules are 3.6.0's).
MODELLED_TRITON = ("3.6.0", )

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


def installed_triton() -> Optional[str]:
    """The importable Triton's version, or None (no Triton, or the test suite's stand-in)."""
    import sys
    t = sys.modules.get("triton")
    if t is None:
        try:
            import triton as t  # noqa: F811
        except Exception:  # noqa: BLE001
            return None
    if getattr(t, "__tilefit_stub__", False):
        return None
    v = getattr(t, "__version__", None)
    return v if isinstance(v, str) else None


def modelled(kernel: Any, version: Optional[str] = None) -> bool:
    """Whether tilefit's C++ model answers ``kernel`` on Triton ``version`` (default: the installed one;
    no Triton installed: the model's own version): a kernel name the model knows, and a version it
    was measured against. A kernel function is never modelled (the model knows names, not code)."""
    if not isinstance(kernel, str):
        return False
    try:
        _grid.kernel_name(kernel)
    except InputError:
        return False
    v = version if version is not None else installed_triton()
    return v is None or v in MODELLED_TRITON


def _autotuner_kernel():
    """The JITFunction of the Autotuner calling the pruner (Autotuner.prune_configs' ``self``)."""
    import inspect
    f = inspect.currentframe()
    try:
        f = f.f_back
        while f is not None:
            me = f.f_locals.get("self")
            if me is not None and hasattr(me, "configs") and hasattr(me, "fn"):
                return me.fn
            f = f.f_back
    finally:
        del f
    return None


def _oracle_prune(kernel_fn, arch_state, signature, cache, processes, fixed, holder):
    from . import oracle

    def early_config_prune(configs, named_args, **kwargs):
        fn = kernel_fn if kernel_fn is not None else _autotuner_kernel()
        if fn is None:
            raise InputError("kernel: tilefit.triton.prune() was given no kernel and is not called by a "
                             "@triton.autotune Autotuner; pass the @triton.jit function", "kernel")
        jit = oracle.jit_function(fn)
        if arch_state["arch"] is None:
            arch_state["arch"] = current_arch()
        named = dict(named_args or {})
        named.update(kwargs)
        constexpr_names = {n for n, c in oracle._params(jit) if c}
        cfgs = []
        for c in configs:
            kw = dict(getattr(c, "kwargs", {}) or {})
            base = {k: v for k, v in named.items() if k in constexpr_names and k not in kw}
            d = dict(base, **kw, **fixed)
            d["num_warps"] = getattr(c, "num_warps", 4)
            d["num_stages"] = getattr(c, "num_stages", 3)
            for opt in ("num_ctas", "maxnreg"):
                if getattr(c, opt, None) not in (None, 1 if opt == "num_ctas" else None):
                    d[opt] = getattr(c, opt)
            cfgs.append(d)
        args = {k: v for k, v in named.items() if k not in constexpr_names}
        sig = signature
        rs = oracle.compile_many(jit, cfgs, signature=sig, arch=arch_state["arch"],
                                 args=None if sig is not None else args, cache=cache, processes=processes,
                                 names=[_describe(c) for c in configs])
        holder["results"] = [dict(r.to_dict(), source="oracle") for r in rs]
        kept = [c for c, r in zip(configs, rs) if r.fits]
        if kept or not configs:
            return kept
        from .. import NothingFits
        best = min((r for r in rs if r.smem_bytes is not None), key=lambda r: r.smem_bytes, default=None)
        if best is None:
            raise NothingFits(f"tilefit: none of the {len(configs)} configs fits {rs[0].arch}: every one is invalid "
                              f"there (the first: {rs[0].message})")
        raise NothingFits(f"tilefit: none of the {len(configs)} configs fits {rs[0].arch} ({rs[0].limit_bytes} B of "
                          f"shared memory per block; the smallest, {best.name}, needs {best.smem_bytes} B, Triton "
                          f"{best.triton_version})")

    return early_config_prune


def prune(kernel: Any = None, arch: Optional[str] = None, *, source: Optional[str] = None,
          signature: Optional[dict] = None, cache: Any = True, processes: int = 1,
          **fixed: Any) -> Callable[..., list]:
    """An ``early_config_prune(configs, named_args, **kwargs)`` for ``@triton.autotune(prune_configs_by=...)``
    that keeps exactly the configs that fit ``arch`` (default: the current CUDA device, asked through
    torch when first called).

    ``kernel``: a name tilefit models ("triton_matmul", "triton_fused_moe"), answered by the C++ model
    when the installed Triton is one it models (``MODELLED_TRITON``); or the @triton.jit function
    itself, or None inside ``@triton.autotune``, answered by the oracle (the installed Triton's
    allocation passes). Left to choose, a modelled name on another Triton raises InputError rather than
    answer with another version's rules; ``source="model"`` insists on the model (Triton 3.6's rules). ``signature``: the oracle's
    argument types when the launch's arguments cannot say them; ``cache``: the oracle's persistent
    cache (True: the default file; None: none). ``fixed``: the model's config fields the tensors do not
    say (``dtype="e4m3"``, ``d="bf16"``, ``block_shape=[128, 128]``), or for the oracle constexprs
    every config gets. When nothing fits it raises ``tilefit.NothingFits``."""
    if source not in (None, "model", "oracle"):
        raise InputError(f"source: {source!r}; allowed: \"model\", \"oracle\" or None (choose)", "source")
    name = kernel if isinstance(kernel, str) else ("triton_matmul" if kernel is None and source == "model" else None)
    use_model = source == "model" or (source is None and name is not None and modelled(name))
    if use_model:
        if name is None:
            raise InputError("source: \"model\" needs a kernel name tilefit models (\"triton_matmul\", "
                             "\"triton_fused_moe\"), not a kernel function", "source")
        return _model_prune(name, arch, **fixed)  # source="model" insists, whatever Triton is installed
    if isinstance(kernel, str):
        v = installed_triton()
        raise InputError(f"kernel: {kernel!r}: " + (
            f"the model answers Triton {', '.join(MODELLED_TRITON)} and the installed Triton is {v}; pass the "
            "@triton.jit function (or nothing, inside @triton.autotune) for the oracle" if _known(kernel) else
            "not a kernel tilefit models; pass the @triton.jit function (or nothing, inside @triton.autotune) for "
            "the oracle") + (f" ({_why(kernel)})" if not _known(kernel) else ""), "kernel")
    state = {"arch": _arch_text_local(arch)}  # an unknown arch is an error now, not at the first launch
    holder: Dict[str, Any] = {"results": []}
    f = _oracle_prune(kernel, state, signature, cache, processes, fixed, holder)
    # No kernel, called without an Autotuner (as before the oracle): the tutorial matmul's model.
    fallback = _model_prune("triton_matmul", arch, **fixed) if kernel is None and source is None and \
        modelled("triton_matmul") else None

    def early_config_prune(configs, named_args, **kwargs):
        if fallback is not None and _autotuner_kernel() is None:
            kept = fallback(configs, named_args, **kwargs)
            holder["results"] = fallback.results
            return kept
        return f(configs, named_args, **kwargs)

    early_config_prune.tilefit_kernel = kernel
    early_config_prune.source = "oracle"
    early_config_prune.__dict__["_holder"] = holder
    return _Pruner(early_config_prune, holder)


class _Pruner:
    """The pruner Triton calls; ``results``: the last call's per-config answers."""

    def __init__(self, fn, holder):
        self._fn = fn
        self._holder = holder
        self.source = fn.source
        self.tilefit_kernel = fn.tilefit_kernel

    def __call__(self, configs, named_args, **kwargs):
        return self._fn(configs, named_args, **kwargs)

    @property
    def results(self):
        r = self._holder["results"]
        if callable(r):  # written when first read: the tuning loop itself never reads them
            r = self._holder["results"] = r()
        return r


_STATUS = {0: "fits", 1: "does_not_fit", 2: "invalid"}


def _known(kernel: str) -> bool:
    try:
        _grid.kernel_name(kernel)
        return True
    except InputError:
        return False


def _why(kernel: str) -> str:
    try:
        _grid.kernel_name(kernel)
    except InputError as e:
        return str(e)
    return ""


def _arch_text_local(arch):
    if arch is None:
        return None
    from .oracle import resolve_arch
    return resolve_arch(arch)[0]


def _model_prune(kernel: str = "triton_matmul", arch: Optional[str] = None, **fixed: Any) -> Callable[..., list]:
    """An ``early_config_prune(configs, named_args, **kwargs)`` for ``@triton.autotune(prune_configs_by=...)``
    that keeps exactly the configs that fit ``arch`` (default: the current CUDA device, asked through
    torch when first called). ``fixed``: config fields that the tensors do not say (``dtype="e4m3"``,
    ``d="bf16"``, ``block_shape=[128, 128]``, ``mul_routed_weight=True``); dtypes are otherwise read
    from the tensors in ``named_args``. When nothing fits it raises ``tilefit.NothingFits`` naming the
    nearest config that fits (Triton would otherwise fail every candidate)."""
    k = _grid.kernel_name(kernel)
    from .. import _arch_text, _target
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
        from .. import _target
        holder["results"] = []

        def text_of(i: int) -> str:
            return config_of(k, configs[i], base, tail, "tile" in fixed)

        outcome: list = []
        if "tile" in fixed or not configs:  # the block sizes are not the candidates': one text each
            kept = _grid.prune(configs, text_of, state["arch"], _describe, _fields, outcome=outcome)
        else:
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
            kept = _grid.prune(configs, text_of, state["arch"], _describe, _fields, rows,
                               _grid.base_text(k, rows[0], tail), outcome=outcome)
        t = _target(state["arch"])
        holder["results"] = lambda: [{"name": _describe(c), "arch": t.arch, "limit_bytes": t.limit_bytes,
                                      "smem_bytes": smem, "status": _STATUS[st], "source": "model"}
                                     for c, (st, smem) in zip(configs, outcome)]
        return kept

    holder: Dict[str, Any] = {"results": []}
    early_config_prune.tilefit_kernel = k
    early_config_prune.source = "model"
    return _Pruner(early_config_prune, holder)


def verify(*args, **kwargs):
    """tilefit's model against the oracle on the installed Triton (``tilefit.triton._verify.verify``)."""
    from ._verify import verify as _verify
    return _verify(*args, **kwargs)
