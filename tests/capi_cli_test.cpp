// One result vocabulary: the C ABI (libtilefit.so, report/api_json.hpp) writes what
// `tilefit check --format json` writes, key for key and value for value, for configs of every
// kind — CUTLASS (sm80, sm90, sm100, sm120), the engines' FP8 CUTLASS kernels (vLLM, SGLang),
// Triton GEMM, fused MoE and block matmul (their tuned tables too), attention, AMD. The Python
// package reads the same JSON (python/tests/test_vocabulary.py compares it with the CLI's).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/tilefit.h"

namespace tilefit {
namespace {

using nlohmann::json;
using test::run_command;

struct Ctx {
  tilefit_context* p = tilefit_context_new();
  ~Ctx() { tilefit_context_free(p); }
};

// Configs of every kind, each with its arch (the analysis is per config).
const char* const kConfigs[] = {
    // CUTLASS
    R"({"name": "finalize", "arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})",
    R"({"name": "coop", "arch": "sm90", "tile": [128, 256, 64], "dtype": "bf16", "schedule": "cooperative", "epilogue": "tma"})",
    R"({"name": "ampere", "arch": "sm80", "tile": [128, 256, 64], "warp": [64, 64, 64], "dtype": "f16", "stages": 3})",
    R"({"name": "b200", "arch": "sm100", "tile": [128, 256, 64], "dtype": "bf16", "schedule": "1sm", "epilogue": "tma"})",
    R"({"name": "dense120", "arch": "sm_120", "tile": [128, 128, 128], "dtype": "e4m3"})",
    // The engines' FP8 CUTLASS kernels
    R"({"name": "vllm90", "arch": "sm_90", "launcher": "vllm", "op": "scaled_mm", "tile": [64, 16, 256], "cluster": [1, 2, 1], "schedule": "ws", "stages": "auto", "swap_ab": true, "a": "e4m3", "b": "e4m3", "d": "bf16"})",
    R"({"name": "sglang100", "arch": "sm_100", "launcher": "sglang", "op": "scaled_mm", "tile": [64, 64, 128], "cluster": [1, 4, 1], "schedule": "auto", "stages": "auto", "a": "e4m3", "b": "e4m3", "d": "bf16"})",
    R"({"name": "vllm89", "arch": "sm_89", "launcher": "vllm", "op": "scaled_mm", "tile": [128, 128, 64], "stages": 5, "a": "e4m3", "b": "e4m3", "d": "bf16"})",
    // Triton GEMM, fused MoE, block matmul
    R"({"name": "matmul", "arch": "sm_100", "kernel": "triton_matmul", "tile": [128, 128, 128], "dtype": "e4m3", "d": "bf16", "num_warps": 4, "stages": 4})",
    R"({"name": "moe", "arch": "sm_89", "kernel": "triton_fused_moe", "tile": [128, 256, 128], "dtype": "fp8_w8a8", "num_warps": 4, "stages": 4})",
    R"({"name": "block", "arch": "sm_120", "kernel": "triton_block_matmul", "dtype": "fp8_w8a8", "d": "bf16", "num_warps": 4, "stages": 3, "group_m": 32, "tile": [64, 128, 128]})",
    // Attention (vLLM's MLA decode; SGLang's extend)
    R"({"name": "kimi", "arch": "sm_120", "kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8, "kv_dtype": "fp8_e4m3"})",
    R"({"name": "kimi80", "arch": "sm_80", "kernel": "triton_attention", "launcher": "vllm", "model": "kimi-k2", "tp": 8, "kv_dtype": "fp8_e4m3"})",
    R"({"name": "extend", "arch": "sm_90", "kernel": "triton_attention", "launcher": "sglang", "op": "extend", "model": "llama-3.1-70b", "tp": 8})",
    R"({"name": "prefill", "arch": "sm_90", "kernel": "triton_attention", "launcher": "vllm", "phase": "prefill", "model": "llama-3.1-70b", "tp": 8})",
    // AMD
    R"({"name": "mi300", "arch": "gfx942", "kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16", "stages": 2})",
    R"({"name": "mi355", "arch": "gfx950", "kernel": "triton_matmul", "tile": [128, 128, 64], "dtype": "f16", "stages": 2, "hip_async_copy": true})",
    // Invalid
    R"({"name": "bad_tile", "arch": "sm90", "tile": [100, 256, 64], "dtype": "bf16"})",
};

std::string write_configs(const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream f(path);
  f << "[";
  for (std::size_t i = 0; i < std::size(kConfigs); ++i) f << (i ? ",\n" : "\n") << kConfigs[i];
  f << "\n]\n";
  return path;
}

json cli_json(const std::string& args) {
  const auto r = run_command("check " + args + " --format json");
  EXPECT_EQ(r.err, "") << args;
  return json::parse(r.out);
}

json capi_check(const std::string& path, const char* arch, unsigned flags = 0) {
  Ctx ctx;
  const char* out = nullptr;
  const char* paths[] = {path.c_str()};
  tilefit_check_paths(ctx.p, paths, 1, arch, flags, &out);
  EXPECT_NE(out, nullptr) << path;
  return out ? json::parse(out) : json();
}

// Every config file of configs/ (CUTLASS, engine tables, Triton, tuned tables): the C ABI's
// check is the CLI's whole document.
TEST(ResultVocabulary, CheckOfFilesIsTheClisDocument) {
  std::size_t results = 0;
  for (const std::string file :
       {"configs/sm120_moe_finalize.json", "configs/sm120_moe_fp4.json", "configs/sm120_gemm.json",
        "configs/sm90_hopper.json", "configs/sm80_ampere.json", "configs/sm100_b200.json",
        "configs/mixed_families.json", "configs/triton_kernels.json", "configs/vllm_sm89_fp8.json",
        "configs/vllm_sm90_fp8.json", "configs/vllm_sm100_fp8.json", "configs/vllm_sm120_fp8.json",
        "configs/sglang_sm90_fp8.json", "configs/sglang_sm100_fp8.json",
        "configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,"
        "128].json",
        "configs/N=7168,K=2304,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,"
        "128].json"}) {
    const json cli = cli_json("'" + file + "' --builtin");
    const json c = capi_check(test::source_path(file), nullptr);
    // The C ABI names the file as it was given (here, absolute).
    json expected = cli;
    for (json& r : expected["results"]) r["file"] = test::source_path(file);
    EXPECT_EQ(c, expected) << file;
    results += cli["results"].size();
  }
  EXPECT_GT(results, 100u);
}

TEST(ResultVocabulary, CheckOfAFolderIsTheClisDocument) {
  json cli = cli_json("configs --builtin");
  for (json& r : cli["results"]) r["file"] = test::source_path(r["file"]);
  const json c = capi_check(test::source_path("configs"), nullptr);
  EXPECT_EQ(c, cli);
  EXPECT_GT(c["results"].size(), 100u);
}

// One config at a time (tilefit_analyze) is the CLI's result for it, file "<config>" and
// index 0 aside; the verdict flag writes the verdict columns of the same object.
TEST(ResultVocabulary, AnalyzeIsTheClisResult) {
  const std::string path = write_configs("vocabulary_configs.json");
  const json cli = json::parse(test::run_in_process({"check", path, "--format", "json"}).out);
  ASSERT_EQ(cli["results"].size(), std::size(kConfigs));
  Ctx ctx;
  std::set<std::string> kernels;
  for (std::size_t i = 0; i < std::size(kConfigs); ++i) {
    const char* out = nullptr;
    ASSERT_EQ(tilefit_analyze(ctx.p, kConfigs[i], nullptr, 0, &out), TILEFIT_OK) << kConfigs[i];
    json expected = cli["results"][i];
    expected["file"] = "<config>";
    expected["index"] = 0;
    EXPECT_EQ(json::parse(out), expected) << kConfigs[i];
    kernels.insert(expected["kernel"].is_null() ? "-" : expected["kernel"].get<std::string>());
    ASSERT_EQ(tilefit_analyze(ctx.p, kConfigs[i], nullptr, TILEFIT_VERDICT, &out), TILEFIT_OK);
    const json verdict = json::parse(out);
    json subset = json::object();
    for (const auto& [k, v] : expected.items())
      if (verdict.contains(k)) subset[k] = v;
    EXPECT_EQ(verdict, subset) << kConfigs[i];
    EXPECT_TRUE(verdict.contains("smem_bytes") && !verdict.contains("diagnostics"));
  }
  // Every kind above was modelled by its own family.
  EXPECT_GE(kernels.size(), 12u);
}

// A batch against one target is `check --arch` of the same configs (those without an arch of
// their own, so no arch_overridden note), each with its index; the target is the results'.
TEST(ResultVocabulary, BatchIsTheClisResultsForThatArch) {
  const std::string configs = R"([
    {"name": "a", "tile": [128, 128, 64], "dtype": "bf16", "schedule": "cooperative"},
    {"name": "b", "kernel": "triton_matmul", "tile": [128, 256, 64], "dtype": "f16", "stages": 4},
    {"name": "c", "kernel": "triton_fused_moe", "tile": [64, 128, 128], "dtype": "fp8_w8a8", "stages": 3},
    {"name": "d", "tile": [100, 128, 64], "dtype": "bf16"}])";
  const std::string path = ::testing::TempDir() + "vocabulary_batch.json";
  std::ofstream(path) << configs;
  const json cli =
      json::parse(test::run_in_process({"check", path, "--arch", "sm_90", "--format", "json"}).out);
  Ctx ctx;
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_90", &t), TILEFIT_OK);
  const char* out = nullptr;
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, configs.c_str(), t, 0, &out), TILEFIT_OK);
  json batch = json::parse(out);
  ASSERT_EQ(batch.size(), cli["results"].size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    json expected = cli["results"][i];
    expected["file"] = "<config>";
    EXPECT_EQ(batch[i], expected) << i;
  }
  ASSERT_EQ(tilefit_target_json(ctx.p, t, &out), TILEFIT_OK);
  EXPECT_EQ(json::parse(out), cli["results"][0]["target"]);
  tilefit_target_free(t);
}

// A config that cannot be read: the batch's element is the CLI's `errors` element, with status.
TEST(ResultVocabulary, BatchErrorIsTheClisError) {
  const std::string configs = R"([{"name": "z", "tile": [128, 128, 0], "dtype": "bf16"}])";
  const std::string path = ::testing::TempDir() + "vocabulary_error.json";
  std::ofstream(path) << configs;
  const json cli =
      json::parse(test::run_in_process({"check", path, "--arch", "sm_90", "--format", "json"}).out);
  ASSERT_EQ(cli["errors"].size(), 1u);
  Ctx ctx;
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_90", &t), TILEFIT_OK);
  const char* out = nullptr;
  ASSERT_EQ(tilefit_analyze_batch(ctx.p, configs.c_str(), t, 0, &out), TILEFIT_OK);
  json expected = cli["errors"][0];
  expected["file"] = "<config>";
  json got = json::parse(out)[0];
  EXPECT_EQ(got["status"], "error");
  got.erase("status");
  EXPECT_EQ(got["text"].get<std::string>().rfind("<config>", 0), 0u) << got;
  got.erase("text");
  expected.erase("text");
  EXPECT_EQ(got, expected);
  tilefit_target_free(t);
}

// tilefit_suggest is `tilefit suggest --format json`'s suggestions of the result.
TEST(ResultVocabulary, SuggestIsTheClisSuggestions) {
  const json cli = json::parse(
      run_command("suggest configs/sm120_moe_finalize.json --arch sm_120 --format json").out);
  Ctx ctx;
  tilefit_target* t = nullptr;
  ASSERT_EQ(tilefit_target_builtin(ctx.p, "sm_120", &t), TILEFIT_OK);
  std::size_t compared = 0;
  for (const json& r : cli["results"]) {
    const json config = json::parse(test::read_file(
        test::source_path("configs/sm120_moe_finalize.json")))["configs"][r["index"].get<int>()];
    const char* out = nullptr;
    ASSERT_EQ(tilefit_suggest(ctx.p, config.dump().c_str(), t, 5, &out), TILEFIT_OK);
    EXPECT_EQ(json::parse(out), r.value("suggestions", json::array())) << r["name"];
    compared += r.value("suggestions", json::array()).size();
  }
  EXPECT_GT(compared, 0u);
  tilefit_target_free(t);
}

}  // namespace
}  // namespace tilefit
