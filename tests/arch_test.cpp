// The built-in architecture table, arch spellings and CTAs/SM.
#include <gtest/gtest.h>

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
    EXPECT_EQ(a.limits.optin_per_block, a.limits.per_sm - a.limits.reserved_per_block) << a.limits.sm;
  }
}

TEST(Arch, CtasPerSmFromSharedMemory) {
  const Limits& sm120 = find_arch(120)->limits;
  EXPECT_EQ(ctas_per_sm(89088, sm120), 1);          // 102400 / (89088 + 1024)
  EXPECT_EQ(ctas_per_sm(50176, sm120), 2);          // 2 x 51200 = 102400 exactly
  EXPECT_EQ(ctas_per_sm(50177, sm120), 1);
  EXPECT_EQ(ctas_per_sm(101377, sm120), 0);         // over the opt-in limit
  EXPECT_EQ(ctas_per_sm(0, sm120), 24);             // capped by max CTAs/SM
  const Limits& sm90 = find_arch(90)->limits;
  EXPECT_EQ(ctas_per_sm(230400, sm90), 1);
  EXPECT_EQ(ctas_per_sm(115712, sm90), 2);          // 2 x 116736 = 233472
}

}  // namespace
}  // namespace tilefit::model
