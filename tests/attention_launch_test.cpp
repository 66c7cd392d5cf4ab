// triton_attention's front door (issue 19): the config reader's attention fields and their
// one-line errors, the model presets split per rank, and the launcher inference of vLLM
// 6adad087 and SGLang d6ef6888 — hand-computed launches from the launchers' source, and every
// measured launch of attnmeasure's rows (the row's config through the real reader, the
// inferred launch compared with the recorded kernel, constexprs, warps and stages).
//
// Nothing here asserts a byte count: the kernel model is attnmodel's (kernel_model.cpp);
// until it is merged a scaffold stands in for it (kernel_model_scaffold.cpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/families/triton_attention/launchers.hpp"
#include "test_support.hpp"
#include "tilefit/io/config_error.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/attention_vocab.hpp"

namespace tilefit {
namespace {

using model::attention::AttnLaunch;
using model::attention::Inference;

io::LoadResult read(const std::string& obj) {
  return io::load<io::LoadResult>(io::Source::text("[" + obj + "]", "a.json"));
}

model::KernelConfig config(const std::string& obj) {
  const io::LoadResult r = read(obj);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : io::format_error(r.errors[0]));
  if (r.configs.empty()) return {};
  return r.configs.front().config;
}

/// The one error of `obj`, as format_error writes it.
std::string error_of(const std::string& obj) {
  const io::LoadResult r = read(obj);
  EXPECT_EQ(r.errors.size(), 1u) << obj;
  return r.errors.empty() ? "" : io::format_error(r.errors.front());
}

Inference infer(const std::string& obj) {
  model::Findings why(true);
  return model::attention::infer(config(obj), why);
}

double cx(const AttnLaunch& l, const char* name) {
  const auto v = l.get(name);
  EXPECT_TRUE(v.has_value()) << name;
  return v.value_or(-12345);
}

const std::string kKimi =
    R"("kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8,
       "kv_dtype": "fp8_e4m3", "arch": "sm_120")";

// ---- presets and tp -----------------------------------------------------------------------------

TEST(AttentionPresets, PerRankHeadsFollowVllmsSplit) {
  model::AttentionSpec a;
  a.model = "llama-3.1-70b";
  a.tp = 16;  // 8 kv heads < tp 16: one replicated kv head per rank (llama.py:146-154)
  model::AttnShapeError err;
  auto s = model::resolve_attn_shape(a, &err);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->q_heads, 4);
  EXPECT_EQ(s->kv_heads, 1);
  a.tp = 4;
  s = model::resolve_attn_shape(a, &err);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->q_heads, 16);
  EXPECT_EQ(s->kv_heads, 2);
  a.model = "kimi-k2";
  a.tp = 8;
  s = model::resolve_attn_shape(a, &err);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->q_heads, 8);
  EXPECT_EQ(s->kv_lora_rank, 512);
  EXPECT_EQ(s->rope_dim, 64);
  EXPECT_EQ(s->head_dim, 192);
}

TEST(AttentionPresets, EveryPresetHasHeadsAndAHeadDimAndACitation) {
  for (const model::AttnPreset& p : model::attn_presets()) {
    EXPECT_GT(p.q_heads, 0) << p.name;
    EXPECT_GT(p.kv_heads, 0) << p.name;
    EXPECT_EQ(p.q_heads % p.kv_heads, 0) << p.name;
    EXPECT_GT(p.head_dim, 0) << p.name;
    EXPECT_FALSE(p.hf.empty()) << p.name;
    EXPECT_EQ(model::find_attn_preset(p.name), &p);
  }
  EXPECT_EQ(model::find_attn_preset("Kimi-K2"), model::find_attn_preset("kimi-k2"));
}

TEST(AttentionPresets, BadModelAndTpAreInputErrorsNamingTheField) {
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k3"})"),
            "a.json: config #0: field \"model\": \"kimi-k3\" is not a valid model preset; "
            "allowed: " +
                model::attn_preset_choices() + "; did you mean \"kimi-k2\"?");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2",
                         "tp": 3})"),
            "a.json: config #0: field \"tp\": 3 does not divide kimi-k2's 64 attention heads; "
            "allowed: a divisor of 64");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm",
                         "model": "mistral-large-2", "tp": 12})"),
            "a.json: config #0: field \"tp\": 12 is neither a divisor nor a multiple of "
            "mistral-large-2's 8 kv heads (vLLM asserts tp_size % num_kv_heads == 0)");
  // 32 heads over tp 16: 2 per rank; 8 kv heads < 16: one replicated kv head per rank.
  EXPECT_TRUE(read(R"({"kernel": "triton_attention", "launcher": "vllm",
                       "model": "llama-3.1-8b", "tp": 16})")
                  .errors.empty());
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 8,
                         "tp": 2, "head_dim": 128})"),
            "a.json: config #0: field \"tp\": applies only with \"model\" (a preset); per-rank "
            "shapes are given as q_heads, kv_heads, head_dim");
}

// ---- the reader ---------------------------------------------------------------------------------

TEST(AttentionReader, FieldsAreTypedAndRangeChecked) {
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 0,
                         "head_dim": 128})"),
            "a.json: config #0: field \"q_heads\": 0 is not a valid head count; allowed: "
            "integers 1..4096");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "sglang", "q_heads": 8,
                         "head_dim": 128, "kv_dtype": "int8"})"),
            "a.json: config #0: field \"kv_dtype\": \"int8\" is not a valid kv_dtype dtype; "
            "allowed: bf16, f16, f32, fp8_e4m3 (fp8), fp8_e5m2");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 8,
                         "head_dim": 128, "act_dtype": "fp8_e4m3"})"),
            "a.json: config #0: field \"act_dtype\": \"fp8_e4m3\" is not a valid act_dtype "
            "dtype; allowed: bf16, f16, f32");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 8,
                         "head_dim": 128, "sinks": 1})"),
            "a.json: config #0: field \"sinks\": expected true or false, got 1");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "q_heads": 8, "head_dim": 128})"),
            "a.json: config #0: field \"launcher\": missing; a triton_attention config needs "
            "whose launcher runs it; allowed: vllm, sglang");
}

TEST(AttentionReader, OpsBelongToTheirEngineAndStagesToTheirOp) {
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "sglang", "op": "unified_3d",
                         "q_heads": 8, "head_dim": 128})"),
            "a.json: config #0: field \"op\": \"unified_3d\" is not a launcher of "
            "sglang@d6ef6888; allowed: auto, decode, mla_decode, extend, extend_unified, prefill");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "unified_2d",
                         "stage": "reduce", "q_heads": 8, "head_dim": 128})"),
            "a.json: config #0: field \"stage\": \"reduce\": op unified_2d has no such launch; "
            "allowed: all, main");
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "scaled_mm",
                         "q_heads": 8, "head_dim": 128})"),
            "a.json: config #0: field \"op\": \"scaled_mm\" is not a valid triton_attention op; "
            "allowed: auto, decode, mla_decode, unified_2d, unified_3d, extend, extend_unified, "
            "prefill, prefix_prefill");
}

TEST(AttentionReader, EnginePinsOnlyTheModelledCommits) {
  const model::KernelConfig c = config(
      R"({"kernel": "triton_attention", "engine": "sglang@d6ef6888", "q_heads": 8,
          "head_dim": 128})");
  EXPECT_EQ(c.launcher, model::Launcher::Sglang);
  EXPECT_EQ(c.engine, model::EngineRelease::SglangD6ef6888);
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "engine": "vllm@000d1458", "q_heads": 8,
                         "head_dim": 128})"),
            "a.json: config #0: field \"engine\": \"vllm@000d1458\": triton_attention models "
            "only the pinned commits; allowed: vllm, sglang, vllm@6adad087, sglang@d6ef6888");
}

TEST(AttentionReader, OtherKernelsFieldsAreRefusedBothWays) {
  EXPECT_EQ(error_of(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 8,
                         "head_dim": 128, "tile": [64, 64, 64]})"),
            "a.json: config #0: field \"tile\": does not apply to \"kernel\": "
            "\"triton_attention\"; it takes launcher, engine, op, stage, phase, model/tp or the "
            "shape fields, the dtypes, the runtime inputs and the overrides "
            "(docs/guide/attention.md)");
  EXPECT_EQ(error_of(R"({"kernel": "triton_matmul", "tile": [64, 64, 64], "block_n": 32})"),
            "a.json: config #0: field \"block_n\": applies only to \"kernel\": "
            "\"triton_attention\" (vLLM's and SGLang's Triton attention kernels)");
}

// ---- vLLM launchers, by hand from the source ----------------------------------------------------

TEST(AttentionVllm, KimiK2MlaDecodeIsTheGroupedKernelWithTheMlaSplit) {
  const Inference inf = infer("{" + kKimi + R"(, "max_seq_len": 8192, "sm_count": 188})");
  ASSERT_FALSE(inf.failed);
  EXPECT_EQ(inf.op, model::AttnOp::MlaDecode);  // phase decode (default) + an MLA shape
  ASSERT_EQ(inf.launches.size(), 2u);
  const AttnLaunch& s1 = inf.launches[0];
  EXPECT_EQ(s1.kernel, model::attention::AttnKernel::VllmDecodeGroupedStage1);
  EXPECT_EQ(cx(s1, "kv_group_num"), 8);  // 64 heads / tp 8 over one latent head
  EXPECT_EQ(cx(s1, "BLOCK_DMODEL"), 512);
  EXPECT_EQ(cx(s1, "BLOCK_DPE"), 64);
  EXPECT_EQ(cx(s1, "BLOCK_DV"), 512);
  EXPECT_EQ(cx(s1, "BLOCK_N"), 32);
  EXPECT_EQ(cx(s1, "BLOCK_H"), 16);
  EXPECT_EQ(cx(s1, "Lk"), 576);
  EXPECT_EQ(cx(s1, "Lv"), 512);
  EXPECT_EQ(cx(s1, "IS_MLA"), 1);
  EXPECT_EQ(cx(s1, "PAGE_SIZE"), 16);
  EXPECT_EQ(cx(s1, "NUM_KV_SPLITS"), 16);  // next_pow2(8192 // 512) = 16 < 2 * 188
  EXPECT_EQ(s1.num_stages, 2);             // BLOCK_DMODEL 512 < 1024: the guard does not fire
  EXPECT_EQ(s1.num_warps, 4);
  EXPECT_EQ(s1.kv_dtype, model::DType::E4M3);
  const AttnLaunch& s2 = inf.launches[1];
  EXPECT_EQ(s2.kernel, model::attention::AttnKernel::VllmDecodeStage2);
  EXPECT_EQ(cx(s2, "NUM_KV_SPLITS"), 16);
  EXPECT_EQ(cx(s2, "BLOCK_DV"), 512);
  EXPECT_EQ(s2.num_stages, 2);
}

TEST(AttentionVllm, TheBlockDmodel1024GuardLowersNumStagesToOne) {
  // Not MLA, Lk 576: BLOCK_DMODEL = next_power_of_2(576) = 1024 -> num_stages 1 (522-532).
  const Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "op": "decode", "q_heads": 16, "kv_heads": 1, "head_dim": 576, "head_dim_v": 512,
      "arch": "sm_90"})");
  ASSERT_FALSE(inf.failed);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_DMODEL"), 1024);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_DPE"), 0);
  EXPECT_EQ(inf.launches[0].num_stages, 1);
}

TEST(AttentionVllm, MhaDecodeRunsTheUngroupedKernel) {
  const Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "op": "decode", "q_heads": 8, "kv_heads": 8, "head_dim": 96, "arch": "sm_80",
      "page_size": 16})");
  ASSERT_FALSE(inf.failed);
  const AttnLaunch& s1 = inf.launches[0];
  EXPECT_EQ(s1.kernel, model::attention::AttnKernel::VllmDecodeStage1);
  EXPECT_EQ(cx(s1, "BLOCK_N"), 64);
  EXPECT_EQ(cx(s1, "BLOCK_DMODEL"), 128);
  EXPECT_EQ(s1.num_warps, 4);
  EXPECT_EQ(s1.num_stages, 2);
}

TEST(AttentionVllm, UnifiedPicks3dForSmallDecodeBatches) {
  // llama-3.1-8b tp 1: 8 kv heads -> seq_threshold_3D = 128 // 8 = 16 (a capture size).
  const std::string base = R"("kernel": "triton_attention", "launcher": "vllm",
      "model": "llama-3.1-8b", "arch": "sm_90")";
  Inference inf = infer("{" + base + R"(, "num_seqs": 16})");
  EXPECT_EQ(inf.op, model::AttnOp::Unified3d);
  ASSERT_EQ(inf.launches.size(), 2u);
  EXPECT_EQ(inf.launches[0].kernel, model::attention::AttnKernel::VllmUnified);
  EXPECT_EQ(cx(inf.launches[0], "IS_3D"), 1);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 16);  // 4 queries per kv head <= 16
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_Q"), 4);
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 16);  // decode tile, 2-byte queries
  EXPECT_EQ(cx(inf.launches[0], "NUM_SEGMENTS_PER_SEQ"), 16);
  EXPECT_EQ(inf.launches[0].num_stages, 3);  // not passed: Triton's default
  EXPECT_EQ(inf.launches[1].kernel, model::attention::AttnKernel::VllmReduceSegments);
  EXPECT_EQ(cx(inf.launches[1], "TILE_SIZE"), 16);
  inf = infer("{" + base + R"(, "num_seqs": 17})");
  EXPECT_EQ(inf.op, model::AttnOp::Unified2d);
  ASSERT_EQ(inf.launches.size(), 1u);
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 32);  // the prefill tile
  EXPECT_EQ(cx(inf.launches[0], "NUM_SEGMENTS_PER_SEQ"), 1);
  inf = infer("{" + base + R"(, "phase": "prefill", "max_seqlen_q": 512})");
  EXPECT_EQ(inf.op, model::AttnOp::Unified2d);
  inf = infer("{" + base + R"(, "deterministic": true})");
  EXPECT_EQ(inf.op, model::AttnOp::Unified2d);
}

TEST(AttentionVllm, SeqThresholdMovesToTheClosestCaptureSize) {
  EXPECT_EQ(model::attention::vllm_seq_threshold_3d(8), 16);
  EXPECT_EQ(model::attention::vllm_seq_threshold_3d(1), 128);
  EXPECT_EQ(model::attention::vllm_seq_threshold_3d(3), 40);  // 128 // 3 = 42 -> 40
  EXPECT_EQ(model::attention::vllm_seq_threshold_3d(5), 24);  // 25 -> 24
}

TEST(AttentionVllm, TileSizeFollowsGemma3AndFp8Queries) {
  // gemma-3-12b sliding layers: window 1024, head 256 -> 32 for decode too.
  Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "model": "gemma-3-12b", "op": "unified_3d", "arch": "sm_89"})");
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 32);
  EXPECT_EQ(cx(inf.launches[0], "SLIDING_WINDOW"), 1024);
  // A full layer of the same model: the default decode tile 16.
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "model": "gemma-3-12b", "sliding_window": 0, "op": "unified_3d", "arch": "sm_89"})");
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 16);
  // fp8 queries: 32 (element size 1).
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "model": "llama-3.1-8b",
      "op": "unified_3d", "q_dtype": "fp8_e4m3", "kv_dtype": "fp8_e4m3", "arch": "sm_89"})");
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 32);
  EXPECT_EQ(cx(inf.launches[0], "Q_IS_FP8"), 1);
  EXPECT_EQ(cx(inf.launches[0], "KV_QUANT_MODE"), 1);
}

TEST(AttentionVllm, TunedLargeHeadOnTheSm100Family) {
  const std::string c = R"("kernel": "triton_attention", "launcher": "vllm",
      "model": "gemma-3-12b", "sliding_window": 0, "phase": "prefill", "max_seqlen_q": 512)";
  Inference inf = infer("{" + c + R"(, "arch": "sm_100"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 32);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_Q"), 16);  // 32 // 2 queries per kv head
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 128);
  EXPECT_EQ(inf.launches[0].num_warps, 8);
  EXPECT_EQ(inf.launches[0].num_stages, 2);
  inf = infer("{" + c + R"(, "arch": "sm_90"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 16);
  EXPECT_EQ(cx(inf.launches[0], "TILE_SIZE"), 32);
  EXPECT_EQ(inf.launches[0].num_warps, 4);
  EXPECT_EQ(inf.launches[0].num_stages, 3);
}

TEST(AttentionVllm, ManyQueriesPerKvHeadRaiseBlockM) {
  const Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "q_heads": 24, "kv_heads": 1, "head_dim": 128, "op": "unified_2d", "arch": "sm_90"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 32);  // next_power_of_2(24)
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_Q"), 1);
}

TEST(AttentionVllm, PrefillAndPrefixPrefillBlocks) {
  Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "prefill",
      "q_heads": 16, "kv_heads": 16, "head_dim": 80, "arch": "sm_75", "act_dtype": "f16"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 64);  // get_block_size below sm_80
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_DMODEL"), 128);
  EXPECT_EQ(cx(inf.launches[0], "IS_CAUSAL"), 0);
  EXPECT_EQ(cx(inf.launches[0], "SLIDING_WINDOW_Q"), -1);
  EXPECT_EQ(inf.launches[0].num_warps, 8);
  EXPECT_EQ(inf.launches[0].num_stages, 1);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "prefill",
      "q_heads": 16, "kv_heads": 16, "head_dim": 64, "arch": "sm_90", "act_dtype": "f32"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 32);  // f32 queries
  EXPECT_EQ(inf.launches[0].num_warps, 4);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "prefix_prefill",
      "q_heads": 16, "kv_heads": 4, "head_dim": 128, "arch": "sm_90", "page_size": 32,
      "kv_dtype": "fp8_e4m3"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 128);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_N"), 64);
  EXPECT_EQ(cx(inf.launches[0], "x"), 16);  // 16 bytes of fp8
  EXPECT_EQ(cx(inf.launches[0], "PHYSICAL_BLOCK_SIZE"), 32);
  EXPECT_EQ(cx(inf.launches[0], "num_queries_per_kv"), 4);
}

TEST(AttentionVllm, RefusalsAreNotSharedMemoryVerdicts) {
  model::Findings why(true);
  Inference inf = model::attention::infer(
      config("{" + kKimi.substr(0, kKimi.find("\"arch\"")) + R"("arch": "sm_86"})"), why);
  EXPECT_TRUE(inf.engine_refuses);  // FP8 KV below sm_89 (triton_mla.py:211-222)
  EXPECT_FALSE(inf.failed);         // the launch is still inferred
  EXPECT_EQ(inf.launches.size(), 2u);
  bool said = false;
  for (const model::Diagnostic& d : why.notes())
    said = said || (d.code == model::Code::attn_engine_refuses &&
                    d.text("reason").find("sm_89") != std::string_view::npos);
  EXPECT_TRUE(said);
  inf = infer("{" + kKimi + R"(, "page_size": 8})");
  EXPECT_TRUE(inf.engine_refuses);  // supports_block_size: a multiple of 16
  inf = infer("{" + kKimi + "}");
  EXPECT_FALSE(inf.engine_refuses);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "q_heads": 12,
      "kv_heads": 8, "head_dim": 128, "arch": "sm_90"})");
  EXPECT_TRUE(inf.engine_refuses);  // 12 % 8 != 0
}

TEST(AttentionVllm, AlibiRunsThePrefixPrefillAlibiKernel) {
  // prefix_prefill.py:884-942: BLOCK_M = BLOCK_N = BASE_BLOCK (128 from sm_80, 64 below, halved
  // for f32 queries), NUM_WARPS 8, num_stages 1.
  const std::string c = R"("kernel": "triton_attention", "launcher": "vllm", "op": "prefix_prefill",
      "q_heads": 16, "kv_heads": 2, "head_dim": 96, "page_size": 16, "alibi": true)";
  Inference inf = infer("{" + c + R"(, "arch": "sm_90"})");
  ASSERT_EQ(inf.launches.size(), 1u);
  EXPECT_EQ(model::attention::kernel_function(inf.launches[0].kernel), "_fwd_kernel_alibi");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 128);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_N"), 128);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_DMODEL"), 96);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_DMODEL_PADDED"), 128);
  EXPECT_EQ(inf.launches[0].num_warps, 8);
  EXPECT_EQ(inf.launches[0].num_stages, 1);
  inf = infer("{" + c + R"(, "arch": "sm_75", "act_dtype": "f32"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 32);
  // the assert of prefix_prefill.py:886 and the launchers without slopes: engine refusals
  inf = infer("{" + c + R"(, "arch": "sm_90", "sinks": true})");
  EXPECT_TRUE(inf.engine_refuses);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "decode",
      "q_heads": 16, "kv_heads": 2, "head_dim": 128, "arch": "sm_90", "alibi": true})");
  EXPECT_TRUE(inf.engine_refuses);
  // unified attention with ALiBi is not measured: declined
  inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm", "op": "unified_2d",
      "q_heads": 16, "kv_heads": 2, "head_dim": 128, "arch": "sm_90", "alibi": true})");
  EXPECT_TRUE(inf.failed);
  EXPECT_TRUE(inf.launches.empty());
}

// ---- SGLang launchers ---------------------------------------------------------------------------

TEST(AttentionSglang, ExtendBlocksPerCapability) {
  const std::string c = R"("kernel": "triton_attention", "launcher": "sglang", "op": "extend",
      "q_heads": 32, "kv_heads": 8, "head_dim": 128)";
  const std::pair<const char*, std::pair<int, int>> want[] = {
      {"sm_75", {64, 64}},  {"sm_80", {128, 128}}, {"sm_86", {64, 128}}, {"sm_89", {64, 128}},
      {"sm_90", {128, 64}}, {"sm_100", {64, 64}},  {"sm_120", {64, 128}}};
  for (const auto& [arch, mn] : want) {
    const Inference inf = infer("{" + c + ", \"arch\": \"" + arch + "\"}");
    ASSERT_FALSE(inf.failed) << arch;
    EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), mn.first) << arch;
    EXPECT_EQ(cx(inf.launches[0], "BLOCK_N"), mn.second) << arch;
    EXPECT_EQ(inf.launches[0].num_warps, 8) << arch;
    EXPECT_EQ(inf.launches[0].num_stages, 1) << arch;
  }
  // MLA (absorbed: Lq 576 -> 512 + 64) on sm_120: 32 x 32 (the 106496 B case of PR #17908).
  const Inference mla = infer(R"({"kernel": "triton_attention", "launcher": "sglang",
      "op": "extend", "model": "kimi-k2", "tp": 8, "arch": "sm_120"})");
  EXPECT_EQ(cx(mla.launches[0], "BLOCK_DMODEL"), 512);
  EXPECT_EQ(cx(mla.launches[0], "BLOCK_DPE"), 64);
  EXPECT_EQ(cx(mla.launches[0], "BLOCK_DV"), 512);
  EXPECT_EQ(cx(mla.launches[0], "BLOCK_M"), 32);
  EXPECT_EQ(cx(mla.launches[0], "BLOCK_N"), 32);
  // 192 = 128 + 64 (the decompressed MLA head).
  const Inference d192 = infer(R"({"kernel": "triton_attention", "launcher": "sglang",
      "op": "extend", "q_heads": 16, "kv_heads": 16, "head_dim": 192, "head_dim_v": 128,
      "arch": "sm_90"})");
  EXPECT_EQ(cx(d192.launches[0], "BLOCK_DMODEL"), 128);
  EXPECT_EQ(cx(d192.launches[0], "BLOCK_DPE"), 64);
  EXPECT_EQ(cx(d192.launches[0], "BLOCK_M"), 64);
}

TEST(AttentionSglang, DecodeSplitsAndPdl) {
  Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "sglang",
      "model": "kimi-k2", "tp": 8, "arch": "sm_90", "sm_count": 132, "context_len": 131072})");
  EXPECT_EQ(inf.op, model::AttnOp::MlaDecode);
  ASSERT_EQ(inf.launches.size(), 2u);
  EXPECT_EQ(cx(inf.launches[0], "HAS_MLA"), 1);
  EXPECT_EQ(cx(inf.launches[0], "USE_PDL"), 1);  // capability major >= 9
  EXPECT_EQ(cx(inf.launches[0], "PAGE_SIZE"), 1);
  // max(8, min(next_pow2(132) = 256, next_pow2(131072 / 32) = 4096)) = 256.
  EXPECT_EQ(cx(inf.launches[1], "MAX_KV_SPLITS"), 256);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "sglang", "model": "qwen3-8b",
      "arch": "sm_80"})");
  EXPECT_EQ(inf.op, model::AttnOp::Decode);
  EXPECT_EQ(cx(inf.launches[0], "USE_PDL"), 0);
  EXPECT_EQ(cx(inf.launches[1], "MAX_KV_SPLITS"), 8);
  inf = infer(R"({"kernel": "triton_attention", "launcher": "sglang", "model": "qwen3-8b",
      "arch": "sm_80", "deterministic": true, "context_len": 40960})");
  EXPECT_EQ(cx(inf.launches[1], "MAX_KV_SPLITS"), 160);  // cdiv(40960, 256)
  inf = infer(R"({"kernel": "triton_attention", "launcher": "sglang", "model": "qwen3-8b",
      "arch": "sm_80", "phase": "extend", "deterministic": true})");
  EXPECT_EQ(inf.op, model::AttnOp::ExtendUnified);
}

TEST(AttentionSglang, PrefillBlockByCapabilityMajor) {
  const std::string c = R"("kernel": "triton_attention", "launcher": "sglang", "op": "prefill",
      "q_heads": 8, "kv_heads": 8, "head_dim": 256)";
  EXPECT_EQ(cx(infer("{" + c + R"(, "arch": "sm_90"})").launches[0], "BLOCK_M"), 128);
  EXPECT_EQ(cx(infer("{" + c + R"(, "arch": "sm_89"})").launches[0], "BLOCK_M"), 64);
  EXPECT_EQ(cx(infer("{" + c + R"(, "arch": "sm_120"})").launches[0], "BLOCK_N"), 128);
  EXPECT_EQ(infer("{" + c + R"(, "arch": "sm_120"})").launches[0].num_warps, 8);
}

// ---- overrides and stages -----------------------------------------------------------------------

TEST(AttentionOverrides, ReplaceTheLaunchersChoiceWhereTheConstexprExists) {
  model::Findings why(true);
  const Inference inf = model::attention::infer(
      config("{" + kKimi + R"(, "block_n": 16, "block_h": 8, "num_stages": 1,
                              "num_warps": 8, "block_dv": 256, "tile_size": 64})"),
      why);
  ASSERT_EQ(inf.launches.size(), 2u);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_N"), 16);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_H"), 8);
  EXPECT_EQ(inf.launches[0].num_stages, 1);  // the primary launch only
  EXPECT_EQ(inf.launches[0].num_warps, 8);
  EXPECT_EQ(inf.launches[1].num_stages, 2);
  EXPECT_EQ(inf.launches[1].num_warps, 4);
  EXPECT_EQ(cx(inf.launches[1], "BLOCK_DV"), 256);  // both launches have BLOCK_DV
  bool unused = false;
  for (const model::Diagnostic& d : why.notes())
    unused =
        unused || (d.code == model::Code::attn_override_unused && d.text("field") == "tile_size");
  EXPECT_TRUE(unused);
}

TEST(AttentionOverrides, BlockMCarriesBlockQInUnified) {
  const Inference inf = infer(R"({"kernel": "triton_attention", "launcher": "vllm",
      "model": "llama-3.1-8b", "op": "unified_2d", "block_m": 64, "arch": "sm_90"})");
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_M"), 64);
  EXPECT_EQ(cx(inf.launches[0], "BLOCK_Q"), 16);  // 64 // 4
}

TEST(AttentionStages, StageSelectsOneLaunchAndItIsThePrimary) {
  const Inference inf = infer("{" + kKimi + R"(, "stage": "stage2", "num_stages": 1})");
  ASSERT_EQ(inf.launches.size(), 1u);
  EXPECT_EQ(inf.launches[0].kernel, model::attention::AttnKernel::VllmDecodeStage2);
  EXPECT_EQ(inf.launches[0].num_stages, 1);
  EXPECT_EQ(inf.all.size(), 2u);
}

// ---- the measured rows --------------------------------------------------------------------------

/// attnmeasure's launch rows (dev + full, 1813 launches, trimmed by
/// tools/attention_launch_rows.py); $TILEFIT_ATTENTION_ROWS names another file of that format.
std::string rows_path() {
  if (const char* p = std::getenv("TILEFIT_ATTENTION_ROWS")) return p;
  return test::data_path("attention-launch-rows.jsonl");
}

TEST(AttentionMeasuredLaunches, EveryRowsLaunchIsInferred) {
  std::ifstream in(rows_path());
  ASSERT_TRUE(in) << rows_path();
  std::string line;
  int rows = 0, compared = 0, constexprs = 0, alibi = 0;
  std::map<std::string, int> mismatches;
  std::string first;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line);
    if (!row.contains("launch") || !row["launch"].is_object() ||
        row["launch"].value("stage", "") == "launcher")
      continue;  // the engine refused: no launch recorded
    // prefix_prefill's _fwd_kernel_alibi (the config field `alibi`)
    if (row["config"].contains("alibi")) ++alibi;
    ++rows;
    nlohmann::json cfg = row["config"];
    cfg["kernel"] = "triton_attention";
    if (!cfg.contains("launcher") && !cfg.contains("engine"))
      cfg["engine"] = row.value("engine", "vllm@6adad087");
    if (row.contains("cc") && !cfg.contains("arch")) cfg["arch"] = row["cc"];
    cfg["stage"] = row["launch"]["stage"];
    const io::LoadResult r = read(cfg.dump());
    ASSERT_TRUE(r.errors.empty()) << row.value("id", "?") << ": " << io::format_error(r.errors[0]);
    model::Findings why(false);
    const Inference inf = model::attention::infer(r.configs.front().config, why);
    ASSERT_FALSE(inf.failed) << row.value("id", "?");
    ASSERT_EQ(inf.launches.size(), 1u) << row.value("id", "?");
    const AttnLaunch& l = inf.launches.front();
    const nlohmann::json& want = row["launch"];
    auto miss = [&](const std::string& what) {
      if (mismatches[what]++ == 0 && first.empty()) first = row.value("id", "?") + ": " + what;
    };
    if (std::string(model::attention::kernel_function(l.kernel)) != want.value("kernel", ""))
      miss("kernel " + want.value("kernel", ""));
    if (want.contains("num_warps") && want["num_warps"].is_number() &&
        l.num_warps != want["num_warps"].get<int>())
      miss("num_warps of " + want.value("kernel", ""));
    if (want.contains("num_stages") && want["num_stages"].is_number() &&
        l.num_stages != want["num_stages"].get<int>())
      miss("num_stages of " + want.value("kernel", ""));
    const nlohmann::json& ce = want["constexprs"];
    const nlohmann::json si = want.value("specialised_ints", nlohmann::json::object());
    for (const auto& [name, value] : l.constexprs) {
      ++constexprs;
      const nlohmann::json* got = ce.contains(name)   ? &ce[name]
                                  : si.contains(name) ? &si[name]
                                                      : nullptr;
      if (got == nullptr) {
        miss(name + " absent from the row (" + want.value("kernel", "") + ")");
        continue;
      }
      double v = 0;
      if (got->is_boolean())
        v = got->get<bool>() ? 1 : 0;
      else if (got->is_number())
        v = got->get<double>();
      else if (got->is_null())
        v = 0;
      else
        continue;
      if (v != value) miss(name + " of " + want.value("kernel", ""));
    }
    ++compared;
  }
  std::string report;
  for (const auto& [what, n] : mismatches) report += "\n  " + what + ": " + std::to_string(n);
  EXPECT_TRUE(mismatches.empty()) << compared << " launches, " << constexprs
                                  << " constexprs compared; first: " << first << report;
  EXPECT_GT(rows, 3500);
  EXPECT_GT(alibi, 150);
  RecordProperty("launches", compared);
}

}  // namespace
}  // namespace tilefit
