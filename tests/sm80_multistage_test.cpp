// sm80_multistage (CUTLASS 2.x device::Gemm, cp.async multistage): hand-computed cases, the
// number of sm80_multistage ground-truth rows (tests/data/cutlass-4.7.jsonl) and extra measured
// rows (tests/data/measured-sm80.jsonl) — tests/ground_truth_test.cpp checks every row against
// CUTLASS — and the layout invariants over those rows.
#include <algorithm>
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

const Limits& a100() { return find_arch(80)->limits; }  // opt-in 166912
const Limits& sm86() { return find_arch(86)->limits; }  // opt-in 101376

/// f16 x f16 -> f32 accumulate -> f16 C/D, TN, the ground-truth rows' types.
KernelConfig f16_config(long long m, long long n, long long k, long long wm, long long wn,
                        long long wk, std::optional<int> stages) {
  KernelConfig cfg;
  cfg.name = "test";
  cfg.arch = 80;
  cfg.family = "sm80_multistage";
  cfg.m = m, cfg.n = n, cfg.k = k;
  cfg.warp = {{wm, wn, wk}};
  cfg.a = cfg.b = Operand{DType::F16};
  cfg.c = cfg.d = DType::F16;
  cfg.acc = DType::F32;
  cfg.schedule = Schedule::Multistage;
  cfg.stages = stages;
  return cfg;
}

bool has_note(const Result& r, const std::string& needle) {
  for (const std::string& n : test::notes(r))
    if (n.find(needle) != std::string::npos) return true;
  return false;
}

/// The sm80_multistage rows of tests/data/`file`.
std::vector<test::GroundTruthRow> sm80_rows(const std::string& file) {
  return test::load_rows(file, "sm80_multistage");
}

// ---- (a) hand-computed cases ---------------------------------------------------------------

// Doc §6.2 example: sm80, f16 in, f32 accumulate, f16 out, 128x256x64 / warp 64x64x64 / S = 3.
//   Mainloop: A = 128·64·3·2 = 49152, B = 256·64·3·2 = 98304 -> 147456 (both multiples of 16).
//   Epilogue: WarpCount = (128/64, 256/64, 64/64) = (2, 4, 1); f16 <- f32 x8 -> FPI = 2;
//     rows = 2·8·1·2 = 32, cols = 256 + 64/32·4 = 264 -> 32·264·4 = 33792.
//   Union -> 147456 <= 166912: fits. S = 4 would need 4·49152 = 196608 > 166912 -> max 3.
TEST(Sm80Multistage, DocExample_F16_128x256x64_S3) {
  const KernelConfig cfg = f16_config(128, 256, 64, 64, 64, 64, 3);
  const Result r = evaluate(cfg, a100());
  EXPECT_EQ(r.family, "sm80_multistage");
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_FALSE(r.auto_stages);
  EXPECT_EQ(r.smem_bytes, 147456);
  EXPECT_EQ(r.mainloop_smem, 147456);
  EXPECT_EQ(r.epilogue_smem, 33792);
  EXPECT_EQ(r.max_stages, 3);
  ASSERT_TRUE(r.breakdown);
  EXPECT_EQ(r.breakdown->part(Component::A), 49152);
  EXPECT_EQ(r.breakdown->part(Component::B), 98304);
  EXPECT_EQ(r.breakdown->part(Component::EpilogueD), 0);
  EXPECT_EQ(report::kernel_description(r.kernel),
            "cutlass::gemm::device::Gemm (MmaMultistage, 128x256x64 / warp 64x64x64, 3 stages)");
}

// The same kernel on sm86 (RTX 30xx / A6000: 101376 B opt-in): 147456 > 101376, does not fit.
//   S = 2: 2·(128·64·2 + 256·64·2) = 98304 <= 101376 (epilogue 33792 is smaller) -> max 2.
TEST(Sm80Multistage, Sm86_128x256x64_DoesNotFit) {
  KernelConfig cfg = f16_config(128, 256, 64, 64, 64, 64, 3);
  cfg.arch = 86;
  const Result r = evaluate(cfg, sm86());
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.smem_bytes, 147456);
  EXPECT_EQ(r.limit_bytes, 101376);
  EXPECT_EQ(r.headroom_bytes, 101376 - 147456);
  EXPECT_EQ(r.max_stages, 2);
  EXPECT_EQ(sm80_multistage_family()
                .layout(cfg, sm80_multistage_family().decide(cfg, true), 2)
                .kernel.size,
            98304);
}

// Stages "auto": 2.x has no automatic rule; device::Gemm's default Stages = 3. Doc §6.2: the
// same types at 128x128x64 / 64x64x64, S = 3: 3·(128·64·2)·2 = 98304 (epilogue: WarpCount
// (2,2,1), FPI 2 -> 32 rows · 136 cols · 4 = 17408), fits sm86's 101376.
TEST(Sm80Multistage, AutoStagesIsDefaultConfigurationThree) {
  KernelConfig cfg = f16_config(128, 128, 64, 64, 64, 64, std::nullopt);
  cfg.arch = 86;
  const Result r = evaluate(cfg, sm86());
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_TRUE(r.auto_stages);
  EXPECT_EQ(r.smem_bytes, 98304);
  EXPECT_EQ(r.epilogue_smem, 17408);
  EXPECT_TRUE(has_note(r, "kStages = 3"));
  const Plan p = sm80_multistage_family().decide(cfg, true);
  EXPECT_EQ(p.min_stages, 2);
  EXPECT_EQ(p.rule.capacity_constant, 0);
  EXPECT_EQ(p.overflow, Overflow::RuntimeRun2x);
}

// When the epilogue is the larger union member (measured, measured-sm80.jsonl):
// 128x128x32 / warp 32x64x32, S = 2: mainloop 2·(128·32·2 + 128·32·2) = 32768;
//   WarpCount (4, 2, 1), FPI 2: rows 4·8·2 = 64, cols 136 -> 64·136·4 = 34816 > 32768.
TEST(Sm80Multistage, EpilogueLargerThanMainloop) {
  const Result r = evaluate(f16_config(128, 128, 32, 32, 64, 32, 2), a100());
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.smem_bytes, 34816);
  EXPECT_EQ(r.mainloop_smem, 32768);
  EXPECT_EQ(r.epilogue_smem, 34816);
  ASSERT_TRUE(r.breakdown);
  EXPECT_EQ(r.breakdown->part(Component::EpilogueD), 34816);
  EXPECT_EQ(r.breakdown->part(Component::A), 0);
  EXPECT_EQ(test::sum_parts(*r.breakdown), 34816);
  EXPECT_NE(report::kernel_description(r.kernel).find("MmaPipelined"), std::string::npos);
}

// bf16 out: the generic DefaultIteratorsTensorOp (FPI 1) -> half the f16 epilogue:
//   128x128x32 / 64x64x32: rows 2·8·1·1 = 16, cols 136 -> 16·136·4 = 8704 (ground truth).
// f32 out (float <- float x4, FPI 2): 17408; f16 accumulator: 16 rows · (128 + 16) · 2 = 4608.
TEST(Sm80Multistage, EpilogueDependsOnOutputAndAccumulator) {
  KernelConfig cfg = f16_config(128, 128, 32, 64, 64, 32, 3);
  cfg.a = cfg.b = Operand{DType::BF16};
  cfg.c = cfg.d = DType::BF16;
  EXPECT_EQ(evaluate(cfg, a100()).epilogue_smem, 8704);
  cfg.c = cfg.d = DType::F32;
  EXPECT_EQ(evaluate(cfg, a100()).epilogue_smem, 17408);
  KernelConfig h = f16_config(128, 128, 32, 64, 64, 32, 3);
  h.acc = DType::F16;
  EXPECT_EQ(evaluate(h, a100()).epilogue_smem, 4608);
  // Sliced K (kPartitionsK = 2) forces FPI 1: 128x128x64 / 64x64x32 -> rows 2·8·2 = 32 -> 17408.
  EXPECT_EQ(evaluate(f16_config(128, 128, 64, 64, 64, 32, 3), a100()).epilogue_smem, 17408);
}

// f32 x f32 with 2 stages: DefaultMma<float,...,2> keeps half_t in shared memory (measured):
//   2·(128·32·2 + 128·32·2) = 32768, where tf32 keeps 4 bytes: 2·(128·32·4)·2 = 65536.
TEST(Sm80Multistage, F32TwoStagesStoresHalf) {
  KernelConfig cfg = f16_config(128, 128, 32, 64, 64, 32, 2);
  cfg.a = cfg.b = Operand{DType::F32};
  cfg.c = cfg.d = DType::F32;
  const Result r = evaluate(cfg, a100());
  EXPECT_EQ(r.smem_bytes, 32768);
  EXPECT_TRUE(has_note(r, "half_t"));
  cfg.stages = 3;  // sm80 core: float stays 32-bit: 3·(128·32·4)·2 = 98304
  EXPECT_EQ(evaluate(cfg, a100()).smem_bytes, 98304);
  cfg.a = cfg.b = Operand{DType::TF32};
  cfg.stages = 2;
  EXPECT_EQ(evaluate(cfg, a100()).smem_bytes, 65536);
}

// int8: s8 x s8 -> s32, 16x8x32 instruction. 128x128x64 / 64x64x64, S = 3:
//   3·(128·64 + 128·64) = 49152; s8 out (FPI 1): 16 rows · 136 · 4 = 8704;
//   bf16 out (bf16 <- int32 x8, FPI 2): 17408 (both measured).
TEST(Sm80Multistage, Int8) {
  KernelConfig cfg = f16_config(128, 128, 64, 64, 64, 64, 3);
  cfg.a = cfg.b = Operand{DType::S8};
  cfg.acc = DType::S32;
  cfg.c = cfg.d = DType::S8;
  Result r = evaluate(cfg, a100());
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.smem_bytes, 49152);
  EXPECT_EQ(r.epilogue_smem, 8704);
  cfg.c = cfg.d = DType::BF16;
  EXPECT_EQ(evaluate(cfg, a100()).epilogue_smem, 17408);
  cfg.acc = DType::F32;  // int8 MMA accumulates in s32
  EXPECT_EQ(evaluate(cfg, a100()).status, Status::Invalid);
}

// Configurations CUTLASS rejects at compile time (each measured: the probe failed to compile).
TEST(Sm80Multistage, InvalidConfigs) {
  // warp K 16 = one 16x8x16 MMA per stage: "requires at least two warp-level GEMM operations".
  EXPECT_EQ(evaluate(f16_config(128, 128, 16, 64, 64, 16, 3), a100()).status, Status::Invalid);
  // tile not divisible by warp tile.
  Result r = evaluate(f16_config(128, 128, 32, 48, 64, 32, 3), a100());
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_FALSE(r.smem_bytes);
  // f16 K = 128 is wider than one 128-byte line of the crosswise layout.
  EXPECT_EQ(evaluate(f16_config(128, 128, 128, 64, 64, 64, 3), a100()).status, Status::Invalid);
  // 64x64x64 / 32x32x32: 8 warps share 8 output rows of a 64-wide tile:
  // "Iteration Count Row must be > 0".
  EXPECT_EQ(evaluate(f16_config(64, 64, 64, 32, 32, 32, 3), a100()).status, Status::Invalid);
  // 32 warps (warp 64x8): the global-load thread map has zero iterations.
  EXPECT_EQ(evaluate(f16_config(128, 128, 32, 64, 8, 32, 3), a100()).status, Status::Invalid);
  // Stages = 1 compiles, but is not a working pipeline.
  r = evaluate(f16_config(128, 128, 32, 64, 64, 32, 1), a100());
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(has_note(r, "stages = 1"));
  // No warp tile: device::Gemm's default 64x64x64 does not divide K = 32.
  KernelConfig nowarp = f16_config(128, 128, 32, 64, 64, 32, 3);
  nowarp.warp.reset();
  r = evaluate(nowarp, a100());
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(has_note(r, "64x64x64"));
  // Block-scaled operands do not exist in 2.x.
  KernelConfig fp4 = f16_config(128, 128, 128, 64, 64, 128, 3);
  fp4.a = fp4.b = *parse_operand("nvfp4");
  EXPECT_EQ(evaluate(fp4, a100()).status, Status::Invalid);
}

TEST(Sm80Multistage, ClaimsAndRunsOn) {
  const KernelFamily& f = sm80_multistage_family();
  EXPECT_EQ(f.name(), "sm80_multistage");
  KernelConfig cfg = f16_config(128, 128, 32, 64, 64, 32, 3);
  cfg.family.clear();
  for (int sm : {80, 86, 87, 89}) EXPECT_TRUE(f.claims(cfg, sm)) << sm;
  EXPECT_TRUE(f.claims(cfg, 90));  // a warp tile is given
  cfg.warp.reset();
  cfg.schedule = Schedule::Auto;
  EXPECT_FALSE(f.claims(cfg, 90));
  cfg.schedule = Schedule::Multistage;
  EXPECT_TRUE(f.claims(cfg, 120));
  EXPECT_TRUE(f.runs_on(80));
  EXPECT_TRUE(f.runs_on(89));
  EXPECT_FALSE(f.runs_on(75));
}

// ---- (b) ground-truth rows -----------------------------------------------------------------

// Every row is checked against CUTLASS by tests/ground_truth_test.cpp; a data file that loses
// rows fails here.
TEST(Sm80Multistage, Cutlass47RowCount) { EXPECT_EQ(sm80_rows("cutlass-4.7.jsonl").size(), 14u); }

TEST(Sm80Multistage, MeasuredSm80RowCount) {
  EXPECT_EQ(sm80_rows("measured-sm80.jsonl").size(), 59u);
}

// ---- (c) invariants --------------------------------------------------------------------------

TEST(Sm80Multistage, Invariants) {
  std::vector<test::GroundTruthRow> rows = sm80_rows("cutlass-4.7.jsonl");
  for (const test::GroundTruthRow& row : sm80_rows("measured-sm80.jsonl")) rows.push_back(row);
  const KernelFamily& f = sm80_multistage_family();
  for (const Limits* lim : {&a100(), &sm86()}) {
    for (const test::GroundTruthRow& row : rows) {
      SCOPED_TRACE(row.id);
      const std::optional<KernelConfig> read = test::row_config(row);
      ASSERT_TRUE(read.has_value());
      const KernelConfig& cfg = *read;
      const Result r = evaluate(cfg, *lim);
      if (r.breakdown) {
        EXPECT_EQ(test::sum_parts(*r.breakdown), *r.smem_bytes);
      }
      const Plan p = f.decide(cfg, true);
      if (!p.sizes_known) continue;
      for (int s = 2; s <= 8; ++s) {
        const Storage st = f.layout(cfg, p, s);
        EXPECT_EQ(test::sum_parts(st.kernel), st.kernel.size);
        EXPECT_EQ(st.kernel.size, std::max(st.mainloop_shared, st.epilogue_shared));
        EXPECT_EQ(st.kernel.size % 16, 0);
        EXPECT_LE(f.layout(cfg, p, s - 1 < 2 ? 2 : s - 1).kernel.size, st.kernel.size);
      }
      if (r.max_stages > 0) {
        EXPECT_LE(f.layout(cfg, p, r.max_stages).kernel.size, lim->optin_per_block);
        EXPECT_GT(f.layout(cfg, p, r.max_stages + 1).kernel.size, lim->optin_per_block);
      }
    }
  }
}

}  // namespace
}  // namespace tilefit::model
