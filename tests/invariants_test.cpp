// Invariants over a grid of configs for every registered family:
//  * the breakdown's parts sum exactly to smem_bytes;
//  * max_stages is tight: SharedStorage fits at max_stages and not at max_stages + 1;
//  * SharedStorage never shrinks as stages grow;
//  * a result has sizes exactly when its kernel's SharedStorage type exists (README "Results").
#include <gtest/gtest.h>

#include "model_test_util.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/family.hpp"

#include <set>
#include <string>

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
              if (std::string(k.family) == "sm80_multistage")
                c.warp = std::array<long long, 3>{m / 2, n / 2, kk};
              if (std::string(k.family) == "sm100_umma" && m == 256) {
                c.schedule = model::Schedule::Sm2;
                c.cluster = {2, 1, 1};
              }
              const model::Limits lim = model::find_arch(k.arch)->limits;
              const model::Result r = model::evaluate(c, lim);
              const std::string where = std::string(k.family) + " " + std::to_string(m) + "x" +
                                        std::to_string(n) + "x" + std::to_string(kk);
              if (r.breakdown) {
                EXPECT_EQ(test::sum_parts(*r.breakdown), *r.smem_bytes) << where;
                EXPECT_EQ(r.breakdown->size, *r.smem_bytes) << where;
              }
              const model::Plan plan = fam->decide(c, true);
              if (!plan.sizes_known || plan.no_storage) continue;  // no kernel, no stage search
              Bytes last = 0;
              for (int s = 1; s <= 12; ++s) {
                const Bytes b = fam->layout(c, plan, s).kernel.size;
                EXPECT_GE(b, last) << where << " stages " << s;
                last = b;
              }
              if (r.max_stages > 0) {
                EXPECT_LE(fam->layout(c, plan, r.max_stages).kernel.size, lim.optin_per_block)
                    << where;
                if (r.max_stages < model::kMaxStages) {
                  EXPECT_GT(fam->layout(c, plan, r.max_stages + 1).kernel.size, lim.optin_per_block)
                      << where;
                }
                EXPECT_EQ(r.max_stages_smem, fam->layout(c, plan, r.max_stages).kernel.size)
                    << where;
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

// smem_bytes (with headroom_bytes and the breakdown) is null exactly when no kernel — no
// SharedStorage type — exists: every fits / does_not_fit result has it, except a builder's
// automatic count below the collective's minimum (auto_stages_below_minimum: the collective's
// static_assert(Stages >= 2) fails); an invalid result has it only when every reason is one
// that leaves the SharedStorage in place (a device-side static_assert in the kernel body, a
// cluster the launch refuses). The measured rows agree (ground_truth_test: the cooperative
// kernel's tile M >= 128 rows are invalid with their sizes).
TEST(Invariants, SizesExactlyWhenAKernelExists) {
  using model::Code;
  const std::set<Code> keeps_sizes = {Code::sm90_cooperative_tile_m, Code::sm120_cooperative_tile_m,
                                      Code::cluster_too_large, Code::cluster_unsupported};
  struct Grid {
    const char* family;  // "" = an engine config (launcher)
    int arch;
    const char* a;
    model::Launcher launcher = model::Launcher::None;
  };
  const Grid grids[] = {
      {"sm120_blockscaled", 120, "nvfp4"},
      {"sm120_blockscaled", 121, "mxfp8"},
      {"sm120_dense", 120, "e4m3"},
      {"sm120_dense", 120, "bf16"},  // no SM120 bf16 builder
      {"sm90_tma_ws", 90, "bf16"},
      {"sm90_tma_ws", 90, "e4m3"},
      {"sm100_umma", 100, "bf16"},
      {"sm100_umma", 100, "nvfp4"},
      {"sm80_multistage", 80, "f16"},
      {"sm80_multistage", 89, "bf16"},
      {"triton_matmul", 90, "bf16"},
      {"triton_fused_moe", 120, "bf16"},
      {"", 89, "e4m3", model::Launcher::Vllm},
      {"", 90, "e4m3", model::Launcher::Vllm},
      {"", 100, "e4m3", model::Launcher::Sglang},
      {"", 120, "e4m3", model::Launcher::Sglang},
  };
  std::set<std::string> families;
  int invalid_sized = 0, invalid_unsized = 0, checked = 0;
  for (const Grid& g : grids)
    for (long long m : {16, 48, 64, 96, 128, 256})
      for (long long n : {8, 24, 64, 128, 256})
        for (long long k : {16, 48, 64, 128})
          for (int stages : {0, 1, 2, 4})
            for (auto sch :
                 {model::Schedule::Auto, model::Schedule::Cooperative, model::Schedule::Pingpong}) {
              model::KernelConfig c = test::make_config(g.family, g.arch, m, n, k, g.a);
              c.launcher = g.launcher;
              if (g.launcher != model::Launcher::None) c.c = c.d = model::DType::BF16;
              if (std::string(g.family).rfind("triton", 0) == 0) {
                c.d = model::DType::BF16;
                c.num_warps = 4;
              } else {
                c.schedule = sch;
              }
              if (stages > 0) c.stages = stages;
              if (m == 256 && std::string(g.family) == "sm100_umma") c.cluster = {2, 1, 1};
              const model::Result r = test::eval(c);
              const std::string where = std::string(r.family) + " sm_" + std::to_string(g.arch) +
                                        " " + g.a + " " + std::to_string(m) + "x" +
                                        std::to_string(n) + "x" + std::to_string(k) + " stages " +
                                        std::to_string(stages) + " " +
                                        std::string(model::schedule_name(sch)) + " -> " +
                                        std::string(model::status_name(r.status));
              families.insert(std::string(r.family));
              const bool sized = r.smem_bytes.has_value();
              EXPECT_EQ(sized, r.headroom_bytes.has_value()) << where;
              if (r.breakdown) {
                EXPECT_TRUE(sized) << where;
              }
              switch (r.status) {
                case model::Status::Fits:
                  EXPECT_TRUE(sized) << where;
                  break;
                case model::Status::DoesNotFit:
                  EXPECT_EQ(sized, !test::has(r, Code::auto_stages_below_minimum)) << where;
                  break;
                case model::Status::Invalid: {
                  (sized ? invalid_sized : invalid_unsized)++;
                  if (!sized) break;
                  for (const model::Diagnostic& d : r.diagnostics) {
                    if (d.severity == model::Severity::error) {
                      EXPECT_TRUE(keeps_sizes.count(d.code)) << where << ": " << test::notes(r)[0];
                    }
                  }
                  break;
                }
              }
              ++checked;
            }
  EXPECT_GT(invalid_sized, 0);
  EXPECT_GT(invalid_unsized, 0);
  families.erase("");
  EXPECT_EQ(families.size(), 11u);  // every family of the grid was reached
  EXPECT_GT(checked, 10000);
}

// The case: sm_120 has no bf16 x bf16 collective builder, so no kernel and no size
// (it used to report 88064 B and positive headroom).
TEST(Invariants, NoBuilderNoSize) {
  const model::Result r = test::eval(test::make_config("sm120_dense", 120, 128, 128, 64, "bf16"));
  EXPECT_EQ(r.status, model::Status::Invalid);
  EXPECT_FALSE(r.smem_bytes.has_value());
  EXPECT_FALSE(r.headroom_bytes.has_value());
  EXPECT_FALSE(r.max_stages_smem.has_value());
}

}  // namespace
}  // namespace tilefit
