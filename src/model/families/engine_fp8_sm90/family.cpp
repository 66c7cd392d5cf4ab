// engine_fp8_sm90: the FP8 GEMMs vLLM and SGLang build for Hopper (sm_90a).
//
//  scaled_mm      vLLM cutlass_3x_gemm_sm90_fp8 (c3x/scaled_mm_sm90_fp8_dispatch.cuh@1051220e:
//                 sm90_fp8_config_*), SGLang DeviceGemmFp8RowwiseSm90 (fp8_gemm_kernel.cu@04ec0bc2:
//                 sm90_fp8_dispatch_shape): the GMMA builder with
//                 KernelTmaWarpSpecialized{,Pingpong,Cooperative}FP8FastAccum (`ws`, `pingpong`,
//                 `cooperative`), the TMA epilogue (TmaWarpSpecialized, cooperative:
//                 TmaWarpSpecializedCooperative) with the scale EVT, PersistentScheduler (SGLang's
//                 `ws` kernel: void — the same empty storage).
//  blockwise_fp8  vLLM cutlass_3x_gemm_fp8_blockwise (c3x/scaled_mm_blockwise_sm90_fp8_dispatch.cuh),
//                 SGLang launch_sm90_fp8_blockwise_scaled_mm (fp8_blockwise_gemm_kernel.cu@b227f632):
//                 KernelTmaWarpSpecialized{Cooperative,Pingpong}FP8BlockScaledAccum (aliases of
//                 …FP8Blockwise, gemm/dispatch_policy.hpp:135-136) with Sm90BlockwiseScaleConfig.
//
// Builder:   gemm/collective/builders/sm90_gmma_builder.inl (FP8 fast-accum L69-85, blockwise
//            L87-107 and L1050-1180)
// Mainloop:  gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized_fp8.hpp:148-157,
//            sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:208-224
// Epilogue:  ../sm90_epilogue.hpp (the builder) with ../engine_fp8.hpp's fusion storage
// Kernels:   ../sm90_kernel.hpp: cooperative / pingpong shells, and the basic `ws` kernel
//            (sm90_gemm_tma_warpspecialized.hpp:119-137)
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../engine_fp8.hpp"
#include "../../epilogue_storage.hpp"
#include "../../sm90_epilogue.hpp"
#include "../../sm90_kernel.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// What layout() needs.
struct Sm90EngineLayout {
  EpilogueStorage epilogue;
  bool pingpong = false;
  bool basic = false;  ///< the basic, non-persistent `ws` kernel (tensors in a union)
  bool blockwise = false;
  long long sfa = 0, sfb = 0;  ///< blockwise: scale floats per stage (SmemLayoutAtomSFA/SFB)
};

/// cute::array<float, n> (cute/container/array.hpp:42, 199): 4·n bytes, alignment 4 — not
/// rounded to 16 like array_aligned; n = 0 is the empty specialization (1 B).
template <class F>
F float_array(Component c, Bytes n) {
  return n == 0 ? leaf<F>(c, 1, 1) : leaf<F>(c, 4 * n, 4);
}

/// CollectiveMainloop::TensorStorage at `stages`:
///   FP8 fast-accum (sm90_mma_tma_gmma_ss_warpspecialized_fp8.hpp:148-157):
///     aligned_struct<128> { array_aligned<e4m3, S·M·K> A; array_aligned<e4m3, S·N·K> B; }
///   blockwise (…_fp8_blockwise_scaling.hpp:211-218):
///     aligned_struct<128> { A; B; alignas(128) cute::array<float, S·SFA> SFA;
///                           alignas(128) cute::array<float, S·SFB> SFB; }
///   with SFA = ceil(M/gM)·ceil(K/gK), SFB = ceil(N/gN)·ceil(K/gK) floats per stage (SmemLayoutSFA/B,
///   L187-194; cutlass/detail/blockwise_scale_layout.hpp:77-122): each scale array starts at a
///   128-B boundary and keeps its raw 4·n bytes.
template <class F>
F mainloop_tensors(const KernelConfig& cfg, const Sm90EngineLayout& s, int stages) {
  const Bytes S = stages;
  const F a = array_aligned<F>(Component::A, S * cfg.m * cfg.k);
  const F b = array_aligned<F>(Component::B, S * cfg.n * cfg.k);
  if (!s.blockwise) return make_struct({a, b}, 128);
  return make_struct({a, b, with_align(float_array<F>(Component::SFA, S * s.sfa), 128),
                      with_align(float_array<F>(Component::SFB, S * s.sfb), 128)},
                     128);
}

class EngineFp8Sm90 final : public EngineFamily<LaidOutFamily<EngineFp8Sm90, Sm90EngineLayout>> {
 public:
  /// The kernel's SharedStorage at `stages` (LaidOutFamily turns it into layout() and sizes()).
  template <class F>
  static BasicStorage<F> assemble(const KernelConfig& cfg, const Sm90EngineLayout& s, int stages) {
    Sm90KernelParts<F> parts;
    parts.mainloop_tensors = mainloop_tensors<F>(cfg, s, stages);
    // PipelineTmaAsync<S>: 16·S (sm90_pipeline.hpp:271-283).
    parts.mainloop_pipeline = pipeline_barriers<F>(Component::MainloopBarriers, stages);
    parts.epilogue_tensors = s.epilogue.tensors<F>();
    parts.epilogue_pipeline = s.epilogue.pipeline<F>();
    parts.pingpong = s.pingpong;
    // PersistentTileSchedulerSm90 / StreamK: empty SharedStorage, 1 B (sm90_tile_scheduler.hpp:53-65).
    parts.scheduler = empty_member<F>(Component::Scheduler);
    BasicStorage<F> st;
    st.kernel = s.basic ? sm90_basic_kernel_storage(parts) : sm90_kernel_storage(parts);
    st.epilogue_shared = s.epilogue.shared<F>().size;
    // CollectiveMainloop::SharedStorage = { TensorStorage tensors; PipelineStorage pipeline; }.
    st.mainloop_shared = make_struct({parts.mainloop_tensors, parts.mainloop_pipeline}).size;
    return st;
  }

  std::string_view name() const override { return "engine_fp8_sm90"; }
  std::string_view description() const override {
    return "vLLM / SGLang FP8 GEMMs on Hopper: scaled_mm (FP8 fast-accum ws/pingpong/cooperative, "
           "scale and bias EVT, vLLM's C = D) and blockwise_fp8 (FP8BlockScaledAccum)";
  }
  bool runs_on(int sm) const override { return sm == 90; }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    p.overflow = Overflow::RuntimeInitialize;
    engine_common_checks(cfg, why);
    const bool blockwise = cfg.op == EngineOp::BlockwiseFp8;

    // The engines name the kernel schedule (KernelTmaWarpSpecialized{,Pingpong,Cooperative}
    // FP8FastAccum; blockwise only Cooperative/Pingpong: the builder's enable_if takes no basic
    // variant, sm90_gmma_builder.inl:1078-1088).
    const Schedule sch = cfg.schedule;
    const bool sched_ok = sch == Schedule::Pingpong || sch == Schedule::Cooperative ||
                          (sch == Schedule::Ws && !blockwise);
    if (!sched_ok) {
      if (sch == Schedule::Ws)
        why.reject([] { return diag(Code::engine_sm90_blockwise_ws); });
      else
        why.reject([&] {
          return diag(Code::engine_schedule)
              .schedule("schedule", sch)
              .arch("arch", cfg.arch)
              .name("op", engine_op_name(cfg.op))
              .name("allowed", blockwise ? "pingpong, cooperative" : "ws, pingpong, cooperative");
        });
    }
    const bool cooperative = sch == Schedule::Cooperative;
    Sm90EngineLayout state;
    state.pingpong = sch == Schedule::Pingpong;
    state.basic = sch == Schedule::Ws;
    state.blockwise = blockwise;

    // The engines' SM90 epilogue is always the TMA one (TmaWarpSpecialized[Cooperative]).
    const EpilogueVariant v = cfg.epilogue.variant;
    if (v != EpilogueVariant::Auto && v != EpilogueVariant::Tma)
      why.reject([&] {
        return diag(Code::engine_epilogue_variant)
            .epilogue("epilogue", v)
            .arch("arch", cfg.arch)
            .name("allowed", "auto (= tma), tma");
      });
    if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0) {
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }

    const ScaleGranularity g = engine_scale_granularity(cfg);
    if (blockwise && (g.m <= 0 || g.n <= 0 || g.k <= 0)) {  // the reader allows 1..65536
      engine_scale_block_checks(cfg, why);
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }
    if (blockwise) {
      // Only StageCountAutoCarveout has a compute_stage_count_with_blockwise_scale overload
      // (sm90_gmma_builder.inl:87-107; called at L1154): an explicit count does not compile.
      if (cfg.stages) {
        why.reject([&] {
          return diag(Code::engine_sm90_blockwise_stages).integer("stages", *cfg.stages);
        });
        p.sizes_known = false;
      }
      // NumSplitsM = M / 128; static_assert(NumSplitsM{} == 1 || NumSplitsM{} == 2)
      // (sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:208-209).
      if (cfg.m / 128 != 1 && cfg.m / 128 != 2)
        why.reject(
            [&] { return diag(Code::engine_sm90_blockwise_tile_m).integer("tile_m", cfg.m); });
      engine_scale_block_checks(cfg, why);
      state.sfa = ceil_div(cfg.m, g.m) * ceil_div(cfg.k, g.k);
      state.sfb = ceil_div(cfg.n, g.n) * ceil_div(cfg.k, g.k);
    }
    // Device-side static_assert in the cooperative kernel's operator() (sizes still exist).
    if (cooperative && cfg.m < 128)
      why.reject_kernel(
          [&] { return diag(Code::sm90_cooperative_tile_m).integer("tile_m", cfg.m); });
    if (cfg.m % 64 != 0)
      why.reject([&] { return diag(Code::sm90_tile_m_multiple_of_64).integer("tile_m", cfg.m); });

    const KernelConfig r = engine_resolved(cfg);
    state.epilogue = sm90_tma_epilogue(r, cooperative, why);
    state.epilogue.fusion = engine_fusion(cfg, cfg.n);
    state.epilogue.seal();

    // compute_stage_count_or_override (sm90_gmma_builder.inl:69-85) and, blockwise,
    // compute_stage_count_with_blockwise_scale (L87-107) with ScaleMsPerTile = M / gM,
    // ScaleNsPerTile = N / gN (L1149-1150):
    //   stage = ru(M·K + N·K [+ 4·(M/gM) + 4·(N/gN)], 128) + 16 (PipelineTmaAsync<1>)
    //   S     = (rd(232448, 128) − ru(sizeof(Epilogue::SharedStorage), 128)) / stage
    // (no kernel carve-out for non-ptr-array kernels, L240-242).
    p.rule.capacity_constant = kSm90SmemCapacity;
    p.rule.builder_capacity = round_down(kSm90SmemCapacity, 128);
    p.rule.carveout = round_up(state.epilogue.shared<Extent>().size, 128);
    Bytes ab = cfg.m * cfg.k + cfg.n * cfg.k;
    if (blockwise) ab += 4 * (cfg.m / g.m) + 4 * (cfg.n / g.n);
    p.rule.stage_bytes = round_up(ab, 128) + kOneStageBarrierBytes;
    p.choose_stages(cfg.stages);
    // static_assert(Stages >= 2): sm90_mma_tma_gmma_ss_warpspecialized_fp8.hpp:139,
    // sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:197.
    p.min_stages = 2;
    p.unbudgeted = "sm90";

    if (explain) {
      const EpilogueStorage& e = state.epilogue;
      const std::string sched = state.basic ? "" : state.pingpong ? "Pingpong" : "Cooperative";
      engine_entry_point(p.kernel, cfg);
      if (blockwise)
        p.kernel.add(KernelText::engine_sm90_blockwise)
            .name("schedule", sched)
            .integer("gran_m", g.m)
            .integer("gran_n", g.n)
            .integer("gran_k", g.k);
      else
        p.kernel.add(KernelText::engine_sm90_fast_accum).name("schedule", sched);
      p.kernel.add(KernelText::then_semicolon);
      p.kernel.add(KernelText::epilogue_tile)
          .name("epilogue", cooperative ? "TmaWarpSpecializedCooperative" : "TmaWarpSpecialized")
          .integer("epi_m", e.epi_m)
          .integer("epi_n", e.epi_n);
      p.kernel.add(KernelText::epilogue_stages)
          .integer("stages_c", e.stages_c)
          .integer("stages_d", e.stages_d);
      if (e.reuse_smem_c) p.kernel.add(KernelText::reuse_smem_c);
      p.kernel.add(KernelText::c_type).dtype("c", r.c);
      p.kernel.add(KernelText::then_comma);
      engine_fusion_text(p.kernel, cfg, cfg.n);
      p.kernel.add(state.basic ? KernelText::engine_sm90_non_persistent
                               : KernelText::engine_sm90_persistent);
    }
    note_c_from_launcher(why, cfg, r.c, state.epilogue.reuse_smem_c);
    if (state.basic) why.note([] { return diag(Code::engine_ws_tensor_union); });
    finish(p, state, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& engine_fp8_sm90_family() { return the_family<EngineFp8Sm90>(); }

}  // namespace tilefit::model
