"""Bad inputs raise tilefit.InputError naming the argument (never TypeError, UnicodeEncodeError or a
bare ValueError) and are never coerced; check() takes what `tilefit check` takes."""
import os
import pathlib
import shutil

import pytest
import triton

import tilefit
import tilefit.triton
import tilefit.tuning

REPO = pathlib.Path(os.environ["TILEFIT_REPO"])
FINALIZE = {"arch": "sm_120", "dtype": "nvfp4", "grouped": True, "epilogue": "finalize", "tile": "CtaShape128x256x64B"}
GRID = [{"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1, "num_warps": 4,
         "num_stages": 3}]


def field_of(fn, *args, **kwargs):
    with pytest.raises(tilefit.InputError) as e:
        fn(*args, **kwargs)
    assert type(e.value) is tilefit.InputError
    return e.value.field


@pytest.mark.parametrize("bad", [0, -1, "3", 2.0, True, None])
def test_suggest_max_is_a_positive_integer(bad):
    assert field_of(tilefit.suggest, FINALIZE, "sm_120", max=bad) == "max"


def test_suggest_max_is_honoured():
    assert len(tilefit.suggest(FINALIZE, "sm_120", max=1)) == 1


@pytest.mark.parametrize("bad", [[128.7, 128], [128.0, 128], [True, 128], ["128", 128], [128], [128, 128, 128],
                                 [0, 128], "128,128", 128])
def test_block_shape_is_two_integers(bad):
    assert field_of(tilefit.tuning.filter, GRID, dtype="fp8_w8a8", block_shape=bad, arch="sm_90") == "block_shape"


def test_not_utf8_text_is_an_input_error():
    assert field_of(tilefit.analyze, {"arch": "sm_90", "tile": [128, 128, 64]}, "sm_\udcff") == "arch"
    assert field_of(tilefit.analyze, '{"arch": "sm_\udcff"}') == "config"
    assert field_of(tilefit.tuning.filter, GRID, arch="sm_90", engine="vllm\udcff") == "engine"
    assert field_of(tilefit.tuning.filter, GRID, arch="sm_90", engine=3) == "engine"


def test_pinned_engines_as_the_cli_takes_them():
    plain = tilefit.tuning.filter(GRID, dtype="fp8_w8a8", block_shape=[128, 128], arch="sm_90", engine="vllm")
    for engine in ("vllm@000d1458", "vllm@000D1458", "vllm@000d1458098ebf47491dad470d164d443ab18a9c", "sglang"):
        assert tilefit.tuning.filter(GRID, dtype="fp8_w8a8", block_shape=[128, 128], arch="sm_90",
                                     engine=engine) == plain, engine
    for engine in ("vllm@ffffffff", "vllm@000d", "tgi", "vllm@"):
        assert field_of(tilefit.tuning.filter, GRID, arch="sm_90", engine=engine) == "engine", engine


def test_the_block_matmul_is_modelled():
    configs = [triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 32},
                             num_warps=4, num_stages=s) for m in (16, 64, 128) for n in (64, 128) for s in (2, 4, 6)]

    class T:
        def __init__(self, d):
            self.dtype = d

    args = {"A": T("torch.float8_e4m3fn"), "B": T("torch.float8_e4m3fn"), "C": T("torch.bfloat16")}
    kept = tilefit.triton.prune("triton_block_matmul", arch="sm_120")(configs, args)
    expected = [c for c in configs if tilefit.analyze(
        {"kernel": "triton_block_matmul", "dtype": "fp8_w8a8", "d": "bf16", "num_warps": 4, "stages": c.num_stages,
         "group_m": 32, "tile": [c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"], 128]}, "sm_120").fits]
    assert kept == expected and 0 < len(kept) < len(configs)
    # vLLM's own kernel name is the same kernel.
    assert tilefit.triton.prune("w8a8_block_fp8_matmul", arch="sm_120")(configs, args) == kept


def test_check_takes_folders_like_the_cli(tmp_path):
    table = REPO / "configs" / "E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json"
    (tmp_path / "sub").mkdir()
    shutil.copy(table, tmp_path / "sub" / table.name)
    (tmp_path / "README.md").write_text("not a table\n")
    from_folder = tilefit.check(tmp_path, arch="sm_120")
    from_file = tilefit.check([str(table)], arch="sm_120")
    assert [(r.name, r.smem_bytes, r.status) for r in from_folder] == \
        [(r.name, r.smem_bytes, r.status) for r in from_file]
    assert from_folder and from_folder[0].file == str(tmp_path / "sub" / table.name)
    assert [r.smem_bytes for r in tilefit.check(str(tmp_path), arch="sm_120")] == [r.smem_bytes for r in from_file]


def test_check_takes_names_that_are_not_utf8(tmp_path):
    src = REPO / "configs" / "triton_kernels.json"
    raw = os.fsencode(tmp_path) + b"/k\xff.json"
    with open(raw, "wb") as f:
        f.write(src.read_bytes())
    expected = [r.smem_bytes for r in tilefit.check([str(src)])]
    assert [r.smem_bytes for r in tilefit.check([raw])] == expected
    assert [r.smem_bytes for r in tilefit.check([os.fsdecode(raw)])] == expected
    assert tilefit.check([raw])[0].file.endswith("k<0xFF>.json")


def test_check_refuses_standard_input():
    assert field_of(tilefit.check, ["-"]) == "paths"
