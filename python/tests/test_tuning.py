import itertools

import pytest

import tilefit
import tilefit.tuning


def vllm_grid():
    # The 1920-config CUDA space of vLLM's benchmark_moe.py / SGLang's tuner (users-2026-12.md §4).
    return [{"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g, "num_warps": w, "num_stages": s}
            for m, n, k, w, g, s in itertools.product((16, 32, 64, 128, 256), (32, 64, 128, 256), (64, 128, 256),
                                                      (4, 8), (1, 16, 32, 64), (2, 3, 4, 5))]


def fits(c, arch, **extra):
    cfg = {"arch": arch, "kernel": "triton_fused_moe", "tile": [c["BLOCK_SIZE_M"], c["BLOCK_SIZE_N"], c["BLOCK_SIZE_K"]],
           "group_m": c["GROUP_SIZE_M"], "num_warps": c["num_warps"], "stages": c["num_stages"]}
    cfg.update(extra)
    return tilefit.analyze(cfg).fits


@pytest.mark.parametrize("dtype,extra", [(None, {"dtype": "bf16"}), ("fp8_w8a8", {"dtype": "fp8_w8a8"})])
def test_filter_keeps_exactly_what_fits(dtype, extra):
    grid = vllm_grid()
    kept = tilefit.tuning.filter(grid, dtype=dtype, arch="sm_120")
    assert kept == [c for c in grid if fits(c, "sm_120", **extra)]
    assert all(k is g for k, g in zip(kept, [c for c in grid if c in kept]))  # the tuner's own dicts


def test_block_shape_and_engines():
    grid = vllm_grid()[::3]
    kept = tilefit.tuning.filter(grid, dtype="fp8_w8a8", block_shape=[128, 128], arch="sm_90", engine="vllm")
    assert kept == [c for c in grid if fits(c, "sm_90", dtype="fp8_w8a8", block_shape=[128, 128])]
    assert tilefit.tuning.filter(grid, dtype="fp8_w8a8", block_shape=[128, 128], arch="sm_90", engine="sglang") == kept
    with pytest.raises(tilefit.InputError) as e:
        tilefit.tuning.filter(grid, arch="sm_90", engine="tgi")
    assert e.value.field == "engine"


def test_bad_grids():
    with pytest.raises(tilefit.InputError) as e:
        tilefit.tuning.filter([{"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "num_stage": 3}], arch="sm_90")
    assert e.value.field == "num_stage" and str(e.value).startswith('config #0: field "num_stage": unknown field')
    with pytest.raises(tilefit.InputError) as e:
        tilefit.tuning.filter([{"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 0, "BLOCK_SIZE_K": 64}], arch="sm_90")
    assert e.value.field == "tile" and "0 is not a valid tile extent" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        tilefit.tuning.filter(vllm_grid()[:2], dtype="int8_w8a16", arch="sm_90")
    assert e.value.field == "dtype" and "does not model" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        tilefit.tuning.filter([[64, 64, 64]], arch="sm_90")
    assert "expected a dict" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:  # the block-quantised matmul is fp8_w8a8 or int8_w8a8
        tilefit.tuning.filter(vllm_grid()[:2], arch="sm_90", kernel="w8a8_block_fp8_matmul")
    assert e.value.field == "dtype"
    grid = vllm_grid()[::5]
    kept = tilefit.tuning.filter(grid, arch="sm_120", kernel="w8a8_block_fp8_matmul", dtype="fp8_w8a8")
    assert kept == [c for c in grid if fits(c, "sm_120", kernel="triton_block_matmul", dtype="fp8_w8a8")]
    # AMD-only knobs are ignored (they do not change NVIDIA shared memory)
    c = dict(vllm_grid()[0], waves_per_eu=2)
    assert tilefit.tuning.filter([c], arch="sm_90") == [c]


@pytest.mark.parametrize("extra,field", [({"SPLIT_K": 2}, "SPLIT_K"), ({"USE_TMA": True}, "USE_TMA")])
def test_fused_moe_parameters_the_model_does_not_size_are_refused_in_both_paths(extra, field):
    from tilefit import _grid
    values = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64, GROUP_SIZE_M=1, **extra)
    with pytest.raises(tilefit.InputError) as e:
        _grid.row(values, 4, 3, "config #0")
    assert e.value.field == field and "config #0" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        _grid.config_text("triton_fused_moe", values, 4, 3, "", "config #0")
    assert e.value.field == field
    assert _grid.row(dict(values, **{field: 1 if field == "SPLIT_K" else False}), 4, 3, "x")[:3] == (64, 64, 64)
