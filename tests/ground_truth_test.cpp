// Every measured row of tests/data/ through the real config reader and the model: the CUTLASS
// 4.7 rows (cutlass-4.7.jsonl, copied from the original ground-truth set, tests/data/ground-truth.md, and this project's
// measured-sm80/-sm100/-sm120-sm90.jsonl), the engine FP8 rows (fp8-engines-cutlass-4.7.jsonl,
// measured-fp8-engines.jsonl) and the Triton 3.6 rows (triton-3.6.jsonl,
// measured-triton-3.6.jsonl: Triton's metadata.shared). Byte-exact stages, smem_bytes,
// epilogue_smem, mainloop_smem, a breakdown that sums to smem_bytes, and the same status.
// (The family tests keep only row counts and invariants over these rows.)
#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/model/evaluate.hpp"

namespace tilefit {
namespace {

using test::GroundTruthRow;
using test::load_rows;

class GroundTruth : public ::testing::TestWithParam<GroundTruthRow> {};

TEST_P(GroundTruth, MatchesMeasured) {
  const GroundTruthRow& row = GetParam();
  const std::optional<model::KernelConfig> read = test::row_config(row);
  ASSERT_TRUE(read.has_value());
  const model::KernelConfig& cfg = *read;
  const model::ArchInfo* arch = model::find_arch(cfg.arch);
  ASSERT_NE(arch, nullptr);
  ASSERT_EQ(arch->limits.optin_per_block, row.expect["limit_bytes"].get<model::Bytes>());

  const model::Result r = model::evaluate(cfg, arch->limits);
  std::string notes;
  for (const auto& n : test::notes(r)) notes += "\n  note: " + n;
  EXPECT_EQ(std::string(model::status_name(r.status)), row.expect["status"].get<std::string>())
      << notes;
  if (row.expect.contains("stages")) {
    EXPECT_EQ(r.stages, row.expect["stages"].get<int>()) << notes;
  }
  auto expect_bytes = [&](const char* key, const std::optional<model::Bytes>& got) {
    if (!row.expect.contains(key)) return;
    if (row.expect[key].is_null()) {  // a config that does not compile has no size
      EXPECT_FALSE(got.has_value()) << key << notes;
      return;
    }
    ASSERT_TRUE(got.has_value()) << key << notes;
    EXPECT_EQ(*got, row.expect[key].get<model::Bytes>()) << key;
  };
  expect_bytes("smem_bytes", r.smem_bytes);
  expect_bytes("epilogue_smem", r.epilogue_smem);
  expect_bytes("mainloop_smem", r.mainloop_smem);
  if (r.breakdown) {
    model::Bytes sum = 0;
    for (model::Bytes p : r.breakdown->parts) sum += p;
    EXPECT_EQ(sum, *r.smem_bytes) << "breakdown must sum to smem_bytes";
  }
}

std::string row_name(const ::testing::TestParamInfo<GroundTruthRow>& info) {
  std::string n = info.param.id;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cutlass47, GroundTruth,
                         ::testing::ValuesIn(load_rows("cutlass-4.7.jsonl")), row_name);
// Rows measured for this project with the same method (tests/data/README.md says how).
INSTANTIATE_TEST_SUITE_P(MeasuredSm80, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-sm80.jsonl")), row_name);
INSTANTIATE_TEST_SUITE_P(MeasuredSm100, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-sm100.jsonl")), row_name);
INSTANTIATE_TEST_SUITE_P(MeasuredSm120Sm90, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-sm120-sm90.jsonl")), row_name);
// The FP8 kernels vLLM and SGLang build (copied from the original ground-truth set, tests/data/ground-truth.md, and measured for
// this project with tools/cutlass/fp8_engines/).
INSTANTIATE_TEST_SUITE_P(Fp8Engines, GroundTruth,
                         ::testing::ValuesIn(load_rows("fp8-engines-cutlass-4.7.jsonl")), row_name);
INSTANTIATE_TEST_SUITE_P(MeasuredFp8Engines, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-fp8-engines.jsonl")), row_name);
// Triton 3.6.0: the shared ground truth and this project's extra and hold-out rows.
INSTANTIATE_TEST_SUITE_P(Triton36, GroundTruth, ::testing::ValuesIn(load_rows("triton-3.6.jsonl")),
                         row_name);
INSTANTIATE_TEST_SUITE_P(MeasuredTriton36, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-triton-3.6.jsonl")), row_name);
// The 1920-config tuner grid (fp16 tutorial matmul), compiled by Triton 3.6.0 for sm_90 on the H200
// and cross-compiled for sm_120 and sm_89 (docs/dev/tuner-pruning.md, tools/triton/validate_prune.py).
INSTANTIATE_TEST_SUITE_P(MeasuredTriton36Grid, GroundTruth,
                         ::testing::ValuesIn(load_rows("measured-triton-3.6-grid.jsonl")),
                         row_name);

TEST(GroundTruthData, HasEveryFamily) {
  std::set<std::string> families;
  for (const GroundTruthRow& r : load_rows("cutlass-4.7.jsonl"))
    families.insert(r.config["kernel"].get<std::string>());
  EXPECT_EQ(families, (std::set<std::string>{"sm120_blockscaled", "sm120_dense", "sm90_tma_ws",
                                             "sm100_umma", "sm80_multistage"}));
}

}  // namespace
}  // namespace tilefit
