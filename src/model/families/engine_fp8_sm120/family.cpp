// engine_fp8_sm120: the FP8 GEMMs vLLM and SGLang build for Blackwell GeForce / workstation GPUs
// (sm_120a; sm_121 compiles as arch::Sm120).
//
//  scaled_mm      vLLM cutlass_3x_gemm_sm120 / _sm120_custom (c3x/scaled_mm.cuh,
//                 c3x/scaled_mm_sm120_fp8_dispatch.cuh@1051220e: sm120_fp8_config_*), SGLang
//                 DeviceGemmFp8RowwiseSm120 (fp8_gemm_kernel.cu@04ec0bc2: sm120_fp8_dispatch_bias):
//                 the SM120 F8F6F4 builder (KernelScheduleAuto = cooperative, or pingpong),
//                 EpilogueScheduleAuto, C = void, the scale EVT.
//  blockwise_fp8  vLLM sm120_blockwise_fp8_config_* (c3x/scaled_mm_blockwise_sm120_fp8_dispatch.cuh),
//                 SGLang launch_sm120_fp8_blockwise_scaled_mm[_swapab]
//                 (fp8_blockwise_scaled_mm_sm120.cuh@9ee53c76): the SM120 blockwise builder
//                 (KernelScheduleAuto / KernelScheduleSm120Blockwise = cooperative,
//                 KernelTmaWarpSpecializedBlockwisePingpongSm120), float scales per stage. SGLang
//                 builds the epilogue on its PerSmTileShape (128x128x128), not the mainloop tile:
//                 a config gives it as `epilogue.tile`.
//
// Builders:  gemm/collective/builders/sm120_mma_builder.inl (dense),
//            sm120_blockwise_mma_builder.inl:71-89, 109-262 (blockwise)
// Mainloops: gemm/collective/sm120_mma_tma.hpp:194-202,
//            sm120_mma_tma_blockwise_scaling.hpp:227-237
// Epilogue:  ../sm120_epilogue.hpp with ../engine_fp8.hpp's fusion storage
// Kernel:    ../sm120_common.hpp (the SM90 shells with the SM100-style CLC scheduler)
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../engine_fp8.hpp"
#include "../../sm120_common.hpp"
#include "../../sm120_epilogue.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// SchedulerPipelineStageCount of the SM120 dense and blockwise builders
/// (sm120_mma_builder.inl:133, sm120_blockwise_mma_builder.inl:217).
constexpr int kSchedulerStages = 2;

class EngineFp8Sm120 final : public EngineFamily<Sm120Family<EngineFp8Sm120>> {
 public:
  std::string_view name() const override { return "engine_fp8_sm120"; }
  std::string_view description() const override {
    return "vLLM / SGLang FP8 GEMMs on SM120/SM121: scaled_mm (F8F6F4 cooperative/pingpong, scale "
           "and bias EVT) and blockwise_fp8 (float scales per stage)";
  }
  bool runs_on(int sm) const override { return sm == 120 || sm == 121; }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    // Both builders call their stage-count function with the full 101376 and no scheduler
    // carve-out (sm120_mma_builder.inl:127-132, sm120_blockwise_mma_builder.inl:205-212).
    p.rule.capacity_constant = kSm120SmemCapacity;
    p.rule.builder_capacity = kSm120SmemCapacity;
    p.overflow = Overflow::RuntimeInitialize;
    engine_common_checks(cfg, why);
    // TN only, cluster 1x1x1, N >= 8, schedule auto / cooperative / pingpong; KernelScheduleAuto
    // is cooperative, whose kernel static_asserts tile M >= 128 when it is compiled (sizes
    // still exist); pingpong needs N >= 16 (sm120_mma_builder.inl:80-95; the blockwise builder,
    // L127-160, is enabled for the same schedules).
    sm120_common_checks(cfg, why);
    const bool blockwise = cfg.op == EngineOp::BlockwiseFp8;
    if (blockwise) engine_scale_block_checks(cfg, why);
    const EpilogueVariant v = cfg.epilogue.variant;
    if (v != EpilogueVariant::Auto && v != EpilogueVariant::Tma && v != EpilogueVariant::NoSmem)
      why.reject([&] {
        return diag(Code::engine_epilogue_variant)
            .epilogue("epilogue", v)
            .arch("arch", cfg.arch)
            .name("allowed", "auto, tma");
      });
    const ScaleGranularity g = engine_scale_granularity(cfg);
    const bool bad_blocks = blockwise && (g.m <= 0 || g.n <= 0 || g.k <= 0);  // reader: 1..65536
    if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0 || bad_blocks) {
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }

    // The epilogue. SGLang's SM120 blockwise launcher builds it on PerSmTileShape with
    // EpilogueTileAuto (fp8_blockwise_scaled_mm_sm120.cuh:launch_sm120_fp8_blockwise_scaled_mm:
    // CollectiveBuilder<Sm120, OpClassTensorOp, PerSmTileShape, ..., EpilogueTileAuto, ...>),
    // so there `epilogue.tile` names that CTA tile.
    KernelConfig r = engine_resolved(cfg);
    const bool per_sm_tile =
        blockwise && cfg.launcher == Launcher::Sglang && cfg.epilogue.tile.has_value();
    if (per_sm_tile) {
      r.m = (*cfg.epilogue.tile)[0];
      r.n = (*cfg.epilogue.tile)[1];
      r.epilogue.tile.reset();
      why.note([&] {
        return diag(Code::engine_sm120_epilogue_cta_tile)
            .integer("epilogue_cta_m", r.m)
            .integer("epilogue_cta_n", r.n);
      });
    }
    Sm120Layout state;
    state.epilogue = sm120_epilogue(r, why);
    state.epilogue.fusion = engine_fusion(cfg, r.n);
    state.epilogue.seal();
    state.pingpong = sm120_pingpong(cfg);
    state.grouped = false;
    state.scheduler_stages = kSchedulerStages;
    state.a_bits = state.b_bits = 8;

    p.rule.carveout = state.epilogue.shared<Extent>().size;
    if (blockwise) {
      // sm120_compute_stage_count_or_override_blockwise (sm120_blockwise_mma_builder.inl:71-89),
      // K / gK = 1 being forced (L201):
      //   stage = M·K + N·K + 4·(M/gM) + 4·(N/gN) + 16 (PipelineTmaAsync<1>)
      // and the mainloop stores array_aligned<float, S·M/gM> SFA, array_aligned<float, S·N/gN>
      // SFB next to the alignas(1024) A/B (sm120_mma_tma_blockwise_scaling.hpp:227-236).
      state.block_scaled = true;
      state.sfa_per_stage = 4 * (cfg.m / g.m);
      state.sfb_per_stage = 4 * (cfg.n / g.n);
      p.rule.stage_bytes = cfg.m * cfg.k + cfg.n * cfg.k + state.sfa_per_stage +
                           state.sfb_per_stage + kOneStageBarrierBytes;
    } else {
      // sm100_compute_stage_count_or_override on 101376 (sm120_mma_builder.inl:127-132):
      //   stage = M·K + N·K + 16
      p.rule.stage_bytes = cfg.m * cfg.k + cfg.n * cfg.k + kOneStageBarrierBytes;
    }
    p.choose_stages(cfg.stages);
    // static_assert "Specialization requires Stages set to value 2 or more." (sm120_mma_tma.hpp:152,
    // sm120_mma_tma_blockwise_scaling.hpp:185): 128x128x128 blockwise gets 2, 256x128x128 only 1.
    p.min_stages = 2;
    p.unbudgeted = "sm120_dense";

    if (explain) {
      const EpilogueStorage& e = state.epilogue;
      const std::string sched = state.pingpong ? "Pingpong" : "Cooperative";
      engine_entry_point(p.kernel, cfg);
      if (blockwise)
        p.kernel.add(KernelText::engine_sm120_blockwise)
            .name("schedule", sched)
            .integer("gran_m", g.m)
            .integer("gran_n", g.n)
            .integer("gran_k", g.k);
      else
        p.kernel.add(KernelText::engine_sm120_kernel).name("schedule", sched);
      if (cfg.schedule == Schedule::Auto) p.kernel.add(KernelText::engine_sm120_from_auto);
      p.kernel.add(KernelText::engine_sm120_epilogue)
          .integer("epi_m", e.epi_m)
          .integer("epi_n", e.epi_n);
      if (per_sm_tile)
        p.kernel.add(KernelText::engine_sm120_per_sm_tile)
            .integer("tile_m", r.m)
            .integer("tile_n", r.n);
      p.kernel.add(KernelText::epilogue_stages)
          .integer("stages_c", e.stages_c)
          .integer("stages_d", e.stages_d);
      if (e.reuse_smem_c) p.kernel.add(KernelText::reuse_smem_c);
      p.kernel.add(KernelText::c_type).dtype("c", r.c);
      p.kernel.add(KernelText::then_comma);
      engine_fusion_text(p.kernel, cfg, r.n);
    }
    finish(p, state, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& engine_fp8_sm120_family() { return the_family<EngineFp8Sm120>(); }

}  // namespace tilefit::model
