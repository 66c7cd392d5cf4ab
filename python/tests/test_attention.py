"""Triton attention through the Python package (issue 19): an autotuner asks, before compiling,
whether the engine's attention launch fits, sees every launch with its constexprs, and gets the knob.
The numbers are the CLI's (tests/attention_cli_test.cpp): 102400 B for vLLM's Kimi-K2 MLA decode
with an fp8 KV cache on sm_120 (measured, vLLM #46721)."""
import tilefit

KIMI = {"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8,
        "kv_dtype": "fp8_e4m3"}


def test_kimi_k2_mla_decode_on_sm120_and_its_launches():
    r = tilefit.analyze(KIMI, "sm_120")
    assert not r and r.status == "does_not_fit" and r.smem_bytes == 102400
    assert r.limit_bytes == 101376 and r.engine_refuses is False
    assert [l["kernel"] for l in r.launches] == ["_fwd_grouped_kernel_stage1", "_fwd_kernel_stage2"]
    s1 = r.launches[0]
    assert (s1["smem_bytes"], s1["fits"], s1["num_warps"], s1["num_stages"]) == (102400, False, 4, 2)
    assert s1["constexprs"]["BLOCK_N"] == 32 and s1["constexprs"]["BLOCK_DMODEL"] == 512
    assert r.launches[1]["fits"] is True


def test_the_knob_and_a_batch_of_variants():
    moves = tilefit.suggest(KIMI, "sm_120")
    changes = [(c["field"], c["to"]) for m in moves for c in m["changes"]]
    assert ("block_n", "16") in changes
    fits = [m for m in moves if m["status"] == "fits"]
    assert fits, moves
    # A tuner's batch: the engine default and two knob settings, one call.
    rs = tilefit.check([KIMI, dict(KIMI, block_n=16), dict(KIMI, num_stages=1)], "sm_120")
    assert [x.fits for x in rs] == [False, True, True]
    assert rs[1].launches[0]["constexprs"]["BLOCK_N"] == 16


def test_the_engine_refuses_fp8_kv_below_sm89():
    r = tilefit.analyze(KIMI, "sm_80")
    assert r.engine_refuses is True


def test_other_families_have_no_launches():
    r = tilefit.analyze({"kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16"}, "sm_80")
    assert r.launches == [] and r.engine_refuses is False
