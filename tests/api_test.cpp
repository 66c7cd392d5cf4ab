// The C++ API (include/tilefit/tilefit.hpp): what a launcher calls before
// GemmUniversalAdapter::initialize(). Hand-computed values are the story's FINALIZE tile
// (docs/dev/sm120-moe-finalize.md): 102400 B at the builder's 3 stages, 74752 B at 2 (27648 B a stage).
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "tilefit/tilefit.hpp"

namespace tilefit {
namespace {

constexpr const char* kFinalize =
    R"({"arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})";

TEST(Api, VersionIsTheProjectVersion) {
  EXPECT_EQ(version(), TILEFIT_PROJECT_VERSION);
  EXPECT_EQ(version(), std::to_string(TILEFIT_VERSION_MAJOR) + "." +
                           std::to_string(TILEFIT_VERSION_MINOR) + "." +
                           std::to_string(TILEFIT_VERSION_PATCH));
}

TEST(Api, TheStorysFinalizeTileDoesNotFit) {
  const Analysis a = analyze(kFinalize);
  EXPECT_FALSE(a.fits);
  EXPECT_EQ(a.status, "does_not_fit");
  EXPECT_EQ(a.kernel, "sm120_blockscaled");
  EXPECT_EQ(a.arch, "sm_120");
  ASSERT_TRUE(a.smem_bytes);
  EXPECT_EQ(*a.smem_bytes, 102400);
  EXPECT_EQ(a.stages, 3);
  EXPECT_TRUE(a.auto_stages);
  EXPECT_EQ(a.max_stages, 2);
  EXPECT_EQ(a.limit_bytes, 101376);
  ASSERT_TRUE(a.headroom_bytes);
  EXPECT_EQ(*a.headroom_bytes, -1024);
  ASSERT_TRUE(a.max_stages_smem_bytes);
  EXPECT_EQ(*a.max_stages_smem_bytes, 102400 - 27648);
  // The parts sum to the total and none is zero.
  const std::int64_t sum =
      std::accumulate(a.breakdown.begin(), a.breakdown.end(), std::int64_t{0},
                      [](std::int64_t s, const Part& p) { return s + p.bytes; });
  EXPECT_EQ(sum, 102400);
  for (const Part& p : a.breakdown) EXPECT_GT(p.bytes, 0) << p.component;
  // The first diagnostic is the error, in the report layer's words.
  ASSERT_FALSE(a.diagnostics.empty());
  EXPECT_EQ(a.diagnostics.front().severity, "error");
  EXPECT_NE(a.diagnostics.front().message.find("102400"), std::string::npos)
      << a.diagnostics.front().message;
  EXPECT_NE(a.diagnostics.front().message.find("101376"), std::string::npos)
      << a.diagnostics.front().message;
  EXPECT_EQ(a.kernel_description.empty(), false);
  ASSERT_TRUE(a.epilogue_smem_bytes);
  ASSERT_TRUE(a.mainloop_smem_bytes);
}

TEST(Api, SwapAbFits) {
  const Analysis a = analyze(
      R"({"dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "128x256x128", "swap_ab": true})",
      "sm120");
  EXPECT_TRUE(a.fits);
  EXPECT_EQ(a.status, "fits");
  ASSERT_TRUE(a.headroom_bytes);
  EXPECT_GE(*a.headroom_bytes, 0);
}

TEST(Api, TheArchArgumentOverridesTheConfigs) {
  // Read as an sm_90 config: the Hopper family and its 232448 B limit.
  const Analysis a =
      analyze(R"({"arch": "sm_120", "dtype": "bf16", "tile": [128, 128, 64]})", "sm_90");
  EXPECT_EQ(a.arch, "sm_90");
  EXPECT_EQ(a.limit_bytes, 232448);
  EXPECT_TRUE(a.fits);
}

TEST(Api, AKernelNameIsAConfig) {
  const Analysis a = analyze(
      R"("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma")");
  EXPECT_EQ(a.kernel, "sm90_tma_ws");
  EXPECT_EQ(a.arch, "sm_90");
  EXPECT_TRUE(a.smem_bytes.has_value());
}

TEST(Api, AConfigAlreadyReadAgainstAnyLimits) {
  Limits lim = builtin_limits("sm_120");
  EXPECT_EQ(lim.optin_per_block, 101376);
  lim.optin_per_block = 110 * 1024;  // a hypothetical part with more opt-in memory
  const Analysis a = analyze(read_config(kFinalize), lim);
  EXPECT_TRUE(a.fits);
  EXPECT_EQ(*a.smem_bytes, 102400);
  EXPECT_EQ(a.limit_bytes, 110 * 1024);
}

// Limits of another arch must be said, as `check --device` says a config arch that differs from
// the GPU's (arch_mismatch): never one arch's layout measured against another's limit.
TEST(Api, LimitsOfAnotherArchAreSaid) {
  const Analysis a = analyze(read_config(kFinalize), builtin_limits("sm_90"));
  EXPECT_FALSE(a.fits);
  EXPECT_EQ(a.status, "invalid");
  EXPECT_FALSE(a.smem_bytes.has_value());
  ASSERT_FALSE(a.diagnostics.empty());
  EXPECT_EQ(a.diagnostics.front().code, "limits_arch_mismatch");
  EXPECT_NE(a.diagnostics.front().message.find("sm_120"), std::string::npos);
  EXPECT_NE(a.diagnostics.front().message.find("sm_90"), std::string::npos);
  // The same arch (another part's limits) is analysed.
  EXPECT_TRUE(analyze(read_config(kFinalize), builtin_limits("sm_120")).smem_bytes.has_value());
}

// A config's own "engine" keeps its quantisation (the fp8 kernel, not the bf16 one), through
// the library's analyze() as through check.
TEST(Api, EngineFieldKeepsTheFusedMoeQuantisation) {
  const std::string cfg =
      R"({"arch":"sm_120","kernel":"triton_fused_moe","dtype":"fp8_w8a8","block_shape":[128,128],)"
      R"("tile":[64,128,128],"num_warps":4,"stages":4)";
  const Analysis plain = analyze(cfg + "}");
  const Analysis vllm = analyze(cfg + R"(,"engine":"vllm"})");
  EXPECT_EQ(plain.smem_bytes, 74240);
  EXPECT_EQ(vllm.smem_bytes, plain.smem_bytes);
  EXPECT_TRUE(vllm.fits);
  const Analysis again = analyze(read_config(cfg + R"(,"engine":"vllm"})").json());
  EXPECT_EQ(again.smem_bytes, plain.smem_bytes);
}

void expect_input_error(const std::string& json, const std::string& field, const std::string& words,
                        std::string_view arch = {}) {
  try {
    (void)analyze(json, arch);
    ADD_FAILURE() << "no InputError for " << json;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Api, BadInputIsAnInputErrorNamingTheField) {
  expect_input_error(R"({"arch": "sm_120", "dtype": "nvfp4", "tile": [128, 0, 128]})", "tile",
                     "tile");
  expect_input_error(R"({"arch": "sm_120", "dtype": "nvfp5", "tile": [128, 128, 128]})", "dtype",
                     "nvfp5");
  expect_input_error(R"({"arch": "sm_77", "tile": [128, 128, 64]})", "arch", "sm_77");
  expect_input_error(R"({"tile": [128, 128, 64]})", "arch", "arch");
  expect_input_error(R"({"tile": [128, 128, 64]})", "arch", "sm_42", "sm_42");
  expect_input_error(R"({"arch": "sm_90", "tile": [128, 128, 64)", "", "<config>");
  expect_input_error(R"([{"arch": "sm_90", "tile": [128, 128, 64]}])", "", "one config");
  expect_input_error(R"("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256_1x1x1")", "",
                     "");
}

TEST(Api, AConfigHandleChangesInCode) {
  Config cfg = read_config(kFinalize);
  EXPECT_EQ(cfg.arch(), "sm_120");
  EXPECT_FALSE(cfg.stages().has_value());
  cfg.set_stages(2);
  const Config copy = cfg;  // a copy is independent
  cfg.set_stages(3);
  EXPECT_EQ(copy.stages(), 2);
  const Analysis two = analyze(copy, builtin_limits("sm_120"));
  EXPECT_TRUE(two.fits);
  EXPECT_EQ(*two.smem_bytes, 102400 - 27648);
  EXPECT_FALSE(two.auto_stages);
  // The written config reads back to the same analysis.
  const Analysis again = analyze(copy.json());
  EXPECT_EQ(again.smem_bytes, two.smem_bytes);
  cfg.set_arch("sm_90");
  EXPECT_EQ(cfg.arch(), "sm_90");
  EXPECT_THROW(cfg.set_arch("sm_1000"), InputError);
}

TEST(Api, BuiltinLimits) {
  EXPECT_EQ(builtin_limits("sm_90").optin_per_block, 232448);
  EXPECT_EQ(builtin_limits("12.0").sm, 120);
  EXPECT_THROW((void)builtin_limits("sm_1000"), InputError);
}

TEST(Api, DeviceLimitsAreAGpusOrADeviceError) {
  try {
    const Limits lim = device_limits(0);
    EXPECT_GT(lim.optin_per_block, 0);  // a GPU answered (tests/gpu checks the values)
  } catch (const DeviceError& e) {
    EXPECT_FALSE(std::string(e.what()).empty());
  }
  EXPECT_THROW((void)device_limits(-1), DeviceError);
}

}  // namespace
}  // namespace tilefit
