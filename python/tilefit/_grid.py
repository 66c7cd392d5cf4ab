"""Tuner candidates (Triton configs, vLLM/SGLang grid dicts) as tilefit configs, pruned in one C call."""
from __future__ import annotations

import json
from array import array
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import InputError

# The kernels tilefit models (README "Triton kernels and vLLM/SGLang tuned tables"), and aliases.
KERNELS = {
    "triton_matmul": "triton_matmul", "matmul": "triton_matmul",
    "triton_fused_moe": "triton_fused_moe", "fused_moe": "triton_fused_moe", "fused_moe_kernel": "triton_fused_moe",
    # vLLM's and SGLang's block-quantised W8A8 matmuls (fp8_utils.py, int8_utils.py, fp8_kernel.py)
    "triton_block_matmul": "triton_block_matmul", "block_matmul": "triton_block_matmul",
    "w8a8_block_fp8_matmul": "triton_block_matmul", "_w8a8_block_fp8_matmul": "triton_block_matmul",
    "w8a8_triton_block_scaled_mm": "triton_block_matmul", "_w8a8_triton_block_scaled_mm": "triton_block_matmul",
    "w8a8_block_int8_matmul": "triton_block_matmul", "_w8a8_block_int8_matmul": "triton_block_matmul",
    "block_fp8_matmul": "triton_block_matmul", "triton_block_fp8_matmul": "triton_block_matmul",
}
ALLOWED_KERNELS = "triton_matmul, triton_fused_moe, triton_block_matmul"
# Kernels people ask about that the core does not model yet.
NOT_MODELLED = ("fused_moe_kernel_gptq_awq",)

# torch dtype names (str(tensor.dtype)) -> tilefit dtypes.
TORCH_DTYPES = {
    "torch.float16": "f16", "torch.half": "f16", "float16": "f16", "f16": "f16", "fp16": "f16",
    "torch.bfloat16": "bf16", "bfloat16": "bf16", "bf16": "bf16",
    "torch.float32": "f32", "torch.float": "f32", "float32": "f32", "f32": "f32", "fp32": "f32",
    "torch.float8_e4m3fn": "e4m3", "float8_e4m3fn": "e4m3", "e4m3": "e4m3", "fp8": "e4m3",
    "fp8_e4m3": "e4m3",
    "torch.int8": "s8", "int8": "s8",
}

# Config keys: (our field, the names tuners use).
_TILE_KEYS = (("BLOCK_SIZE_M", "BLOCK_M"), ("BLOCK_SIZE_N", "BLOCK_N"), ("BLOCK_SIZE_K", "BLOCK_K"))
_GROUP_KEYS = ("GROUP_SIZE_M", "GROUP_M")
# Grid keys that do not change shared memory on NVIDIA GPUs (AMD-only knobs; SPLIT_K 1).
_IGNORED = {"waves_per_eu", "matrix_instr_nonkdim", "kpack"}


def kernel_name(kernel: Any) -> str:
    if not isinstance(kernel, str):
        raise InputError(f"kernel: expected a name such as \"triton_matmul\"; got {type(kernel).__name__}", "kernel")
    k = KERNELS.get(kernel.lower())
    if k:
        return k
    if kernel.lower() in NOT_MODELLED:
        raise InputError(f"kernel: {json.dumps(kernel)} (the weight-only MoE) is not modelled by tilefit yet; "
                         f"allowed: {ALLOWED_KERNELS}", "kernel")
    raise InputError(f"kernel: {json.dumps(kernel)} is not a Triton kernel tilefit models; allowed: {ALLOWED_KERNELS}",
                     "kernel")


def dtype_name(d) -> Optional[str]:
    """A torch dtype (or its name, or a tilefit dtype) as a tilefit dtype; None when unknown."""
    if d is None:
        return None
    return TORCH_DTYPES.get(str(d))


def _int(v, key: str, where: str) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise InputError(f"{where}: field {json.dumps(key)}: expected an integer, got {v!r}; allowed: integers", key)
    return int(v.__index__())


def _get(values: Dict[str, Any], names: Tuple[str, ...]):
    for n in names:
        v = values.get(n)
        if v is not None:
            return n, v
    return names[0], None


def fixed_tail(fixed: Dict[str, Any]) -> str:
    """The fields every candidate shares, as the tail of a JSON object (",\"dtype\":\"bf16\"")."""
    if not fixed:
        return ""
    from . import _config_text
    return "," + _config_text(dict(fixed))[1:-1]


def config_text(kernel: str, values: Dict[str, Any], num_warps, num_stages, tail: str, where: str,
                tile_fixed: bool = False) -> str:
    """One tilefit config, as JSON text, from a candidate's values (BLOCK_SIZE_*, GROUP_SIZE_M, ...)."""
    parts = ['{"kernel":"', kernel, '"']
    tile = []
    for names in _TILE_KEYS:
        n, v = _get(values, names)
        if v is None:
            if tile_fixed:
                break
            raise InputError(f"{where}: field {json.dumps(names[0])}: missing; every candidate needs BLOCK_SIZE_M, "
                             "BLOCK_SIZE_N and BLOCK_SIZE_K", names[0])
        tile.append(v if type(v) is int else _int(v, n, where))
    if len(tile) == 3:
        parts.append(',"tile":[%d,%d,%d]' % (tile[0], tile[1], tile[2]))
    n, g = _get(values, _GROUP_KEYS)
    if g is not None:
        parts.append(',"group_m":%d' % (g if type(g) is int else _int(g, n, where)))
    if num_warps is not None:
        parts.append(',"num_warps":%d' % (num_warps if type(num_warps) is int else _int(num_warps, "num_warps", where)))
    if num_stages is not None:
        parts.append(',"stages":%d' % (num_stages if type(num_stages) is int else _int(num_stages, "num_stages", where)))
    _refuse_unmodelled(values, where)
    parts.append(tail)
    parts.append("}")
    return "".join(parts)


def _refuse_unmodelled(values: Dict[str, Any], where: str) -> None:
    """The fused-MoE kernel's parameters the model does not size: SPLIT_K > 1, USE_TMA."""
    sk = values.get("SPLIT_K")
    if sk is not None and sk != 1:
        raise InputError(f"{where}: field \"SPLIT_K\": {sk!r} is not modelled; allowed: 1", "SPLIT_K")
    if values.get("USE_TMA"):
        raise InputError(f"{where}: field \"USE_TMA\": the TMA variant of the fused-MoE kernel is not modelled; "
                         "allowed: false", "USE_TMA")


def _ival(v: Any, key: str, where: str) -> int:
    return v if type(v) is int else _int(v, key, where)


def row(values: Dict[str, Any], num_warps: Any, num_stages: Any,
        where: Union[str, Callable[[], str]]) -> Tuple[int, int, int, int, int, int]:
    """One candidate as (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M or -1 when not given,
    num_warps, num_stages) for tilefit_analyze_grid; the same checks as config_text."""
    # The common case first: the tuners' own spelling, plain ints, nothing else to check.
    m, n, k, g = (values.get("BLOCK_SIZE_M"), values.get("BLOCK_SIZE_N"), values.get("BLOCK_SIZE_K"),
                  values.get("GROUP_SIZE_M"))
    if (type(m) is int and type(n) is int and type(k) is int and (type(g) is int or g is None) and
            type(num_warps) is int and type(num_stages) is int and "SPLIT_K" not in values and
            "USE_TMA" not in values and "GROUP_M" not in values):
        return (m, n, k, -1 if g is None else g, num_warps, num_stages)
    if callable(where):
        where = where()
    tile = []
    for names in _TILE_KEYS:
        n, v = _get(values, names)
        if v is None:
            raise InputError(f"{where}: field {json.dumps(names[0])}: missing; every candidate needs BLOCK_SIZE_M, "
                             "BLOCK_SIZE_N and BLOCK_SIZE_K", names[0])
        tile.append(_ival(v, n, where))
    n, g = _get(values, _GROUP_KEYS)
    _refuse_unmodelled(values, where)
    return (tile[0], tile[1], tile[2], -1 if g is None else _ival(g, n, where),
            4 if num_warps is None else _ival(num_warps, "num_warps", where),
            3 if num_stages is None else _ival(num_stages, "num_stages", where))


def base_text(kernel: str, first: Tuple[int, ...], tail: str) -> str:
    """The config every row shares (tilefit_analyze_grid's base_json): the kernel, the fixed fields,
    and the first row's tile (each row replaces it)."""
    return '{"kernel":"%s","tile":[%d,%d,%d]%s}' % (kernel, first[0], first[1], first[2], tail)


def analyze_grid(base: str, rows: Sequence[Tuple[int, ...]], arch: Any) -> Tuple[Any, Any, Any, Any, Any]:
    """Every row against ``arch`` in one C call (tilefit_analyze_grid): arrays of status (0 fits,
    1 does not fit, 2 invalid), smem_bytes, stages, max_stages, max_stages_smem_bytes (-1: unknown)."""
    from . import _call_rc, _enc, _target
    t = _target(arch)
    n = len(rows)
    cols = list(zip(*rows)) if n else [(), (), (), (), (), ()]
    m, bn, k, g = (array("q", c) for c in cols[:4])
    w, st = (array("i", c) for c in cols[4:])
    status = array("b", bytes(n))
    smem, maxs, maxsm = array("q", bytes(8 * n)), array("i", bytes(4 * n)), array("q", bytes(8 * n))
    stages = array("i", bytes(4 * n))

    def p(a):
        return a.buffer_info()[0] if n else None

    _call_rc(_lib.lib.tilefit_analyze_grid, _enc(base, "config"), t.ptr, n, p(m), p(bn), p(k), p(g), p(w), p(st),
             p(status), p(smem), p(stages), p(maxs), p(maxsm))
    return status, smem, stages, maxs, maxsm


_KNOWN = {n for names in _TILE_KEYS for n in names} | set(_GROUP_KEYS) | {"num_warps", "num_stages", "SPLIT_K",
                                                                        "USE_TMA"} | _IGNORED


def grid_values(c: dict, where: Union[str, Callable[[], str]]) -> Tuple[dict, Any, Any]:
    """A vLLM/SGLang grid dict: its values, num_warps, num_stages; unknown keys are errors."""
    if type(c) is dict and c.keys() <= _KNOWN:
        return c, c.get("num_warps", 4), c.get("num_stages", 3)
    if callable(where):
        where = where()
    if not isinstance(c, dict):
        raise InputError(f"{where}: expected a dict with BLOCK_SIZE_M/N/K, GROUP_SIZE_M, num_warps, num_stages; got "
                         f"{type(c).__name__}", "")
    for k in c:
        if k not in _KNOWN:
            raise InputError(f"{where}: field {json.dumps(str(k))}: unknown field; allowed: BLOCK_SIZE_M, BLOCK_SIZE_N, "
                             "BLOCK_SIZE_K, GROUP_SIZE_M, num_warps, num_stages, SPLIT_K, USE_TMA", str(k))
    return c, c.get("num_warps", 4), c.get("num_stages", 3)


def _first_invalid_reason(text: str, arch: str) -> str:
    from . import analyze
    r = analyze(text, arch)
    errs = [d.message for d in r.diagnostics if d.severity == "error"]
    return errs[0] if errs else r.status


# suggest's field names -> the tuners' and the config's own
_TUNER_NAMES = {"stages": "num_stages", "tile.m": "BLOCK_SIZE_M", "tile.n": "BLOCK_SIZE_N", "tile.k": "BLOCK_SIZE_K"}
_CONFIG_NAMES = {"num_stages": "stages"}


def _value(v):
    return int(v) if isinstance(v, str) and v.isdigit() else v


class _Texts:
    """The candidates' configs as JSON text, made when first asked for (the fallback paths)."""

    def __init__(self, text_of: Callable[[int], str], n: int):
        self._text_of, self._n, self._cache = text_of, n, {}

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        t = self._cache.get(i)
        if t is None:
            t = self._cache[i] = self._text_of(i)
        return t


def prune(candidates: Sequence[Any], text_of: Callable[[int], str], arch: str, describe: Callable[[Any], str],
          fields: Callable[[Any], dict], rows: Optional[Sequence[Tuple[int, ...]]] = None,
          base: Optional[str] = None, outcome: Optional[list] = None) -> List[Any]:
    """The candidates that fit ``arch``, in one C call: with ``rows`` (tilefit_analyze_grid: the
    candidates' block sizes, warps and stages as arrays over the shared ``base`` config), else their
    configs as JSON texts (``text_of(i)``, tilefit_analyze_batch). When none fits, NothingFits with
    the nearest fitting one. ``outcome``: a list to receive one (status, smem_bytes) per candidate
    (status 0 fits, 1 does not fit, 2 invalid; smem_bytes None where there is none)."""
    from . import NothingFits, _target, analyze_batch_raw, suggest
    texts = _Texts(text_of, len(candidates))
    if rows is not None:
        try:
            status, smem, stages, maxs, maxsm = analyze_grid(base, rows, arch)
        except OverflowError:  # a value beyond 64 bits: the config reader says which, in its words
            return prune(candidates, text_of, arch, describe, fields, outcome=outcome)
        if outcome is not None:
            outcome.extend((status[i], None if smem[i] < 0 else smem[i]) for i in range(len(candidates)))
        kept = [c for c, st in zip(candidates, status) if st == 0]
        if kept or not candidates:
            return kept
        raw = [[status[i], None if smem[i] < 0 else smem[i], stages[i], maxs[i], None if maxsm[i] < 0 else maxsm[i]]
               for i in range(len(candidates))]
    else:
        raw = analyze_batch_raw([texts[i] for i in range(len(candidates))], arch, verdict=True, compact=True)
        kept = []
        for cand, r in zip(candidates, raw):
            if type(r) is list:
                if outcome is not None:
                    outcome.append((r[0], r[1]))
                if r[0] == 0:
                    kept.append(cand)
            else:
                raise InputError(r["text"], r["field"])
        if kept or not candidates:
            return kept
    # Nothing fits: the nearest that does. First the cheapest move (fewer stages: the core's
    # max_stages), the candidate that needs the fewest stages removed; else tilefit suggest's moves.
    t = _target(arch)
    n = len(candidates)
    best = None
    for i, r in enumerate(raw):
        status, _smem, stages, max_stages, max_smem = r
        if status == 1 and max_stages > 0:
            key = (stages - max_stages, -(max_smem or 0))
            if best is None or key < best[0]:
                best = (key, i, {"num_stages": max_stages}, max_smem)
    if best is None:
        for i in range(min(64, len(texts))):
            if raw[i][0] != 1:
                continue
            s = suggest(texts[i], arch, max=1)
            if s and (best is None or s[0]["distance"] < best[0][0]):
                changes = {_TUNER_NAMES.get(ch["field"], ch["field"]): _value(ch["to"]) for ch in s[0]["changes"]}
                best = ((s[0]["distance"], 0), i, changes, s[0]["smem_bytes"])
    if best is None:
        if all(r[0] == 2 for r in raw):
            raise NothingFits(f"tilefit: none of the {n} configs fits {t.arch}: every one is invalid there "
                              f"(the first, {describe(candidates[0])}: {_first_invalid_reason(texts[0], arch)})")
        raise NothingFits(f"tilefit: none of the {n} configs fits {t.arch} ({t.limit_bytes} B of shared memory per "
                          "block), and no nearby config does either")
    _, i, changes, smem = best
    nearest = fields(candidates[i])
    nearest.update(changes)
    config = json.loads(texts[i])
    tile = config.get("tile")
    for k, v in changes.items():
        if k.startswith("BLOCK_SIZE_") and isinstance(tile, list):
            tile["MNK".index(k[-1])] = v
        else:
            config[_CONFIG_NAMES.get(k, k)] = v
    what = ", ".join(f"{k}={v}" for k, v in changes.items())
    raise NothingFits(f"tilefit: none of the {n} configs fits {t.arch} ({t.limit_bytes} B of shared memory per "
                      f"block); nearest that fits: {describe(candidates[i])} with {what} ({smem} B)",
                      nearest=nearest, config=candidates[i], nearest_config=config)
