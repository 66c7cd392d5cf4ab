# The targeted job list of the model's own compiles (see measure_min.py).
import json, sys
CCS = [75, 80, 86, 89, 90, 100, 120]
jobs = []
def add(**j):
    j["id"] = f"j{len(jobs):03d}"
    jobs.append(j)
for cc in CCS:
    for kv in ("bf16", "fp8_e4m3"):
        for st in (1, 2, 3):
            # MLA grouped stage1 (vLLM defaults: BLOCK_N 32, BLOCK_H 16, w4)
            add(mod="v_decode", fn="_fwd_grouped_kernel_stage1", cc=cc, warps=4, stages=st, q_dtype="bf16", kv_dtype=kv,
                cx=dict(kv_group_num=16, q_head_num=16, BLOCK_DMODEL=512, BLOCK_DPE=64, BLOCK_DV=512, BLOCK_N=32,
                        BLOCK_H=16, NUM_KV_SPLITS=8, PAGE_SIZE=1 if st == 3 else 16, logit_cap=0.0, Lk=576, Lv=512, IS_MLA=True))
            # GQA grouped stage1, head 128
            add(mod="v_decode", fn="_fwd_grouped_kernel_stage1", cc=cc, warps=4, stages=st, q_dtype="bf16", kv_dtype=kv,
                cx=dict(kv_group_num=8, q_head_num=32, BLOCK_DMODEL=128, BLOCK_DPE=0, BLOCK_DV=128, BLOCK_N=32,
                        BLOCK_H=16, NUM_KV_SPLITS=8, PAGE_SIZE=16, logit_cap=0.0, Lk=128, Lv=128, IS_MLA=False))
        # non-grouped stage1 (w4 s2 BLOCK 64)
        for d in (64, 128, 256):
            add(mod="v_decode", fn="_fwd_kernel_stage1", cc=cc, warps=4, stages=2, q_dtype="bf16", kv_dtype=kv,
                cx=dict(kv_group_num=1, BLOCK_DMODEL=d, BLOCK_DV=d, BLOCK_N=64, NUM_KV_SPLITS=8, PAGE_SIZE=16,
                        logit_cap=0.0, Lk=d, Lv=d))
    add(mod="v_decode", fn="_fwd_kernel_stage1", cc=cc, warps=4, stages=1, q_dtype="bf16", kv_dtype="bf16",
        cx=dict(kv_group_num=1, BLOCK_DMODEL=128, BLOCK_DV=128, BLOCK_N=32, NUM_KV_SPLITS=8, PAGE_SIZE=1,
                logit_cap=0.0, Lk=128, Lv=128))
    for dv, lv in ((128, 128), (512, 512), (64, 64)):
        add(mod="v_decode", fn="_fwd_kernel_stage2", cc=cc, warps=4, stages=2, q_dtype="bf16", kv_dtype="bf16",
            cx=dict(NUM_KV_SPLITS=8, BLOCK_DV=dv, Lv=lv))
    for d, w, st in ((128, 8, 1), (64, 4, 1), (128, 8, 2), (256, 8, 1)):
        bm = 128 if cc >= 80 else 64
        for qd in ("bf16", "f16"):
            add(mod="v_prefill", fn="_fwd_kernel", cc=cc, warps=w, stages=st, q_dtype=qd, kv_dtype=qd,
                cx=dict(kv_group_num=4, BLOCK_M=bm, BLOCK_DMODEL=d, BLOCK_N=bm, IS_CAUSAL=True, SLIDING_WINDOW_Q=0,
                        SLIDING_WINDOW_K=0, SINKS_BIAS_KEY0=False, USE_SINKS=False, Lk=d))
json.dump(jobs, open(sys.argv[1], "w"))
print(len(jobs))
