#!/usr/bin/env python3
"""Copy the engines' Triton attention ops (kernels AND launchers) into tools/attention/kernels/
(git-ignored: engine code is never committed), next to our shims of the engine modules they
import, so that the launchers run unchanged against a faked TARGET (see README.md).

usage:
  extract.py [--vllm-git-dir DIR@COMMIT | --vllm PATH] [--sglang-git-dir DIR@COMMIT | --sglang PATH] [--out DIR]

Defaults: /work/.mirror/jsboige+vllm/repo@6adad08767583f52eb4d2122111af0bf638ed5e6 and
/work/.mirror/modal-projects+sglang/repo@d6ef68881e263812d4901f632786015005c4d050. PATH is a
checkout (the folder holding vllm/ resp. python/sglang/).

Each source file is copied verbatim to the same module path (vllm/v1/attention/ops/...,
sglang/kernels/ops/attention/...), so the engine's own `from vllm.platforms import
current_platform` etc. resolve to tools/attention/shims/ (copied alongside). Every import of a
copied file is checked: it must be a copied file, a shim, or torch / triton / packaging / the
standard library; anything else is an error (nothing silently missing). kernels/SOURCES.json
records commit, path, sha256 and the line range of every @triton.jit kernel and launcher.
"""
import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VLLM_DEFAULT = "/work/.mirror/jsboige+vllm/repo@6adad08767583f52eb4d2122111af0bf638ed5e6"
SGLANG_DEFAULT = "/work/.mirror/modal-projects+sglang/repo@d6ef68881e263812d4901f632786015005c4d050"

# (engine, path in the engine repository, module path written, the kernels and launchers used)
SOURCES = [
    ("vllm", "vllm/v1/attention/ops/triton_decode_attention.py",
     ["_fwd_kernel_stage1", "_fwd_grouped_kernel_stage1", "_fwd_kernel_stage2", "_decode_att_m_fwd",
      "_decode_grouped_att_m_fwd", "_decode_softmax_reducev_fwd", "decode_attention_fwd_normal",
      "decode_attention_fwd_grouped", "decode_attention_fwd"]),
    ("vllm", "vllm/v1/attention/ops/triton_attention_helpers.py", []),
    ("vllm", "vllm/v1/attention/ops/triton_unified_attention.py",
     ["kernel_unified_attention", "reduce_segments", "_get_tile_size", "unified_attention"]),
    ("vllm", "vllm/v1/attention/ops/triton_prefill_attention.py",
     ["_fwd_kernel", "get_block_size", "context_attention_fwd"]),
    ("vllm", "vllm/v1/attention/ops/prefix_prefill.py",
     ["_fwd_kernel", "_fwd_kernel_alibi", "context_attention_fwd"]),
    ("sglang", "python/sglang/kernels/ops/attention/score_mod.py", []),
    ("sglang", "python/sglang/kernels/ops/attention/decode_attention.py",
     ["_fwd_kernel_stage1", "_fwd_grouped_kernel_stage1", "_fwd_kernel_stage2", "_decode_att_m_fwd",
      "_decode_grouped_att_m_fwd", "_decode_softmax_reducev_fwd", "decode_attention_fwd"]),
    ("sglang", "python/sglang/kernels/ops/attention/prefill_attention.py",
     ["_fwd_kernel", "context_attention_fwd"]),
    ("sglang", "python/sglang/kernels/ops/attention/extend_attention.py",
     ["_fwd_kernel", "_fwd_kernel_unified", "_get_block_sizes_for_extend_attention",
      "extend_attention_fwd", "extend_attention_fwd_unified"]),
]
ALLOWED_TOP = {"torch", "triton", "packaging", "logging", "typing", "math", "enum", "functools",
               "__future__", "dataclasses", "os"}


def read_source(spec, relpath):
    if "@" in spec and not os.path.exists(spec):
        gitdir, commit = spec.rsplit("@", 1)
        text = subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{relpath}"],
                              check=True, capture_output=True, text=True).stdout
        full = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", commit], check=True,
                              capture_output=True, text=True).stdout.strip()
        return text, full
    with open(os.path.join(spec, relpath)) as f:
        return f.read(), None


def is_jit(node):
    for d in node.decorator_list:
        t = d.func if isinstance(d, ast.Call) else d
        if isinstance(t, ast.Attribute) and t.attr == "jit":
            return True
    return False


def module_of(relpath):
    p = relpath[len("python/"):] if relpath.startswith("python/") else relpath
    return p[:-3].replace("/", ".")


def shim_modules():
    mods = set()
    root = os.path.join(HERE, "shims")
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].replace(os.sep, ".")
                mods.add(rel[:-len(".__init__")] if rel.endswith(".__init__") else rel)
    return mods


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vllm", default=None)
    ap.add_argument("--vllm-git-dir", default=VLLM_DEFAULT)
    ap.add_argument("--sglang", default=None)
    ap.add_argument("--sglang-git-dir", default=SGLANG_DEFAULT)
    ap.add_argument("--out", default=os.path.join(HERE, "kernels"))
    a = ap.parse_args()
    specs = {"vllm": a.vllm or a.vllm_git_dir, "sglang": a.sglang or a.sglang_git_dir}
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    shutil.copytree(os.path.join(HERE, "shims"), a.out)
    with open(os.path.join(a.out, ".gitignore"), "w") as f:
        f.write("*\n")
    copied = {module_of(p) for _, p, _ in SOURCES}
    known = copied | shim_modules()
    record = []
    for engine, relpath, wanted in SOURCES:
        text, commit = read_source(specs[engine], relpath)
        tree = ast.parse(text)
        for n in ast.walk(tree):
            mods = []
            if isinstance(n, ast.Import):
                mods = [x.name for x in n.names]
            elif isinstance(n, ast.ImportFrom) and n.level == 0:
                mods = [n.module]
            for m in mods:
                if m.split(".")[0] in ALLOWED_TOP or m in known:
                    continue
                # an import inside a function the measured launches never reach (checked at run time)
                if n.col_offset > 0:
                    continue
                raise SystemExit(f"{relpath}:{n.lineno}: imports '{m}', which is neither copied nor shimmed")
        defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        funcs = []
        for name in wanted:
            if name not in defs:
                raise SystemExit(f"{relpath}: no module-level function '{name}'")
        for n in tree.body:
            if isinstance(n, ast.FunctionDef):
                first = min([d.lineno for d in n.decorator_list] + [n.lineno])
                funcs.append({"function": n.name, "jit": is_jit(n), "lines": [first, n.end_lineno],
                              "used": n.name in wanted})
        dst = os.path.join(a.out, *module_of(relpath).split(".")) + ".py"
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write(text)
        record.append({"engine": engine, "commit": commit, "path": relpath, "module": module_of(relpath),
                       "sha256": hashlib.sha256(text.encode()).hexdigest(), "functions": funcs})
        print(f"{module_of(relpath)}: {engine} {str(commit)[:8]} {relpath} "
              f"({sum(f['jit'] for f in funcs)} jit, {len(wanted)} used)")
    with open(os.path.join(a.out, "SOURCES.json"), "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
