"""Tuner candidates (Triton configs, vLLM/SGLang grid dicts) as tilefit configs, pruned in one C call."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._lib import InputError

# The kernels tilefit models (README "Triton kernels and vLLM/SGLang tuned tables"), and aliases.
KERNELS = {
    "triton_matmul": "triton_matmul", "matmul": "triton_matmul",
    "triton_fused_moe": "triton_fused_moe", "fused_moe": "triton_fused_moe", "fused_moe_kernel": "triton_fused_moe",
}
# Kernels people ask about that the core does not model yet.
NOT_MODELLED = ("w8a8_block_fp8_matmul", "_w8a8_block_fp8_matmul", "block_fp8_matmul", "w8a8_block_int8_matmul",
                "triton_block_fp8_matmul", "fused_moe_kernel_gptq_awq")

# torch dtype names (str(tensor.dtype)) -> tilefit dtypes.
TORCH_DTYPES = {
    "torch.float16": "f16", "torch.half": "f16", "float16": "f16", "f16": "f16", "fp16": "f16",
    "torch.bfloat16": "bf16", "bfloat16": "bf16", "bf16": "bf16",
    "torch.float32": "f32", "torch.float": "f32", "float32": "f32", "f32": "f32", "fp32": "f32",
    "torch.float8_e4m3fn": "e4m3", "float8_e4m3fn": "e4m3", "e4m3": "e4m3", "fp8": "e4m3",
    "fp8_e4m3": "e4m3",
}

# Config keys: (our field, the names tuners use).
_TILE_KEYS = (("BLOCK_SIZE_M", "BLOCK_M"), ("BLOCK_SIZE_N", "BLOCK_N"), ("BLOCK_SIZE_K", "BLOCK_K"))
_GROUP_KEYS = ("GROUP_SIZE_M", "GROUP_M")
# Grid keys that do not change shared memory on NVIDIA GPUs (AMD-only knobs; SPLIT_K 1).
_IGNORED = {"waves_per_eu", "matrix_instr_nonkdim", "kpack"}


def kernel_name(kernel) -> str:
    if not isinstance(kernel, str):
        raise InputError(f"kernel: expected a name such as \"triton_matmul\"; got {type(kernel).__name__}", "kernel")
    k = KERNELS.get(kernel.lower())
    if k:
        return k
    if kernel.lower() in NOT_MODELLED:
        raise InputError(f"kernel: {json.dumps(kernel)} (the block-quantised Triton matmul / weight-only MoE) is not "
                         "modelled by tilefit yet; allowed: triton_matmul, triton_fused_moe", "kernel")
    raise InputError(f"kernel: {json.dumps(kernel)} is not a Triton kernel tilefit models; allowed: triton_matmul, "
                     "triton_fused_moe", "kernel")


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
    sk = values.get("SPLIT_K")
    if sk is not None and sk != 1:
        raise InputError(f"{where}: field \"SPLIT_K\": {sk!r} is not modelled; allowed: 1", "SPLIT_K")
    if values.get("USE_TMA"):
        raise InputError(f"{where}: field \"USE_TMA\": the TMA variant of the fused-MoE kernel is not modelled; "
                         "allowed: false", "USE_TMA")
    parts.append(tail)
    parts.append("}")
    return "".join(parts)


_KNOWN = {n for names in _TILE_KEYS for n in names} | set(_GROUP_KEYS) | {"num_warps", "num_stages", "SPLIT_K",
                                                                        "USE_TMA"} | _IGNORED


def grid_values(c: dict, where: str) -> Tuple[dict, Any, Any]:
    """A vLLM/SGLang grid dict: its values, num_warps, num_stages; unknown keys are errors."""
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


def prune(candidates: Sequence[Any], texts: List[str], arch: str, describe: Callable[[Any], str],
          fields: Callable[[Any], dict]) -> List[Any]:
    """The candidates whose configs (JSON texts) fit ``arch`` (one tilefit_analyze_batch call); when none
    does, NothingFits with the nearest fitting one."""
    from . import NothingFits, _target, analyze_batch_raw, suggest
    raw = analyze_batch_raw(texts, arch, verdict=True, compact=True)
    kept = []
    for cand, r in zip(candidates, raw):
        if type(r) is list:
            if r[0] == 0:
                kept.append(cand)
        else:
            raise InputError(r["error"], r["field"])
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
        for i, text in enumerate(texts[:64]):
            if raw[i][0] != 1:
                continue
            s = suggest(text, arch, max=1)
            if s and (best is None or s[0]["distance"] < best[0][0]):
                changes = {_TUNER_NAMES.get(ch["field"], ch["field"]): _value(ch["to"]) for ch in s[0]["changes"]}
                best = ((s[0]["distance"], 0), i, changes, s[0]["result"]["smem_bytes"])
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
