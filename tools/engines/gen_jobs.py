#!/usr/bin/env python3
"""Turn the engines' REAL tuned tables into measurement jobs for measure_engines.py.

usage: gen_jobs.py [--tables DIR] [--budget N] [--seed S] [--dev] [--requests DIR] OUT.json

Reads every tuned table of vLLM 6adad087 and SGLang d6ef6888 under DIR (default
/work/engines/tables: vllm/vllm/model_executor/layers/{fused_moe,quantization/utils}/configs/ and
sglang/python/sglang/{srt/layers/moe/moe_runner/triton_utils/configs/triton_X_Y_Z,
kernels/ops/quantization/configs}/), applies each engine's launch transformations for every target
(sm_80 ... sm_121) exactly as its launcher does at the pinned commit (cited below), deduplicates
identical launches (same kernel, constexprs, num_warps/num_stages/num_ctas, argument
specialisation, target; each job keeps every (table, key) that maps to it) and samples N of them so
that every variant (engine x kernel x dtype x quantisation x SWAP_AB x TMA x GEMM x target) is
covered, preferring distinct tile/warps/stages combinations over near-duplicates.

Writes OUT.json ({"procs", "jobs"}) and OUT.stats.json (counts before/after sampling).
"""
import argparse
import collections
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_engines as me  # noqa: E402  (builders reused with a fake torch for the signature)

VLLM_COMMIT = "6adad08767583f52eb4d2122111af0bf638ed5e6"
SGLANG_COMMIT = "d6ef68881e263812d4901f632786015005c4d050"
TARGETS = {"sm_80": 80, "sm_86": 86, "sm_89": 89, "sm_90": 90, "sm_100": 100, "sm_103": 103,
           "sm_120": 120, "sm_121": 121}
# keys Triton's AMD backend reads; tilefit reports an NVIDIA target without them, so they are
# dropped (the launch on an NVIDIA GPU would pass them to the CUDA backend, which rejects them)
AMD_KEYS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")

MOE_RE = re.compile(r"^E=(\d+),N=(\d+),device_name=([^,]*?)(?:,dtype=([^,\]]+?))?"
                    r"(?:,block_shape=\[(\d+), ?(\d+)\])?(,per_channel_quant=True)?(,backend=[a-z]+)?"
                    r"(_down)?\.json$")
MM_RE = re.compile(r"^N=(\d+),K=(\d+),device_name=([^,]*),dtype=(fp8_w8a8|int8_w8a8),"
                   r"block_shape=\[(\d+), ?(\d+)\]\.json$")


def hidden_size(E, N):
    """Model hidden size (the fused-MoE up GEMM's K and the down GEMM's N): not in the file name.
    The shipped tables are for these models (E experts, N = intermediate size / TP); only the
    specialisation of the strides (all these are multiples of 16; cdiv(hidden, 128) decides the
    block-scale strides) and gptq_awq's constexpr K depend on it."""
    if E in (256, 257, 264, 272, 288, 384, 385):
        return 7168  # DeepSeek-V3/R1, Kimi-K2 (+ shared/redundant experts)
    if E in (160, 161):
        return 5120  # DeepSeek-V2, GLM-4.5
    if E in (512, 513, 60):
        return 2048  # Qwen3-Next, Qwen1.5-MoE
    if E in (62, 64, 65):
        return 3584 if N in (2560, 1280, 640, 320) else 2048  # Qwen2-57B-A14B / DeepSeek-V2-Lite
    if E in (128, 129) and N in (2880, 1440, 720, 360):
        return 2880  # gpt-oss-120b
    if E == 8 and N in (16384, 8192, 4096, 2048):
        return 6144  # Mixtral-8x22B
    if E == 16 and N in (8192, 4096, 2048, 1024):
        return 5120  # Llama-4-Scout
    return 4096  # Mixtral-8x7B, Qwen3-235B, Phi-3.5-MoE, ...


def top_k_of(E):
    """Experts per token of those models (decides num_valid_tokens and vLLM's naive block
    assignment, fused_moe.py:1556-1564)."""
    if E <= 16:
        return 2
    if E in (32, 40):
        return 4
    if E in (60, 62, 64, 65, 160, 161):
        return 6
    if E in (512, 513):
        return 10
    return 8


def rel_table(path, root):
    """Path relative to the engine repository root."""
    r = os.path.relpath(path, root)
    return r.split("/", 1)[1]  # drop the vllm/ or sglang/ folder of the tables tree


def read_tables(root):
    tables, skipped = [], collections.Counter()
    for dirpath, _, files in os.walk(root):
        for fn in sorted(files):
            if not fn.endswith(".json"):
                continue
            path = os.path.join(dirpath, fn)
            engine = os.path.relpath(path, root).split("/")[0]
            m_moe, m_mm = MOE_RE.match(fn), MM_RE.match(fn)
            if not (m_moe or m_mm):
                skipped["not a tuned-table name"] += 1
                continue
            with open(path) as f:
                data = json.load(f)
            entries = [(k, v) for k, v in data.items()
                       if isinstance(v, dict) and k.isdigit() and "BLOCK_SIZE_M" in v]
            if not entries:
                skipped["no Triton BLOCK_SIZE entries (e.g. backend=flydsl tile_m tables)"] += 1
                continue
            t = {"engine": engine, "path": path, "table": rel_table(path, root), "name": fn, "entries": entries}
            if m_moe:
                E, N, dev, dtype, bn, bk, pcq, backend, down = m_moe.groups()
                if backend:
                    skipped["backend= table (not a Triton config)"] += 1
                    continue
                t.update(kind="moe", E=int(E), N=int(N), device=dev, dtype=dtype,
                         block_shape=[int(bn), int(bk)] if bn else None, per_channel=bool(pcq), down=bool(down))
                fm = re.search(r"/triton_(\d+)_(\d+)_(\d+)/", path)
                t["triton_folder"] = ".".join(fm.groups()) if fm else None
            else:
                N, K, dev, dtype, bn, bk = m_mm.groups()
                t.update(kind="mm", N=int(N), K=int(K), device=dev, dtype=dtype, block_shape=[int(bn), int(bk)])
            tables.append(t)
    return tables, skipped


def clean_entry(entry):
    return {k: v for k, v in entry.items() if k not in AMD_KEYS}


def vllm_moe_launches(t, key, entry, cc):
    """vLLM 6adad087. Which kernel: dispatch_fused_moe_kernel (fused_moe.py:907-1007);
    config transformations: invoke_fused_moe_triton_kernel (fused_moe.py:763-905)."""
    M = int(key)
    E, Ntab = t["E"], t["N"]
    H = hidden_size(E, Ntab)
    top_k = top_k_of(E)
    dtype, bs = t["dtype"], t["block_shape"]
    cfg = clean_entry(entry)
    variants = []
    # dtype strings vLLM builds: _get_config_dtype_str (fused_moe/config.py:36-66): fp8_w8a8,
    # int8_w8a16, int4_w4a16, None (16-bit) and float32; others (bf16, float8, int8_w8a8) are never
    # looked up: measured as the kernel their name describes (notes say so).
    if dtype in (None, "bf16", "float32"):
        variants.append(dict(kernel="fused_moe_kernel", quant="bf16", block_shape=None))
    elif dtype in ("fp8_w8a8", "float8"):
        if bs:
            variants.append(dict(kernel="fused_moe_kernel", quant="fp8_w8a8", block_shape=bs))
        else:
            variants.append(dict(kernel="fused_moe_kernel", quant="fp8_w8a8", block_shape=None))
            # the name cannot tell per-channel weights (per-token activations) from per-tensor
            variants.append(dict(kernel="fused_moe_kernel", quant="fp8_w8a8", block_shape=None,
                                 per_channel=True, variant="per_channel"))
    elif dtype == "int8_w8a8":
        variants.append(dict(kernel="fused_moe_kernel", quant="int8_w8a8", block_shape=bs, per_channel=not bs))
    elif dtype in ("int8_w8a16", "int4_w4a16"):
        # block_shape comes from the quantisation method, not the file name (get_config_file_name
        # drops [0, group], fused_moe.py:1096-1099): group quantisation (moe_wna16, [0, 128])
        # -> fused_moe_kernel_gptq_awq unless should_moe_wna16_use_cuda (fused_moe.py:1282-1290:
        # 4-bit, group 32/64/128, M*top_k/E <= 6 -> a CUDA kernel, no Triton);
        # per-channel (ExpertsInt8, block_shape None) -> fused_moe_kernel with use_int8_w8a16.
        bit = 4 if dtype == "int4_w4a16" else 8
        if not (bit == 4 and (M * top_k) / E <= 6):
            variants.append(dict(kernel="fused_moe_kernel_gptq_awq", quant=dtype, group_size=128,
                                 variant="group128"))
        if dtype == "int8_w8a16":
            variants.append(dict(kernel="fused_moe_kernel", quant="int8_w8a16", block_shape=None,
                                 variant="per_channel"))
    else:
        return []
    out = []
    for v in variants:
        job = dict(engine="vllm", cc=cc, shape=dict(M=M, E=E, N=2 * Ntab, K=H, top_k=top_k, gemm="up"), **v)
        c = dict(cfg)
        if v["kernel"] == "fused_moe_kernel":
            c["SPLIT_K"] = 1  # fused_moe.py:843
            bk = c.pop("BLOCK_SIZE_K")
            if v.get("block_shape") is not None:
                bk = min(bk, min(v["block_shape"]))  # fused_moe.py:844-846
            c["BLOCK_SIZE_K"] = bk
            # SWAP_AB for fp8_w8a8 only (fused_moe.py:789-792), enable_swap_ab (utils.py:586-591):
            # device capability 90, BLOCK_SIZE_M < 64, BLOCK_SIZE_N >= 64
            job["swap_ab"] = v["quant"] == "fp8_w8a8" and cc == 90 and c["BLOCK_SIZE_M"] < 64 \
                and c["BLOCK_SIZE_N"] >= 64
            # USE_TD: resolve_moe_use_td (utils.py:616-628) is False on CUDA unless VLLM_TRITON_USE_TD
            job["use_td"] = False
            # _prepare_expert_assignment (fused_moe.py:1556-1564), expert_map None (no EP)
            job["naive_block_assignment"] = M * top_k * 4 <= E
        job["config"] = c
        out.append(job)
    return out


def sglang_moe_launches(t, key, entry, cc):
    """SGLang d6ef6888: _prepare_fused_moe_run / _fused_moe_kernel_sequence
    (srt/layers/moe/moe_runner/triton_utils/fused_moe.py:363-541, 707-743), invoke_fused_moe_kernel
    (kernels/ops/moe/fused_moe_triton_kernels.py:714-958)."""
    M = int(key)
    E, Ntab = t["E"], t["N"]
    H = hidden_size(E, Ntab)
    top_k = top_k_of(E)
    dtype, bs = t["dtype"], t["block_shape"]
    cfg = clean_entry(entry)
    down = t["down"]
    # the down table's USE_TMA is popped (fused_moe.py:405-409; support_tensor_descriptor() is
    # true with Triton 3.6) and drives a_use_tma = b_use_tma for the down GEMM only
    use_tma = bool(cfg.pop("USE_TMA", False)) if down else False
    if dtype is None:
        variants = [dict(kernel="fused_moe_kernel", quant="bf16", block_shape=None)]
    elif dtype == "fp8_w8a8":
        variants = [dict(kernel="fused_moe_kernel", quant="fp8_w8a8", block_shape=bs, per_channel=t["per_channel"])]
    elif dtype == "int8_w8a8":
        # block-wise, else channel-wise (asserted, fused_moe_triton_kernels.py:778-785)
        variants = [dict(kernel="fused_moe_kernel", quant="int8_w8a8", block_shape=bs, per_channel=not bs)]
    elif dtype in ("int8_w8a16", "int4_w4a16"):
        # group quantisation ([0, group] block shape, not in the name) -> gptq_awq (:832-886);
        # per-channel int8 -> fused_moe_kernel with use_int8_w8a16
        variants = [dict(kernel="fused_moe_kernel_gptq_awq", quant=dtype, group_size=128, variant="group128")]
        if dtype == "int8_w8a16":
            variants.append(dict(kernel="fused_moe_kernel", quant="int8_w8a16", block_shape=None,
                                 variant="per_channel"))
    else:
        return []
    out = []
    for v in variants:
        if dtype == "int4_w4a16":
            # SGLang looks int4 tables up by w2.shape[2] (fused_moe_triton_config.py:284), which is
            # the packed intermediate size I/2 (two 4-bit values per byte); vLLM doubles it
            # (fused_moe.py:1432-1433) so its tables carry I
            Ntab = 2 * t["N"]
        if down:
            shape = dict(M=M, E=E, N=H, K=Ntab, top_k=top_k, gemm="down")
        else:
            shape = dict(M=M, E=E, N=2 * Ntab, K=H, top_k=top_k, gemm="up")
        job = dict(engine="sglang", cc=cc, shape=shape, **v)
        c = dict(cfg)  # BLOCK_SIZE_K passed as written (no clamp), num_ctas passed through **config
        if v["kernel"] == "fused_moe_kernel":
            # should_enable_swap_ab (fused_moe_triton_kernels.py:61-68): fp8 only, is_sm90_supported
            # (capability major 9), BLOCK_SIZE_M < 64, BLOCK_SIZE_N >= 64
            job["swap_ab"] = v["quant"] == "fp8_w8a8" and cc == 90 and c["BLOCK_SIZE_M"] < 64 \
                and c["BLOCK_SIZE_N"] >= 64
            job["use_tma"] = use_tma
            job["c_sorted"] = False
        job["filter_expert"] = False  # no expert parallelism: num_experts == num_local_experts
        job["config"] = c
        out.append(job)
    return out


def mm_launches(t, key, entry, cc):
    """Block-quantised matmuls, entries keyed by M (the launchers pick the key nearest M)."""
    M = int(key)
    c = clean_entry(entry)
    bn, bk = t["block_shape"]
    if t["engine"] == "vllm":
        kernel = "_w8a8_triton_block_scaled_mm" if t["dtype"] == "fp8_w8a8" else "_w8a8_block_int8_matmul"
    else:
        kernel = "_w8a8_block_fp8_matmul" if t["dtype"] == "fp8_w8a8" else "_w8a8_block_int8_matmul"
        if t["dtype"] == "fp8_w8a8" and c["BLOCK_SIZE_K"] < bk and bk % c["BLOCK_SIZE_K"] != 0:
            c["BLOCK_SIZE_K"] = bk  # get_w8a8_block_fp8_configs sanitising, fp8_kernel.py:1266-1276 (CUDA)
    return [dict(engine=t["engine"], cc=cc, kernel=kernel, quant=t["dtype"], block_shape=[bn, bk],
                 shape=dict(M=M, N=t["N"], K=t["K"]), config=c)]


def launches(t, key, entry, cc):
    if t["kind"] == "mm":
        return mm_launches(t, key, entry, cc)
    if t["engine"] == "vllm":
        return vllm_moe_launches(t, key, entry, cc)
    return sglang_moe_launches(t, key, entry, cc)


class _FakeMod:
    def __getattr__(self, name):
        return name


FAKE_KM = collections.defaultdict(_FakeMod)


def launch_signature(job):
    fn, args, kw = me.BUILDERS[(job["engine"], job["kernel"])](job, me.FakeTorch, me.FakeTl, FAKE_KM)
    return json.dumps([job["engine"], fn, job["cc"]] + me.signature(args, kw))


def variant_of(job):
    bs = job.get("block_shape")
    quant_mode = "block" if bs else ("per_channel" if job.get("per_channel") else "per_tensor")
    if job["quant"] in ("bf16", "f16"):
        quant_mode = "-"
    if job["kernel"] == "fused_moe_kernel_gptq_awq":
        quant_mode = job.get("variant", "group")
    return (job["engine"], job["kernel"], job["quant"], quant_mode, bool(job.get("swap_ab")),
            bool(job.get("use_tma")), job.get("shape", {}).get("gemm", "-"),
            bool(job.get("naive_block_assignment")), "num_ctas" in job["config"],
            "num_warps" not in job["config"], job["cc"])


def tile_of(job):
    c = job["config"]
    return (c.get("BLOCK_SIZE_M"), c.get("BLOCK_SIZE_N"), c.get("BLOCK_SIZE_K"), c.get("num_warps"),
            c.get("num_stages"), c.get("GROUP_SIZE_M"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--tables", default="/work/engines/tables")
    ap.add_argument("--budget", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--per-variant-min", type=int, default=3)
    ap.add_argument("--dumps", type=int, default=0, help="mark this many jobs (one per variant first) dump")
    ap.add_argument("--exclude", action="append", default=[], help="JOBS.json:RESULTS.jsonl already measured (compiled launches are skipped)")
    ap.add_argument("--retry", action="append", default=[], help="JOBS.json:RESULTS.jsonl: re-measure its harness errors")
    ap.add_argument("--procs", type=int, default=15)
    ap.add_argument("--prefix", default="", help="prefix of the job ids (one per run)")
    a = ap.parse_args()
    tables, skipped = read_tables(a.tables)
    uniq = {}  # signature -> job (first seen) + refs
    n_launch = 0
    for t in tables:
        for key, entry in t["entries"]:
            for arch, cc in TARGETS.items():
                for job in launches(t, key, entry, cc):
                    n_launch += 1
                    sig = launch_signature(job)
                    ref = {"table": t["table"], "key": key}
                    if sig in uniq:
                        uniq[sig]["refs"].append(ref)
                        continue
                    job["arch"] = arch
                    job["table"], job["table_name"], job["key"], job["entry"] = t["table"], t["name"], key, entry
                    job["commit"] = VLLM_COMMIT if t["engine"] == "vllm" else SGLANG_COMMIT
                    job["sig"] = sig
                    job["refs"] = [ref]
                    uniq[sig] = job
    done = set()
    for pair in a.exclude:  # JOBS.json:RESULTS.jsonl of an earlier run: its compiled launches
        jp, rp = pair.split(":")
        sig_of = {j["id"]: j.get("sig") for j in json.load(open(jp))["jobs"]}
        with open(rp) as f:
            for line in f:
                r = json.loads(line)
                if "shared" in r and sig_of.get(r["id"]):
                    done.add(sig_of[r["id"]])
    pool = [j for s, j in uniq.items() if s not in done]
    # launches an earlier run tried without a result (harness errors such as an allocation that
    # failed, or the dev run's error text without its reason) come first
    retry = set()
    for pair in a.retry:
        jp, rp = pair.split(":")
        sig_of = {j["id"]: j.get("sig") for j in json.load(open(jp))["jobs"]}
        for line in open(rp):
            r = json.loads(line)
            e = r.get("error", "")
            if e.startswith("OutOfMemoryError") or e.endswith("at 1:0:"):
                retry.add(sig_of.get(r["id"]))
    first_jobs = [j for j in pool if j["sig"] in retry]
    pool = [j for j in pool if j["sig"] not in retry]
    # stratified sample: round-robin over variants, inside a variant distinct tiles first
    rng = random.Random(a.seed)
    by_var = collections.defaultdict(list)
    for j in pool:
        by_var[variant_of(j)].append(j)
    queues = {}
    for v, js in by_var.items():
        rng.shuffle(js)
        seen, first, rest = set(), [], []
        for j in js:
            (rest if tile_of(j) in seen else first).append(j)
            seen.add(tile_of(j))
        queues[v] = first + rest
    chosen = list(first_jobs)
    variants = sorted(queues, key=str)
    while len(chosen) < a.budget and any(queues.values()):
        for v in variants:
            if queues[v] and len(chosen) < a.budget:
                chosen.append(queues[v].pop(0))
    dumped = 0
    seen_dump = set()
    fam = {80: "mma2", 86: "mma2", 89: "mma2", 90: "wgmma", 100: "tcgen05", 103: "tcgen05", 120: "mma2-sm120",
           121: "mma2-sm120"}
    for j in chosen:
        v = variant_of(j)[:8] + (fam[j["cc"]],)
        if dumped < a.dumps and v not in seen_dump and j["cc"] in (80, 90, 100, 120):
            j["dump"] = True
            seen_dump.add(v)
            dumped += 1
    for i, j in enumerate(chosen):
        j["id"] = f"{a.prefix}{j['engine']}_{j['kernel'].strip('_')}_{j['arch']}_{i:05d}"
    with open(a.out, "w") as f:
        json.dump({"procs": a.procs, "jobs": chosen}, f)
    stats = {"tables": len(tables), "skipped_files": dict(skipped),
             "entries": sum(len(t["entries"]) for t in tables), "launches": n_launch,
             "unique_launches": len(uniq), "already_measured": len(done), "chosen": len(chosen),
             "variants": len(by_var), "variants_chosen": len({variant_of(j) for j in chosen}),
             "unique_by_kernel": dict(collections.Counter(f"{j['engine']}.{j['kernel']}" for j in uniq.values())),
             "chosen_by_kernel": dict(collections.Counter(f"{j['engine']}.{j['kernel']}" for j in chosen))}
    with open(a.out + ".stats.json", "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats, indent=1))


if __name__ == "__main__":
    main()
