import itertools
import sys

import pytest
import triton

import tilefit
import tilefit.triton


class DType:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Tensor:  # what the pruner reads of a torch.Tensor: .dtype
    def __init__(self, dtype):
        self.dtype = DType(dtype)


def matmul_args(dtype="torch.float16", out=None):
    return {"a_ptr": Tensor(dtype), "b_ptr": Tensor(dtype), "c_ptr": Tensor(out or dtype), "M": 4096, "N": 4096,
            "K": 4096, "stride_am": 4096, "stride_ak": 1}


def grid():
    return [triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g},
                          num_warps=w, num_stages=s)
            for m, n, k, w, g, s in itertools.product((16, 32, 64, 128, 256), (32, 64, 128, 256), (64, 128, 256),
                                                      (4, 8), (1, 16, 32, 64), (2, 3, 4, 5))]


def one(c, dtype, arch, kernel="triton_matmul", **extra):
    cfg = {"arch": arch, "kernel": kernel, "dtype": dtype, "num_warps": c.num_warps, "stages": c.num_stages,
           "tile": [c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"], c.kwargs["BLOCK_SIZE_K"]],
           "group_m": c.kwargs["GROUP_SIZE_M"]}
    cfg.update(extra)
    return tilefit.analyze(cfg)


@pytest.mark.parametrize("arch", ["sm_120", "sm_90", "sm_89", "sm_80"])
def test_keeps_exactly_the_configs_that_fit(arch):
    configs = grid()
    assert len(configs) == 1920
    kept = tilefit.triton.prune("triton_matmul", arch=arch)(configs, matmul_args())
    expected = [c for c in configs if one(c, "f16", arch).fits]
    assert kept == expected
    assert 0 < len(kept) < len(configs)


def test_dtypes_come_from_the_tensors():
    configs = grid()[::7]
    for torch_name, ours in [("torch.bfloat16", "bf16"), ("torch.float32", "f32"), ("torch.float16", "f16")]:
        kept = tilefit.triton.prune("triton_matmul", arch="sm_120")(configs, matmul_args(torch_name))
        assert kept == [c for c in configs if one(c, ours, "sm_120").fits], torch_name
    kept = tilefit.triton.prune("matmul", arch="sm_100")(configs, matmul_args("torch.float8_e4m3fn", "torch.bfloat16"))
    assert kept == [c for c in configs if one(c, "e4m3", "sm_100", d="bf16").fits]
    # fixed fields win over the tensors
    kept = tilefit.triton.prune("triton_matmul", arch="sm_120", dtype="f32")(configs, matmul_args())
    assert kept == [c for c in configs if one(c, "f32", "sm_120").fits]
    # no names: the first three arguments with a dtype
    args = {"x": 1, "p": Tensor("torch.bfloat16"), "q": Tensor("torch.bfloat16"), "r": Tensor("torch.bfloat16")}
    kept = tilefit.triton.prune("triton_matmul", arch="sm_120")(configs, args)
    assert kept == [c for c in configs if one(c, "bf16", "sm_120").fits]


def test_fused_moe():
    configs = grid()[::5]
    args = {"a_ptr": Tensor("torch.float8_e4m3fn"), "b_ptr": Tensor("torch.float8_e4m3fn"), "c_ptr": Tensor("torch.bfloat16"),
            "group_n": 128, "group_k": 128, "MUL_ROUTED_WEIGHT": False}
    kept = tilefit.triton.prune("triton_fused_moe", arch="sm_120")(configs, args, top_k=2)
    assert kept == [c for c in configs if one(c, "fp8_w8a8", "sm_120", "triton_fused_moe", block_shape=[128, 128],
                                                mul_routed_weight=False).fits]
    bf16 = {"a_ptr": Tensor("torch.bfloat16"), "b_ptr": Tensor("torch.bfloat16"), "c_ptr": Tensor("torch.bfloat16")}
    kept = tilefit.triton.prune("fused_moe", arch="sm_89")(configs, bf16)
    assert kept == [c for c in configs if one(c, "bf16", "sm_89", "triton_fused_moe").fits]


def test_block_sizes_from_the_call():
    c = triton.Config({}, num_warps=4, num_stages=4)
    args = dict(matmul_args(), BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8)
    assert tilefit.triton.prune("triton_matmul", arch="sm_90")([c], args) == [c]
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_90")([c], matmul_args())
    assert e.value.field == "BLOCK_SIZE_M" and 'field "BLOCK_SIZE_M": missing' in str(e.value)


def test_nothing_fits_names_the_nearest():
    big = [triton.Config({"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8},
                         num_warps=8, num_stages=s) for s in (4, 5)]
    with pytest.raises(tilefit.NothingFits) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_120")(big, matmul_args())
    n = e.value.nearest
    assert e.value.config is big[0]
    # 256x256x128 does not fit even at one stage: suggest's move, a smaller BLOCK_SIZE_K
    assert str(e.value) == ("tilefit: none of the 2 configs fits sm_120 (101376 B of shared memory per block); "
                            "nearest that fits: BLOCK_SIZE_M: 256, BLOCK_SIZE_N: 256, BLOCK_SIZE_K: 128, "
                            "GROUP_SIZE_M: 8, num_warps: 8, num_stages: 4 with BLOCK_SIZE_K=64, num_stages=2 (65536 B)")
    assert n == {"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "num_warps": 8,
                 "num_stages": 2}
    assert tilefit.analyze(dict(e.value.nearest_config, arch="sm_120")).fits
    # fewer stages suffice: the candidate that needs the fewest removed (the core's max_stages)
    few = [triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128}, num_warps=8, num_stages=5),
           triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64}, num_warps=8, num_stages=5)]
    with pytest.raises(tilefit.NothingFits) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_120")(few, matmul_args())
    assert e.value.config is few[1] and e.value.nearest["num_stages"] == 3
    assert str(e.value).endswith("num_warps: 8, num_stages: 5 with num_stages=3 (98304 B)")
    r = tilefit.analyze(dict(e.value.nearest_config, arch="sm_120"))
    assert r.fits and r.stages == 3
    # nothing fits even with one stage: suggest's smaller tiles
    huge = [triton.Config({"BLOCK_SIZE_M": 256, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 256, "GROUP_SIZE_M": 8},
                          num_warps=8, num_stages=3)]
    try:
        tilefit.triton.prune("triton_matmul", arch="sm_120")(huge, matmul_args("torch.float32"))
    except tilefit.NothingFits as e2:
        if e2.nearest is not None:
            assert tilefit.analyze(dict(e2.nearest_config, arch="sm_120")).fits, str(e2)


def test_nothing_fits_because_invalid():
    configs = grid()[:3]
    with pytest.raises(tilefit.NothingFits) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_80")(configs, matmul_args("torch.float8_e4m3fn"))
    assert "every one is invalid there" in str(e.value) and "e4m3" in str(e.value)


def test_bad_candidates_and_kernels():
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_90")(
            [triton.Config({"BLOCK_SIZE_M": 64.0, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64})], matmul_args())
    assert e.value.field == "BLOCK_SIZE_M" and "expected an integer, got 64.0" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("fused_moe_kernel_gptq_awq", arch="sm_90")
    assert e.value.field == "kernel" and "not modelled by tilefit yet" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("flash_attention", arch="sm_90")
    assert e.value.field == "kernel"
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_999")
    assert e.value.field == "arch"
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_90")(grid()[:2], {"a_ptr": Tensor("torch.int8")})
    assert e.value.field == "dtype" and "torch.int8" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul", arch="sm_90")(grid()[:2], {"M": 5})
    assert e.value.field == "dtype"


def test_arch_from_torch(monkeypatch):
    class Cuda:
        @staticmethod
        def is_available():
            return True

        @staticmethod
        def get_device_capability():
            return (12, 0)

    class Torch:
        cuda = Cuda

    monkeypatch.setitem(sys.modules, "torch", Torch)
    assert tilefit.triton.current_arch() == "sm_120"
    configs = grid()[::11]
    assert tilefit.triton.prune()(configs, matmul_args()) == \
        tilefit.triton.prune(arch="sm_120")(configs, matmul_args())
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with pytest.raises(tilefit.InputError) as e:
        tilefit.triton.prune("triton_matmul")(configs, matmul_args())
    assert e.value.field == "arch" and "torch is not importable" in str(e.value) and 'arch="sm_90"' in str(e.value)
