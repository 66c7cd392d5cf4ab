// The CLI's output and exit codes, in-process (the exact outputs are golden cases:
// tests/data/golden/*.case, run by golden_test.cpp; these check what the outputs must say).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace tilefit {
namespace {

using test::run_command;

TEST(Cli, MoeTilesTable) {
  const auto r = run_command("check configs/sm120_moe_fp4.json --builtin");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(Cli, MoeTilesJsonCarriesTheStoryNumbers) {
  const auto r = run_command("check configs/sm120_moe_fp4.json --builtin --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 3);
  std::vector<int> stages;
  std::vector<long long> bytes;
  for (const auto& res : j["results"]) {
    stages.push_back(res["stages"]);
    bytes.push_back(res["smem_bytes"]);
    long long sum = 0;
    for (const auto& [k, v] : res["breakdown"].items()) sum += v.get<long long>();
    EXPECT_EQ(sum, res["smem_bytes"].get<long long>());
    EXPECT_EQ(res["target"]["source"], "builtin");
    EXPECT_EQ(res["limit_bytes"], 101376);
  }
  EXPECT_EQ(stages, (std::vector<int>{4, 2, 3, 3}));
  EXPECT_EQ(bytes, (std::vector<long long>{89088, 89088, 98304, 98304}));
}

TEST(Cli, FinalizeExplainsTheOverflow) {
  const auto r = run_command("check configs/sm120_moe_finalize.json --builtin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("the builder picks 3 stages but the kernel then needs 102400 B > 101376 B"),
            std::string::npos);
  EXPECT_NE(r.out.find("StageCount<2> needs 74752 B"), std::string::npos);
}

TEST(Cli, MixedFamiliesEachModelledByItsFamily) {
  const auto r = run_command("check configs/mixed_families.json --builtin --format json");
  EXPECT_EQ(r.exit_code, 1);  // the finalize tile does not fit
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> kernels, statuses;
  for (const auto& res : j["results"]) {
    kernels.push_back(res["kernel"]);
    statuses.push_back(res["status"]);
    EXPECT_NE(res["kernel_reason"].get<std::string>().find("inferred"), std::string::npos);
  }
  EXPECT_EQ(kernels, (std::vector<std::string>{"sm120_blockscaled", "sm120_dense", "sm90_tma_ws",
                                               "sm100_umma", "sm80_multistage"}));
  EXPECT_EQ(statuses, (std::vector<std::string>{"does_not_fit", "fits", "fits", "fits", "fits"}));
  const auto table = run_command("check configs/mixed_families.json --builtin");
}

TEST(Cli, EveryShippedConfigIsReadWithoutErrors) {
  const auto r = run_command("check configs/*.json --builtin --format json");
  EXPECT_EQ(r.exit_code, 1) << r.err;  // some do not fit on purpose, none is an input error
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["errors"].empty()) << j["errors"].dump(2);
  EXPECT_GE(j["results"].size(), 30u);
}

TEST(Cli, EngineConfigsShowTheEnginesOwnTables) {
  // vLLM's SM90 dispatch table (configs/vllm_sm90_fp8.json): every entry fits, modelled by the
  // engine family, with the scale row and vLLM's C = D in the breakdown.
  const auto r = run_command("check configs/vllm_sm90_fp8.json --builtin --breakdown");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j =
      nlohmann::json::parse(run_command("check configs/*_fp8.json --builtin --format json").out);
  ASSERT_GE(j["results"].size(), 80u);
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["kernel"].get<std::string>().rfind("engine_fp8_sm", 0), 0u) << res["name"];
    EXPECT_EQ(res["status"], "fits") << res["name"];
    EXPECT_NE(res["kernel_reason"].get<std::string>().find("inferred: launcher"),
              std::string::npos);
  }
}

TEST(Cli, BreakdownShowsPartsAndLimits) {
  const auto r = run_command("check configs/sm120_moe_fp4.json --builtin --breakdown");
  EXPECT_EQ(r.exit_code, 0);
}

TEST(Cli, ArchOverridesConfigArch) {
  const auto r = run_command("check configs/sm90_hopper.json --arch sm120 --format json");
  EXPECT_EQ(r.exit_code, 1);  // sm90 GMMA kernels are not sm120 kernels
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["arch"], "sm_120");
    EXPECT_EQ(res["limit_bytes"], 101376);
  }
}

TEST(Cli, Archs) {
  const auto r = run_command("archs");
  EXPECT_EQ(r.exit_code, 0);
  const auto j = run_command("archs --format json");
  const auto parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["archs"].size(), 15u);  // sm_70 ... sm_121, gfx942, gfx950
}

TEST(Cli, UnknownArchIsAUsageError) {
  const auto r = run_command("check configs/sm120_moe_fp4.json --arch sm99");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--arch \"sm99\": unknown architecture; allowed: sm_70"), std::string::npos);
}

TEST(Cli, MissingFileStillReportsTheOtherFiles) {
  const auto r =
      run_command("check tests/data/does-not-exist.json configs/sm120_moe_fp4.json --builtin");
  EXPECT_EQ(r.exit_code, 2);  // input error wins over the fits
  EXPECT_NE(r.out.find("moe_CtaShape256x128x64B"), std::string::npos);
  EXPECT_NE(r.err.find("tests/data/does-not-exist.json"), std::string::npos);
}

TEST(Cli, ConfigWithoutArchNeedsAGpuOrArch) {
  // No GPU on CI machines: a config without "arch" is a device error (exit 3) naming --arch.
  const std::string cfg = R"([{"tile": [128,128,128], "dtype": "nvfp4"}])";
  const auto r = run_command("check -", test::with_stdin(cfg));
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("--arch"), std::string::npos);
  const auto ok = run_command("check - --arch sm120", test::with_stdin(cfg));
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

// End to end, the real binary: main() hands cli::run the name it was started as, which --help's
// Usage line shows (in-process runs are "tilefit").
TEST(Cli, HelpNamesTheProgramAsStarted) {
  const auto r = test::run_binary("check --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Usage: " TILEFIT_BINARY " check [OPTIONS] [files...]"), std::string::npos)
      << r.out;
  EXPECT_NE(run_command("check --help").out.find("Usage: tilefit check [OPTIONS]"),
            std::string::npos);
}

TEST(Cli, NoSubcommandIsAUsageError) {
  EXPECT_EQ(run_command("").exit_code, 2);
  EXPECT_EQ(run_command("check").exit_code, 2);
  EXPECT_EQ(run_command("--version").exit_code, 0);
}

}  // namespace
}  // namespace tilefit
