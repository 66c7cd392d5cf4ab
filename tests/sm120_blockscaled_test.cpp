// Hand-computed SM120 block-scaled cases (cutlass-smem-model.md §3.9, sm120-moe-finalize.md).
#include <gtest/gtest.h>

#include "model_test_util.hpp"

namespace tilefit {
namespace {

using model::DType;
using model::EpilogueVariant;
using model::Status;
using test::eval;
using test::make_config;

TEST(Sm120BlockScaled, Nvfp4_128x128x128_Dense) {
  // Per stage: A = B = 128·128/2 = 8192; SFA = SFB = 128·128/16 = 1024; pipe ru(16,128) = 128
  //   -> 18560. Cap = 101376 − 96 = 101280; carve-out 13312 (bf16 epilogue).
  // S = (101280 − 13312) / 18560 = 4.74 -> 4.
  // Mainloop tensors: A 32768 @0, B 32768 @32768, SFA 4096, SFB 4096 -> 73728.
  // Kernel: header (pipelines 128 + scheduler 144) padded to 1024; tensors = epilogue 12800
  //   @0, mainloop @13312 -> 87040; total 1024 + 87040 = 88064.
  auto c = make_config("sm120_blockscaled", 120, 128, 128, 128, "nvfp4");
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 4);
  EXPECT_EQ(*r.smem_bytes, 88064);
  EXPECT_EQ(*r.epilogue_smem, 13312);
  EXPECT_EQ(*r.mainloop_smem, 74752);
  EXPECT_EQ(r.breakdown->part(model::Component::A), 32768);
  EXPECT_EQ(r.breakdown->part(model::Component::SFB), 4096);
  EXPECT_EQ(r.ctas_per_sm, 1);  // 102400 / (88064 + 1024)
}

TEST(Sm120BlockScaled, MoeFinalize128x256OverflowsBy1024) {
  // sm120-moe-finalize.md: grouped, finalize, swap_ab false.
  // Epilogue: C 2·64·32·2 = 8192 @0 (SW64, 512); D (aux bf16) 8192 @8192 -> 16384;
  //   + bias row 256·2 = 512 -> 16896 (ru 512); + 384 tensormaps -> 17280; + 32 -> 17408.
  // Per stage 8192 + 16384 + 128 + 1024 + 2048 = 27776; Cap 100944;
  // S = (100944 − 17408) / 27776 = 3.007 -> 3 (208 B of slack in the builder's budget).
  // Kernel: tensors ru(82944 + 16896, 1024) = 100352; + pipelines 224 + responses 128 ->
  //   100704; tensormaps @100736 + 896 = 101632; ru 1024 -> 102400 > 101376.
  auto c = make_config("sm120_blockscaled", 120, 128, 256, 128, "nvfp4");
  c.grouped = true;
  c.epilogue.variant = EpilogueVariant::Finalize;
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(*r.smem_bytes, 102400);
  EXPECT_EQ(*r.headroom_bytes, -1024);
  EXPECT_EQ(r.max_stages, 2);
  // StageCount<2>: tensors ru(55296 + 16896, 1024) = 72704 -> + 224 + 128 -> tensormaps
  // @73088 + 896 = 73984 -> 74752.
  bool explains = false, builder = false;
  for (const auto& n : test::notes(r)) {
    if (n.find("102400 B > 101376 B") != std::string::npos &&
        n.find("kErrorInternal") != std::string::npos)
      explains = true;
    if (n.find("the builder budgets 101168 B") != std::string::npos &&
        n.find("1232 B it does not count") != std::string::npos)
      builder = true;
  }
  EXPECT_TRUE(explains);
  EXPECT_TRUE(builder);
  bool stage2 = false;
  for (const auto& n : test::notes(r))
    stage2 |= n.find("StageCount<2> needs 74752 B") != std::string::npos;
  EXPECT_TRUE(stage2);
}

TEST(Sm120BlockScaled, MoeDefaultEpilogueFits) {
  auto c = make_config("sm120_blockscaled", 120, 256, 128, 128, "nvfp4");
  c.grouped = true;
  c.epilogue.variant = EpilogueVariant::TrtllmDefault;
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(*r.smem_bytes, 98304);
}

TEST(Sm120BlockScaled, PingpongM64UsesSixteenByteEmptySfa) {
  // M = 64: SFA per stage = floor(64/128)·128·8 = 0, but the empty array_aligned still takes
  // 16 B. Per stage 4096 + 8192 + 128 + 0 + 1024 = 13440; S = 87968 / 13440 = 6.
  // Tensors: A 24576, B 49152 @24576, SFA 16 @73728, SFB 6144 @73744 -> 79888 -> 80896.
  // Kernel: 1024 + 13312 + 80896 = 95232.
  auto c = make_config("sm120_blockscaled", 120, 64, 128, 128, "nvfp4");
  c.schedule = model::Schedule::Pingpong;
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 6);
  EXPECT_EQ(*r.smem_bytes, 95232);
}

TEST(Sm120BlockScaled, CooperativeM64IsInvalidButSized) {
  auto c = make_config("sm120_blockscaled", 120, 64, 128, 128, "nvfp4");
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  ASSERT_TRUE(r.smem_bytes.has_value());
  EXPECT_EQ(*r.smem_bytes, 95232);
}

TEST(Sm120BlockScaled, AutoStagesBelowTwoIsACompileFailure) {
  // 128x256x256 nvfp4: per stage 16384 + 32768 + 128 + 2048 + 4096 = 55424;
  // S = 87968 / 55424 = 1 -> static_assert(Stages >= 2) fails.
  auto c = make_config("sm120_blockscaled", 120, 128, 256, 256, "nvfp4");
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_EQ(r.stages, 1);
  EXPECT_FALSE(r.smem_bytes.has_value());
  EXPECT_EQ(r.max_stages, 0);  // StageCount<2> needs 124928 B
  // The suggested fix: K = 128 -> per stage 27776, S = 87968 / 27776 = 3, kernel 97280 B.
  bool suggests = false;
  for (const auto& n : test::notes(r))
    suggests |= n.find(
                    "tile K = 128 fits: the builder then picks 3 stages and the kernel needs "
                    "97280 B") != std::string::npos;
  EXPECT_TRUE(suggests);
}

TEST(Sm120BlockScaled, F8F6F4PathStoresFp4AsBytes) {
  // mxfp4 on MXF4 (packed): per stage 8192 + 8192 + 128 + 512 + 512 = 17536;
  //   S = (101280 − 13312) / 17536 = 5.02 -> 5.
  // mma f8f6f4 with mxfp4: A/B stored as uint8 -> per stage 16384 + 16384 + 128 + 512 + 512
  //   = 33920; S = 87968 / 33920 = 2.59 -> 2.
  auto c = make_config("sm120_blockscaled", 120, 128, 128, 128, "mxfp4");
  const auto packed = eval(c);
  c.mma = model::Mma::F8F6F4;
  const auto bytes = eval(c);
  EXPECT_EQ(packed.stages, 5);
  EXPECT_EQ(bytes.stages, 2);
  EXPECT_EQ(bytes.breakdown->part(model::Component::A), 2 * 16384);
}

TEST(Sm120BlockScaled, InvalidShapesNameTheRule) {
  auto c = make_config("sm120_blockscaled", 120, 128, 192, 128, "nvfp4");
  auto r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(test::notes(r)[0].find("N <= 128 or a multiple of 128"), std::string::npos);

  c = make_config("sm120_blockscaled", 120, 128, 128, 64, "mxfp8");
  r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_NE(test::notes(r)[0].find("multiple of 128"), std::string::npos);

  c = make_config("sm120_blockscaled", 120, 128, 128, 128, "nvfp4");
  c.cluster = {2, 1, 1};
  EXPECT_EQ(eval(c).status, Status::Invalid);
  c.cluster = {1, 1, 1};
  c.b_k_major = false;
  EXPECT_EQ(eval(c).status, Status::Invalid);
}

TEST(Sm120BlockScaled, BlockScaledOutputEpilogue) {
  // §3.9(d): C bf16 (2·4096 = 8192, SW64) + D e2m1 (2048, INTER) + 256 B SF row store
  //   -> TensorStorage 10752, SharedStorage 11264; S = (101280 − 11264)/18560 = 4;
  //   kernel 1024 + ru(ru(10752,1024) + 73728, 1024) = 86016.
  auto c = make_config("sm120_blockscaled", 120, 128, 128, 128, "nvfp4");
  c.d = DType::E2M1;
  c.epilogue.variant = EpilogueVariant::BlockScaleOut;
  const auto r = eval(c);
  EXPECT_EQ(*r.epilogue_smem, 11264);
  EXPECT_EQ(*r.smem_bytes, 86016);
  EXPECT_EQ(r.breakdown->part(model::Component::Fusion), 256);
}

TEST(Sm120BlockScaled, Sm121UsesTheSameRules) {
  auto c = make_config("sm120_blockscaled", 121, 128, 128, 128, "nvfp4");
  EXPECT_EQ(*eval(c).smem_bytes, 88064);
}

TEST(Sm120BlockScaled, ExplicitStagesOverTheLimitFailAtRunTime) {
  auto c = make_config("sm120_blockscaled", 120, 128, 256, 128, "nvfp4");
  c.stages = 4;
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_EQ(*r.smem_bytes, 124928);
  EXPECT_EQ(r.max_stages, 3);
  EXPECT_NE(test::notes(r)[0].find("StageCount<4> needs 124928 B > 101376 B"), std::string::npos);
}

}  // namespace
}  // namespace tilefit
