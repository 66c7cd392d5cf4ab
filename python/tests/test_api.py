import json
import os
import pathlib
import subprocess

import pytest

import tilefit

REPO = pathlib.Path(os.environ["TILEFIT_REPO"])
FINALIZE = {"arch": "sm_120", "dtype": "nvfp4", "grouped": True, "epilogue": "finalize", "tile": "CtaShape128x256x64B"}
ZERO_TILE = '<config>: config #0: field "tile": 0 is not a valid tile extent; allowed: integers 1..65536 (or "MxNxK")'


def test_the_seeds_finalize_tile():
    r = tilefit.analyze(FINALIZE)
    assert (r.fits, r.smem_bytes, r.stages, r.max_stages, r.limit_bytes) == (False, 102400, 3, 2, 101376)
    assert r.status == "does_not_fit" and r.kernel == "sm120_blockscaled" and r.arch == "sm_120"
    assert r.auto_stages and r.headroom_bytes == -1024 and r.max_stages_smem_bytes == 102400 - 27648
    assert sum(r.breakdown.values()) == 102400 and all(v > 0 for v in r.breakdown.values())
    assert r.diagnostics[0].severity == "error"
    assert "102400 B > 101376 B (over by 1024 B)" in r.diagnostics[0].message
    assert not r


def test_json_text_kernel_names_and_the_arch_argument():
    assert tilefit.analyze(json.dumps(FINALIZE)).smem_bytes == 102400
    r = tilefit.analyze({"dtype": "bf16", "tile": [128, 128, 64]}, arch="sm_90")
    assert r.fits and r.arch == "sm_90" and r.limit_bytes == 232448
    assert tilefit.analyze({"dtype": "bf16", "tile": [128, 128, 64]}, arch=(9, 0)).arch == "sm_90"
    name = "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"
    assert tilefit.analyze(name).kernel == "sm90_tma_ws"
    assert tilefit.analyze(json.dumps(name)).kernel == "sm90_tma_ws"


def test_version():
    assert tilefit.__version__ == "0.3.0"
    assert tilefit._lib.lib.tilefit_abi_version() == tilefit._lib.ABI_VERSION == 2


def error_of(config, arch=None):
    with pytest.raises(tilefit.InputError) as e:
        tilefit.analyze(config, arch)
    return e.value


def test_bad_input_is_the_clis_line():
    e = error_of({"arch": "sm_120", "dtype": "nvfp4", "tile": [128, 0, 128]})
    assert str(e) == ZERO_TILE and e.field == "tile" and isinstance(e, ValueError)
    e = error_of({"arch": "sm_120", "dtype": "nvfp5", "tile": [128, 128, 128]})
    assert e.field == "dtype" and str(e).startswith('<config>: config #0: field "dtype": "nvfp5"') and "allowed:" in str(e)
    e = error_of({"arch": "sm_77", "tile": [128, 128, 64]})
    assert e.field == "arch" and '"sm_77" is not a known architecture; allowed: sm_70' in str(e)
    e = error_of({"tile": [128, 128, 64]})
    assert str(e) == ('<config>: field "arch": missing; give the config an "arch" or pass one to analyze()') and e.field == "arch"
    e = error_of({"tile": [128, 128, 64]}, "sm_42")
    assert e.field == "arch" and str(e).startswith('arch "sm_42" is not a known architecture; allowed: ')
    e = error_of({"arch": "sm_90", "tile": [128, 128, 64], "num_stage": 3})
    assert e.field == "num_stage" and "unknown field" in str(e)
    e = error_of('{"arch": "sm_90", "tile": [128, 128, 64]')
    assert str(e).startswith("<config>: not JSON") and e.field == ""


def test_validate_gives_the_readers_line():
    # model::validate, the one check every front end runs: the same value, the same message.
    only = 'applies only to the blockscale_out epilogue ("variant": "blockscale_out")'
    e = error_of({"arch": "sm_100", "dtype": "nvfp4", "tile": [128, 128, 128], "epilogue": {"variant": "tma", "sf_vec": 16}})
    assert str(e) == '<config>: config #0: field "epilogue.sf_vec": ' + only and e.field == "epilogue.sf_vec"
    e = error_of({"arch": "sm_120", "dtype": "nvfp4", "tile": [128, 128, 128], "stages": 0})
    assert str(e) == '<config>: config #0: field "stages": 0 is not a valid stage count; allowed: "auto" or integers 1..4096'
    assert e.field == "stages"


def test_the_same_line_as_the_cli(tmp_path):
    binary = os.environ.get("TILEFIT_BINARY")
    if not binary or not os.path.exists(binary):
        pytest.skip("TILEFIT_BINARY not set (CTest sets it)")
    f = tmp_path / "bad.json"
    f.write_text(json.dumps([{"arch": "sm_120", "dtype": "nvfp4", "tile": [128, 0, 128]}]))
    p = subprocess.run([binary, "check", str(f), "--builtin"], capture_output=True, text=True)
    assert p.returncode == 2
    cli = [line for line in p.stderr.splitlines() if line.startswith("error: ")][0]
    assert cli == "error: " + ZERO_TILE.replace("<config>", str(f))
    with pytest.raises(tilefit.InputError) as e:
        tilefit.check([str(f)])
    assert "error: " + str(e.value) == cli and e.value.field == "tile"


class Tensor:
    dtype = "torch.float16"
    shape = (128, 128)


@pytest.mark.parametrize("config,words", [
    ({"arch": "sm_120", "dtype": "nvfp4", "tile": [128.0, 128, 128]}, 'field "tile": 128.0 is not a valid tile extent'),
    ({"arch": "sm_120", "dtype": "nvfp4", "tile": [128.5, 128, 128]}, 'field "tile": 128.5 is not a valid tile extent'),
    ({"arch": "sm_120", "tile": Tensor()}, "a config value is not JSON (Tensor)"),
    ({"arch": "sm_120", "tile": float("nan")}, "a config value is not JSON"),
    (Tensor(), "expected one config: a dict, JSON text or a CUTLASS kernel name; got test_api.Tensor"),
    (object(), "expected one config: a dict, JSON text or a CUTLASS kernel name; got object"),
    (3.5, "got float"),
    (None, "got NoneType"),
    ([FINALIZE], "got list"),
    ({"arch": "sm_120", "tile": [128, 128, 128], "dtype": 5}, 'field "dtype"'),
    ({"arch": [120], "tile": [128, 128, 128]}, 'field "arch"'),
])
def test_wrong_types_are_input_errors(config, words):
    e = error_of(config)
    assert words in str(e), str(e)


def test_numpy_like_integers_are_integers():
    class I:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v
    r = tilefit.analyze({"arch": "sm_120", "dtype": "nvfp4", "grouped": True, "epilogue": "finalize",
                         "tile": [I(128), I(256), I(128)]})
    assert r.smem_bytes == 102400


def test_builtin_and_device_limits():
    lim = tilefit.builtin_limits("sm_90")
    assert lim.optin_per_block_bytes == 232448 and lim["arch"] == "sm_90" and lim.source == "builtin"
    with pytest.raises(tilefit.InputError) as e:
        tilefit.builtin_limits("sm_1000")
    assert e.value.field == "arch"
    try:
        d = tilefit.device_limits(0)
        assert d.optin_per_block_bytes > 0
    except tilefit.DeviceError as e:
        assert str(e)
    with pytest.raises(tilefit.DeviceError):
        tilefit.device_limits(-1)
    with pytest.raises(tilefit.InputError):
        tilefit.device_limits("0")


def test_check_files():
    rs = tilefit.check(REPO / "configs" / "triton_kernels.json")
    assert [r.name for r in rs][:2] == ["moe_fp8_default_gb10", "moe_fp8_default_l40s"]
    assert rs[0].status == "does_not_fit" and rs[0].smem_bytes == 147456 and rs[0].max_stages == 3
    assert all(r.file.endswith("triton_kernels.json") for r in rs)
    table = REPO / "configs" / "E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json"
    h100 = tilefit.check([str(table)])
    assert all(r.fits for r in h100) and h100[0].arch == "sm_90"
    rtx = tilefit.check([str(table)], arch="sm_120")
    assert [r.name for r in rtx if not r.fits] == ["2048", "4096"]
    assert rtx[-1].smem_bytes == 148480 and rtx[-1].max_stages == 3
    with pytest.raises(tilefit.InputError) as e:
        tilefit.check([str(REPO / "configs" / "no-such.json")])
    assert "no-such.json" in str(e.value)


def test_check_configs_and_engines():
    rs = tilefit.check([FINALIZE, {"arch": "sm_90", "dtype": "bf16", "tile": [128, 128, 64]}])
    assert [r.status for r in rs] == ["does_not_fit", "fits"]
    rs = tilefit.check([FINALIZE, dict(FINALIZE, swap_ab=True)], arch="sm_120")
    assert [r.fits for r in rs] == [False, True] and rs[0].diagnostics
    with pytest.raises(tilefit.InputError) as e:
        tilefit.check([FINALIZE, {"tile": [128, 0, 128], "dtype": "nvfp4"}], arch="sm_120")
    assert str(e.value) == '<config>: config #1: field "tile": 0 is not a valid tile extent; allowed: integers 1..65536 (or "MxNxK")'
    assert len(e.value.results) == 1 and len(e.value.errors) == 1
    # engine: the launcher of the engines' FP8 GEMMs, passed through.
    fp8 = {"arch": "sm_90", "tile": [128, 128, 128], "op": "scaled_mm"}
    vllm = tilefit.check([fp8], engine="vllm")[0]
    assert vllm.kernel == "engine_fp8_sm90"
    assert tilefit.check([fp8], engine="sglang")[0].kernel == "engine_fp8_sm90"
    moe = {"arch": "sm_120", "kernel": "triton_fused_moe", "tile": [64, 128, 64], "dtype": "bf16"}
    assert tilefit.check([moe], engine="sglang")[0].smem_bytes == tilefit.analyze(moe).smem_bytes
    with pytest.raises(tilefit.InputError) as e:
        tilefit.check([fp8], engine="trtllm")
    assert e.value.field == "engine" and str(e.value).startswith('engine: "trtllm" is not a modelled engine release; allowed: vllm@000d1458, ')
    with pytest.raises(tilefit.InputError) as e:
        tilefit.check([str(REPO / "configs" / "triton_kernels.json")], engine="vllm")
    assert e.value.field == "engine" and "not supported yet" in str(e.value)


def test_suggest():
    s = tilefit.suggest(FINALIZE, "sm_120")
    assert s and s[0]["status"] == "fits" and s[0]["changes"][0]["field"] == "stages"
    assert tilefit.analyze(s[0]["config"]).fits
    assert tilefit.suggest(dict(FINALIZE, swap_ab=True), "sm_120") == []


def test_threads_have_their_own_context():
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        out = list(pool.map(lambda _: tilefit.analyze(FINALIZE).smem_bytes, range(64)))
    assert out == [102400] * 64


def test_the_explanation_is_asked_for_when_read():
    r = tilefit.analyze(FINALIZE)
    assert "diagnostics" not in r.raw and r.smem_bytes == 102400  # the verdict only, so far
    full = tilefit.check([FINALIZE])[0]
    assert [d.message for d in r.diagnostics] == [d.message for d in full.diagnostics]
    assert r.breakdown == full.breakdown and r.kernel_description == full.kernel_description
    assert r.as_dict()["diagnostics"] and r.epilogue_smem_bytes == full.epilogue_smem_bytes
