// sm100_umma: hand-computed cases, invalid configurations, the number of ground-truth rows
// (tests/ground_truth_test.cpp checks every row against CUTLASS), and the layout invariants.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tilefit/report/diagnostic_text.hpp"
#include "model_test_util.hpp"
#include "model/families/families.hpp"
#include "test_support.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/evaluate.hpp"

namespace tilefit::model {
namespace {

const Limits& b200() { return find_arch(100)->limits; }

KernelConfig base_config() {
  KernelConfig cfg;
  cfg.arch = 100;
  cfg.family = "sm100_umma";
  return cfg;
}

/// The configs of the sm100_umma rows of tests/data/`file`, as the config reader reads them.
std::vector<KernelConfig> sm100_row_configs(const std::string& file) {
  std::vector<KernelConfig> cfgs;
  for (const test::GroundTruthRow& row : test::load_rows(file, "sm100_umma"))
    if (const std::optional<KernelConfig> cfg = test::row_config(row)) cfgs.push_back(*cfg);
  return cfgs;
}

// ---- (a) hand-computed cases ---------------------------------------------------------------

// Doc §5.7 A: dense bf16 1SM, MMA tile 128x256x64, cluster 1x1x1, bf16 C and D row-major,
// auto epilogue.
//   Acc = min(4, 65536 / (128·256)) = 2; Sstg = 2; kernel carve-out
//     = 16·2 + 16·2 + 16 + 8 + 16·2 + 16·2 + 4·2 = 160  ->  Cap = 232448 − 160 = 232288.
//   Epilogue (1SM, TMEM warps 4x1): EpiM = min(128, 32·4) = 128; MaxBits 16, CtaN 256 > 128
//     -> Nperf 64; NminC = NminD = 128/16 = 8 -> EpiN = 64; EpiTiles = 1·4 = 4.
//     ReuseSmemC (16 > 8): SD = 2, SC = max(4, 3) = 4. 64 bf16 = 1024 bits -> SW128, align 1024.
//     union = 4·128·64·2 = 65536; TensorStorage = ru(65536 + 1, 1024) = 66560;
//     SharedStorage = ru(66560 + 16·4, 1024) = 67584.
//   stage = 128·64·2 + 256·64·2 + 16 = 49168; S = (232288 − 67584) / 49168 = 3.35 -> 3.
//   Kernel: pipelines 48 + 64 + 16 + 32 + 32 + 32 + 8 = 232 -> 240; clc_response 32 -> 272;
//     tmem_base_ptr -> 276; tensors @ ru(276, 1024) = 1024:
//     66560 + 3·16384 + 3·32768 = 214016 -> total 215040.
//   Mainloop SharedStorage = ru(147456 + 48, 128) = 147584.
TEST(Sm100Umma, DocExampleA_DenseBf16_1Sm) {
  KernelConfig cfg = base_config();
  cfg.m = 128, cfg.n = 256, cfg.k = 64;
  cfg.a = cfg.b = Operand{DType::BF16};
  const Result r = evaluate(cfg, b200());
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(r.smem_bytes, 215040);
  EXPECT_EQ(r.epilogue_smem, 67584);
  EXPECT_EQ(r.mainloop_smem, 147584);
  const Plan p = sm100_umma_family().decide(cfg, true);
  EXPECT_EQ(p.rule.builder_capacity, 232288);
  EXPECT_EQ(p.rule.carveout, 67584);
  EXPECT_EQ(p.rule.stage_bytes, 49168);
  EXPECT_EQ(p.min_stages, 2);
  EXPECT_EQ(p.overflow, Overflow::CompileStaticAssert);
}

// Doc §5.7 B (example 72a): nvfp4 2SM, MMA tile 256x256x256, cluster 2x4x1, bf16 C and D.
//   Auto -> 2SM (cluster M even, M = 256); MXF4_NVF4 (fp4 x fp4, K-major): A/B packed 4-bit;
//   Vs = 16; Acc = 1 (N = 256); Sstg = 2; carve-out 16 + 32 + 16 + 8 + 32 + 32 + 8 = 144;
//   Cap = 232304.
//   Per CTA per stage: A = 128·256/2 = 16384; B = 128·256/2 = 16384;
//     SFA = (128/128)·128·4·(256/16/4) = 2048; SFB = ⌈256/128⌉·128·16 = 4096 (full N);
//     stage = 16384 + 16384 + 128 + 2048 + 4096 = 39040.
//   Epilogue: CtaTile (128, 256), block-scaled CtaN 256 -> tile 128x128; EpiTiles 2; SD 2,
//     SC = max(2, 3) = 3; SW128 (1024); union 3·128·128·2 = 98304; TensorStorage 99328;
//     SharedStorage = ru(99328 + 48, 1024) = 100352.
//   S = (232304 − 100352) / 39040 = 3.38 -> 3.
//   Mainloop tensors = 3·(16384 + 16384 + 2048 + 4096) = 116736.
//   Kernel: pipelines 48 + 48 + 16 + 32 + 16 + 32 + 8 = 200 -> 208; responses -> 240; ptr -> 244;
//     tensors @1024: 99328 + 116736 = 216064 -> total 217088.
TEST(Sm100Umma, DocExampleB_Nvfp4_2Sm) {
  KernelConfig cfg = base_config();
  cfg.m = 256, cfg.n = 256, cfg.k = 256;
  cfg.cluster = {2, 4, 1};
  cfg.a = cfg.b = *parse_operand("nvfp4");
  const Result r = evaluate(cfg, b200());
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(r.smem_bytes, 217088);
  EXPECT_EQ(r.epilogue_smem, 100352);
  const Plan p = sm100_umma_family().decide(cfg, true);
  EXPECT_EQ(p.rule.builder_capacity, 232304);
  EXPECT_EQ(p.rule.stage_bytes, 39040);
  EXPECT_EQ(p.min_stages, 1);
  const std::string kernel = report::kernel_description(p.kernel);
  EXPECT_NE(kernel.find("KernelTmaWarpSpecialized2SmNvf4Sm100"), std::string::npos) << kernel;
}

// The no-smem epilogue (sm100_epilogue_nosmem.hpp:494-498) is not empty: FusionStorage (1 B)
// + array_aligned<uint8_t, 0> (an empty alignas(16) class, 16 B) = 32 B. The kernel's epi_load
// pipeline is PipelineTransactionAsync<0>: 2 B.
//   bf16 128x256x64 1SM: Acc 2, Cap 232288; S = (232288 − 32) / 49168 = 4.72 -> 4.
//   pipelines 64 + (2 -> 16) + 16 + 32 + 32 + 32 + 8 = 200 -> 208; +32 -> 240; +4 -> 244;
//   tensors @256: ru(32, 128) + 4·49152 = 196736 -> 196992.
TEST(Sm100Umma, NoSmemEpilogueIs32Bytes) {
  KernelConfig cfg = base_config();
  cfg.m = 128, cfg.n = 256, cfg.k = 64;
  cfg.a = cfg.b = Operand{DType::BF16};
  cfg.schedule = Schedule::Sm1;
  cfg.epilogue.variant = EpilogueVariant::NoSmem;
  const Result r = evaluate(cfg, b200());
  EXPECT_EQ(r.stages, 4);
  EXPECT_EQ(r.epilogue_smem, 32);
  EXPECT_EQ(r.smem_bytes, 196992);
}

// ---- invalid configurations ----------------------------------------------------------------

TEST(Sm100Umma, InvalidTilesAreRejectedWithReasons) {
  auto invalid_with = [](KernelConfig cfg, const std::string& needle) {
    const Result r = evaluate(cfg, b200());
    EXPECT_EQ(r.status, Status::Invalid) << needle;
    bool found = false;
    for (const std::string& note : test::notes(r))
      found = found || note.find(needle) != std::string::npos;
    EXPECT_TRUE(found) << "no note containing '" << needle << "'";
  };
  KernelConfig dense = base_config();
  dense.a = dense.b = Operand{DType::BF16};
  dense.k = 64;

  KernelConfig c = dense;  // 1SM M must be 64 or 128
  c.m = 256, c.n = 128, c.schedule = Schedule::Sm1;
  invalid_with(c, "must be 64 or 128");

  c = dense;  // 2SM needs an even cluster M
  c.m = 256, c.n = 128, c.schedule = Schedule::Sm2;
  invalid_with(c, "Cluster shape not divisible by MMA size");

  KernelConfig bs = base_config();
  bs.a = bs.b = *parse_operand("nvfp4");
  c = bs;  // block-scaled 1SM M must be 128
  c.m = 64, c.n = 128, c.k = 256, c.schedule = Schedule::Sm1;
  invalid_with(c, "must be 128");

  c = bs;  // K must hold whole 4-vector scale-factor blocks: mxfp8 (Vs 32) K = 96 < 128
  c.a = c.b = *parse_operand("mxfp8");
  c.m = 128, c.n = 128, c.k = 96, c.schedule = Schedule::Sm1;
  invalid_with(c, "4 x sf_vec");

  c = dense;  // cooperative is an SM90/SM120 schedule
  c.m = 128, c.n = 128, c.schedule = Schedule::Cooperative;
  invalid_with(c, "not an SM100 UMMA schedule");
}

TEST(Sm100Umma, ClaimsSm100FamilyArchs) {
  KernelConfig cfg = base_config();
  cfg.family.clear();
  for (int sm : {100, 101, 103, 110}) EXPECT_TRUE(sm100_umma_family().claims(cfg, sm)) << sm;
  for (int sm : {90, 120, 80}) EXPECT_FALSE(sm100_umma_family().claims(cfg, sm)) << sm;
  cfg.schedule = Schedule::Pingpong;
  EXPECT_FALSE(sm100_umma_family().claims(cfg, 100));
}

// ---- (b) ground truth ----------------------------------------------------------------------

// Every row is checked against CUTLASS by tests/ground_truth_test.cpp; a data file that loses
// rows fails here.
TEST(Sm100Umma, Cutlass47RowCount) {
  EXPECT_EQ(test::load_rows("cutlass-4.7.jsonl", "sm100_umma").size(), 14u);
}

// Extra SM100 rows measured the same way (see tests/data/README.md): 2SM with MMA M 128 (TMEM
// warps 2x2), void C, column-major C/D, C and D of different widths, explicit stages and epilogue
// tile, grouped no-smem, SFB of N = 192, mxfp4, auto schedules, column-major fp4 D with
// blockscale_out.
TEST(Sm100Umma, MeasuredSm100RowCount) {
  EXPECT_EQ(test::load_rows("measured-sm100.jsonl", "sm100_umma").size(), 19u);
}

// ---- (c) invariants ------------------------------------------------------------------------

TEST(Sm100Umma, BreakdownSumsAndMaxStagesIsTight) {
  std::vector<KernelConfig> cfgs;
  for (const char* file : {"cutlass-4.7.jsonl", "measured-sm100.jsonl"})
    for (const KernelConfig& cfg : sm100_row_configs(file)) cfgs.push_back(cfg);
  // A few more shapes: void C, column-major C/D, mxfp8 2SM, fp8 dense, grouped no-smem.
  KernelConfig extra = base_config();
  extra.m = 128, extra.n = 128, extra.k = 128;
  extra.a = extra.b = Operand{DType::E4M3};
  extra.c = DType::Void;
  cfgs.push_back(extra);
  extra.c = DType::F16, extra.d = DType::F16, extra.cd_row_major = false;
  cfgs.push_back(extra);
  extra = base_config();
  extra.m = 256, extra.n = 192, extra.k = 128, extra.cluster = {2, 1, 1};
  extra.a = extra.b = *parse_operand("mxfp8");
  cfgs.push_back(extra);
  extra.grouped = true, extra.epilogue.variant = EpilogueVariant::NoSmem;
  extra.schedule = Schedule::Sm2;
  cfgs.push_back(extra);

  const Limits& lim = b200();
  for (const KernelConfig& cfg : cfgs) {
    SCOPED_TRACE(cfg.name.empty() ? std::to_string(cfg.m) + "x" + std::to_string(cfg.n) : cfg.name);
    const KernelFamily& fam = sm100_umma_family();
    const Plan plan = fam.decide(cfg, true);
    ASSERT_FALSE(plan.invalid) << (plan.reasons.empty() ? ""
                                                        : report::message(plan.reasons.front()));
    ASSERT_TRUE(plan.sizes_known);
    const Result r = evaluate(cfg, lim);
    ASSERT_TRUE(r.breakdown.has_value());
    EXPECT_EQ(test::sum_parts(*r.breakdown), *r.smem_bytes);
    for (Bytes part : r.breakdown->parts) EXPECT_GE(part, 0);
    const int max_s = max_fitting(fam, cfg, plan, lim.optin_per_block).stages;
    ASSERT_GE(max_s, plan.min_stages);
    const Storage at = fam.layout(cfg, plan, max_s);
    const Storage over = fam.layout(cfg, plan, max_s + 1);
    EXPECT_LE(at.kernel.size, lim.optin_per_block);
    EXPECT_GT(over.kernel.size, lim.optin_per_block);
    EXPECT_EQ(test::sum_parts(at.kernel), at.kernel.size);
    EXPECT_EQ(test::sum_parts(over.kernel), over.kernel.size);
  }
}

}  // namespace
}  // namespace tilefit::model
