// triton_attention through the CLI, in process (issue 19).
//
// The last two cases hold the measured numbers of the two "Done when" reports (vLLM #46721:
// Kimi-K2 MLA decode, fp8 KV, sm_120, 102400 B; vLLM #57712: Gemma-4 head_dim 512 on sm_75,
// 98304 B), as measured on the GPU machine (tests/data/attention-triton-3.6.md). The other cases
// check the inferred launches in text and JSON, the refusals, the input errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace tilefit {
namespace {

using test::run_command;

const std::string kKimiCli =
    R"([{"name": "kimi", "kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2",
         "tp": 8, "kv_dtype": "fp8_e4m3", "arch": "sm_120"}])";
const std::string kGemma4Cli =
    R"([{"name": "gemma4", "kernel": "triton_attention", "launcher": "vllm",
         "model": "gemma-4-31b-global", "act_dtype": "f16", "phase": "prefill",
         "arch": "sm_75"}])";

TEST(AttentionCli, JsonShowsEveryLaunchWithItsConstexprs) {
  const auto r = run_command("check - --format json", test::with_stdin(kKimiCli));
  ASSERT_TRUE(r.out.find("\"launches\"") != std::string::npos) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& res = j["results"][0];
  EXPECT_EQ(res["kernel"], "triton_attention");
  EXPECT_EQ(res["engine_refuses"], false);
  ASSERT_EQ(res["launches"].size(), 2u);
  const nlohmann::json& s1 = res["launches"][0];
  EXPECT_EQ(s1["stage"], "stage1");
  EXPECT_EQ(s1["kernel"], "_fwd_grouped_kernel_stage1");
  EXPECT_EQ(s1["constexprs"]["BLOCK_DMODEL"], 512);
  EXPECT_EQ(s1["constexprs"]["BLOCK_DPE"], 64);
  EXPECT_EQ(s1["constexprs"]["BLOCK_N"], 32);
  EXPECT_EQ(s1["constexprs"]["BLOCK_H"], 16);
  EXPECT_EQ(s1["num_warps"], 4);
  EXPECT_EQ(s1["num_stages"], 2);
  EXPECT_EQ(res["launches"][1]["kernel"], "_fwd_kernel_stage2");
}

TEST(AttentionCli, TextListsTheLaunches) {
  const auto r = run_command("check -", test::with_stdin(kKimiCli));
  EXPECT_NE(r.out.find("launch stage1: _fwd_grouped_kernel_stage1 with kv_group_num=8"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("launch stage2: _fwd_kernel_stage2"), std::string::npos) << r.out;
}

TEST(AttentionCli, TheEngineRefusalIsApartFromTheVerdict) {
  std::string cfg = kKimiCli;
  cfg.replace(cfg.find("sm_120"), 6, "sm_86");
  const auto r = run_command("check - --format json", test::with_stdin(cfg));
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& res = j["results"][0];
  EXPECT_EQ(res["engine_refuses"], true);
  bool said = false;
  for (const auto& d : res["diagnostics"])
    said = said || (d["code"] == "attn_engine_refuses" &&
                    d["message"].get<std::string>().find("sm_89") != std::string::npos);
  EXPECT_TRUE(said) << r.out;
}

// Validity is per launch: an fp8 cache below sm_89 makes the launch that reads it invalid, not
// stage 2 of decode or reduce_segments, which never read the cache (Triton 3.6 compiles them:
// the measured stage2/reduce rows with fp8_e4m3 on sm_75 ... sm_86 are all "ok"). The op's
// verdict is the worst launch's.
TEST(AttentionCli, ALaunchThatDoesNotReadTheCacheIsValidWithAnFp8Cache) {
  const auto check = [](const std::string& cfg) {
    const auto r = run_command("check - --format json", test::with_stdin("[" + cfg + "]"));
    return nlohmann::json::parse(r.out)["results"][0];
  };
  for (const std::string& op : {std::string(R"("op": "decode", "launcher": "vllm")"),
                                std::string(R"("op": "decode", "launcher": "sglang")"),
                                std::string(R"("op": "unified_3d", "launcher": "vllm")")}) {
    SCOPED_TRACE(op);
    const std::string base = R"({"kernel": "triton_attention", )" + op +
                             R"(, "q_heads": 32, "kv_heads": 8, "head_dim": 128,
        "kv_dtype": "fp8_e4m3", "arch": "sm_86")";
    const nlohmann::json all = check(base + "}");
    EXPECT_EQ(all["status"], "invalid");  // the first launch reads the fp8 cache
    ASSERT_EQ(all["launches"].size(), 2u) << all.dump();
    EXPECT_EQ(all["launches"][0]["invalid"], true);
    EXPECT_EQ(all["launches"][1]["invalid"], false) << all["launches"][1].dump();
    EXPECT_TRUE(all["launches"][1]["smem_bytes"].is_number()) << all["launches"][1].dump();
    const std::string second = op.find("unified_3d") != std::string::npos ? "reduce" : "stage2";
    const nlohmann::json one = check(base + R"(, "stage": ")" + second + "\"}");
    EXPECT_EQ(one["status"], "fits") << one.dump();
  }
}

TEST(AttentionCli, InputErrorsNameFileConfigFieldValueAllowed) {
  const auto r = run_command(
      "check -",
      test::with_stdin(R"([{"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2",
                           "tp": 3, "arch": "sm_120"}])"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field \"tp\": 3 does not divide kimi-k2's 64 attention heads; allowed: "
                       "a divisor of 64"),
            std::string::npos)
      << r.err;
}

// One error per fault: a block override that is not a power of two is said once, naming the
// field the user wrote (attn_block_not_pow2), not again by the kernel model for the constexpr
// it becomes (attn_block_not_power_of_two), whatever the number of launches that have it.
TEST(AttentionCli, ABlockThatIsNotAPowerOfTwoIsOneErrorNamingTheField) {
  const auto errors = [](const std::string& cfg) {
    const auto r = run_command("check - --format json", test::with_stdin("[" + cfg + "]"));
    const nlohmann::json res = nlohmann::json::parse(r.out)["results"][0];
    EXPECT_EQ(res["status"], "invalid") << r.out;
    std::vector<nlohmann::json> out;
    for (const auto& d : res["diagnostics"])
      if (d["severity"] == "error") out.push_back(d);
    return out;
  };
  // MLA decode (two launches, stage 1 has BLOCK_N), SGLang extend, vLLM unified (TILE_SIZE).
  for (const std::string& cfg :
       {std::string(R"({"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2",
                        "tp": 8, "kv_dtype": "fp8_e4m3", "arch": "sm_120", "block_n": 48})"),
        std::string(R"({"kernel": "triton_attention", "launcher": "sglang", "op": "extend",
                        "model": "llama-3.1-70b", "tp": 8, "arch": "sm_90", "block_n": 48})"),
        std::string(R"({"kernel": "triton_attention", "launcher": "vllm", "phase": "prefill",
                        "model": "llama-3.1-70b", "tp": 8, "arch": "sm_90", "tile_size": 48})")}) {
    const auto e = errors(cfg);
    ASSERT_EQ(e.size(), 1u) << cfg << "\n" << nlohmann::json(e).dump(1);
    EXPECT_EQ(e[0]["code"], "attn_block_not_pow2");
    const std::string field = cfg.find("tile_size") != std::string::npos ? "tile_size" : "block_n";
    EXPECT_NE(e[0]["message"].get<std::string>().find(field + " = 48"), std::string::npos)
        << e[0].dump();
  }
  // Two bad overrides are two faults: one error each.
  const auto two = errors(R"({"kernel": "triton_attention", "launcher": "sglang", "op": "extend",
                 "model": "llama-3.1-70b", "tp": 8, "arch": "sm_90", "block_n": 48,
                 "block_m": 24})");
  ASSERT_EQ(two.size(), 2u) << nlohmann::json(two).dump(1);
  for (const auto& d : two) EXPECT_EQ(d["code"], "attn_block_not_pow2");
}

TEST(AttentionCli, SweepOverPresetsAndArchs) {
  const auto r = run_command("sweep - --format json",
                             test::with_stdin(R"([{"kernel": "triton_attention", "launcher": "vllm",
                           "model": ["kimi-k2", "llama-3.1-70b"], "tp": 8,
                           "arch": ["sm_80", "sm_120"]}])"));
  ASSERT_EQ(r.exit_code == 0 || r.exit_code == 1, true) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("results")) << r.out;
  EXPECT_EQ(j["results"].size(), 4u);
}

// ---- the measured numbers of the two reports --------------------------------------------------

TEST(AttentionCli, KimiK2MlaDecodeFp8OnSm120Is102400BytesAndBlockNFixesIt) {
  const auto r = run_command("check - --format json", test::with_stdin(kKimiCli));
  const nlohmann::json res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["status"], "does_not_fit");
  EXPECT_EQ(res["launches"][0]["smem_bytes"], 102400);  // vLLM #46721
  EXPECT_EQ(res["smem_bytes"], 102400);
  const auto s = run_command("suggest - --format json", test::with_stdin(kKimiCli));
  bool block_n = false;
  const nlohmann::json sj = nlohmann::json::parse(s.out);
  for (const auto& sug : sj["results"][0]["suggestions"])
    for (const auto& ch : sug["changes"])
      if (ch["field"] == "block_n" && sug["status"] == "fits") block_n = true;
  EXPECT_TRUE(block_n) << s.out;
}

TEST(AttentionCli, Gemma4HeadDim512OnSm75Is98304Bytes) {
  const auto r = run_command("check - --format json", test::with_stdin(kGemma4Cli));
  const nlohmann::json res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["status"], "does_not_fit");
  EXPECT_EQ(res["launches"][0]["kernel"], "kernel_unified_attention");
  EXPECT_EQ(res["launches"][0]["constexprs"]["HEAD_SIZE_PADDED"], 512);
  EXPECT_EQ(res["smem_bytes"], 98304);  // vLLM #57712
}

}  // namespace
}  // namespace tilefit
