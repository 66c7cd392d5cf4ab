# Copies the @triton.jit functions of the engine files named below (and the module-level jit
# helpers they call) into tools/attention/kernels/*.py (git-ignored: never committed), with
# `import triton` / `import triton.language as tl`. For the model's own targeted compiles.
import ast, sys, os
SRC = {
    "v_decode": "/work/engines/vllm6/vllm/v1/attention/ops/triton_decode_attention.py",
    "v_prefill": "/work/engines/vllm6/vllm/v1/attention/ops/triton_prefill_attention.py",
    "v_unified": "/work/engines/vllm6/vllm/v1/attention/ops/triton_unified_attention.py",
    "s_extend": "/work/engines/sglang/python/sglang/kernels/ops/attention/extend_attention.py",
}
out = os.path.join(os.path.dirname(__file__), "kernels")
os.makedirs(out, exist_ok=True)
for name, path in SRC.items():
    text = open(path).read()
    tree = ast.parse(text)
    lines = text.splitlines()
    parts = ["import triton", "import triton.language as tl", "RCP_LN2 = 1.4426950408889634", ""]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list):
            start = min(d.lineno for d in node.decorator_list) - 1
            parts.append("\n".join(lines[start:node.end_lineno]))
            parts.append("")
    open(os.path.join(out, name + ".py"), "w").write("\n".join(parts))
    print(name, sum(1 for n in tree.body if isinstance(n, ast.FunctionDef)))
