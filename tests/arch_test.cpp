// The built-in architecture table, arch spellings, CTAs/SM and cluster sizes.
#include <gtest/gtest.h>

#include "model_test_util.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::model {
namespace {

TEST(Arch, Spellings) {
  EXPECT_EQ(parse_arch("sm90"), 90);
  EXPECT_EQ(parse_arch("sm_90a"), 90);
  EXPECT_EQ(parse_arch("SM_100f"), 100);
  EXPECT_EQ(parse_arch("120"), 120);
  EXPECT_EQ(parse_arch("12.1"), 121);
  EXPECT_EQ(parse_arch("9.0"), 90);
  EXPECT_EQ(parse_arch("compute_80"), 80);
  EXPECT_EQ(parse_arch("hopper"), std::nullopt);
  EXPECT_EQ(parse_arch(""), std::nullopt);
  EXPECT_EQ(parse_arch("sm_9"), std::nullopt);
  EXPECT_EQ(parse_arch("99999"), std::nullopt);
}

TEST(Arch, TableNumbersFromTheirSources) {
  // SM120/121: 101376 / 102400 / 1024 (CUTLASS arch.h:45, devices report 101376).
  for (int sm : {120, 121}) {
    const Limits& l = find_arch(sm)->limits;
    EXPECT_EQ(l.optin_per_block, 101376);
    EXPECT_EQ(l.per_sm, 102400);
    EXPECT_EQ(l.reserved_per_block, 1024);
    EXPECT_EQ(l.default_per_block, 49152);
  }
  // SM90 and SM100: 232448 / 233472 / 1024.
  for (int sm : {90, 100}) {
    const Limits& l = find_arch(sm)->limits;
    EXPECT_EQ(l.optin_per_block, 232448);
    EXPECT_EQ(l.per_sm, 233472);
    EXPECT_EQ(l.reserved_per_block, 1024);
  }
  EXPECT_EQ(find_arch(80)->limits.optin_per_block, 166912);
  EXPECT_EQ(find_arch(86)->limits.optin_per_block, 101376);
  EXPECT_EQ(find_arch(70)->limits.reserved_per_block, 0);
  EXPECT_EQ(find_arch(101), find_arch(110));  // CUDA 13 renamed sm_101 to sm_110
  EXPECT_EQ(find_arch(95), nullptr);
}

TEST(Arch, TableIsOrderedAndOptinIsPerSmMinusReserved) {
  int last = 0;
  for (const ArchInfo& a : builtin_archs()) {
    EXPECT_GT(a.limits.sm, last);
    last = a.limits.sm;
    EXPECT_EQ(a.limits.optin_per_block, a.limits.per_sm - a.limits.reserved_per_block)
        << a.limits.sm;
  }
}

TEST(Arch, CtasPerSmFromSharedMemory) {
  const Limits& sm120 = find_arch(120)->limits;
  EXPECT_EQ(ctas_per_sm(89088, sm120), 1);  // 102400 / (89088 + 1024)
  EXPECT_EQ(ctas_per_sm(50176, sm120), 2);  // 2 x 51200 = 102400 exactly
  EXPECT_EQ(ctas_per_sm(50177, sm120), 1);
  EXPECT_EQ(ctas_per_sm(101377, sm120), 0);  // over the opt-in limit
  EXPECT_EQ(ctas_per_sm(0, sm120), 24);      // capped by max CTAs/SM
  const Limits& sm90 = find_arch(90)->limits;
  EXPECT_EQ(ctas_per_sm(230400, sm90), 1);
  EXPECT_EQ(ctas_per_sm(115712, sm90), 2);  // 2 x 116736 = 233472
}

// ---- clusters as a whole (issue 18, item 7) --------------------------------------------------

TEST(ArchClusters, TableSizes) {
  for (int sm : {70, 75, 80, 86, 89}) {
    EXPECT_EQ(cluster_limits(sm).portable, 1) << sm;
    EXPECT_EQ(cluster_limits(sm).non_portable, 1) << sm;
  }
  for (int sm : {90, 100, 103}) {
    EXPECT_EQ(cluster_limits(sm).portable, 8) << sm;
    EXPECT_EQ(cluster_limits(sm).non_portable, 16) << sm;
  }
  for (int sm : {110, 120, 121}) {
    EXPECT_EQ(cluster_limits(sm).portable, 8) << sm;
    EXPECT_EQ(cluster_limits(sm).non_portable, 8) << sm;
  }
  EXPECT_EQ(cluster_limits(1000).non_portable, 1);  // unknown: no clusters
}

KernelConfig clustered(const char* family, int arch, std::array<int, 3> cluster) {
  KernelConfig c = test::make_config(family, arch, 128, 128, 64, "bf16");
  c.cluster = cluster;
  return c;
}

TEST(ArchClusters, BeyondTheNonPortableMaximumIsInvalid) {
  // 4096 CTAs on sm_100 and 64 on sm_90 used to "fit".
  for (const KernelConfig& c :
       {clustered("sm100_umma", 100, {16, 16, 16}), clustered("sm90_tma_ws", 90, {8, 8, 1}),
        clustered("sm90_tma_ws", 90, {16, 2, 1})}) {
    const Result r = test::eval(c);
    EXPECT_EQ(r.status, Status::Invalid) << c.family;
    EXPECT_TRUE(test::has(r, Code::cluster_too_large)) << c.family;
    EXPECT_EQ(evaluate(c, find_arch(c.arch)->limits, Detail::verdict).status, Status::Invalid);
    // The kernel compiles (the launch fails): its SharedStorage keeps its size.
    EXPECT_TRUE(r.smem_bytes.has_value()) << c.family;
  }
  const Result r = test::eval(clustered("sm100_umma", 100, {16, 16, 16}));
  bool said = false;
  for (const std::string& n : test::notes(r))
    said =
        said || n.find("a cluster of 4096 CTAs: sm_100 launches at most 16") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(ArchClusters, BeyondThePortableSizeWarns) {
  KernelConfig one = clustered("sm90_tma_ws", 90, {1, 1, 1});
  for (std::array<int, 3> cl : {std::array<int, 3>{4, 4, 1}, std::array<int, 3>{2, 2, 4}}) {
    KernelConfig c = one;
    c.cluster = cl;
    const Result r = test::eval(c), base = test::eval(one);
    EXPECT_EQ(r.status, base.status);
    EXPECT_EQ(r.smem_bytes, base.smem_bytes);
    ASSERT_TRUE(test::has(r, Code::cluster_non_portable));
    for (const Diagnostic& d : r.diagnostics)
      if (d.code == Code::cluster_non_portable) {
        EXPECT_EQ(d.severity, Severity::warning);
      }
  }
  // 8 CTAs is portable: no warning.
  KernelConfig eight = one;
  eight.cluster = {2, 4, 1};
  EXPECT_FALSE(test::has(test::eval(eight), Code::cluster_non_portable));
  EXPECT_FALSE(test::has(test::eval(eight), Code::cluster_too_large));
}

TEST(ArchClusters, NoClustersBeforeSm90) {
  const Result r = test::eval(clustered("sm80_multistage", 80, {2, 1, 1}));
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(test::has(r, Code::cluster_unsupported));
  // sm_120: 16 CTAs is beyond what CUDA documents there.
  KernelConfig c = clustered("sm120_dense", 120, {4, 4, 1});
  c.a = c.b = *parse_operand("e4m3");
  EXPECT_TRUE(test::has(test::eval(c), Code::cluster_too_large));
}

}  // namespace
}  // namespace tilefit::model
