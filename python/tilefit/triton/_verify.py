"""tilefit's fast model against the oracle on the installed Triton: calibrate tilefit on your own toolchain.

    import tilefit.triton
    rows = tilefit.triton.verify(matmul_kernel, "triton_matmul", configs, arch="sm_90",
                                 signature={"a_ptr": "*fp16", ...}, dtype="f16")

Every config is answered twice, by the C++ model (``"source": "model"``) and by the installed Triton's
allocation passes (``"source": "oracle"``); every disagreement (bytes or verdict) is printed, and the
rows are returned (``agree`` True/False). ``configs``: tuner dicts (BLOCK_SIZE_M/N/K, GROUP_SIZE_M,
num_warps, num_stages, plus any constexpr), or a tuned-table file or folder of them (vLLM / SGLang
``{"<M>": config}``).
"""
from __future__ import annotations

import glob
import json
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Union

from ._errors import InputError

__all__ = ["verify"]

_MODEL_KEYS = {"BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages",
               "BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "waves_per_eu", "matrix_instr_nonkdim", "kpack"}


def _tables(path: str) -> List[dict]:
    files = sorted(glob.glob(os.path.join(path, "*.json"))) if os.path.isdir(path) else [path]
    if not files:
        raise InputError(f"{path}: no .json tuned tables in it", "configs")
    out = []
    for f in files:
        try:
            with open(f) as fh:
                data = json.load(fh)
        except (OSError, json.JSONDecodeError) as e:
            raise InputError(f"{f}: cannot be read as JSON: {e}", "configs") from None
        if not isinstance(data, dict):
            raise InputError(f"{f}: a tuned table is an object of batch size to config", "configs")
        for m, cfg in data.items():
            if isinstance(cfg, dict):
                out.append(dict(cfg, name=f"{os.path.basename(f)} M={m}"))
    return out


def verify(kernel, model_kernel: str, configs: Union[str, Sequence[dict]], arch: Any, signature: Optional[dict] = None,
           constexprs: Optional[Dict[str, Any]] = None, file=sys.stdout, cache: Any = True, processes: int = 1,
           **model_fields: Any) -> List[dict]:
    """One row per config: name, arch, model_smem_bytes, model_status, oracle_smem_bytes, oracle_status,
    agree. ``model_fields``: the model's config fields the tuner dicts do not carry (``dtype="f16"``,
    ``block_shape=[128, 128]``, ``mul_routed_weight=True``...); ``constexprs``: the kernel's constexprs
    every config shares (the launcher's, e.g. ``top_k``, ``MUL_ROUTED_WEIGHT``)."""
    from .. import _grid, analyze_batch_raw
    from . import oracle
    k = _grid.kernel_name(model_kernel)
    cfgs = _tables(configs) if isinstance(configs, str) else [dict(c) for c in configs]
    a = oracle.resolve_arch(arch)[0]
    tail = _grid.fixed_tail(dict(model_fields))
    texts = []
    for i, c in enumerate(cfgs):
        vals = {kk: v for kk, v in c.items() if kk in _MODEL_KEYS}
        values, warps, stages = _grid.grid_values(vals, c.get("name", f"config #{i}"))
        texts.append(_grid.config_text(k, values, warps, stages, tail, c.get("name", f"config #{i}")))
    raw = analyze_batch_raw(texts, a, verdict=True, compact=True)
    ors = oracle.compile_many(kernel, [{kk: v for kk, v in c.items() if kk != "name"} for c in cfgs],
                              signature=signature, constexprs=constexprs, arch=a, cache=cache, processes=processes,
                              names=[c.get("name", f"config #{i}") for i, c in enumerate(cfgs)], strict=False)
    status = {0: "fits", 1: "does_not_fit", 2: "invalid"}
    rows = []
    for c, r, o in zip(cfgs, raw, ors):
        ms = status[r[0]] if type(r) is list else "error"
        mb = r[1] if type(r) is list and r[0] != 2 else None
        ob = o.smem_bytes if o.status in ("fits", "does_not_fit") else None
        agree = ms == o.status and mb == ob
        row = {"name": o.name, "arch": a, "model_smem_bytes": mb, "model_status": ms, "oracle_smem_bytes": ob,
               "oracle_status": o.status, "oracle_message": o.message, "triton_version": o.triton_version,
               "agree": agree}
        rows.append(row)
        if not agree and file is not None:
            print(f"disagree: {o.name} on {a}: model {ms} {mb} B, oracle (Triton {o.triton_version}) {o.status} "
                  f"{ob} B" + (f" ({o.message})" if o.message else ""), file=file)
    if file is not None:
        n = sum(r["agree"] for r in rows)
        print(f"{n} of {len(rows)} configs agree ({k} model vs Triton "
              f"{ors[0].triton_version if ors else oracle.triton_version()} on {a})", file=file)
    return rows


def main(argv: List[str]) -> int:
    import argparse
    from .__main__ import _load_kernel, _signature
    ap = argparse.ArgumentParser(prog="python -m tilefit.triton verify")
    ap.add_argument("kernel", help="FILE.py:KERNEL")
    ap.add_argument("--model", required=True, help="the model's kernel: triton_matmul, triton_fused_moe")
    ap.add_argument("--signature", default="")
    ap.add_argument("--constexprs", default="", help="NAME=VALUE,... every config shares (ints, True/False)")
    ap.add_argument("--configs", required=True, help="a JSON list of configs, or a tuned table file or folder")
    ap.add_argument("--arch", required=True)
    ap.add_argument("--field", action="append", default=[], help="a model field NAME=JSON (dtype=\"f16\")")
    a = ap.parse_args(argv)
    try:
        kernel = _load_kernel(a.kernel)
        path = a.configs
        cfgs: Any = path
        if os.path.isfile(path):
            with open(path) as f:
                data = json.load(f)
            if isinstance(data, list):
                cfgs = data
        fields = {}
        for fv in a.field:
            name, _, v = fv.partition("=")
            fields[name] = json.loads(v)
        rows = verify(kernel, a.model, cfgs, a.arch, signature=_signature(a.signature),
                      constexprs=_constexprs(a.constexprs), **fields)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0 if all(r["agree"] for r in rows) else 1


def _constexprs(text: str) -> dict:
    out = {}
    for part in [p for p in text.split(",") if p.strip()]:
        if "=" not in part:
            raise InputError(f"--constexprs: {part!r}: expected NAME=VALUE", "constexprs")
        k, v = part.split("=", 1)
        v = v.strip()
        out[k.strip()] = {"True": True, "False": False, "None": None}.get(v, int(v) if v.lstrip("-").isdigit() else v)
    return out
