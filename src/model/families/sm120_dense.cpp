// sm120_dense: SM120/SM121 non-block-scaled TMA warp-specialized GEMM (fp8/fp6/fp4 operands).
//
// Builder:   gemm/collective/builders/sm120_mma_builder.inl (dense),
//            sm120_array_mma_builder.inl (grouped, ptr-array schedules)
// Mainloop:  gemm/collective/sm120_mma_tma.hpp:194-202, sm120_mma_array_tma.hpp:192-205
// Kernels:   the SM90 shells, as for sm120_blockscaled.
// Reference: ../shared/docs/cutlass-smem-model.md §3.10, §3.7.
#include <string>

#include "../sm120_common.hpp"
#include "families.hpp"

namespace tilefit::model {
namespace {

constexpr Bytes kSm120Capacity = 101376;  // cutlass/arch/arch.h:45
/// SchedulerPipelineStageCount of the dense SM120 schedules (sm120_mma_builder.inl:133).
constexpr int kSchedulerStages = 2;

/// Mainloop TensorStorage : aligned_struct<128> { alignas(1024) array_aligned<uint8_t,S·M·K> A;
/// alignas(1024) array_aligned<uint8_t,S·N·K> B; } — every F8F6F4 type is stored as uint8_t
/// (sm120_mma_builder.inl:118-119: fp4 and fp6 take one byte).
Field mainloop_tensors(const KernelConfig& cfg, int stages) {
  return make_struct({with_align(array_aligned(Component::A, stages * cfg.m * cfg.k), 1024),
                      with_align(array_aligned(Component::B, stages * cfg.n * cfg.k), 1024)},
                     128);
}

class Sm120Dense final : public KernelFamily {
 public:
  std::string_view name() const override { return "sm120_dense"; }
  std::string_view description() const override {
    return "SM120/SM121 dense TMA warp-specialized GEMM (fp8/fp6/fp4 operands held as one byte), "
           "dense and grouped";
  }
  bool runs_on(int sm) const override { return sm == 120 || sm == 121; }

  std::optional<std::string> claims(const KernelConfig& cfg, int sm) const override {
    if (!runs_on(sm) || cfg.a.block_scaled() || cfg.b.block_scaled()) return std::nullopt;
    if (cfg.warp || cfg.schedule == Schedule::Multistage) return std::nullopt;
    return arch_name(sm) + " with non-block-scaled operands (" + operand_name(cfg.a) + " x " +
           operand_name(cfg.b) + "): the SM120 dense builder (OpClassTensorOp)";
  }

  BuildPlan plan(const KernelConfig& cfg) const override {
    BuildPlan p;
    p.capacity_constant = kSm120Capacity;
    // sm100_compute_stage_count_or_override is called with the full capacity and no
    // scheduler carve-out (sm120_mma_builder.inl:127-132; the array builder likewise).
    p.builder_capacity = kSm120Capacity;
    p.overflow = Overflow::RuntimeInitialize;
    sm120_common_checks(cfg, p.invalid);
    if (cfg.a.block_scaled() || cfg.b.block_scaled())
      p.invalid.push_back("block-scaled operands use the sm120_blockscaled family");
    if (!is_f8f6f4(cfg.a.elem) || !is_f8f6f4(cfg.b.elem))
      p.invalid.push_back("SM120 dense builder supports F8F6F4 operands only (fp8/fp6/fp4), got " +
                          operand_name(cfg.a) + " x " + operand_name(cfg.b) +
                          ": static_assert \"SM120 TmaWarpSpecialized builder currently only "
                          "supports F8F6F4 MMA.\" (sm120_mma_builder.inl:80-81); CUTLASS has no "
                          "SM120 3.x builder for 16-bit operands — use sm80_multistage kernels");
    if (cfg.mma == Mma::Nvf4) p.invalid.push_back("mma \"nvf4\" is a block-scaled instruction");

    const Sm120EpiloguePlan epi = sm120_epilogue(cfg);
    for (const std::string& why : epi.invalid) p.invalid.push_back(why);

    const bool pingpong = sm120_pingpong(cfg);
    p.kernel = std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized" : "KernelTmaWarpSpecialized") +
               (pingpong ? "Pingpong" : "Cooperative") + "Sm120 (F8F6F4, A/B stored as uint8); " +
               epi.description;

    p.carveout = tma_epilogue_shared_storage(epi.epi).size;
    // sm100_compute_stage_count_or_override (builders/sm100_umma_builder.inl:84-99):
    //   stage = M·K + N·K (uint8) + sizeof(PipelineTmaUmmaAsync<1>::SharedStorage) (16, not rounded)
    p.stage_bytes = cfg.m * cfg.k + cfg.n * cfg.k + 16;
    if (cfg.stages) {
      p.auto_stages = false;
      p.stages = *cfg.stages;
    } else {
      p.stages = static_cast<int>((p.builder_capacity - p.carveout) / p.stage_bytes);
    }
    p.min_stages = 2;  // static_assert(Stages >= 2): sm120_mma_tma.hpp:152
    p.unbudgeted = cfg.grouped ? "any scheduler, tensormap or kernel pipeline storage: the SM120 "
                                 "dense builder reserves nothing for them"
                               : "the 96 B scheduler, the kernel pipelines and the 1 KiB header "
                                 "forced by alignas(1024): the SM120 dense builder reserves nothing";
    return p;
  }

  Storage storage(const KernelConfig& cfg, const BuildPlan&, int stages) const override {
    // Grouped: 2 mainloop descriptors (A, B), sm120_mma_array_tma.hpp:192-205.
    return sm120_storage(mainloop_tensors(cfg, stages), stages, cfg, kSchedulerStages,
                         /*mainloop_descriptors=*/2);
  }
};

}  // namespace

const KernelFamily& sm120_dense_family() {
  static const Sm120Dense family;
  return family;
}

}  // namespace tilefit::model
