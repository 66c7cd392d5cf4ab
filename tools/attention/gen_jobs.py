#!/usr/bin/env python3
"""Jobs for measure_attention.py: model presets x tp x op x dtypes x page sizes x targets x the
launcher's default and knob variants (README.md "Jobs").

usage: gen_jobs.py dev|full OUT.json [--budget N] [--seed S] [--dumps N]

A job is one operation (every kernel launch of it is measured): {"id", "engine", "cc",
"config": {tilefit config fields}, "overrides": {knob: value | "half" | "double"}, "context":
{"model", "tp", "layer"}, "dump"}. "half"/"double" resolve against the launcher's own value at
measure time (measure_attention.py), and the row's config gets the concrete value.
"""
import argparse
import hashlib
import json
import random

ARCHS = [75, 80, 86, 89, 90, 100, 120, 121]
# multiprocessor count per target as the config's sm_count (T4, A100, A40, L40S, H100 SXM, B200,
# RTX PRO 6000, DGX Spark GB10); only vLLM's num_kv_splits and SGLang's MLA max_kv_splits read it
SM_COUNT = {75: 40, 80: 108, 86: 84, 89: 142, 90: 132, 100: 148, 120: 188, 121: 48}

# per-model attention facts (presets.md: Hugging Face config.json of each model); layers:
# (name, q_heads, kv_heads, head_dim, head_dim_v, sliding_window, sinks); MLA: kv_lora_rank, rope_dim
MODELS = {
    "deepseek-v3": {"mla": (128, 512, 64, 192, 128), "tp": [1, 8, 16]},
    "kimi-k2": {"mla": (64, 512, 64, 192, 128), "tp": [1, 8, 16]},
    "llama-3.1-8b": {"layers": [("full", 32, 8, 128, 128, 0, False)], "tp": [1, 2, 4, 8]},
    "llama-3.1-70b": {"layers": [("full", 64, 8, 128, 128, 0, False)], "tp": [2, 4, 8]},
    "qwen3-0.6b": {"layers": [("full", 16, 8, 128, 128, 0, False)], "tp": [1, 2]},
    "qwen3-8b": {"layers": [("full", 32, 8, 128, 128, 0, False)], "tp": [1, 2, 4]},
    "qwen3-32b": {"layers": [("full", 64, 8, 128, 128, 0, False)], "tp": [1, 2, 4, 8]},
    "qwen3-30b-a3b": {"layers": [("full", 32, 4, 128, 128, 0, False)], "tp": [1, 2, 4]},
    "qwen3-235b-a22b": {"layers": [("full", 64, 4, 128, 128, 0, False)], "tp": [4, 8]},
    "gemma-3-1b": {"layers": [("sliding", 4, 1, 256, 256, 512, False), ("global", 4, 1, 256, 256, 0, False)], "tp": [1]},
    "gemma-3-4b": {"layers": [("sliding", 8, 4, 256, 256, 1024, False), ("global", 8, 4, 256, 256, 0, False)], "tp": [1, 2]},
    "gemma-3-12b": {"layers": [("sliding", 16, 8, 256, 256, 1024, False), ("global", 16, 8, 256, 256, 0, False)], "tp": [1, 2, 4]},
    "gemma-3-27b": {"layers": [("sliding", 32, 16, 128, 128, 1024, False), ("global", 32, 16, 128, 128, 0, False)], "tp": [1, 2, 4]},
    "gemma-4-31b": {"layers": [("sliding", 32, 16, 256, 256, 1024, False), ("global", 32, 4, 512, 512, 0, False)], "tp": [1, 2, 4]},
    "gpt-oss-120b": {"layers": [("sliding", 64, 8, 64, 64, 128, True), ("full", 64, 8, 64, 64, 0, True)], "tp": [1, 2, 4, 8]},
    "gpt-oss-20b": {"layers": [("sliding", 64, 8, 64, 64, 128, True), ("full", 64, 8, 64, 64, 0, True)], "tp": [1, 2]},
    "mistral-7b-v0.1": {"layers": [("full", 32, 8, 128, 128, 4096, False)], "tp": [1, 2]},
    "mistral-small-24b": {"layers": [("full", 32, 8, 128, 128, 0, False)], "tp": [1, 2]},
    "mistral-large-2": {"layers": [("full", 96, 8, 128, 128, 0, False)], "tp": [4, 8]},
}

# the ops each launcher has, with the page sizes it accepts and the knobs that exist there
OPS = {
    "vllm": {
        # triton_attn.py:334 (block_size % 16); triton_mla.py:119-123 (block_size % 16)
        "unified_2d": {"pages": [16, 32, 64], "knobs": ["tile_size", "block_m", "num_warps", "num_stages"]},
        "unified_3d": {"pages": [16, 32, 64], "knobs": ["tile_size", "block_m", "num_warps", "num_stages"]},
        "mla_decode": {"pages": [16, 32, 64], "knobs": ["block_n", "block_h", "num_kv_splits", "num_warps", "num_stages"]},
        "decode": {"pages": [1, 16, 64], "knobs": ["block_n", "block_h", "num_warps", "num_stages"]},
        "prefill": {"pages": [1], "knobs": ["block_m", "block_n", "num_warps", "num_stages"]},
        "prefix_prefill": {"pages": [16, 32], "knobs": ["block_m", "block_n", "num_warps", "num_stages"]},
    },
    "sglang": {
        "decode": {"pages": [1, 16, 64], "knobs": ["block_n", "block_h", "max_kv_splits", "num_warps", "num_stages"]},
        "mla_decode": {"pages": [1, 16, 64], "knobs": ["block_n", "block_h", "max_kv_splits", "num_warps", "num_stages"]},
        "extend": {"pages": [1, 16, 64], "knobs": ["block_m", "block_n", "num_warps", "num_stages"]},
        "extend_unified": {"pages": [1, 16, 64], "knobs": ["block_m", "block_n", "num_warps", "num_stages"]},
        "prefill": {"pages": [1], "knobs": ["block_m", "block_n", "num_warps", "num_stages"]},
    },
}
ENGINE = {"vllm": "vllm@6adad087", "sglang": "sglang@d6ef6888"}


def variants(knobs):
    out = [{}]
    for k in knobs:
        if k == "num_stages":
            out += [{"num_stages": s} for s in (1, 2, 3, 4)]
        elif k == "num_warps":
            out += [{"num_warps": "half"}, {"num_warps": "double"}]
        elif k in ("num_kv_splits", "max_kv_splits"):
            out += [{k: "half"}, {k: "double"}]
        else:
            out += [{k: "half"}]
    return out


def shapes(model, spec, tp):
    """(layer, shape fields per rank, ops) for one model at one tp."""
    res = []
    if "mla" in spec:
        H, lora, rope, dqk, dv = spec["mla"]
        h = max(1, H // tp)
        mla = {"q_heads": h, "kv_heads": 1, "kv_lora_rank": lora, "rope_dim": rope}
        res.append(("mla", mla, {"vllm": ["mla_decode"], "sglang": ["mla_decode", "extend"]}))
        # the prefill / extend of the un-absorbed form: q_heads = kv_heads, head_dim 192 / v 128
        mha = {"q_heads": h, "kv_heads": h, "head_dim": dqk, "head_dim_v": dv}
        res.append(("mla_prefill", mha, {"sglang": ["extend", "extend_unified"]}))
        return res
    for name, H, KV, D, DV, sw, sinks in spec["layers"]:
        h, kv = max(1, H // tp), max(1, KV // tp)
        s = {"q_heads": h, "kv_heads": kv, "head_dim": D}
        if DV != D:
            s["head_dim_v"] = DV
        if sw:
            s["sliding_window"] = sw
        if sinks:
            s["sinks"] = True
        ops = {"vllm": ["unified_2d", "unified_3d", "prefill", "prefix_prefill", "decode"],
               "sglang": ["decode", "extend", "extend_unified", "prefill"]}
        res.append((name, s, ops))
    return res


def runtime(engine, op):
    """The runtime inputs of a representative launch of the op."""
    if op in ("decode", "mla_decode"):
        r = {"phase": "decode", "num_seqs": 8, "max_seqlen_q": 1, "max_seq_len": 4096}
        if engine == "sglang":
            r["context_len"] = 131072
        return r
    if op == "unified_3d":
        return {"phase": "decode", "num_seqs": 4, "max_seqlen_q": 1, "max_seq_len": 4096}
    if op == "unified_2d":
        return {"phase": "prefill", "num_seqs": 4, "max_seqlen_q": 512, "max_seq_len": 4096}
    if op in ("extend", "extend_unified"):
        r = {"phase": "extend", "num_seqs": 4, "max_seqlen_q": 512, "max_seq_len": 4096}
        if op == "extend_unified":
            r["deterministic"] = True
        return r
    return {"phase": "prefill", "num_seqs": 4, "max_seqlen_q": 1024, "max_seq_len": 4096}


def candidates():
    out = []
    for model, spec in MODELS.items():
        for tp in spec["tp"]:
            for layer, shp, ops in shapes(model, spec, tp):
                for engine, opl in ops.items():
                    for op in opl:
                        o = OPS[engine][op]
                        kvs = ["bf16", "fp8_e4m3", "f16"] if op not in ("prefill",) else ["bf16", "f16"]
                        for kvd in kvs:
                            act = "f16" if kvd == "f16" else "bf16"
                            for ps in o["pages"]:
                                for cc in ARCHS:
                                    for var in variants(o["knobs"]):
                                        cfg = {"kernel": "triton_attention", "launcher": engine, "op": op,
                                               "stage": "all", "arch": f"sm_{cc}"}
                                        cfg.update(shp)
                                        cfg.update({"act_dtype": act, "kv_dtype": kvd, "q_dtype": act,
                                                    "page_size": ps, "sm_count": SM_COUNT[cc]})
                                        cfg.update(runtime(engine, op))
                                        out.append({"engine": engine, "cc": cc, "config": cfg, "overrides": var,
                                                    "context": {"model": model, "tp": tp, "layer": layer}})
    return out


def synthetic():
    """Dev shapes: head dims 64 .. 512 and MLA 576/512 that no preset has at that combination."""
    out = []
    for D in (64, 128, 256, 512):
        for engine, ops in (("vllm", ["unified_2d", "unified_3d", "decode", "prefill", "prefix_prefill"]),
                            ("sglang", ["decode", "extend", "extend_unified", "prefill"])):
            for op in ops:
                for kvd in ("bf16", "fp8_e4m3", "f16"):
                    if op == "prefill" and kvd == "fp8_e4m3":
                        continue
                    act = "f16" if kvd == "f16" else "bf16"
                    for cc in ARCHS:
                        for var in variants(OPS[engine][op]["knobs"]):
                            for gq in ((8, 8), (16, 2)) if op == "decode" else ((16, 2),):
                              for alibi in ((False, True) if op == "prefix_prefill" and D <= 128 else (False,)):
                                cfg = {"kernel": "triton_attention", "launcher": engine, "op": op, "stage": "all",
                                       "arch": f"sm_{cc}", "q_heads": gq[0], "kv_heads": gq[1], "head_dim": D,
                                       "act_dtype": act, "kv_dtype": kvd, "q_dtype": act,
                                       "page_size": OPS[engine][op]["pages"][-1 if op != "decode" else 1],
                                       "sm_count": SM_COUNT[cc]}
                                cfg.update(runtime(engine, op))
                                if alibi:
                                    cfg["alibi"] = True
                                out.append({"engine": engine, "cc": cc, "config": cfg, "overrides": var,
                                            "context": {"model": None, "tp": None, "layer": f"synthetic-d{D}"}})
    return out


def required(cands):
    """The issue's reference cases (tests/data/attention-triton-3.6.md), always measured: Kimi-K2 /
    DeepSeek MLA decode (vLLM #46721, sm_120 fp8 KV and bf16; V100-class sm_75), SGLang
    context_attention_fwd on sm_120 (PR #27962), SGLang extend of Kimi-K2 on sm_120 / sm_86
    (PR #17908 / #4797), Gemma-4 head_dim 512 in vLLM on sm_75 (vllm#57712), every default."""
    out = []
    for j in cands:
        c, ctx = j["config"], j["context"]
        if j["overrides"]:
            continue
        m, cc, op, e = ctx["model"], j["cc"], c["op"], j["engine"]
        if m in ("kimi-k2", "deepseek-v3") and op == "mla_decode" and cc in (75, 86, 90, 120) \
                and c["page_size"] == (16 if e == "vllm" else 1) and ctx["tp"] in (1, 8) and c["kv_dtype"] != "f16":
            out.append(j)
        elif m == "llama-3.1-8b" and e == "sglang" and op == "prefill" and cc in (86, 90, 120) and ctx["tp"] == 1:
            out.append(j)
        elif m == "kimi-k2" and e == "sglang" and op in ("extend", "extend_unified") and cc in (86, 120) \
                and c["page_size"] == 1 and c["kv_dtype"] == "bf16":
            out.append(j)
        elif m == "gemma-4-31b" and ctx["layer"] == "global" and e == "vllm" and cc in (75, 86, 120) \
                and c["page_size"] in (1, 16) and c["kv_dtype"] in ("f16", "bf16"):
            out.append(j)
    return out


def key(j):
    return json.dumps([j["engine"], j["cc"], j["config"], j["overrides"]], sort_keys=True)


def stratum(j):
    c = j["config"]
    ccls = {75: "mma_v2_75", 80: "mma_v2", 86: "mma_v2", 89: "mma_v2", 90: "wgmma", 100: "tcgen05",
            120: "sm12x", 121: "sm12x"}[j["cc"]]
    Lk = (c.get("kv_lora_rank", 0) + c.get("rope_dim", 0)) or c["head_dim"]
    var = ",".join(sorted(j["overrides"])) or "default"
    return (j["engine"], c["op"], ccls, c["kv_dtype"], Lk, var)


def sample(cands, n, rng):
    buckets = {}
    for j in cands:
        buckets.setdefault(stratum(j), []).append(j)
    for b in buckets.values():
        rng.shuffle(b)
    order = sorted(buckets)
    rng.shuffle(order)
    out, i = [], 0
    while len(out) < n and any(buckets[k] for k in order):
        for k in order:
            if buckets[k] and len(out) < n:
                out.append(buckets[k].pop())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["dev", "full"])
    ap.add_argument("out")
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--dumps", type=int, default=None)
    ap.add_argument("--exclude", default=None, help="a jobs file whose jobs are left out")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.mode == "dev":
        cands = synthetic() + candidates()
        req = required(candidates())
        rk = {key(r) for r in req}
        jobs = req + sample([j for j in cands if key(j) not in rk], a.budget or 160, rng)
        ndump = len(jobs) if a.dumps is None else a.dumps
    else:
        cands = candidates()
        req = required(cands)
        rk = {key(r) for r in req}
        jobs = req + sample([j for j in cands if key(j) not in rk], a.budget or 2400, rng)
        ndump = a.dumps or 0
    if a.exclude:
        seen = {key(j) for j in json.load(open(a.exclude))["jobs"]}
        jobs = [j for j in jobs if key(j) not in seen]
    for i, j in enumerate(jobs):
        j["id"] = f"{a.mode}{i:05d}"
        j["dump"] = i < ndump
        # hold-out: about 15 % of the full rows, by a hash of the job (not of its position)
        h = int(hashlib.sha256(key(j).encode()).hexdigest()[:8], 16)
        j["holdout"] = a.mode == "full" and h % 100 < 15
    json.dump({"procs": 15, "jobs": jobs}, open(a.out, "w"))
    from collections import Counter
    print(f"{len(cands)} candidates -> {len(jobs)} jobs; {sum(j['dump'] for j in jobs)} dumped")
    print(Counter((j["engine"], j["config"]["op"]) for j in jobs))


if __name__ == "__main__":
    main()
