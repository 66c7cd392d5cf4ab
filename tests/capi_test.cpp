// The C ABI (include/tilefit/tilefit.h, libtilefit.so): codes, messages and fields, the JSON out,
// the batch call's order with bad configs among good ones, files, suggestions, NULL arguments.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tilefit/tilefit.h"
#include "tilefit/tilefit.hpp"

namespace {

constexpr const char* kFinalize =
    R"({"arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})";

struct Ctx {
  tilefit_context* p = tilefit_context_new();
  ~Ctx() { tilefit_context_free(p); }
};

TEST(CApi, VersionsAgree) {
  EXPECT_EQ(tilefit_abi_version(), TILEFIT_ABI_VERSION);
  EXPECT_EQ(std::string(tilefit_version()), std::string(tilefit::version()));
}

TEST(CApi, TheFinalizeAnswerAsJson) {
  Ctx ctx;
  const char* out = nullptr;
  ASSERT_EQ(tilefit_analyze(ctx.p, kFinalize, nullptr, 0, &out), TILEFIT_OK);
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["status"], "does_not_fit");
  EXPECT_EQ(j["fits"], false);
  EXPECT_EQ(j["smem_bytes"], 102400);
  EXPECT_EQ(j["stages"], 3);
  EXPECT_EQ(j["max_stages"], 2);
  EXPECT_EQ(j["limit_bytes"], 101376);
  long long sum = 0;
  for (const auto& [k, v] : j["breakdown"].items()) sum += v.get<long long>();
  EXPECT_EQ(sum, 102400);
  EXPECT_EQ(j["diagnostics"][0]["severity"], "error");
  // The same numbers as the C++ API, and the verdict flag leaves out the explanations.
  const tilefit::Analysis a = tilefit::analyze(kFinalize);
  EXPECT_EQ(j["diagnostics"][0]["message"], a.diagnostics.front().message);
  ASSERT_EQ(tilefit_analyze(ctx.p, kFinalize, "sm_120", TILEFIT_VERDICT, &out), TILEFIT_OK);
  const auto v = nlohmann::json::parse(out);
  EXPECT_EQ(v["smem_bytes"], 102400);
  EXPECT_FALSE(v.contains("diagnostics"));
  EXPECT_STREQ(tilefit_error_message(ctx.p), "");
}

// An attention op's launches reach the C ABI as they reach the CLI's JSON: vLLM's MLA decode
// for Kimi-K2 with an fp8 KV cache on sm_120 (vLLM #46721: stage 1 needs 102400 B).
TEST(CApi, AttentionLaunchesAndTheEnginesRefusal) {
  constexpr const char* kKimi =
      R"({"kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8,
          "kv_dtype": "fp8_e4m3"})";
  Ctx ctx;
  const char* out = nullptr;
  ASSERT_EQ(tilefit_analyze(ctx.p, kKimi, "sm_120", 0, &out), TILEFIT_OK);
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["smem_bytes"], 102400);
  EXPECT_EQ(j["engine_refuses"], false);
  ASSERT_EQ(j["launches"].size(), 2u);
  const auto& s1 = j["launches"][0];
  EXPECT_EQ(s1["stage"], "stage1");
  EXPECT_EQ(s1["kernel"], "_fwd_grouped_kernel_stage1");
  EXPECT_EQ(s1["constexprs"]["BLOCK_N"], 32);
  EXPECT_EQ(s1["constexprs"]["Lk"], 576);
  EXPECT_EQ(s1["num_warps"], 4);
  EXPECT_EQ(s1["num_stages"], 2);
  EXPECT_EQ(s1["smem_bytes"], 102400);
  EXPECT_EQ(s1["fits"], false);
  EXPECT_EQ(j["launches"][1]["kernel"], "_fwd_kernel_stage2");
  EXPECT_EQ(j["launches"][1]["fits"], true);
  // The same as the C++ API's Analysis.
  const tilefit::Analysis a = tilefit::analyze(kKimi, "sm_120");
  ASSERT_EQ(a.launches.size(), 2u);
  EXPECT_EQ(a.launches[0].smem_bytes, 102400);
  EXPECT_EQ(a.launches[0].constexprs.size(), s1["constexprs"].size());
  EXPECT_EQ(a.launches[0].constexprs.front().first, "kv_group_num");  // the signature's order
  // vLLM refuses an FP8 KV cache below sm_89 before any kernel runs.
  ASSERT_EQ(tilefit_analyze(ctx.p, kKimi, "sm_80", 0, &out), TILEFIT_OK);
  const auto r = nlohmann::json::parse(out);
  EXPECT_EQ(r["engine_refuses"], true);
  EXPECT_TRUE(tilefit::analyze(kKimi, "sm_80").engine_refuses);
  // Other families have no launches; the verdict flag leaves them out too.
  ASSERT_EQ(tilefit_analyze(ctx.p, kFinalize, nullptr, 0, &out), TILEFIT_OK);
  EXPECT_FALSE(nlohmann::json::parse(out).contains("launches"));
  ASSERT_EQ(tilefit_analyze(ctx.p, kKimi, "sm_120", TILEFIT_VERDICT, &out), TILEFIT_OK);
  EXPECT_FALSE(nlohmann::json::parse(out).contains("launches"));
}

TEST(CApi, ErrorsAreACodeTheCliLineAndTheField) {
  Ctx ctx;
  const char* out = nullptr;
  EXPECT_EQ(tilefit_analyze(ctx.p, R"({"arch": "sm_120", "dtype": "nvfp4", "tile": [128, 0, 128]})",
                            nullptr, 0, &out),
            TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(
      tilefit_error_message(ctx.p),
      R"(<config>: config #0: field "tile": 0 is not a valid tile extent; allowed: integers 1..65536 (or "MxNxK"))");
  EXPECT_STREQ(tilefit_error_field(ctx.p), "tile");
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(tilefit_analyze(ctx.p, R"({"tile": [128, 128, 64]})", "sm_42", 0, &out),
            TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "arch");
  EXPECT_EQ(tilefit_analyze(ctx.p, "{not json", nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  EXPECT_EQ(std::string(tilefit_error_message(ctx.p)).rfind("<config>: not JSON", 0), 0u)
      << tilefit_error_message(ctx.p);
  EXPECT_EQ(tilefit_analyze(ctx.p, nullptr, nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  EXPECT_EQ(tilefit_analyze(nullptr, kFinalize, nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  tilefit_target* t = nullptr;
  EXPECT_EQ(tilefit_target_builtin(ctx.p, "sm_1000", &t), TILEFIT_ERROR_INPUT);
  EXPECT_EQ(t, nullptr);
  EXPECT_EQ(tilefit_target_device(ctx.p, -1, &t), TILEFIT_ERROR_DEVICE);
  EXPECT_STRNE(tilefit_error_message(ctx.p), "");
}

TEST(CApi, TheBatchKeepsTheOrderWithErrorsInPlace) {
  Ctx ctx;
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_120", &t), TILEFIT_OK);
  const char* out = nullptr;
  ASSERT_EQ(tilefit_target_json(ctx.p, t, &out), TILEFIT_OK);
  EXPECT_EQ(nlohmann::json::parse(out)["optin_per_block_bytes"], 101376);
  EXPECT_EQ(nlohmann::json::parse(out)["source"], "builtin");
  const std::string batch =
      std::string("[") + kFinalize + R"(, {"tile": [128, 0, 128], "dtype": "nvfp4"},
      {"tile": [128, 128, 128], "dtype": "nvfp5"}, {"kernel": "triton_matmul", "tile": [64, 64, 64], "dtype": "f16"}])";
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, batch.c_str(), t, 0, &out), TILEFIT_OK);
  const auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j.size(), 4u);
  EXPECT_EQ(j[0]["smem_bytes"], 102400);
  EXPECT_EQ(j[1]["status"], "error");
  EXPECT_EQ(j[1]["field"], "tile");
  EXPECT_EQ(j[2]["index"], 2);
  EXPECT_EQ(j[2]["field"], "dtype");
  EXPECT_EQ(j[3]["status"], "fits");
  EXPECT_EQ(j[3]["arch"], "sm_120");
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, batch.c_str(), t, TILEFIT_VERDICT | TILEFIT_COMPACT, &out),
            TILEFIT_OK);
  const auto c = nlohmann::json::parse(out);
  EXPECT_EQ(c[0], nlohmann::json::parse("[1,102400,3,2,74752]"));
  EXPECT_EQ(c[3][0], 0);
  EXPECT_EQ(tilefit_analyze_batch(ctx.p, kFinalize, t, 0, &out),
            TILEFIT_ERROR_INPUT);  // not an array
  EXPECT_EQ(tilefit_analyze_batch(ctx.p, "[1, 2", t, 0, &out), TILEFIT_ERROR_INPUT);
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, "[]", t, 0, &out), TILEFIT_OK);
  EXPECT_STREQ(out, "[]");
  tilefit_target_free(t);
}

TEST(CApi, FilesAndSuggestions) {
  Ctx ctx;
  const char* out = nullptr;
  const std::string paths =
      std::string(R"([")") + TILEFIT_SOURCE_DIR + R"(/configs/triton_kernels.json"])";
  ASSERT_EQ(tilefit_check_files(ctx.p, paths.c_str(), nullptr, 0, &out), TILEFIT_OK)
      << tilefit_error_message(ctx.p);
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["results"][0]["name"], "moe_fp8_default_gb10");
  EXPECT_EQ(j["results"][0]["smem_bytes"], 147456);
  EXPECT_TRUE(j["errors"].empty());
  ASSERT_EQ(tilefit_check_files(ctx.p, R"(["/no/such/file.json"])", "sm_90", 0, &out),
            TILEFIT_ERROR_INPUT);
  EXPECT_NE(std::string(tilefit_error_message(ctx.p)).find("/no/such/file.json"),
            std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(out)["errors"].size(), 1u);
  EXPECT_EQ(tilefit_check_files(ctx.p, R"({"a": 1})", nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "paths");

  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_120", &t), TILEFIT_OK);
  ASSERT_EQ(tilefit_suggest(ctx.p, kFinalize, t, 3, &out), TILEFIT_OK);
  j = nlohmann::json::parse(out);
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j[0]["changes"][0]["field"], "stages");
  EXPECT_EQ(j[0]["status"], "fits");
  ASSERT_EQ(tilefit_analyze(ctx.p, j[0]["config"].dump().c_str(), nullptr, 0, &out), TILEFIT_OK);
  EXPECT_EQ(nlohmann::json::parse(out)["fits"], true);
  tilefit_target_free(t);
}

TEST(CApi, UnknownFlagsAndNoSuggestionsAreErrors) {
  Ctx ctx;
  const char* out = nullptr;
  EXPECT_EQ(tilefit_analyze(ctx.p, kFinalize, nullptr, 4, &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "flags");
  // COMPACT is the batch call's only.
  EXPECT_EQ(tilefit_analyze(ctx.p, kFinalize, nullptr, TILEFIT_COMPACT, &out), TILEFIT_ERROR_INPUT);
  EXPECT_EQ(tilefit_check_files(ctx.p, "[]", nullptr, 8, &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "flags");
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_120", &t), TILEFIT_OK);
  EXPECT_EQ(tilefit_analyze_batch(ctx.p, "[]", t, 1u << 31, &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "flags");
  EXPECT_EQ(tilefit_analyze_batch(ctx.p, "[]", t, TILEFIT_VERDICT | TILEFIT_COMPACT, &out),
            TILEFIT_OK);
  for (int n : {0, -1}) {
    EXPECT_EQ(tilefit_suggest(ctx.p, kFinalize, t, n, &out), TILEFIT_ERROR_INPUT) << n;
    EXPECT_STREQ(tilefit_error_field(ctx.p), "max_suggestions");
  }
  tilefit_target_free(t);
}

TEST(CApi, StandardInputIsRefusedAndFoldersAreWalked) {
  Ctx ctx;
  const char* out = nullptr;
  EXPECT_EQ(tilefit_check_files(ctx.p, R"(["-"])", nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "paths");
  EXPECT_NE(std::string(tilefit_error_message(ctx.p)).find("standard input"), std::string::npos);
  const char* dash[] = {"-"};
  EXPECT_EQ(tilefit_check_paths(ctx.p, dash, 1, nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  // A folder: every tuned table under it, as `tilefit check DIR` reads them.
  const std::string dir = std::string(TILEFIT_SOURCE_DIR) + "/configs";
  const char* folder[] = {dir.c_str()};
  tilefit_check_paths(ctx.p, folder, 1, "sm_120", TILEFIT_VERDICT, &out);
  ASSERT_NE(out, nullptr) << tilefit_error_message(ctx.p);
  const auto j = nlohmann::json::parse(out);
  EXPECT_FALSE(j["results"].empty());
  for (const auto& r : j["results"])
    EXPECT_EQ(r["file"].get<std::string>().rfind(dir + "/", 0), 0u) << r["file"];
}

TEST(CApi, EnginesAsTheCliTakesThem) {
  Ctx ctx;
  const char* out = nullptr;
  ASSERT_EQ(tilefit_engine(ctx.p, "vllm@000d1458", &out), TILEFIT_OK)
      << tilefit_error_message(ctx.p);
  EXPECT_STREQ(out, "vllm@000d1458");
  ASSERT_EQ(tilefit_engine(ctx.p, "sglang", &out), TILEFIT_OK);
  EXPECT_EQ(std::string(out).rfind("sglang@", 0), 0u);
  EXPECT_EQ(tilefit_engine(ctx.p, "vllm@ffffffff", &out), TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "engine");
}

TEST(CApi, TheGridAgreesWithTheBatch) {
  Ctx ctx;
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_120", &t), TILEFIT_OK);
  const long long m[] = {64, 128, 256, 128}, n[] = {64, 128, 256, 256}, k[] = {64, 64, 128, 64};
  const long long g[] = {8, -1, 1, 16};
  const int w[] = {4, 4, 8, 8}, st[] = {3, 4, 5, 2};
  signed char status[4];
  long long smem[4], maxsm[4];
  int stages[4], maxs[4];
  const char* base = R"({"kernel":"triton_matmul","dtype":"bf16","tile":[16,16,16]})";
  ASSERT_EQ(
      tilefit_analyze_grid(ctx.p, base, t, 4, m, n, k, g, w, st, status, smem, stages, maxs, maxsm),
      TILEFIT_OK)
      << tilefit_error_message(ctx.p);
  std::string batch = "[";
  for (int i = 0; i < 4; ++i) {
    if (i) batch += ',';
    batch += R"({"kernel":"triton_matmul","dtype":"bf16","tile":[)" + std::to_string(m[i]) + "," +
             std::to_string(n[i]) + "," + std::to_string(k[i]) +
             "],\"num_warps\":" + std::to_string(w[i]) + ",\"stages\":" + std::to_string(st[i]) +
             (g[i] > 0 ? ",\"group_m\":" + std::to_string(g[i]) : std::string()) + "}";
  }
  batch += "]";
  const char* out = nullptr;
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, batch.c_str(), t, TILEFIT_VERDICT | TILEFIT_COMPACT, &out),
            TILEFIT_OK);
  const auto j = nlohmann::json::parse(out);
  bool some_fit = false, some_not = false;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(status[i], j[i][0].get<int>()) << i;
    EXPECT_EQ(smem[i], j[i][1].is_null() ? -1 : j[i][1].get<long long>()) << i;
    EXPECT_EQ(stages[i], j[i][2].get<int>()) << i;
    EXPECT_EQ(maxs[i], j[i][3].get<int>()) << i;
    EXPECT_EQ(maxsm[i], j[i][4].is_null() ? -1 : j[i][4].get<long long>()) << i;
    some_fit |= status[i] == 0;
    some_not |= status[i] == 1;
  }
  EXPECT_TRUE(some_fit && some_not);
  // A candidate that is no config: its index and field.
  const long long zero[] = {64, 0};
  ASSERT_EQ(tilefit_analyze_grid(ctx.p, base, t, 2, m, zero, k, nullptr, nullptr, nullptr, status,
                                 nullptr, nullptr, nullptr, nullptr),
            TILEFIT_ERROR_INPUT);
  EXPECT_STREQ(tilefit_error_field(ctx.p), "tile");
  EXPECT_NE(std::string(tilefit_error_message(ctx.p)).find("config #1"), std::string::npos)
      << tilefit_error_message(ctx.p);
  tilefit_target_free(t);
}

}  // namespace
