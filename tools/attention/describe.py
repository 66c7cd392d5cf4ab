#!/usr/bin/env python3
"""The counts and reference cases of tests/data/attention-triton-3.6.md.

usage: describe.py ROWS.jsonl OUT.md [--device-seconds N]"""
import collections
import json
import sys


def table(title, counter, cols):
    out = [f"### {title}", "", "| " + " | ".join(cols) + " | ok | invalid |", "|" + " --- |" * (len(cols) + 2)]
    keys = sorted({k[:-1] for k in counter})
    for k in keys:
        out.append("| " + " | ".join(str(x) for x in k) + f" | {counter.get(k + ('ok',), 0)} | {counter.get(k + ('invalid',), 0)} |")
    return out + [""]


def ref(rows, title, pred):
    out = [f"**{title}**", "", "| row | engine | kernel | arch | dtypes | launch | shared | status |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    n = 0
    for r in rows:
        if not pred(r):
            continue
        c, l = r["config"], r.get("launch") or {}
        ce = l.get("constexprs", {})
        knobs = ", ".join(f"{k}={ce[k]}" for k in ("BLOCK_M", "BLOCK_N", "BLOCK_H", "TILE_SIZE", "BLOCK_DMODEL",
                                                   "BLOCK_DPE", "BLOCK_DV", "PAGE_SIZE") if k in ce)
        knobs += f", warps {l.get('num_warps')}, stages {l.get('num_stages')}"
        ov = {k: c[k] for k in ("block_m", "block_n", "block_h", "tile_size", "num_warps", "num_stages",
                                "num_kv_splits", "max_kv_splits") if k in c}
        out.append(f"| {r['id']} | {r['engine']} | {l.get('kernel', '-')} | {c['arch']} | q {c.get('act_dtype')} kv "
                   f"{c.get('kv_dtype')} page {c.get('page_size')} | {knobs}{' override ' + json.dumps(ov) if ov else ''}"
                   f" | {r.get('shared', '-')} | {r['status']}{' ' + r['error'][:80] if r.get('error') else ''} |")
        n += 1
        if n >= 14:
            break
    return out + [""]


def main():
    rows = [json.loads(l) for l in open(sys.argv[1])]
    md = ["# Triton 3.6 attention launches of vLLM 6adad087 and SGLang d6ef6888 (measured)", "",
          "Produced by `tools/attention/` (README there: method, launch rules with file:line, row format). "
          "Every row is one kernel launch the engine's launcher made for the config, compiled with "
          "Triton 3.6.0 for the target on the project's H200 machine (`warmup`, nothing launched; the "
          "rows `v…` of run V on a machine without a GPU, `measure_cpu.py`, one process per job); "
          "`shared` is `CompiledKernel.metadata.shared`, `invalid` a compile error (or the launcher's refusal). "
          "Rows with `remeasured` were re-measured in run V (README there).", ""]
    st = collections.Counter(r["status"] for r in rows)
    ho = sum(r.get("holdout", False) for r in rows)
    md += [f"{len(rows)} rows: {st.get('ok', 0)} ok, {st.get('invalid', 0)} invalid; {ho} hold-out rows "
           f"(`\"holdout\": true`, about 15 % of the full set's jobs, every launch of a held-out job).", ""]
    kc = collections.Counter((r["engine"], (r.get("launch") or {}).get("kernel", "(launcher)"),
                              r["config"]["stage"], r["status"]) for r in rows)
    md += table("By kernel", kc, ["engine", "kernel", "stage"])
    ac = collections.Counter((r["config"]["arch"], r["status"]) for r in rows)
    md += table("By arch", ac, ["arch"])
    oc = collections.Counter((r["engine"], r["config"]["op"], r["config"]["kv_dtype"], r["status"]) for r in rows)
    md += table("By op and KV dtype", oc, ["engine", "op", "kv"])
    ec = collections.Counter(r["error"][:110] for r in rows if r.get("error"))
    md += ["### Errors", "", "| count | error (first 110 characters) |", "| --- | --- |"]
    md += [f"| {n} | `{e.replace('|', '/')}` |" for e, n in ec.most_common(20)] + [""]
    md += ["## The issue's reference cases", ""]
    ctx = lambda r: r.get("context") or {}
    md += ref(rows, "Kimi-K2 / DeepSeek MLA decode (vLLM #46721: 102400 B on sm_120, fp8 KV)",
              lambda r: r["config"]["op"] == "mla_decode" and r["config"]["arch"] in ("sm_120",) and r["config"]["stage"] == "stage1"
              and ctx(r).get("model") in ("kimi-k2", "deepseek-v3"))
    md += ref(rows, "SGLang context_attention_fwd on sm_120 (PR #27962: 131072 B)",
              lambda r: r["engine"].startswith("sglang") and r["config"]["op"] == "prefill" and r["config"]["arch"] == "sm_120")
    md += ref(rows, "SGLang extend of Kimi-K2 on sm_120 / sm_86 (PR #17908 / #4797: 106496 B)",
              lambda r: r["engine"].startswith("sglang") and r["config"]["op"] in ("extend", "extend_unified")
              and r["config"]["arch"] in ("sm_120", "sm_86") and ctx(r).get("model") == "kimi-k2")
    md += ref(rows, "Gemma-4 head_dim 512 on sm_75 (vllm#57712: 98304 B > 65536)",
              lambda r: r["config"].get("head_dim") == 512 and r["config"]["arch"] == "sm_75" and r["engine"].startswith("vllm"))
    if len(sys.argv) > 4 and sys.argv[3] == "--device-seconds":
        md += [f"Device time: {sys.argv[4]} s.", ""]
    open(sys.argv[2], "w").write("\n".join(md))


if __name__ == "__main__":
    main()
