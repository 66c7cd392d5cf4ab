#!/usr/bin/env python3
"""Jobs for the launch classes independent launches showed wrong (README.md "Run V"), measured on
the CPU with measure_cpu.py:

  a  vLLM unified attention (unified_2d, unified_3d + reduce_segments) with an fp8 KV cache on
     sm_90 / sm_100 (sm_89 / sm_120 beside them) for models with a sliding window, a soft cap or
     sinks (Gemma-3, Gemma-4, gpt-oss), with and without a soft cap;
  b  vLLM unified attention and decode with f32 activations and cache on sm_75 (T4 runs Gemma in
     fp32), sm_80 / sm_86 beside it;
  c  SGLang mla_decode with an fp8 cache on sm_89 (sm_86 / sm_90 / sm_120 beside it);
  d  SGLang prefill, extend and extend_unified with num_stages overrides on every target.

usage: gen_classes.py OUT.json [--per-class N] [--seed S] [--prefix P] [--exclude JOBS ...]
       gen_classes.py --fp8-query OUT.json    class a with the query in fp8 (40 jobs, ids vq…)
       gen_classes.py --odd-heads OUT.json    SGLang prefill / extend with num_stages overrides
                                              and head dims 64 … 128 (72, 80, 96: vision
                                              encoders, Phi-3), 40 jobs, ids vp…
       gen_classes.py --vllm-prefill-72 OUT.json   vLLM's prefill with a head of 72, 6 jobs, vv…
       gen_classes.py --blind OUT.json        80 jobs of the classes not in jobs/classes_v*.json
                                              (ids vz…, all hold-out), measured after the rules

Jobs are gen_jobs.py's (model presets, runtime inputs, knobs), sampled round-robin over strata
(class x op x arch x knob) so a cut list still covers every class; ids P<class><n>; the hold-out
rule is gen_jobs.py's (a hash of the job, about 15 %).
"""
import argparse
import hashlib
import json
import random

import gen_jobs as G

SOFT_CAP = 50.0  # Gemma-2's attn_logit_softcapping (config.json), the soft cap of the class


def job(engine, cc, shp, op, act, kvd, ps, var, model, tp, layer):
    cfg = {"kernel": "triton_attention", "launcher": engine, "op": op, "stage": "all", "arch": f"sm_{cc}"}
    cfg.update(shp)
    cfg.update({"act_dtype": act, "kv_dtype": kvd, "q_dtype": act, "page_size": ps,
                "sm_count": G.SM_COUNT[cc]})
    cfg.update(G.runtime(engine, op))
    return {"engine": engine, "cc": cc, "config": cfg, "overrides": var,
            "context": {"model": model, "tp": tp, "layer": layer}}


def layers(models):
    for model in models:
        spec = G.MODELS[model]
        for tp in spec["tp"][:2]:
            for layer, shp, _ in G.shapes(model, spec, tp):
                yield model, tp, layer, shp


def class_a():
    out = []
    models = ["gemma-3-1b", "gemma-3-4b", "gemma-3-12b", "gemma-3-27b", "gemma-4-31b", "gpt-oss-120b",
              "gpt-oss-20b"]
    for model, tp, layer, shp in layers(models):
        caps = [0.0, SOFT_CAP] if model.startswith("gemma") else [0.0]
        for cap in caps:
            s = dict(shp)
            if cap:
                s["logit_cap"] = cap
            if not (s.get("sliding_window") or s.get("sinks") or s.get("logit_cap")):
                continue
            for op in ("unified_2d", "unified_3d"):
                if op == "unified_3d" and 4 > 128 // s["kv_heads"]:
                    continue
                for act in ("bf16", "f16"):
                    for ps in (16, 32, 64):
                        for cc in (90, 100, 89, 120):
                            for var in G.variants(G.OPS["vllm"][op]["knobs"]):
                                out.append(("a", cc in (90, 100), job("vllm", cc, s, op, act, "fp8_e4m3", ps, var,
                                                                      model, tp, layer)))
    return out


def class_b():
    out = []
    models = ["gemma-3-1b", "gemma-3-4b", "gemma-3-12b", "gemma-3-27b", "gemma-4-31b", "llama-3.1-8b",
              "qwen3-8b", "gpt-oss-20b", "mistral-7b-v0.1"]
    for model, tp, layer, shp in layers(models):
        for op in ("unified_2d", "unified_3d", "decode"):
            if op == "unified_3d" and 4 > 128 // shp["kv_heads"]:
                continue
            for kvd in ("f32", "fp8_e4m3"):
                for ps in G.OPS["vllm"][op]["pages"]:
                    for cc in (75, 80, 86):
                        for var in G.variants(G.OPS["vllm"][op]["knobs"]):
                            out.append(("b", cc == 75 and kvd == "f32",
                                        job("vllm", cc, shp, op, "f32", kvd, ps, var, model, tp, layer)))
    return out


def class_c():
    out = []
    for model, tp, layer, shp in layers(["deepseek-v3", "kimi-k2"]):
        if layer != "mla":
            continue
        for act in ("bf16", "f16"):
            for ps in G.OPS["sglang"]["mla_decode"]["pages"]:
                for cc in (89, 86, 90, 120):
                    for var in G.variants(G.OPS["sglang"]["mla_decode"]["knobs"]):
                        out.append(("c", cc == 89, job("sglang", cc, shp, "mla_decode", act, "fp8_e4m3", ps, var,
                                                       model, tp, layer)))
    return out


def class_d():
    out = []
    models = ["llama-3.1-8b", "qwen3-8b", "qwen3-30b-a3b", "gemma-3-4b", "gemma-3-27b", "gemma-4-31b",
              "gpt-oss-20b", "mistral-7b-v0.1", "deepseek-v3", "kimi-k2"]
    for model, tp, layer, shp in layers(models):
        ops = ["prefill", "extend", "extend_unified"] if layer != "mla" else ["extend"]
        for op in ops:
            if layer == "mla_prefill" and op == "prefill":
                continue
            kvs = ["bf16", "f16"] if op == "prefill" else ["bf16", "f16", "fp8_e4m3"]
            for kvd in kvs:
                act = "f16" if kvd == "f16" else "bf16"
                for ps in G.OPS["sglang"][op]["pages"]:
                    for cc in G.ARCHS:
                        for st in (1, 2, 3, 4):
                            out.append(("d", True, job("sglang", cc, shp, op, act, kvd, ps, {"num_stages": st},
                                                       model, tp, layer)))
    return out


def fp8_query(out):
    """Class a as vLLM runs it: with an fp8 KV cache the Attention layer quantizes the query to
    fp8 too (model_executor/layers/attention/attention.py:462-480, 504-516), q_dtype fp8_e4m3."""
    import copy
    rng = random.Random(7)
    c = [j for _, m, j in class_a() if m]
    rng.shuffle(c)
    sel, seen = [], set()
    for j in c:
        j = copy.deepcopy(j)
        j["config"]["q_dtype"] = "fp8_e4m3"
        k = (j["config"]["op"], j["cc"], str(j["overrides"]), j["context"]["model"])
        if k in seen:
            continue
        seen.add(k)
        sel.append(j)
        if len(sel) >= 40:
            break
    for i, j in enumerate(sel):
        j["id"], j["dump"], j["holdout"] = f"vq{i:04d}", True, False
    json.dump({"procs": 1, "jobs": sel}, open(out, "w"))


def odd_heads(out):
    rng = random.Random(11)
    c = []
    for h, kv, d, name in [(16, 16, 80, "qwen2-vl-vit"), (16, 16, 72, "siglip"), (32, 8, 96, "phi-3"),
                           (16, 16, 64, "vit-d64"), (32, 32, 128, "llama-mha")]:
        for op in ("prefill", "extend"):
            for cc in (80, 86, 89, 90, 100, 120):
                for st in (2, 3, 4):
                    for kvd in ("bf16", "f16"):
                        c.append(job("sglang", cc, {"q_heads": h, "kv_heads": kv, "head_dim": d}, op, kvd, kvd, 1,
                                     {"num_stages": st}, name, 1, "full"))
    rng.shuffle(c)
    sel = c[:40]
    for i, j in enumerate(sel):
        j["id"], j["dump"], j["holdout"] = f"vp{i:04d}", True, False
    json.dump({"procs": 1, "jobs": sel}, open(out, "w"))


def vllm_prefill_72(out):
    sel = []
    for cc in (80, 90, 120):
        for st in (None, 3):
            sel.append(job("vllm", cc, {"q_heads": 16, "kv_heads": 16, "head_dim": 72}, "prefill", "bf16", "bf16", 1,
                           {"num_stages": st} if st else {}, "siglip", 1, "full"))
    for i, j in enumerate(sel):
        j["id"], j["dump"], j["holdout"] = f"vv{i:04d}", True, False
    json.dump({"procs": 1, "jobs": sel}, open(out, "w"))


def blind(out):
    import copy
    seen = set()
    for f in ("jobs/classes_v.json", "jobs/classes_vq.json", "jobs/classes_vp.json", "jobs/classes_vv.json"):
        seen |= {G.key(j) for j in json.load(open(f))["jobs"]}
    rng = random.Random(2027)

    def pick(c, n):
        c = [j for j in c if G.key(j) not in seen]
        rng.shuffle(c)
        return c[:n]
    a = []
    for _, m, j in class_a():
        if m:
            j = copy.deepcopy(j)
            j["config"]["q_dtype"] = "fp8_e4m3"
            a.append(j)
    b = [j for _, m, j in class_b() if m]
    c = [j for _, m, j in class_c() if m]
    d = [j for _, m, j in class_d()]
    odd = []
    for h, kv, dd, name in [(16, 16, 80, "qwen2-vl-vit"), (16, 16, 72, "siglip"), (32, 8, 96, "phi-3"),
                            (12, 12, 112, "d112"), (16, 16, 48, "d48")]:
        for op in ("prefill", "extend"):
            for cc in (80, 86, 89, 90, 100, 120, 121):
                for st in (2, 3, 4):
                    odd.append(job("sglang", cc, {"q_heads": h, "kv_heads": kv, "head_dim": dd}, op, "bf16", "bf16", 1,
                                   {"num_stages": st}, name, 1, "full"))
    groups = [pick(a, 20), pick(b, 20), pick(c, 10), pick(d, 15), pick(odd, 15)]
    order = []
    for i in range(20):
        order += [g[i] for g in groups if i < len(g)]
    for i, j in enumerate(order):
        j["id"], j["dump"], j["holdout"] = f"vz{i:04d}", True, True
    json.dump({"procs": 2, "jobs": order}, open(out, "w"))


def stratum(cls, j):
    c = j["config"]
    return (cls, c["op"], j["cc"], c["kv_dtype"], ",".join(sorted(j["overrides"])) or "default")


def main():
    import sys
    modes = {"--fp8-query": fp8_query, "--odd-heads": odd_heads, "--vllm-prefill-72": vllm_prefill_72,
             "--blind": blind}
    if len(sys.argv) == 3 and sys.argv[1] in modes:
        modes[sys.argv[1]](sys.argv[2])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--per-class", type=int, default=120)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--prefix", default="v")
    ap.add_argument("--exclude", action="append", default=[])
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    for f in a.exclude:
        seen |= {G.key(j) for j in json.load(open(f))["jobs"]}
    jobs = []
    for cls, cands in (("a", class_a()), ("b", class_b()), ("c", class_c()), ("d", class_d())):
        # the class's own targets first (sm_90/100 for a, sm_75 f32 for b, sm_89 for c): 3 in 4
        main_ = [j for _, m, j in cands if m and G.key(j) not in seen]
        side = [j for _, m, j in cands if not m and G.key(j) not in seen]
        n_main = a.per_class if not side else a.per_class * 3 // 4
        picked = []
        for pool, n in ((main_, n_main), (side, a.per_class - n_main)):
            buckets = {}
            for j in pool:
                buckets.setdefault(stratum(cls, j), []).append(j)
            for b in buckets.values():
                rng.shuffle(b)
            order = sorted(buckets)
            rng.shuffle(order)
            got = []
            while len(got) < n and any(buckets[k] for k in order):
                for k in order:
                    if buckets[k] and len(got) < n:
                        got.append(buckets[k].pop())
            picked += got
        for i, j in enumerate(picked):
            j["id"] = f"{a.prefix}{cls}{i:04d}"
            j["dump"] = True
            h = int(hashlib.sha256(G.key(j).encode()).hexdigest()[:8], 16)
            j["holdout"] = h % 100 < 15
        jobs.append(picked)
    # interleave the classes: a cut run still has every class
    inter = []
    for i in range(max(len(p) for p in jobs)):
        inter += [p[i] for p in jobs if i < len(p)]
    json.dump({"procs": 2, "jobs": inter}, open(a.out, "w"))
    from collections import Counter
    print(len(inter), "jobs", Counter(j["id"][len(a.prefix)] for j in inter),
          Counter((j["id"][len(a.prefix)], j["cc"]) for j in inter))


if __name__ == "__main__":
    main()
