"""``python -m tilefit.triton check FILE.py:KERNEL --signature NAME=TYPE,... --configs CONFIGS.json --arch ARCH[,ARCH...]``

Every config of CONFIGS.json (a list of objects: the kernel's constexprs plus num_warps, num_stages,
optionally num_ctas, maxnreg and AMD options) or of a tuned table (``--table``: vLLM's / SGLang's
``{"<M>": {BLOCK_SIZE_M..., num_warps, num_stages}}``) through the installed Triton's allocation passes
for each arch. Prints a table, JSON or CSV with ``tilefit check``'s exit codes: 0 every config fits,
1 one does not fit or is invalid, 2 an input error (one ``error:`` line each on stderr; the other
configs are still reported).
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import sys
from typing import List


def _load_kernel(spec: str):
    from ._errors import InputError
    if ":" not in spec:
        raise InputError(f"{spec}: expected FILE.py:KERNEL (the file and the @triton.jit function's name)", "kernel")
    path, name = spec.rsplit(":", 1)
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file", "kernel")
    mod_name = "_tilefit_user_" + os.path.splitext(os.path.basename(path))[0]
    sp = importlib.util.spec_from_file_location(mod_name, path)
    mod = importlib.util.module_from_spec(sp)
    sys.modules[mod_name] = mod
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        sp.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001 - the user's file fails to import
        raise InputError(f"{path}: cannot be imported: {type(e).__name__}: {e}", "kernel") from None
    k = getattr(mod, name, None)
    if k is None:
        raise InputError(f"{path}: no {name!r} in it", "kernel")
    return k


def _signature(text: str) -> dict:
    from ._errors import InputError
    out = {}
    for part in [p for p in text.split(",") if p.strip()]:
        if "=" not in part:
            raise InputError(f"--signature: {part!r}: expected NAME=TYPE (e.g. a_ptr=*fp16, M=i32)", "signature")
        k, v = part.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _configs(path: str, table: bool) -> List[dict]:
    from ._errors import InputError
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot be read: {e.strerror}", "configs") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON: {e.msg} at line {e.lineno}, column {e.colno}", "configs") from None
    if table:
        if not isinstance(data, dict):
            raise InputError(f"{path}: a tuned table is an object of batch size to config; got "
                             f"{type(data).__name__}", "configs")
        out = []
        for m, cfg in data.items():
            if not isinstance(cfg, dict):
                raise InputError(f"{path}: entry {m!r}: expected an object of config fields", "configs")
            out.append(dict(cfg, name=f"M={m}"))
        return out
    if not isinstance(data, list) or not all(isinstance(c, dict) for c in data):
        raise InputError(f"{path}: expected a list of objects (constexprs plus num_warps, num_stages)", "configs")
    return [dict(c, name=c.get("name", f"config #{i}")) for i, c in enumerate(data)]


def _row(r) -> dict:
    return {"name": r.name, "arch": r.arch, "smem_bytes": r.smem_bytes, "limit_bytes": r.limit_bytes,
            "status": r.status, "source": r.source, "tmem_columns": r.tmem_columns, "triton_version": r.triton_version,
            "seconds": round(r.seconds or 0.0, 4), "cached": bool(r.cached), "message": r.message}


def check(argv: List[str]) -> int:
    from . import oracle
    from ._errors import InputError
    ap = argparse.ArgumentParser(prog="python -m tilefit.triton check",
                                 description="Shared memory of a Triton kernel's configs from the installed Triton's "
                                 "allocation passes (no GPU).")
    ap.add_argument("kernel", help="FILE.py:KERNEL")
    ap.add_argument("--signature", default="", help="NAME=TYPE,... for every non-constexpr argument (*fp16, i32, ...)")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--configs", help="a JSON list of configs")
    src.add_argument("--table", help="a tuned table (vLLM / SGLang: {\"M\": config})")
    ap.add_argument("--arch", required=True, help="ARCH[,ARCH...]: sm_80, sm_90, sm_120, gfx942, a product, ...")
    ap.add_argument("--format", choices=("table", "json", "csv"), default="table")
    ap.add_argument("--constexprs", default="", help="NAME=VALUE,... constexprs every config shares")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--no-cache", action="store_true", help="do not read or write the persistent cache")
    a = ap.parse_args(argv)
    errors: List[str] = []
    results = []
    try:
        kernel = _load_kernel(a.kernel)
        sig = _signature(a.signature)
        cfgs = _configs(a.configs or a.table, a.table is not None)
        from ._verify import _constexprs
        consts = _constexprs(a.constexprs)
        archs = [x for x in a.arch.split(",")]
        if any(not x.strip() for x in archs):
            raise InputError(f"--arch {a.arch!r}: an empty entry", "arch")
        for x in archs:
            oracle.resolve_arch(x)
        oracle.triton_version()
        cache = None if a.no_cache else oracle.Cache()
        for x in archs:
            rs = oracle.compile_many(kernel, cfgs, signature=sig, arch=x, cache=cache, processes=a.processes,
                                     constexprs=consts,
                                     strict=False, names=[c["name"] for c in cfgs])
            results += rs
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for r in results:
        if r.status == "error":
            errors.append(f"{a.configs or a.table}: {r.name}: {r.message}")
    rows = [_row(r) for r in results if r.status != "error"]
    summary = {"configs": len(results), "fits": sum(r["status"] == "fits" for r in rows),
               "does_not_fit": sum(r["status"] == "does_not_fit" for r in rows),
               "invalid": sum(r["status"] == "invalid" for r in rows), "errors": len(errors)}
    if a.format == "json":
        print(json.dumps({"results": rows, "summary": summary, "errors": errors}, indent=2))
    elif a.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        cols = ["name", "arch", "smem_bytes", "limit_bytes", "status", "source", "tmem_columns", "triton_version"]
        w.writerow(cols)
        for r in rows:
            w.writerow(["" if r[c] is None else r[c] for c in cols])
        sys.stdout.write(buf.getvalue())
    else:
        head = ("config", "arch", "smem B", "limit B", "status", "source")
        body = [(r["name"], r["arch"], "-" if r["smem_bytes"] is None else str(r["smem_bytes"]), str(r["limit_bytes"]),
                 r["status"] + (f" ({r['message']})" if r["status"] == "invalid" else ""), r["source"]) for r in rows]
        widths = [max(len(x) for x in col) for col in zip(head, *body)] if body else [len(h) for h in head]
        for line in [head] + body:
            print("  ".join(c.ljust(w_) for c, w_ in zip(line, widths)).rstrip())
        v = results[0].triton_version if results else ""
        print(f"{summary['fits']} of {summary['configs']} fit (Triton {v}'s allocation passes)")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    if errors:
        return 2
    return 0 if summary["fits"] == len(rows) else 1


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "check":
        return check(argv[1:])
    if argv[0] == "verify":
        from ._verify import main as verify_main
        return verify_main(argv[1:])
    print(f"error: unknown command {argv[0]!r}; allowed: check, verify", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
