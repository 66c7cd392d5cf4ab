"""The AMD Instinct targets through the Python package (issue 20): archs by name and alias, the
built-in limits, the async-copy switch and its errors. No test here depends on the Triton AMD
shared-memory numbers: only arch, limits, errors and which value the switch has."""
import pytest

import tilefit

MATMUL = {"kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16", "stages": 2}


def test_amd_archs_by_name_and_alias():
    for arch, name, lds in (("gfx942", "gfx942", 65536), ("mi300x", "gfx942", 65536),
                            ("MI325X", "gfx942", 65536), ("gfx950", "gfx950", 163840),
                            ("mi355x", "gfx950", 163840)):
        r = tilefit.analyze(MATMUL, arch)
        assert r.arch == name and r.limit_bytes == lds, arch
        assert tilefit.builtin_limits(arch).optin_per_block_bytes == lds


def test_numbers_never_mean_an_amd_target():
    for arch in ("942", "sm_942", 942):
        with pytest.raises(tilefit.InputError) as e:
            tilefit.analyze(MATMUL, arch)
        assert e.value.field == "arch"


def test_the_switch_on_amd_and_its_error_on_nvidia():
    tilefit.analyze(MATMUL, "gfx942", hip_async_copy=True)
    tilefit.analyze(dict(MATMUL, hip_async_copy=False), "gfx950")
    with pytest.raises(tilefit.InputError) as e:
        tilefit.analyze(MATMUL, "sm_90", hip_async_copy=True)
    assert e.value.field == "hip_async_copy"
    assert "sm_90, an NVIDIA target; TRITON_HIP_USE_ASYNC_COPY applies to the AMD targets only" in str(e.value)
    with pytest.raises(tilefit.InputError):
        tilefit.analyze(MATMUL, "gfx942", hip_async_copy="on")
    # check() of dict configs: the batch path refuses it on NVIDIA as well.
    with pytest.raises(tilefit.InputError) as b:
        tilefit.check([MATMUL, MATMUL], "sm_120", hip_async_copy=False)
    assert b.value.field == "hip_async_copy"
    assert len(tilefit.check([MATMUL], "mi300x", hip_async_copy=True)) == 1
