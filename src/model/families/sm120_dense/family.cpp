// sm120_dense: SM120/SM121 non-block-scaled TMA warp-specialized GEMM (fp8/fp6/fp4 operands).
//
// Builder:   gemm/collective/builders/sm120_mma_builder.inl (dense),
//            sm120_array_mma_builder.inl (grouped, ptr-array schedules)
// Mainloop:  gemm/collective/sm120_mma_tma.hpp:194-202, sm120_mma_array_tma.hpp:192-205
// Kernels:   the SM90 shells, as for sm120_blockscaled.
// Reference: docs/dev/cutlass-smem-model.md §3.10, §3.7.
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../sm120_common.hpp"
#include "../../sm120_epilogue.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// SchedulerPipelineStageCount of the dense SM120 schedules (sm120_mma_builder.inl:133).
constexpr int kSchedulerStages = 2;

class Sm120Dense final : public Sm120Family<Sm120Dense> {
 public:
  std::string_view name() const override { return "sm120_dense"; }
  std::string_view description() const override {
    return "SM120/SM121 dense TMA warp-specialized GEMM (fp8/fp6/fp4 operands held as one byte), "
           "dense and grouped";
  }
  bool runs_on(int sm) const override { return sm == 120 || sm == 121; }

  bool claims(const KernelConfig& cfg, int sm) const override {
    return runs_on(sm) && dense_3x_config(cfg);
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const override {
    return operand_claim(Code::claim_sm120_dense, cfg, sm);
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    // sm100_compute_stage_count_or_override is called with the full capacity and no
    // scheduler carve-out (sm120_mma_builder.inl:127-132; the array builder likewise).
    p.rule.capacity_constant = kSm120SmemCapacity;
    p.rule.builder_capacity = kSm120SmemCapacity;
    p.overflow = Overflow::RuntimeInitialize;
    sm120_common_checks(cfg, why);
    if (cfg.a.block_scaled() || cfg.b.block_scaled())
      why.reject([] { return diag(Code::sm120_dense_block_scaled); });
    if (!is_f8f6f4(cfg.a.elem) || !is_f8f6f4(cfg.b.elem))
      why.reject([&] {
        return diag(Code::sm120_dense_f8f6f4_only).operand("a", cfg.a).operand("b", cfg.b);
      });
    if (cfg.mma == Mma::Nvf4) why.reject([] { return diag(Code::mma_nvf4_is_block_scaled); });

    // Every F8F6F4 type is stored as uint8_t (sm120_mma_builder.inl:118-119: fp4 and fp6 take
    // one byte); the grouped mainloop has 2 descriptors (A, B), sm120_mma_array_tma.hpp:192-205.
    Sm120Layout state = sm120_common_layout(cfg, why);
    state.scheduler_stages = kSchedulerStages;
    state.mainloop_descriptors = 2;

    if (explain) {
      p.kernel.add(KernelText::sm120_dense_kernel).name("kernel", sm120_kernel_schedule(cfg));
      sm120_epilogue_name(p.kernel, cfg, state.epilogue);
    }

    // sm100_compute_stage_count_or_override (builders/sm100_umma_builder.inl:84-99):
    //   stage = M·K + N·K (uint8) + sizeof(PipelineTmaUmmaAsync<1>::SharedStorage) (16, not rounded)
    // static_assert(Stages >= 2): sm120_mma_tma.hpp:152.
    sm120_stage_rule(p, cfg, state, cfg.m * cfg.k + cfg.n * cfg.k + kOneStageBarrierBytes);
    p.unbudgeted = cfg.grouped ? "sm120_dense_grouped" : "sm120_dense";
    finish(p, state, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& sm120_dense_family() { return the_family<Sm120Dense>(); }

}  // namespace tilefit::model
