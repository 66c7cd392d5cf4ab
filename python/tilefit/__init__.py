"""tilefit: does a GPU kernel tile config fit in shared memory? — byte-exact, before compiling.

Pure Python over tilefit's C ABI (libtilefit.so, through ctypes): every byte, stage count and
sentence comes from the same core as the ``tilefit`` command.

    >>> import tilefit
    >>> r = tilefit.analyze({"arch": "sm_120", "dtype": "nvfp4", "grouped": True,
    ...                      "epilogue": "finalize", "tile": "CtaShape128x256x64B"})
    >>> r.fits, r.smem_bytes, r.stages, r.max_stages, r.limit_bytes
    (False, 102400, 3, 2, 101376)

Tuner hooks: ``tilefit.triton.prune`` (Triton's ``@autotune(prune_configs_by=...)``) and
``tilefit.tuning.filter`` (vLLM's and SGLang's fused-MoE tuners).
"""
from __future__ import annotations

import json
import os
from typing import Any, Iterable, List, Optional, Sequence, Union

import ctypes

from . import _lib
from ._lib import DeviceError, InputError, InternalError, TilefitError

__all__ = ["analyze", "check", "builtin_limits", "device_limits", "suggest", "Result", "Diagnostic",
           "Limits", "InputError", "DeviceError", "TilefitError", "NothingFits", "__version__"]

# Without libtilefit.so only the oracle (tilefit.triton.oracle) works; the rest raises its ImportError.
__version__ = _lib.lib.tilefit_version().decode() if _lib.path else "unknown (libtilefit.so not loaded)"
_analyze = _lib.lib.tilefit_analyze if _lib.path else None

# Inference engines `check` and `tuning.filter` accept (see README "Python package").
ENGINES = ("vllm", "sglang")


class NothingFits(TilefitError, RuntimeError):
    """No candidate config fits. ``nearest``: the nearest one that does, in the candidates' own
    fields (BLOCK_SIZE_M/N/K, GROUP_SIZE_M, num_warps, num_stages), or None when tilefit found none;
    ``config``: the candidate it was made from; ``nearest_config``: it as a tilefit config."""

    def __init__(self, message: str, nearest: Optional[dict] = None, config: Any = None,
                 nearest_config: Optional[dict] = None):
        super().__init__(message)
        self.nearest = nearest
        self.config = config
        self.nearest_config = nearest_config


class Diagnostic:
    __slots__ = ("code", "severity", "message")

    def __init__(self, code: str, severity: str, message: str):
        self.code, self.severity, self.message = code, severity, message

    def __repr__(self):
        return f"Diagnostic({self.code!r}, {self.severity!r}, {self.message!r})"

    def __str__(self):
        return self.message


def _field(key, default=None):
    return property(lambda self: self.raw.get(key, default), doc=f"the result's {key!r}")


def _detail(key, default=None):
    def get(self):
        if self._query is not None and key not in self.raw:
            self._explain()
        return self.raw.get(key, default)
    return property(get, doc=f"the result's {key!r} (asked of the core when first read)")


class Result:
    """One analysed config: the fields of ``tilefit check --format json``'s results.

    ``analyze()`` asks the core for the verdict (status, bytes, stages, limits); the explanation
    (``breakdown``, ``diagnostics``, ``kernel_description``, the epilogue and mainloop sizes, an
    attention op's ``launches``) is asked
    for, once, when one of those is first read — a launcher that only reads ``fits`` pays for no
    sentences. ``raw`` is the result JSON as a dict (the verdict fields until then)."""

    __slots__ = ("raw", "_diagnostics", "_query")

    def __init__(self, d: dict, query=None):
        self.raw = d
        self._diagnostics = None
        self._query = query  # (config text, arch) for the explanation, or None when raw has it

    def _explain(self):
        text, arch = self._query
        self._query = None
        self.raw = _loads(_call(_lib.lib.tilefit_analyze, text, arch, 0))

    fits = property(lambda self: self.raw["fits"])
    status = property(lambda self: self.raw["status"])
    name = _field("name", "")
    kernel = _field("kernel", "")
    arch = _field("arch", "")
    smem_bytes = _field("smem_bytes")
    stages = _field("stages", 0)
    auto_stages = _field("auto_stages", True)
    max_stages = _field("max_stages", 0)
    max_stages_smem_bytes = _field("max_stages_smem_bytes")
    limit_bytes = _field("limit_bytes", 0)
    headroom_bytes = _field("headroom_bytes")
    ctas_per_sm = _field("ctas_per_sm", 0)
    kernel_description = _detail("kernel_description", "")
    epilogue_smem_bytes = _detail("epilogue_smem_bytes")
    mainloop_smem_bytes = _detail("mainloop_smem_bytes")
    #: ``"kernel": "triton_attention"``: every launch of the op as the engine's launcher makes it
    #: (dicts: stage, kernel, constexprs, num_warps, num_stages, smem_bytes, fits, invalid,
    #: stages_matter); the verdict is the worst. Empty for the other families.
    launches = _detail("launches", [])
    #: ``triton_attention``: the engine refuses the config before any kernel runs (vLLM: FP8 KV
    #: below sm_89, ...), whatever ``status`` says of shared memory.
    engine_refuses = _detail("engine_refuses", False)
    file = _field("file")
    index = _field("index")

    @property
    def breakdown(self) -> dict:
        """Bytes per component (the non-zero parts; they sum to smem_bytes)."""
        if self._query is not None:
            self._explain()
        return dict(self.raw.get("breakdown", {}))

    @property
    def diagnostics(self) -> list:
        """Why, what fits instead, what to know: Diagnostic(code, severity, message), the CLI's sentences."""
        if self._query is not None:
            self._explain()
        if self._diagnostics is None:
            self._diagnostics = [Diagnostic(x["code"], x["severity"], x["message"])
                                 for x in self.raw.get("diagnostics", [])]
        return self._diagnostics

    def as_dict(self) -> dict:
        """The whole result JSON (explanation included) as a dict."""
        if self._query is not None:
            self._explain()
        return dict(self.raw)

    def __bool__(self):
        return bool(self.raw["fits"])

    def __repr__(self):
        return (f"Result(status={self.status!r}, kernel={self.kernel!r}, arch={self.arch!r}, "
                f"smem_bytes={self.smem_bytes}, stages={self.stages}, max_stages={self.max_stages}, "
                f"limit_bytes={self.limit_bytes})")


class Limits(dict):
    """What a GPU grants, as a result's ``target`` has it: source ("builtin" or "device"; a device's
    device and device_name), arch, optin_per_block_bytes, per_sm_bytes, reserved_per_block_bytes,
    default_per_block_bytes, max_ctas_per_sm, regs_per_sm, threads_per_sm (also as attributes)."""

    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k) from None


# ---- turning Python values into the config JSON the core reads -----------------------------------

def _json_default(o):
    # numpy / torch integers and booleans, and anything else with __index__, are integers.
    if hasattr(o, "__index__") and not isinstance(o, float):
        return int(o.__index__())
    raise TypeError(type(o).__name__)


def _type_name(x) -> str:
    t = type(x)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


_ENCODER = json.JSONEncoder(default=_json_default, allow_nan=False, separators=(",", ":"))
_loads = json.loads


def _config_text(config, label: str = "<config>") -> str:
    """A config as JSON text: a dict (dumped), JSON text, or a bare CUTLASS kernel name."""
    if isinstance(config, dict):
        try:
            return _ENCODER.encode(config)
        except (TypeError, ValueError) as e:
            raise InputError(f"{label}: a config value is not JSON ({e}); allowed: dicts, lists, strings, "
                             "integers, floats, booleans and None", "") from None
    if isinstance(config, (bytes, bytearray)):
        config = bytes(config).decode("utf-8", "replace")
    if isinstance(config, str):
        s = config.strip()
        if s and s[0] not in "{[\"":
            return json.dumps(s)  # a CUTLASS kernel name
        return config
    raise InputError(f"{label}: expected one config: a dict, JSON text or a CUTLASS kernel name; got "
                     f"{_type_name(config)}", "")


def _enc(s: Optional[str], what: str = "arch") -> Optional[bytes]:
    if s is None:
        return None
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what}: {s!r} is not UTF-8 text", what) from None


def _int_arg(v: Any, what: str, low: int = 1) -> int:
    """An integer argument, never coerced: bools, floats and strings are InputErrors naming it."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise InputError(f"{what}: expected an integer of at least {low}; got {v!r} ({_type_name(v)})", what)
    i = int(v.__index__())
    if i < low:
        raise InputError(f"{what}: {i} is out of range; allowed: integers {low} or more", what)
    return i


def _arch_text(arch) -> Optional[str]:
    if arch is None:
        return None
    if isinstance(arch, tuple) and len(arch) == 2:  # torch.cuda.get_device_capability()
        return f"sm_{int(arch[0])}{int(arch[1])}"
    if isinstance(arch, int) and not isinstance(arch, bool):
        return f"sm_{arch}"
    if not isinstance(arch, str):
        raise InputError(f"arch: expected a string such as \"sm_120\" (or a (major, minor) tuple); got "
                         f"{_type_name(arch)}", "arch")
    return arch


_targets = {}


def _target(arch) -> "_lib.Target":
    """The tilefit_target of an arch from the built-in table (cached)."""
    a = _arch_text(arch)
    t = _targets.get(a)
    if t is None:
        ctx = _lib.context()
        ptr = _lib.ctypes.c_void_p()
        rc = _lib.lib.tilefit_target_builtin(ctx, _enc(a), _lib.ctypes.byref(ptr))
        if rc != _lib.OK:
            _lib.raise_for(ctx, rc)
        t = _lib.Target(ptr.value, _target_info(ptr.value))
        _targets[a] = t
    return t


def _target_info(ptr) -> dict:
    ctx = _lib.context()
    out = _lib.ctypes.c_char_p()
    rc = _lib.lib.tilefit_target_json(ctx, ptr, _lib.ctypes.byref(out))
    if rc != _lib.OK:
        _lib.raise_for(ctx, rc)
    return json.loads(out.value)


def _call(fn, *args):
    ctx = _lib.context()
    out = _lib.ctypes.c_char_p()
    rc = fn(ctx, *args, _lib.ctypes.byref(out))
    if rc != _lib.OK:
        _lib.raise_for(ctx, rc)
    return out.value


def _call_rc(fn, *args) -> None:
    """A C call that returns only a code (its outputs in the caller's arrays)."""
    ctx = _lib.context()
    rc = fn(ctx, *args)
    if rc != _lib.OK:
        _lib.raise_for(ctx, rc)


def analyze_batch_raw(texts: Sequence[str], arch, verdict: bool = True, compact: bool = False) -> list:
    """Many config JSON texts against one arch in one C call (tilefit_analyze_batch): a list of
    result dicts, or {"status": "error", "error": MESSAGE, "field": F} for a config the reader refuses."""
    t = _target(arch)
    out = _call(_lib.lib.tilefit_analyze_batch, ("[" + ",".join(texts) + "]").encode("utf-8"), t.ptr,
                (_lib.VERDICT if verdict else 0) | (_lib.COMPACT if compact else 0))
    return json.loads(out)


# ---- the API --------------------------------------------------------------------------------------

def _with_hip_async_copy(config: Union[dict, str], hip_async_copy: Optional[bool]) -> Union[dict, str]:
    """The AMD async-copy switch (TRITON_HIP_USE_ASYNC_COPY) as the config field "hip_async_copy"."""
    if hip_async_copy is None:
        return config
    if not isinstance(hip_async_copy, bool):
        raise InputError(f"hip_async_copy: expected True, False or None; got {_type_name(hip_async_copy)}",
                         "hip_async_copy")
    if isinstance(config, str) and config.lstrip().startswith("{"):
        config = json.loads(config)
    if not isinstance(config, dict):
        raise InputError("hip_async_copy: applies to a config given as a dict or a JSON object (a Triton "
                         "config), not to a kernel name", "hip_async_copy")
    c = dict(config)
    c["hip_async_copy"] = hip_async_copy
    return c


def analyze(config: Union[dict, str], arch: Optional[str] = None,
            hip_async_copy: Optional[bool] = None) -> Result:
    """One config (a dict in the config-file format, JSON text, or a CUTLASS kernel name) analysed for
    ``arch`` ("sm_120", "sm90", "12.0", or a (major, minor) tuple; AMD: "gfx942", "mi300x", "gfx950",
    "mi355x", ...), or for the config's own "arch", with the built-in table. ``hip_async_copy``
    (True/False): TRITON_HIP_USE_ASYNC_COPY on an AMD target, as the config field "hip_async_copy"
    (None: the config's, else Triton 3.6's default, off); on an NVIDIA target an InputError.
    Raises InputError for bad input."""
    text = _enc(_config_text(_with_hip_async_copy(config, hip_async_copy)), "config")
    a = None if arch is None else _enc(_arch_text(arch))
    ctx = _lib.context()
    out = ctypes.c_char_p()
    rc = _analyze(ctx, text, a, _lib.VERDICT, ctypes.byref(out))
    if rc != _lib.OK:
        _lib.raise_for(ctx, rc)
    return Result(_loads(out.value), (text, a))


def _with_engine(config: dict, engine: Optional[str]) -> dict:
    if engine is None:
        return config
    kernel = str(config.get("kernel", ""))
    if kernel.startswith("triton_") or "launcher" in config:
        return config  # vLLM and SGLang run the same fused_moe_kernel; an explicit launcher wins
    c = dict(config)
    c["launcher"] = engine
    return c


def _check_engine(engine: Any) -> Optional[str]:
    """An engine as ``tilefit check --engine`` takes it ("vllm", "sglang", or pinned to a modelled
    release: "vllm@000d1458", a commit prefix of 8 to 40 hex digits): the engine's name ("vllm"),
    or None; InputError naming ``engine`` otherwise."""
    if engine is None:
        return None
    if not isinstance(engine, str):
        raise InputError(f"engine: expected a string such as \"vllm\" or \"vllm@000d1458\" (or None); got "
                         f"{_type_name(engine)}", "engine")
    out = _call(_lib.lib.tilefit_engine, _enc(engine, "engine"))
    return out.decode().split("@")[0]


def _is_path(x: Any) -> bool:
    """A file or folder name (str, bytes or os.PathLike), not config text."""
    if isinstance(x, os.PathLike):
        return True
    if isinstance(x, bytes):
        return not x.lstrip().startswith((b"{", b"[", b"\""))
    if isinstance(x, str):
        return (not x.lstrip().startswith(("{", "[", "\"")) and
                (os.sep in x or x.endswith(".json") or x == "-" or os.path.exists(x)))
    return False


def check(configs: Union[str, bytes, os.PathLike, Iterable[Union[str, bytes, os.PathLike, dict]]], arch: Optional[str] = None,
          engine: Optional[str] = None, hip_async_copy: Optional[bool] = None) -> List[Result]:
    """Config files and folders (paths as str, bytes or os.PathLike, any bytes the file system takes;
    tilefit's format or vLLM/SGLang tuned tables; a folder: every tuned table under it) or configs
    (dicts / JSON text), as ``tilefit check`` analyses them: for ``arch``, else each config's own arch (a tuned
    table's device_name) with the built-in table.

    ``engine`` ("vllm", "sglang", or pinned: "vllm@000d1458"): the inference engine whose launcher builds the kernels — for dict
    configs without a "launcher", passed through as "launcher" (the engine FP8 families); Triton
    kernels are the same for both engines. Files say their launcher themselves: with files, a
    non-default engine is not supported yet (InputError). ``hip_async_copy`` (True/False): as in
    analyze(), for configs given as dicts or JSON objects (with files: InputError; write the field
    "hip_async_copy" in them, or use ``tilefit check --hip-async-copy on|off``). Raises InputError
    for the first problem;
    the exception's ``errors`` lists them all and ``results`` holds the configs that were read."""
    engine = _check_engine(engine)
    if isinstance(configs, (str, os.PathLike, dict, bytes)):
        items = [configs]
    else:
        try:
            items = list(configs)
        except TypeError:
            raise InputError(f"configs: expected a path, a config, or a list of them; got {_type_name(configs)}",
                             "configs") from None
    paths = [os.fsencode(x) for x in items if _is_path(x)]
    if paths and len(paths) != len(items):
        raise InputError("check: give either file paths or configs, not both", "")
    if paths:
        if engine is not None:
            raise InputError(f"engine: {json.dumps(engine)} with config files is not supported yet; write "
                             "\"launcher\" in the files' configs (or pass the configs as dicts)", "engine")
        if hip_async_copy is not None:
            raise InputError("hip_async_copy: with config files it is not supported; write \"hip_async_copy\" "
                             "in the files' configs, or run tilefit check --hip-async-copy on|off",
                             "hip_async_copy")
        ctx = _lib.context()
        out = _lib.ctypes.c_char_p()
        argv = (ctypes.c_char_p * len(paths))(*paths)
        rc = _lib.lib.tilefit_check_paths(ctx, argv, len(paths), _enc(_arch_text(arch)), 0, _lib.ctypes.byref(out))
        doc = json.loads(out.value) if out.value else {"results": [], "errors": []}
        results = [Result(r) for r in doc["results"]]
        if rc != _lib.OK:
            try:
                _lib.raise_for(ctx, rc)
            except TilefitError as e:
                e.errors = doc["errors"]
                e.results = results
                raise
        return results
    items = [_with_hip_async_copy(c, hip_async_copy) for c in items]
    texts = [_config_text(_with_engine(c, engine) if isinstance(c, dict) else c, f"<config> #{i}")
             for i, c in enumerate(items)]
    if arch is None:
        return [Result(json.loads(_call(_lib.lib.tilefit_analyze, t.encode("utf-8"), None, 0))) for t in texts]
    raw = analyze_batch_raw(texts, arch, verdict=False)
    errors = [r for r in raw if r["status"] == "error"]
    results = [Result(r) for r in raw if r["status"] != "error"]
    if errors:
        e = InputError(errors[0]["text"], errors[0]["field"])
        e.errors = errors
        e.results = results
        raise e
    return results


def suggest(config: Union[dict, str], arch: str, max: int = 5) -> List[dict]:
    """``tilefit suggest`` for one config on ``arch``: the nearest alternatives that fit, nearest first
    (dicts as ``tilefit suggest --format json`` lists a result's suggestions: config, change,
    changes, distance, smem_bytes, saved_bytes, stages, max_stages, status, headroom_bytes); empty
    when it fits."""
    n = _int_arg(max, "max")
    text = _config_text(config)
    out = _call(_lib.lib.tilefit_suggest, _enc(text, "config"), _target(arch).ptr, n)
    return json.loads(out)


def builtin_limits(arch: str) -> Limits:
    """The built-in table's limits for ``arch``; InputError when it is not in the table."""
    return Limits(_target_info(_target(arch).ptr))


def device_limits(device: int = 0) -> Limits:
    """What GPU ``device`` reports through the CUDA Runtime. Raises DeviceError without one, and in a
    build of tilefit without CUDA."""
    if not isinstance(device, int) or isinstance(device, bool):
        raise InputError(f"device: expected a GPU index (an integer); got {_type_name(device)}", "device")
    ctx = _lib.context()
    ptr = _lib.ctypes.c_void_p()
    rc = _lib.lib.tilefit_target_device(ctx, device, _lib.ctypes.byref(ptr))
    if rc != _lib.OK:
        _lib.raise_for(ctx, rc)
    t = _lib.Target(ptr.value, _target_info(ptr.value))
    return Limits(_target_info(t.ptr))


from . import triton, tuning  # noqa: E402  (the tuner hooks use the API above)
