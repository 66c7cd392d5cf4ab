// Invariants over a grid of configs for every registered family:
//  * the breakdown's parts sum exactly to smem_bytes;
//  * max_stages is tight: SharedStorage fits at max_stages and not at max_stages + 1;
//  * SharedStorage never shrinks as stages grow.
#include <gtest/gtest.h>

#include "model_test_util.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit {
namespace {

using model::Bytes;

struct Case {
  const char* family;
  int arch;
  const char* a;
  const char* b;
};

constexpr Case kCases[] = {
    {"sm120_blockscaled", 120, "nvfp4", "nvfp4"}, {"sm120_blockscaled", 120, "mxfp8", "mxfp6"},
    {"sm120_blockscaled", 121, "mxfp4", "mxfp4"}, {"sm120_dense", 120, "e4m3", "e4m3"},
    {"sm90_tma_ws", 90, "bf16", "bf16"},          {"sm90_tma_ws", 90, "e4m3", "e4m3"},
    {"sm100_umma", 100, "bf16", "bf16"},          {"sm100_umma", 100, "nvfp4", "nvfp4"},
    {"sm80_multistage", 80, "f16", "f16"},        {"sm80_multistage", 86, "bf16", "bf16"},
};

Bytes sum(const model::Field& f) {
  Bytes s = 0;
  for (Bytes p : f.parts) s += p;
  return s;
}

TEST(Invariants, BreakdownSumsAndMaxStagesIsTight) {
  int checked = 0;
  for (const Case& k : kCases) {
    const model::KernelFamily* fam = model::find_family(k.family);
    if (fam == nullptr) continue;  // a family not registered in this build
    for (long long m : {64, 128, 256})
      for (long long n : {32, 64, 128, 256})
        for (long long kk : {64, 128, 256})
          for (bool grouped : {false, true})
            for (auto epi : {model::EpilogueVariant::Auto, model::EpilogueVariant::Tma}) {
              auto c = test::make_config(k.family, k.arch, m, n, kk, k.a, k.b);
              c.grouped = grouped && std::string(k.family) != "sm80_multistage";
              c.epilogue.variant = epi;
              if (std::string(k.family) == "sm80_multistage") c.warp = std::array<long long, 3>{m / 2, n / 2, kk};
              if (std::string(k.family) == "sm100_umma" && m == 256) {
                c.schedule = model::Schedule::Sm2;
                c.cluster = {2, 1, 1};
              }
              const model::Limits lim = model::find_arch(k.arch)->limits;
              const model::Result r = model::evaluate(c, lim);
              const std::string where = std::string(k.family) + " " + std::to_string(m) + "x" +
                                        std::to_string(n) + "x" + std::to_string(kk);
              if (r.breakdown) {
                EXPECT_EQ(sum(*r.breakdown), *r.smem_bytes) << where;
                EXPECT_EQ(r.breakdown->size, *r.smem_bytes) << where;
              }
              const model::Plan plan = fam->decide(c, true);
              if (!plan.sizes_known) continue;
              Bytes last = 0;
              for (int s = 1; s <= 12; ++s) {
                const Bytes b = fam->layout(c, plan, s).kernel.size;
                EXPECT_GE(b, last) << where << " stages " << s;
                last = b;
              }
              if (r.max_stages > 0) {
                EXPECT_LE(fam->layout(c, plan, r.max_stages).kernel.size, lim.optin_per_block) << where;
                if (r.max_stages < model::kMaxStages) {
                  EXPECT_GT(fam->layout(c, plan, r.max_stages + 1).kernel.size, lim.optin_per_block) << where;
                }
                EXPECT_EQ(r.max_stages_smem, fam->layout(c, plan, r.max_stages).kernel.size) << where;
              } else {
                const int lo = plan.min_stages < 1 ? 1 : plan.min_stages;
                EXPECT_GT(fam->layout(c, plan, lo).kernel.size, lim.optin_per_block) << where;
              }
              if (r.status == model::Status::Fits) {
                EXPECT_LE(*r.smem_bytes, lim.optin_per_block) << where;
                EXPECT_GE(r.max_stages, r.stages) << where;
                EXPECT_GE(r.ctas_per_sm, 1) << where;
              }
              ++checked;
            }
  }
  EXPECT_GT(checked, 500);
}

}  // namespace
}  // namespace tilefit
