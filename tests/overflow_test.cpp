// Arithmetic at the reader's bounds: the largest tile (65536 per extent) and stage count
// (4096) must give exact, positive 64-bit sizes in every family — never a wrapped value.
#include <gtest/gtest.h>

#include "model_test_util.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit {
namespace {

TEST(Overflow, LargestTilesAndStagesStayExact) {
  struct Case {
    const char* family;
    int arch;
    const char* op;
  };
  for (const Case& k : {Case{"sm120_blockscaled", 120, "nvfp4"}, Case{"sm120_dense", 120, "e4m3"},
                        Case{"sm90_tma_ws", 90, "f32"}, Case{"sm100_umma", 100, "bf16"},
                        Case{"sm80_multistage", 80, "f32"}}) {
    const long long e = model::kMaxTileExtent;
    auto c = test::make_config(k.family, k.arch, e, e, e, k.op);
    c.stages = model::kMaxStages;
    if (std::string(k.family) == "sm80_multistage") c.warp = std::array<long long, 3>{64, 64, 64};
    const model::Result r = test::eval(c);
    EXPECT_NE(r.status, model::Status::Fits) << k.family;
    if (r.smem_bytes) {
      // A alone is stages·M·K elements: 4096·2^16·2^16 = 2^44 elements, > 2^44 bytes for 8+ bits.
      EXPECT_GT(*r.smem_bytes, model::Bytes{1} << 40) << k.family;
      EXPECT_LT(*r.smem_bytes, model::Bytes{1} << 62) << k.family;
      EXPECT_LT(*r.headroom_bytes, 0) << k.family;
    }
    EXPECT_EQ(r.ctas_per_sm, 0) << k.family;
    // Auto stages on the same tile: the builder's count is 0 (or the config is invalid).
    c.stages.reset();
    const model::Result a = test::eval(c);
    EXPECT_NE(a.status, model::Status::Fits) << k.family;
    EXPECT_EQ(a.max_stages, 0) << k.family;
  }
}

TEST(Overflow, SmallestTile) {
  auto c = test::make_config("sm90_tma_ws", 90, 64, 8, 16, "bf16");
  c.schedule = model::Schedule::Pingpong;
  const model::Result r = test::eval(c);
  EXPECT_GT(r.max_stages, 0);  // the search is bounded by kMaxStages
  EXPECT_LE(r.max_stages, model::kMaxStages);
}

}  // namespace
}  // namespace tilefit
