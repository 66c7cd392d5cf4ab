// The Triton families: rules computed by hand, the shortcuts of the implementation against the
// general algorithms they stand for, and invariants over a grid (every measured row runs through
// the reader in ground_truth_test.cpp).
#include <gtest/gtest.h>

#include <random>

#include "tilefit/report/diagnostic_text.hpp"
#include "model/triton_allocator.hpp"
#include "model/triton_gemm.hpp"
#include "model/triton_layout.hpp"
#include "model_test_util.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit {
namespace {

using model::Bytes;
using model::Code;
using model::Component;
using model::Status;

model::KernelConfig triton(const char* family, int arch, long long m, long long n, long long k,
                           const char* dtype, int warps, int stages) {
  model::KernelConfig c;
  c.name = "t";
  c.family = family;
  c.arch = arch;
  c.m = m;
  c.n = n;
  c.k = k;
  if (std::string(dtype) == "fp8_w8a8") {
    c.fp8_w8a8 = true;
    c.a = c.b = *model::parse_operand("e4m3");
  } else {
    c.a = c.b = *model::parse_operand(dtype);
  }
  c.d = std::string(dtype) == "f16" ? model::DType::F16 : model::DType::BF16;
  c.num_warps = warps;
  c.stages = stages;
  return c;
}

Bytes part(const model::Result& r, Component c) { return r.breakdown ? r.breakdown->part(c) : -1; }

// ---- rules by hand ---------------------------------------------------------------------------

// cp.async (mma v2) keeps num_stages - 1 buffers of A and B: sm_120 bf16 128x128x64, 6 stages:
// 5 x (128·64·2 + 64·128·2) = 5 x 32768 = 163840 B (the number); 4 stages fit: 98304.
TEST(TritonRules, CpAsyncKeepsStagesMinusOneBuffers) {
  const auto r = test::eval(triton("triton_fused_moe", 120, 128, 128, 64, "bf16", 4, 6));
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_EQ(*r.smem_bytes, 163840);
  EXPECT_EQ(part(r, Component::A), 5 * 16384);
  EXPECT_EQ(part(r, Component::B), 5 * 16384);
  EXPECT_EQ(r.max_stages, 4);
  EXPECT_EQ(*r.max_stages_smem, 98304);
  EXPECT_TRUE(test::has(r, Code::over_limit_out_of_resources));
  EXPECT_TRUE(test::has(r, Code::max_stages_fit));
  const auto notes = test::notes(r);
  EXPECT_NE(notes.at(1).find("num_stages 4 needs 98304 B and fits"), std::string::npos)
      << notes.at(1);
}

// fp8 block-wise scales: b_scale[BN] (f32) is an expensive load when BN >= 32·num_warps, and its
// convert to the accumulator's slice needs 128 elements x 4 B of scratch with 4 warps; not with 8
// (the load is cheap and rematerialised): 49664 vs 49152 B (the numbers).
TEST(TritonRules, BlockScaleConversionDependsOnNumWarps) {
  auto c = triton("triton_fused_moe", 120, 64, 128, 64, "fp8_w8a8", 4, 5);
  c.block_shape = std::array<long long, 2>{128, 128};
  const auto r4 = test::eval(c);
  EXPECT_EQ(*r4.smem_bytes, 4 * 4096 + 4 * 8192 + 512);
  EXPECT_EQ(part(r4, Component::LayoutConversion), 512);
  c.num_warps = 8;
  const auto r8 = test::eval(c);
  EXPECT_EQ(*r8.smem_bytes, 49152);
  EXPECT_EQ(part(r8, Component::LayoutConversion), 0);
}

// wgmma keeps num_stages buffers (loadRequiresAdditionalBuffer) aligned to the 128 B swizzle's
// 1024 B: sm_90 bf16 128x128x64, 4 stages = 4 x 32768.
TEST(TritonRules, WgmmaKeepsStagesBuffers) {
  const auto r = test::eval(triton("triton_matmul", 90, 128, 128, 64, "bf16", 4, 4));
  EXPECT_EQ(*r.smem_bytes, 4 * 32768);
  const std::string kernel = report::kernel_description(r.kernel);
  EXPECT_NE(kernel.find("wgmma"), std::string::npos) << kernel;
}

// The same tile with BLOCK_SIZE_M 32 cannot use wgmma: mma.sync with num_stages - 1 buffers.
TEST(TritonRules, SmallTileMFallsBackToMmaSync) {
  const auto r = test::eval(triton("triton_matmul", 90, 32, 128, 64, "bf16", 4, 4));
  EXPECT_EQ(*r.smem_bytes, 3 * (32 * 64 * 2 + 64 * 128 * 2));
  EXPECT_TRUE(test::has(r, Code::triton_mma_fallback));
}

// tcgen05 with an asynchronous MMA: num_stages buffers and two 8 B mbarriers placed on top.
TEST(TritonRules, Tcgen05AsyncAddsBarriers) {
  const auto r = test::eval(triton("triton_matmul", 100, 128, 128, 64, "bf16", 4, 3));
  EXPECT_EQ(*r.smem_bytes, 3 * 32768 + 16);
  EXPECT_EQ(part(r, Component::MainloopBarriers), 16);
}

// num_stages 1 pipelines nothing: each iteration stages A and B once (sm_80 f16 64x64x32:
// 4096 + 4096 B), unless the epilogue's conversion is larger.
TEST(TritonRules, OneStagePipelinesNothing) {
  const auto r = test::eval(triton("triton_matmul", 80, 64, 64, 32, "f16", 4, 1));
  EXPECT_EQ(part(r, Component::A), 4096);
  EXPECT_EQ(part(r, Component::B), 4096);
}

TEST(TritonRules, DefaultsAreTritons) {
  auto c = triton("triton_matmul", 86, 64, 64, 32, "f16", 4, 3);
  c.stages.reset();
  c.num_warps.reset();
  const auto r = test::eval(c);
  EXPECT_EQ(r.stages, 3);
  EXPECT_FALSE(r.auto_stages);
  EXPECT_TRUE(test::has(r, Code::triton_default_num_stages));
  EXPECT_TRUE(test::has(r, Code::triton_default_num_warps));
}

TEST(TritonRules, OtherTritonVersionIsAWarning) {
  auto c = triton("triton_fused_moe", 90, 64, 64, 64, "bf16", 4, 3);
  c.triton_version = "3.4.0";
  const auto r = test::eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  ASSERT_TRUE(test::has(r, Code::triton_version_differs));
  for (const auto& d : r.diagnostics) {
    if (d.code == Code::triton_version_differs) {
      EXPECT_EQ(d.severity, model::Severity::warning);
    }
  }
  c.triton_version = "3.6.1";
  EXPECT_FALSE(test::has(test::eval(c), Code::triton_version_differs));
}

// ---- invalid --------------------------------------------------------------------------------

TEST(TritonInvalid, WhatDoesNotCompile) {
  struct Case {
    model::KernelConfig cfg;
    Code code;
  };
  auto fp8_k16 = triton("triton_matmul", 90, 64, 64, 16, "e4m3", 4, 3);
  auto fp8_sm80 = triton("triton_matmul", 80, 64, 64, 64, "e4m3", 4, 3);
  auto bf16_k8 = triton("triton_fused_moe", 90, 64, 64, 8, "bf16", 4, 3);
  auto npot = triton("triton_matmul", 90, 96, 64, 64, "bf16", 4, 3);
  auto warps = triton("triton_matmul", 90, 64, 64, 64, "bf16", 6, 3);
  auto huge = triton("triton_matmul", 90, 4096, 512, 64, "bf16", 4, 3);
  auto moe_f32 = triton("triton_fused_moe", 90, 64, 64, 64, "f32", 4, 3);
  auto unmodelled = triton("triton_fused_moe", 90, 64, 64, 64, "bf16", 4, 3);
  unmodelled.unmodelled_dtype = "int8_w8a16";
  const Case cases[] = {
      {fp8_k16, Code::triton_dot_k_min}, {fp8_sm80, Code::triton_fp8_needs_sm89},
      {bf16_k8, Code::triton_dot_k_min}, {npot, Code::triton_block_not_power_of_two},
      {warps, Code::triton_num_warps},   {huge, Code::triton_tensor_too_large},
      {moe_f32, Code::triton_dtype},     {unmodelled, Code::triton_unmodelled_dtype}};
  for (const Case& k : cases) {
    const auto r = test::eval(k.cfg);
    EXPECT_EQ(r.status, Status::Invalid) << model::code_name(k.code);
    EXPECT_FALSE(r.smem_bytes.has_value()) << model::code_name(k.code);
    EXPECT_TRUE(test::has(r, k.code)) << model::code_name(k.code);
  }
}

// ---- shortcuts against the general algorithms ------------------------------------------------

// allocate() stacks a clique of loop buffers directly; allocate_general() runs calculateStarts
// and the colouring. Random buffer sets of the shapes the kernels produce (and others).
TEST(TritonShortcuts, StackedAllocationEqualsTheGeneralAllocator) {
  std::mt19937 rng(12);
  const int starts[] = {10, 11, 12, 13, 40, 41, 42, 50, 51, 150};
  int stacked = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    model::triton::Buffers a;
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      const int s = starts[rng() % 10];
      const int e = s == 150 ? 151 : s >= 40 ? s + 1 + static_cast<int>(rng() % 3) : 100;
      const Bytes size = static_cast<Bytes>(16 << (rng() % 12)) * (1 + rng() % 5);
      const Bytes align = Bytes{16} << (rng() % 7);
      a.add(size, align, s, e, Component::A);
    }
    model::triton::Buffers b = a;
    const Bytes fast = model::triton::allocate(a);
    const Bytes general = model::triton::allocate_general(b);
    ASSERT_EQ(fast, general) << "iteration " << iter;
    for (int i = 0; i < a.n; ++i) ASSERT_EQ(a.b[i].offset, b.b[i].offset) << "iteration " << iter;
    bool clique = true;
    for (int i = 0; i < a.n; ++i)
      if (a.b[i].start == 150 || a.b[i].start >= 40) clique = false;
    stacked += clique;
  }
  EXPECT_GT(stacked, 1000);  // the shortcut's shape was exercised
}

// The swizzle search's single-bit arithmetic against the general one, on the layouts the
// kernels convert (epilogue and scale conversions over a grid of tiles, warps and archs).
TEST(TritonShortcuts, SingleBitSwizzleSearchEqualsTheGeneralOne) {
  using namespace model::triton;
  int checked = 0;
  for (int cc : {80, 90, 100, 120})
    for (int bm : {4, 5, 6, 7, 8})
      for (int bn : {4, 5, 6, 7, 8})
        for (int w : {0, 1, 2, 3})
          for (int version : {2, 3, 5}) {
            if (version == 3 && (w < 2 || bm < 6)) continue;
            if (version == 5 && (w < 2 || w > 3 || bm < 6)) continue;
            Accumulator acc;
            acc.version = version;
            acc.bm_log2 = bm;
            acc.bn_log2 = bn;
            acc.num_warps = 1 << w;
            acc.instr_n = 1 << std::min(bn, 8);
            acc.warps = version == 2 ? std::array<int, 2>{w / 2 + w % 2, w / 2}
                                     : std::array<int, 2>{2, std::max(0, w - 2)};
            const Flat src = accumulator_layout(acc, {bm, bn});
            for (int bits : {16, 32}) {
              Blocked st;
              st.rank = 2;
              st.order = {1, 0};
              const int spt = std::min(bits == 16 ? 3 : 2, std::max(0, bm + bn - 5 - w));
              st.spt = {0, std::min(spt, bn)};
              st.tpw = {std::max(0, 5 - (bn - st.spt[1])), std::min(5, bn - st.spt[1])};
              st.wpc = {w, 0};
              const Flat dst = blocked_layout(st, {bm, bn}, 2);
              EXPECT_EQ(cvt_scratch_elems(src, dst, bits, cc),
                        cvt_scratch_elems_general(src, dst, bits, cc))
                  << "cc " << cc << " v" << version << " " << bm << "x" << bn << " w" << w;
              ++checked;
            }
            Blocked b1;
            b1.rank = 1;
            b1.spt = {0, 0};
            b1.tpw = {5, 0};
            b1.wpc = {w, 0};
            const Flat scale = blocked_layout(b1, {bn, 0}, 1);
            const Flat slice = accumulator_slice(acc, 0, bn);
            EXPECT_EQ(cvt_scratch_elems(scale, slice, 32, cc),
                      cvt_scratch_elems_general(scale, slice, 32, cc));
          }
  EXPECT_GT(checked, 500);
}

// The memoised layout answers give the numbers the cold path gives.
TEST(TritonShortcuts, MemoisedAnswersEqualCold) {
  auto c = triton("triton_fused_moe", 90, 128, 128, 128, "fp8_w8a8", 8, 4);
  c.block_shape = std::array<long long, 2>{128, 128};
  const auto warm1 = test::eval(c);
  model::triton::clear_layout_memo();
  const auto cold = test::eval(c);
  const auto warm2 = test::eval(c);
  EXPECT_EQ(*warm1.smem_bytes, *cold.smem_bytes);
  EXPECT_EQ(*warm2.smem_bytes, *cold.smem_bytes);
  EXPECT_EQ(warm2.max_stages, cold.max_stages);
}

// ---- invariants -----------------------------------------------------------------------------

Bytes sum(const model::Field& f) {
  Bytes s = 0;
  for (Bytes p : f.parts) s += p;
  return s;
}

// Over a grid of both families on every architecture: the breakdown sums to smem_bytes,
// max_stages is tight, and the size never shrinks as num_stages grows.
TEST(TritonInvariants, BreakdownSumsMaxStagesTightMonotone) {
  int checked = 0;
  for (const char* family : {"triton_matmul", "triton_fused_moe"})
    for (int arch : {80, 86, 89, 90, 100, 120, 121})
      for (const char* dtype : {"bf16", "f32", "e4m3", "fp8_w8a8"}) {
        const bool moe = std::string(family) == "triton_fused_moe";
        if (moe == (std::string(dtype) == "f32" || std::string(dtype) == "e4m3")) continue;
        for (long long m : {16, 64, 128, 256})
          for (long long n : {32, 128, 256})
            for (long long k : {32, 64, 128})
              for (int w : {2, 4, 8})
                for (int block = 0; block < (std::string(dtype) == "fp8_w8a8" ? 2 : 1); ++block) {
                  auto c = triton(family, arch, m, n, k, dtype, w, 3);
                  if (block) c.block_shape = std::array<long long, 2>{128, 128};
                  const model::Limits lim = model::find_arch(arch)->limits;
                  const auto r = model::evaluate(c, lim);
                  const std::string where = std::string(family) + " sm_" + std::to_string(arch) +
                                            " " + dtype + " " + std::to_string(m) + "x" +
                                            std::to_string(n) + "x" + std::to_string(k) + " w" +
                                            std::to_string(w) + (block ? " block" : "");
                  if (r.status == Status::Invalid) continue;
                  ASSERT_TRUE(r.breakdown) << where;
                  EXPECT_EQ(sum(*r.breakdown), *r.smem_bytes) << where;
                  const auto* fam = model::find_family(family);
                  const model::Plan plan = fam->decide(c, false);
                  Bytes prev = 0;
                  for (int s = 1; s <= 12; ++s) {
                    const Bytes b = fam->sizes(c, plan, s).kernel.size;
                    EXPECT_GE(b, prev) << where << " num_stages " << s;
                    EXPECT_EQ(b, fam->layout(c, plan, s).kernel.size) << where;
                    prev = b;
                  }
                  if (r.max_stages > 0) {
                    EXPECT_LE(fam->sizes(c, plan, r.max_stages).kernel.size, lim.optin_per_block)
                        << where;
                    if (r.max_stages < model::kMaxStages) {
                      EXPECT_GT(fam->sizes(c, plan, r.max_stages + 1).kernel.size,
                                lim.optin_per_block)
                          << where;
                    }
                  }
                  ++checked;
                }
      }
  EXPECT_GT(checked, 2000);
}

}  // namespace
}  // namespace tilefit
