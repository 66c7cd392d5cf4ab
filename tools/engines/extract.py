#!/usr/bin/env python3
"""Copy the engines' Triton kernels into tools/engines/kernels/ (git-ignored: engine code is
never committed; see tools/engines/README.md).

usage:
  extract.py --vllm PATH|--vllm-git-dir DIR@COMMIT  --sglang PATH|--sglang-git-dir DIR@COMMIT [--out DIR]

PATH is a checkout (the folder holding vllm/ resp. python/sglang/); DIR@COMMIT a (bare) git
directory and the commit to read, e.g. /work/.mirror/jsboige+vllm/repo@6adad087...

For each source file the named @triton.jit functions are copied verbatim (decorators included),
together with every module-level @triton.jit helper they call (transitively), in source order.
The engines import Triton under their own names (vLLM: `from vllm.triton_utils import tl,
triton`); the copies get `import triton` / `import triton.language as tl` instead, and
`from triton.language.extra import libdevice` when a kernel uses it. A kernel that refers to a
module-level name that is neither a jit function nor tl/triton/libdevice is an error (the copy
would not import), so nothing is silently left out. kernels/SOURCES.json records the engine,
commit, source path, line range and sha256 of every function copied.
"""
import argparse
import ast
import builtins
import hashlib
import json
import os
import subprocess
import sys

# (engine, module name written, path in the engine repository, kernels to copy)
# vLLM 6adad08767583f52eb4d2122111af0bf638ed5e6, SGLang d6ef68881e263812d4901f632786015005c4d050.
SOURCES = [
    ("vllm", "vllm_fused_moe", "vllm/model_executor/layers/fused_moe/fused_moe.py",
     ["fused_moe_kernel", "fused_moe_kernel_gptq_awq", "write_zeros_to_output"]),
    ("vllm", "vllm_fp8_utils", "vllm/model_executor/layers/quantization/utils/fp8_utils.py",
     ["_w8a8_triton_block_scaled_mm"]),
    ("vllm", "vllm_int8_utils", "vllm/model_executor/layers/quantization/utils/int8_utils.py",
     ["_w8a8_block_int8_matmul"]),
    ("sglang", "sglang_fused_moe", "python/sglang/kernels/ops/moe/fused_moe_triton_kernels.py",
     ["fused_moe_kernel", "fused_moe_kernel_gptq_awq", "write_zeros_to_output"]),
    ("sglang", "sglang_fp8_kernel", "python/sglang/kernels/ops/quantization/fp8_kernel.py",
     ["_w8a8_block_fp8_matmul"]),
    ("sglang", "sglang_int8_kernel", "python/sglang/kernels/ops/quantization/int8_kernel.py",
     ["_w8a8_block_int8_matmul"]),
]

KNOWN_GLOBALS = {"tl", "triton", "libdevice"}


def is_jit(node):
    for d in node.decorator_list:
        t = d.func if isinstance(d, ast.Call) else d
        if isinstance(t, ast.Attribute) and t.attr == "jit":
            return True
        if isinstance(t, ast.Name) and t.id == "jit":
            return True
    return False


def free_names(fn):
    local = {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            local.add(n.id)
    return {n.id for n in ast.walk(fn)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and n.id not in local and not hasattr(builtins, n.id)}


def read_source(spec, relpath):
    """spec: a checkout folder, or DIR@COMMIT for a git directory."""
    if "@" in spec and not os.path.exists(spec):
        gitdir, commit = spec.rsplit("@", 1)
        text = subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{relpath}"],
                              check=True, capture_output=True, text=True).stdout
        full = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", commit], check=True,
                              capture_output=True, text=True).stdout.strip()
        return text, full
    with open(os.path.join(spec, relpath)) as f:
        text = f.read()
    commit = None
    try:  # the checkout's own commit (not that of a repository around it)
        top = subprocess.run(["git", "-C", spec, "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        if os.path.realpath(top) == os.path.realpath(spec):
            commit = subprocess.run(["git", "-C", spec, "rev-parse", "HEAD"], check=True,
                                    capture_output=True, text=True).stdout.strip()
    except Exception:
        pass
    return text, commit


def extract(text, wanted, relpath):
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    need, todo = set(), list(wanted)
    while todo:
        name = todo.pop()
        if name in need:
            continue
        if name not in defs or not is_jit(defs[name]):
            raise SystemExit(f"{relpath}: no module-level @triton.jit function '{name}'")
        need.add(name)
        for g in sorted(free_names(defs[name])):
            if g in defs and is_jit(defs[g]):
                todo.append(g)
            elif g not in KNOWN_GLOBALS:
                raise SystemExit(f"{relpath}: '{name}' uses module-level name '{g}', which this "
                                 f"extractor does not copy (only @triton.jit helpers, tl, triton, libdevice)")
    out, meta, uses_libdevice = [], [], False
    for n in tree.body:  # source order
        if isinstance(n, ast.FunctionDef) and n.name in need:
            first = min([d.lineno for d in n.decorator_list] + [n.lineno])
            body = "".join(lines[first - 1:n.end_lineno])
            uses_libdevice |= "libdevice" in free_names(n)
            out.append(f"# {relpath}:{first}-{n.end_lineno}\n" + body)
            meta.append({"function": n.name, "lines": [first, n.end_lineno],
                         "sha256": hashlib.sha256(body.encode()).hexdigest()})
    return out, meta, uses_libdevice


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vllm")
    ap.add_argument("--vllm-git-dir")
    ap.add_argument("--sglang")
    ap.add_argument("--sglang-git-dir")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))
    a = ap.parse_args()
    specs = {"vllm": a.vllm or a.vllm_git_dir, "sglang": a.sglang or a.sglang_git_dir}
    for k, v in specs.items():
        if not v:
            ap.error(f"give --{k} PATH or --{k}-git-dir DIR@COMMIT")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, ".gitignore"), "w") as f:
        f.write("*\n")
    record = []
    for engine, mod, relpath, kernels in SOURCES:
        text, commit = read_source(specs[engine], relpath)
        chunks, meta, uses_libdevice = extract(text, kernels, relpath)
        head = [f"# COPIED from {engine} {commit or '(commit unknown)'} {relpath} by tools/engines/extract.py.\n",
                "# Engine code: never commit this file (tools/engines/kernels/ is git-ignored).\n",
                "import triton\n", "import triton.language as tl\n"]
        if uses_libdevice:
            head.append("from triton.language.extra import libdevice\n")
        with open(os.path.join(a.out, mod + ".py"), "w") as f:
            f.write("".join(head) + "\n\n" + "\n\n".join(chunks))
        record.append({"engine": engine, "commit": commit, "path": relpath, "module": mod, "functions": meta})
        print(f"{mod}.py: {', '.join(m['function'] for m in meta)} from {engine} {str(commit)[:12]} {relpath}")
    with open(os.path.join(a.out, "SOURCES.json"), "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
