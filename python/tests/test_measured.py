"""The hooks against what Triton 3.6.0 compiled: every Triton row of tests/data (2,048 configs whose
CompiledKernel.metadata.shared was measured), offered to tilefit.triton.prune (the tutorial matmul,
dtypes read from tensors) or tilefit.tuning.filter (the fused-MoE kernel) as a tuner would, is kept
exactly when Triton's shared memory fits the arch's opt-in limit (and it compiles)."""
import collections
import json
import os
import pathlib

import triton

import tilefit
import tilefit.triton
import tilefit.tuning

DATA = pathlib.Path(os.environ["TILEFIT_REPO"]) / "tests" / "data"
TORCH = {"f16": "torch.float16", "bf16": "torch.bfloat16", "f32": "torch.float32", "e4m3": "torch.float8_e4m3fn"}


class DType:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Tensor:
    def __init__(self, dtype):
        self.dtype = DType(TORCH[dtype])


def rows():
    for f in ("triton-3.6.jsonl", "measured-triton-3.6.jsonl"):
        for line in open(DATA / f):
            yield json.loads(line)


def kept(row) -> bool:
    c = row["config"]
    bm, bn, bk = c["tile"]
    cand = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk}
    if "group_m" in c:
        cand["GROUP_SIZE_M"] = c["group_m"]
    try:
        if c["kernel"] == "triton_matmul":
            cfg = triton.Config(cand, num_warps=c["num_warps"], num_stages=c["stages"])
            args = {"a_ptr": Tensor(c["dtype"]), "b_ptr": Tensor(c["dtype"]), "c_ptr": Tensor(c["d"])}
            return tilefit.triton.prune("triton_matmul", arch=c["arch"])([cfg], args) == [cfg]
        cand.update(num_warps=c["num_warps"], num_stages=c["stages"])
        extra = {"d": c["d"]}
        if "mul_routed_weight" in c:
            extra["mul_routed_weight"] = c["mul_routed_weight"]
        return tilefit.tuning.filter([cand], dtype=c["dtype"], arch=c["arch"], block_shape=c.get("block_shape"),
                                     **extra) == [cand]
    except tilefit.NothingFits:
        return False


def test_every_measured_triton_config():
    counts = collections.Counter()
    wrong = []
    for r in rows():
        fits = r["expect"]["status"] == "fits"
        shared = r["triton"].get("metadata_shared")
        if fits:
            assert shared is not None and shared <= r["expect"]["limit_bytes"]
        k = kept(r)
        counts[(r["config"]["kernel"], "kept" if k else "dropped")] += 1
        if k != fits:
            wrong.append((r["id"], r["expect"], k))
    assert not wrong, wrong[:10]
    assert sum(counts.values()) == 2048
    assert counts[("triton_matmul", "kept")] == 755 and counts[("triton_fused_moe", "kept")] == 713


def test_tuner_grid_measured_on_the_h200():
    """The 1920-config grid (docs/dev/tuner-pruning.md) as Triton 3.6.0 compiled it on the H200 (sm_90) and for
    sm_120 and sm_89: one prune call per arch keeps exactly the configs whose metadata.shared fits."""
    by_arch = collections.defaultdict(list)
    for line in open(DATA / "measured-triton-3.6-grid.jsonl"):
        by_arch[json.loads(line)["config"]["arch"]].append(json.loads(line))
    args = {"a_ptr": Tensor("f16"), "b_ptr": Tensor("f16"), "c_ptr": Tensor("f16")}
    counts = {}
    for arch, rs in by_arch.items():
        cfgs = []
        for r in rs:
            c = r["config"]
            bm, bn, bk = c["tile"]
            cfgs.append(triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk,
                                       "GROUP_SIZE_M": c["group_m"]}, num_warps=c["num_warps"],
                                      num_stages=c["stages"]))
        kept = {id(c) for c in tilefit.triton.prune("triton_matmul", arch=arch)(cfgs, args)}
        assert [id(c) in kept for c in cfgs] == [r["expect"]["status"] == "fits" for r in rs], arch
        counts[arch] = len(kept)
    assert counts == {"sm_90": 1304, "sm_120": 976, "sm_89": 976}
