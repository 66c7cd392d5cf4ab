#!/usr/bin/env python3
"""Jobs that widen the measured rows where they are thin (second measurement, attnB):

  gen_extra.py OUT.json --exclude JOBS.json [--exclude JOBS.json ...] [--budget N] [--seed S]

In this order (the device run's timeout cuts the list's tail):
  1. ALiBi prefix prefill (vLLM prefix_prefill.py `_fwd_kernel_alibi`): the presets without
     sinks (the launcher asserts sinks is None with ALiBi, prefix_prefill.py:886) and synthetic
     head dims 64 / 128 / 256, every target, bf16 / f16 / fp8_e4m3 KV, the default launch and
     the op's knob variants;
  2. vLLM MHA decode (q_heads == kv_heads: `_decode_att_m_fwd`, `_fwd_kernel_stage1`), synthetic
     head dims 64 / 128 / 256 with 8 / 16 / 32 heads, every target, KV dtypes, page sizes, knobs;
  3. fp8 KV knob variants on sm_120 / sm_121 (every engine and op of the presets);
  4. the rest of gen_jobs.py's full candidates not yet measured (the stratified sample).
Jobs already in an --exclude file are left out. Ids `x2NNNNN`; hold-out: gen_jobs.py's rule
(about 15 % of the jobs, by a hash of the job); every job is dumped (TTGIR + allocation)."""
import argparse
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_jobs as G  # noqa: E402


def job(engine, cc, cfg, var, ctx):
    return {"engine": engine, "cc": cc, "config": cfg, "overrides": var, "context": ctx}


def alibi_jobs():
    out = []
    shapes = []
    for model, spec in G.MODELS.items():
        if "mla" in spec:
            continue
        for tp in spec["tp"]:
            for layer, shp, _ops in G.shapes(model, spec, tp):
                if shp.get("sinks"):
                    continue
                shapes.append((shp, {"model": model, "tp": tp, "layer": layer}))
    for D in (64, 128, 256):
        shapes.append(({"q_heads": 16, "kv_heads": 2, "head_dim": D},
                       {"model": None, "tp": None, "layer": f"synthetic-d{D}"}))
    for shp, ctx in shapes:
        for kvd in ("bf16", "f16", "fp8_e4m3"):
            act = "f16" if kvd == "f16" else "bf16"
            for ps in G.OPS["vllm"]["prefix_prefill"]["pages"]:
                for cc in G.ARCHS:
                    for var in G.variants(G.OPS["vllm"]["prefix_prefill"]["knobs"]):
                        cfg = {"kernel": "triton_attention", "launcher": "vllm", "op": "prefix_prefill",
                               "stage": "all", "arch": f"sm_{cc}"}
                        cfg.update({k: v for k, v in shp.items() if k != "sliding_window"})
                        cfg.update({"act_dtype": act, "kv_dtype": kvd, "q_dtype": act, "page_size": ps,
                                    "sm_count": G.SM_COUNT[cc], "alibi": True})
                        cfg.update(G.runtime("vllm", "prefix_prefill"))
                        out.append(job("vllm", cc, cfg, var, ctx))
    return out


def mha_decode_jobs():
    out = []
    for D in (64, 128, 256):
        for H in (8, 16, 32):
            for kvd in ("bf16", "f16", "fp8_e4m3"):
                act = "f16" if kvd == "f16" else "bf16"
                for ps in G.OPS["vllm"]["decode"]["pages"]:
                    for cc in G.ARCHS:
                        for var in G.variants(G.OPS["vllm"]["decode"]["knobs"]):
                            cfg = {"kernel": "triton_attention", "launcher": "vllm", "op": "decode",
                                   "stage": "all", "arch": f"sm_{cc}", "q_heads": H, "kv_heads": H,
                                   "head_dim": D, "act_dtype": act, "kv_dtype": kvd, "q_dtype": act,
                                   "page_size": ps, "sm_count": G.SM_COUNT[cc]}
                            cfg.update(G.runtime("vllm", "decode"))
                            out.append(job("vllm", cc, cfg, var,
                                           {"model": None, "tp": None, "layer": f"synthetic-mha-d{D}-h{H}"}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--budget", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--per-group", type=int, default=160)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    for p in a.exclude:
        seen |= {G.key(j) for j in json.load(open(p))["jobs"]}
    cands = G.candidates()
    fp8_120 = [j for j in cands if j["cc"] in (120, 121) and j["config"]["kv_dtype"] == "fp8_e4m3"
               and j["overrides"]]
    groups = [alibi_jobs(), mha_decode_jobs(), fp8_120]
    jobs = []
    for g in groups:
        g = [j for j in g if G.key(j) not in seen]
        pick = G.sample(g, a.per_group, rng)
        jobs += pick
        seen |= {G.key(j) for j in pick}
    rest = [j for j in cands if G.key(j) not in seen]
    jobs += G.sample(rest, max(0, a.budget - len(jobs)), rng)
    for i, j in enumerate(jobs):
        j["id"] = f"x2{i:05d}"
        j["dump"] = True
        h = int(hashlib.sha256(G.key(j).encode()).hexdigest()[:8], 16)
        j["holdout"] = h % 100 < 15
    json.dump({"procs": 15, "jobs": jobs}, open(a.out, "w"))
    from collections import Counter
    print(f"{len(jobs)} jobs, {sum(j['holdout'] for j in jobs)} hold-out")
    print(Counter((j["engine"], j["config"]["op"], bool(j["config"].get("alibi"))) for j in jobs[:3 * a.per_group]))


if __name__ == "__main__":
    main()
