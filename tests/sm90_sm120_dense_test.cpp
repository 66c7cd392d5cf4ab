// Hand-computed SM90 and SM120 dense cases (cutlass-smem-model.md §4.7, §3.10).
#include <gtest/gtest.h>

#include "model_test_util.hpp"

namespace tilefit {
namespace {

using model::DType;
using model::EpilogueVariant;
using model::Status;
using test::eval;
using test::make_config;

TEST(Sm90TmaWs, CooperativeBf16WithTmaEpilogue) {
  // Epilogue tile 128x32, EpiTiles 4, ReuseSmemC: StagesD 2, StagesC max(4, 3) = 4; SW64 ->
  //   union 4·128·32·2 = 32768; TensorStorage ru(32769, 512) = 33280; + 64 -> 33792.
  // stage = ru(16384 + 16384, 128) + 16 = 32784; S = (232448 − 33792) / 32784 = 6.
  // Kernel: pipelines 96 + 64 + 16 = 176, scheduler 1 B; tensors @512 (epilogue swizzle):
  //   33280 + 6·32768 = 229888; total 512 + 229888 = 230400.
  auto c = make_config("sm90_tma_ws", 90, 128, 128, 64, "bf16");
  c.epilogue.variant = EpilogueVariant::Tma;
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 6);
  EXPECT_EQ(*r.epilogue_smem, 33792);
  EXPECT_EQ(*r.smem_bytes, 230400);
}

TEST(Sm90TmaWs, AutoEpilogueIsNoSmem) {
  // Carve-out ru(1, 128) = 128; S = 232320 / 32784 = 7; kernel: pipelines 112, epi_load 2 B,
  // load_order @128 -> 144; scheduler 1 B; tensors @256: epilogue 1 B, mainloop @128
  // (7·32768 = 229376) -> 229504; total 229760.
  auto c = make_config("sm90_tma_ws", 90, 128, 128, 64, "bf16");
  c.schedule = model::Schedule::Pingpong;
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 7);
  EXPECT_EQ(*r.smem_bytes, 229760);
  EXPECT_EQ(*r.epilogue_smem, 1);
}

TEST(Sm90TmaWs, GroupedCooperative) {
  // Cap = rd(232448 − 384, 128) = 232064; epilogue 33280 + 384 + 64 -> 33792; S = 6 for
  // 128x128x64... here 256x128x64: stage 32768+16384 -> 49168; S = 198272/49168 = 4.
  // Kernel: tensors 196608 + 33280 = 229888; pipelines 128+64+64+16 = 272 -> 230160;
  // responses 128 -> 230288; tensormaps @230400 + 640 = 231040; ru 512 = 231424.
  auto c = make_config("sm90_tma_ws", 90, 256, 128, 64, "bf16");
  c.epilogue.variant = EpilogueVariant::Tma;
  c.grouped = true;
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 4);
  EXPECT_EQ(*r.smem_bytes, 231424);
}

TEST(Sm90TmaWs, CooperativeNeedsM128AndStagesTwo) {
  auto c = make_config("sm90_tma_ws", 90, 64, 128, 64, "bf16");
  c.schedule = model::Schedule::Cooperative;
  EXPECT_EQ(eval(c).status, Status::Invalid);
  c = make_config("sm90_tma_ws", 90, 128, 128, 64, "bf16");
  c.stages = 1;
  EXPECT_EQ(eval(c).status, Status::Invalid);
}

TEST(Sm120Dense, Fp8_128x128x128) {
  // stage = 128·128 + 128·128 + 16 = 32784 (uint8, pipeline not rounded);
  // S = (101376 − 13312) / 32784 = 2; tensors 2·16384·2 = 65536;
  // kernel 1024 + 13312 + 65536 = 79872.
  auto c = make_config("sm120_dense", 120, 128, 128, 128, "e4m3");
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 2);
  EXPECT_EQ(*r.smem_bytes, 79872);
  EXPECT_EQ(*r.mainloop_smem, 66560);
}

TEST(Sm120Dense, Fp4OperandsTakeOneByte) {
  // e2m1 on the dense builder is stored as uint8: same bytes as e4m3.
  auto fp8 = make_config("sm120_dense", 120, 128, 128, 64, "e4m3");
  auto fp4 = make_config("sm120_dense", 120, 128, 128, 64, "e2m1");
  EXPECT_EQ(*eval(fp8).smem_bytes, *eval(fp4).smem_bytes);
  EXPECT_EQ(eval(fp4).stages, 5);  // 88064 / 16400
}

TEST(Sm120Dense, Bf16IsRejectedWithTheBuildersReason) {
  auto c = make_config("sm120_dense", 120, 128, 128, 64, "bf16");
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  bool found = false;
  for (const auto& n : test::notes(r))
    found |= n.find("only supports F8F6F4 MMA") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(FamilyInference, PicksTheFamilyCutlassWouldBuild) {
  auto c = make_config("", 120, 128, 128, 128, "nvfp4");
  EXPECT_EQ(eval(c).family, "sm120_blockscaled");
  c = make_config("", 121, 128, 128, 128, "e4m3");
  EXPECT_EQ(eval(c).family, "sm120_dense");
  c = make_config("", 90, 128, 128, 64, "bf16");
  const auto r = eval(c);
  EXPECT_EQ(r.family, "sm90_tma_ws");
  EXPECT_NE(report::message(*r.family_reason).find("inferred"), std::string::npos);
}

TEST(FamilyInference, PinnedFamilyOfAnotherArchIsInvalid) {
  auto c = make_config("sm120_blockscaled", 90, 128, 128, 128, "nvfp4");
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_NE(test::notes(r).at(0).find("does not run on sm_90"), std::string::npos);
}

}  // namespace
}  // namespace tilefit
