// model::validate, the one check of a typed config every front end runs: hand-computed cases,
// and the same bad value giving the same message through each front end (a config file, a sweep
// space, a tuned table, the C++ API, the C ABI).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tilefit/io/load.hpp"
#include "tilefit/model/validate.hpp"
#include "tilefit/tilefit.h"
#include "tilefit/tilefit.hpp"

namespace tilefit {
namespace {

using model::ConfigIssue;

model::KernelConfig valid() {
  model::KernelConfig c;
  c.name = "v";
  c.m = c.n = c.k = 128;
  return c;
}

TEST(Validate, AValidConfigHasNoIssue) {
  EXPECT_TRUE(model::validate(valid()).empty());
  model::KernelConfig none;  // no tile at all: the readers say "missing", not "0 is not valid"
  EXPECT_TRUE(model::validate(none).empty());
}

TEST(Validate, RangesHandComputed) {
  model::KernelConfig c = valid();
  c.stages = 0;
  c.n = 70000;  // > 65536 = 1 << 16
  c.k = 0;
  c.cluster = {1, 17, 1};  // > 16
  c.epilogue.stages_d = 4097;
  c.num_warps = 2048;
  EXPECT_EQ(
      model::validate(c),
      (std::vector<ConfigIssue>{
          {"tile", "70000 is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")"},
          {"tile", "0 is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")"},
          {"cluster", "17 is not a valid cluster extent; allowed: integers 1..16 (or \"XxYxZ\")"},
          {"stages", "0 is not a valid stage count; allowed: \"auto\" or integers 1..4096"},
          {"epilogue.stages_d",
           "4097 is not a valid epilogue stage count; allowed: integers 1..4096"},
          {"num_warps", "2048 is not a valid num_warps; allowed: integers 1..1024"},
      }));
  c = valid();
  c.m = c.n = c.k = 0;
  c.m = 3;  // one extent given: the zeros are bad (one issue for the value 0)
  ASSERT_EQ(model::validate(c).size(), 1u);
}

TEST(Validate, OutputScaleFactorsBelongToBlockscaleOut) {
  model::KernelConfig c = valid();
  c.epilogue.variant = model::EpilogueVariant::Tma;
  c.epilogue.sf_vec = 16;
  c.epilogue.sf = model::DType::UE8M0;
  const std::string only =
      "applies only to the blockscale_out epilogue (\"variant\": \"blockscale_out\")";
  EXPECT_EQ(model::validate(c),
            (std::vector<ConfigIssue>{{"epilogue.sf_vec", only}, {"epilogue.sf", only}}));
  c.epilogue.variant = model::EpilogueVariant::BlockScaleOut;
  EXPECT_TRUE(model::validate(c).empty());
}

// ---- the same message through every front end ------------------------------------------------

std::string first_error(const io::LoadResult& r) {
  return r.errors.empty() ? "" : io::format_error(r.errors[0]);
}

constexpr const char* kStages0 =
    R"({"arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4", "stages": 0})";
constexpr const char* kStagesMessage =
    "field \"stages\": 0 is not a valid stage count; allowed: \"auto\" or integers 1..4096";

TEST(ValidateFrontEnds, StagesZero) {
  // A config file.
  EXPECT_EQ(first_error(io::load<io::LoadResult>(
                io::Source::text(std::string("[") + kStages0 + "]", "f.json"))),
            std::string("f.json: config #0: ") + kStagesMessage);
  // A sweep space: an alternative.
  const io::SpaceLoad s = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4", "stages": [2, 0]}])",
      "s.json"));
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].field, "stages[1]");  // the alternative at fault
  EXPECT_NE(s.errors[0].message.find(
                "0 is not a valid stage count; allowed: \"auto\" or integers 1..4096"),
            std::string::npos)
      << s.errors[0].message;
  // The C++ API: a text, and a Config whose stages are set afterwards.
  std::string from_text, from_setter;
  try {
    (void)read_config(kStages0);
  } catch (const InputError& e) {
    from_text = e.what();
    EXPECT_EQ(e.field(), "stages");
  }
  Config cfg = read_config(R"({"arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4"})");
  try {
    cfg.set_stages(0);
  } catch (const InputError& e) {
    from_setter = e.what();
    EXPECT_EQ(e.field(), "stages");
  }
  EXPECT_EQ(from_text, std::string("<config>: config #0: ") + kStagesMessage);
  EXPECT_EQ(from_setter, from_text);
  EXPECT_EQ(cfg.stages(), std::nullopt);  // a refused value is not kept
  cfg.set_stages(2);
  EXPECT_EQ(cfg.stages(), 2);
  // The C ABI.
  tilefit_context* ctx = tilefit_context_new();
  const char* out = nullptr;
  EXPECT_EQ(tilefit_analyze(ctx, kStages0, nullptr, 0, &out), TILEFIT_ERROR_INPUT);
  EXPECT_EQ(std::string(tilefit_error_message(ctx)), from_text);
  EXPECT_EQ(std::string(tilefit_error_field(ctx)), "stages");
  tilefit_context_free(ctx);
}

TEST(ValidateFrontEnds, EpilogueScaleFactorsWithoutBlockscaleOut) {
  const std::string only =
      "applies only to the blockscale_out epilogue (\"variant\": \"blockscale_out\")";
  const std::string cfg =
      R"({"arch": "sm_100", "tile": [128, 128, 128], "dtype": "nvfp4", "epilogue": {"variant": "tma", "sf_vec": 16}})";
  EXPECT_EQ(first_error(io::load<io::LoadResult>(io::Source::text("[" + cfg + "]", "f.json"))),
            "f.json: config #0: field \"epilogue.sf_vec\": " + only);
  const io::SpaceLoad s = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"arch": "sm_100", "tile": [128, 128, 128], "dtype": "nvfp4", "epilogue": [{"variant": "tma", "sf_vec": 16}, "auto"]}])",
      "s.json"));
  ASSERT_FALSE(s.errors.empty());
  EXPECT_NE(s.errors[0].message.find(only), std::string::npos) << s.errors[0].message;
  try {
    (void)read_config(cfg);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "<config>: config #0: field \"epilogue.sf_vec\": " + only);
  }
}

TEST(ValidateFrontEnds, BlockShapeOfATunedTableAndOfAConfig) {
  // A tuned table's block_shape comes from its file name; a config writes it as a field.
  const std::string message =
      "100000 is not a valid block_shape extent; allowed: integers 1..65536 (or \"NxK\")";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "tilefit_validate_test";
  std::filesystem::create_directories(dir);
  const std::filesystem::path p =
      dir / "E=8,N=512,device_name=NVIDIA_H100,dtype=fp8_w8a8,block_shape=[100000,128].json";
  std::ofstream(p) << R"({"16": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128}})";
  const io::LoadResult tuned = io::load<io::LoadResult>(io::Source::file(p.string()));
  ASSERT_EQ(tuned.errors.size(), 1u) << first_error(tuned);
  EXPECT_EQ(tuned.errors[0].field, "block_shape");
  EXPECT_EQ(tuned.errors[0].message, message);
  const io::LoadResult config = io::load<io::LoadResult>(io::Source::text(
      R"([{"kernel": "triton_fused_moe", "arch": "sm_90", "tile": [16, 64, 128], "dtype": "fp8_w8a8", "block_shape": [100000, 128]}])",
      "f.json"));
  ASSERT_EQ(config.errors.size(), 1u) << first_error(config);
  EXPECT_EQ(config.errors[0].field, "block_shape");
  EXPECT_EQ(config.errors[0].message, message);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tilefit
