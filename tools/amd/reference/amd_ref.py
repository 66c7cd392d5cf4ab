#!/usr/bin/env python3
"""Python reference of tilefit's Triton 3.6 AMD shared-memory rules (docs/dev/triton-amd-model.md), checked
against measured rows: python3 amd_ref.py RESULTS.jsonl [--split dev|holdout|all] [--show N]."""
import argparse
import collections
import hashlib
import json


def split_of(job):
    if job.get("kernel") == "matmul":
        key = json.dumps(sorted((k, v) for k, v in job.items() if k in ("dtype", "bm", "bn", "bk", "warps", "stages",
                                                                        "waves_per_eu", "matrix_instr_nonkdim", "kpack")))
        return "holdout" if hashlib.sha1(key.encode()).hexdigest()[0] in "0123" else "dev"
    return job.get("split", "dev")


def params(job, res):
    """The kernel as the model sees it."""
    p = {"arch": job["arch"], "async": job.get("hip_async_copy") == 1}
    if job["kernel"] == "matmul":
        p.update(kind="matmul", bm=job["bm"], bn=job["bn"], bk=job["bk"], w=job["warps"], s=job["stages"],
                 ab=1 if job["dtype"] == "fp8" else 2, bb=1 if job["dtype"] == "fp8" else 2,
                 out=2, fp8=job["dtype"] == "fp8")
        return p
    c = job["config"]
    q = job["quant"]
    p.update(bm=c["BLOCK_SIZE_M"], bn=c["BLOCK_SIZE_N"], bk=c["BLOCK_SIZE_K"], w=c.get("num_warps", 4),
             s=c.get("num_stages", 2), quant=q, block=bool(job.get("block_shape")),
             per_channel=bool(job.get("per_channel")), kernel=job["kernel"], engine=job["engine"])
    eb = {"bf16": 2, "f16": 2, "fp8_w8a8": 1, "int8_w8a8": 1, "int8_w8a16": 2, "int4_w4a16": 2}[q]
    p.update(ab=eb, bb=1 if q in ("fp8_w8a8", "int8_w8a8", "int8_w8a16") else eb, out=2, fp8=q == "fp8_w8a8")
    if "gptq" in job["kernel"]:
        p["kind"] = "gptq"
    elif "fused_moe" in job["kernel"]:
        p["kind"] = "moe"
        p["tma"] = bool(job.get("use_tma"))  # SGLang's descriptors: rewritten to pointer loads (declined)
    else:
        p["kind"] = "blockmm"
    return p


def per_thread_bits(numel, contig, eb, w):
    per = min(16 // eb, contig, max(numel // (64 * w), 1))
    return per * eb * 8


def model(p):
    """Bytes, or (None, reason) when the rule set does not cover the launch."""
    bm, bn, bk, w, s = p["bm"], p["bn"], p["bk"], p["w"], p["s"]
    A, B = bm * bk * p["ab"], bk * bn * p["bb"]
    if p.get("tma"):
        return None, "tma"
    if s < 2:
        return None, "stages1"
    if p["kind"] == "gptq":
        return gptq(p)
    a_pipe = per_thread_bits(bm * bk, bk, p["ab"], w) >= 32
    b_pipe = per_thread_bits(bk * bn, bk, p["bb"], w) >= 32
    if not (a_pipe and b_pipe):
        return None, "not-pipelined"
    if p["arch"] == "gfx950" and p["async"] and p["ab"] == 2:
        return None, "padded"
    if p["ab"] == 1 and bk < 32:
        return None, "fp8-bk16"
    nbuf = s if p["async"] else s - 1
    total = nbuf * (A + B)
    if p.get("block"):
        cvt = max([n * 4 for n in (bm, bn) if n >= 64 * w] + [0])
        total += cvt
    return total, "exact"


def gptq(p):
    """fused_moe_kernel_gptq_awq (docs/dev/triton-amd-model.md 4b): A pipelined as usual; the int4 weight
    and b_scale in registers with the dequantised B stored once; an int8 weight multi-buffered as
    int8, and on gfx950 b_scale ([BK, BN] bf16) too, without the dequantised copy."""
    bm, bn, bk, w, s = p["bm"], p["bn"], p["bk"], p["w"], p["s"]
    if per_thread_bits(bm * bk, bk, 2, w) < 32:
        return None, "not-pipelined"
    if p["arch"] == "gfx950" and p["async"]:
        return None, "padded"  # the A padding of section 5b is not in this reference
    nbuf = s if p["async"] else s - 1
    total = nbuf * bm * bk * 2
    if p["quant"] == "int4_w4a16":
        return total + bk * bn * 2, "exact"
    if per_thread_bits(bk * bn, bk, 1, w) < 32:
        return None, "gptq-int8-narrow"
    total += nbuf * bk * bn
    if p["arch"] == "gfx950":
        return total + nbuf * bk * bn * 2, "exact"
    return total + bk * bn * 2, "exact"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--show", type=int, default=0)
    a = ap.parse_args()
    stats = collections.Counter()
    shown = collections.Counter()
    for line in open(a.results):
        r = json.loads(line)
        j = r["job"]
        if "shared" not in r:
            continue
        if a.split != "all" and split_of(j) != a.split:
            continue
        p = params(j, r)
        got, why = model(p)
        cls = (p["kind"], p.get("quant", ""), why)
        if got is None:
            stats[cls + ("skip",)] += 1
            continue
        ok = got == r["shared"]
        stats[cls + ("ok" if ok else "BAD",)] += 1
        if not ok and shown[cls] < a.show:
            shown[cls] += 1
            print("BAD", r["id"], {k: p[k] for k in p if k not in ("engine",)}, "model", got, "got", r["shared"],
                  "diff", r["shared"] - got)
    for k, v in sorted(stats.items()):
        print(k, v)


if __name__ == "__main__":
    main()
