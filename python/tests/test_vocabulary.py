"""One result vocabulary: Python's result dicts are ``tilefit check --format json``'s results key for
key and value for value (the C ABI writes them through the CLI's column model), for configs of every
kind — CUTLASS, the engines' FP8 kernels, Triton GEMM / fused MoE / block matmul, attention, AMD —
and so are a target's limits and a config's suggestions. tests/capi_cli_test.cpp holds the same for
the C ABI."""
import json
import os
import subprocess

import pytest

import tilefit

REPO = os.environ["TILEFIT_REPO"]

CONFIGS = [
    {"name": "finalize", "arch": "sm_120", "dtype": "nvfp4", "grouped": True, "epilogue": "finalize",
     "tile": "CtaShape128x256x64B"},
    {"name": "coop", "arch": "sm90", "tile": [128, 256, 64], "dtype": "bf16", "schedule": "cooperative",
     "epilogue": "tma"},
    {"name": "ampere", "arch": "sm80", "tile": [128, 256, 64], "warp": [64, 64, 64], "dtype": "f16", "stages": 3},
    {"name": "b200", "arch": "sm100", "tile": [128, 256, 64], "dtype": "bf16", "schedule": "1sm", "epilogue": "tma"},
    {"name": "vllm90", "arch": "sm_90", "launcher": "vllm", "op": "scaled_mm", "tile": [64, 16, 256],
     "cluster": [1, 2, 1], "schedule": "ws", "stages": "auto", "swap_ab": True, "a": "e4m3", "b": "e4m3", "d": "bf16"},
    {"name": "sglang100", "arch": "sm_100", "launcher": "sglang", "op": "scaled_mm", "tile": [64, 64, 128],
     "cluster": [1, 4, 1], "schedule": "auto", "stages": "auto", "a": "e4m3", "b": "e4m3", "d": "bf16"},
    {"name": "matmul", "arch": "sm_100", "kernel": "triton_matmul", "tile": [128, 128, 128], "dtype": "e4m3",
     "d": "bf16", "num_warps": 4, "stages": 4},
    {"name": "moe", "arch": "sm_89", "kernel": "triton_fused_moe", "tile": [128, 256, 128], "dtype": "fp8_w8a8",
     "num_warps": 4, "stages": 4},
    {"name": "block", "arch": "sm_120", "kernel": "triton_block_matmul", "dtype": "fp8_w8a8", "d": "bf16",
     "num_warps": 4, "stages": 3, "group_m": 32, "tile": [64, 128, 128]},
    {"name": "kimi", "arch": "sm_120", "kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8,
     "kv_dtype": "fp8_e4m3"},
    {"name": "extend", "arch": "sm_90", "kernel": "triton_attention", "launcher": "sglang", "op": "extend",
     "model": "llama-3.1-70b", "tp": 8},
    {"name": "mi300", "arch": "gfx942", "kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16", "stages": 2},
    {"name": "mi355", "arch": "gfx950", "kernel": "triton_matmul", "tile": [128, 128, 64], "dtype": "f16",
     "stages": 2, "hip_async_copy": True},
    {"name": "bad_tile", "arch": "sm90", "tile": [100, 256, 64], "dtype": "bf16"},
]

FILES = ["configs/sm120_moe_finalize.json", "configs/mixed_families.json", "configs/triton_kernels.json",
         "configs/vllm_sm90_fp8.json", "configs/sglang_sm100_fp8.json",
         "configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json",
         "configs/N=7168,K=2304,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json"]


def cli(*args):
    binary = os.environ.get("TILEFIT_BINARY")
    if not binary or not os.path.exists(binary):
        pytest.skip("TILEFIT_BINARY not set (CTest sets it)")
    p = subprocess.run([binary, *args, "--format", "json"], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("name", FILES)
def test_check_of_a_file_is_the_clis_results(name):
    path = os.path.join(REPO, name)
    expected = cli("check", path, "--builtin")["results"]
    got = [r.as_dict() for r in tilefit.check([path])]
    assert got == expected and got


def test_analyze_is_the_clis_result(tmp_path):
    f = tmp_path / "configs.json"
    f.write_text(json.dumps(CONFIGS))
    expected = cli("check", str(f))["results"]
    assert len(expected) == len(CONFIGS)
    for config, want in zip(CONFIGS, expected):
        got = tilefit.analyze(config).as_dict()
        assert got == dict(want, file="<config>", index=0), config["name"]
    assert len({r["kernel"] for r in expected}) >= 10


def test_a_batch_is_the_clis_results_for_that_arch(tmp_path):
    configs = [{"name": "a", "tile": [128, 128, 64], "dtype": "bf16", "schedule": "cooperative"},
               {"name": "b", "kernel": "triton_matmul", "tile": [128, 256, 64], "dtype": "f16", "stages": 4},
               {"name": "c", "kernel": "triton_fused_moe", "tile": [64, 128, 128], "dtype": "fp8_w8a8", "stages": 3}]
    f = tmp_path / "batch.json"
    f.write_text(json.dumps(configs))
    expected = cli("check", str(f), "--arch", "sm_90")["results"]
    got = [r.as_dict() for r in tilefit.check(configs, "sm_90")]
    assert got == [dict(r, file="<config>") for r in expected]
    assert dict(tilefit.builtin_limits("sm_90")) == expected[0]["target"]


def test_suggest_is_the_clis_suggestions():
    path = os.path.join(REPO, "configs/sm120_moe_finalize.json")
    results = cli("suggest", path, "--arch", "sm_120")["results"]
    configs = json.load(open(path))["configs"]
    compared = 0
    for r in results:
        want = r.get("suggestions", [])
        assert tilefit.suggest(configs[r["index"]], "sm_120") == want, r["name"]
        compared += len(want)
    assert compared > 0
