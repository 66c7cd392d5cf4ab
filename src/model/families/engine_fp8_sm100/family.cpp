// engine_fp8_sm100: the FP8 GEMMs vLLM and SGLang build for Blackwell datacenter GPUs
// (sm_100a; the same kernels on sm_103 / sm_110 family builds).
//
//  scaled_mm      vLLM cutlass_3x_gemm_sm100_fp8 (c3x/scaled_mm_sm100_fp8_dispatch.cuh@1051220e:
//                 sm100_fp8_config_*), SGLang DeviceGemmFp8RowwiseSm100 (fp8_gemm_kernel.cu@04ec0bc2:
//                 sm100_fp8_dispatch_bias): the dense UMMA builder with KernelScheduleAuto (or an
//                 explicit 1Sm/2Sm schedule), EpilogueScheduleAuto, the scale EVT, the CLC
//                 persistent scheduler — the kernel sm100_umma models, with the launcher's C type
//                 and the EVT's fusion storage.
//  blockwise_fp8  vLLM cutlass_gemm_blockwise_sm100_fp8_dispatch
//                 (c3x/scaled_mm_blockwise_sm100_fp8_dispatch.cuh@0f17ee06), SGLang
//                 launch_sm100_fp8_blockwise_scaled_mm (fp8_blockwise_gemm_kernel.cu@b227f632):
//                 KernelTmaWarpSpecializedBlockwise{1,2}SmSm100 (schedule `1sm` / `2sm`),
//                 TmaWarpSpecialized{1,2}Sm (`tma`) or BlockwiseNoSmemWarpSpecialized{1,2}Sm
//                 (`nosmem`) epilogue — a different kernel, the "MMA-transform" one.
//
// Builders:  gemm/collective/builders/sm100_umma_builder.inl (dense),
//            sm100_blockwise_umma_builder.inl (blockwise), sm100_pipeline_carveout.inl:45-83,
//            sm100_common.inl:300-480 (tiled MMA)
// Mainloops: gemm/collective/sm100_mma_warpspecialized.hpp:223-231,
//            sm100_mma_warpspecialized_blockwise_scaling.hpp:288-309
// Epilogue:  ../sm100_epilogue.hpp with ../engine_fp8.hpp's fusion storage
// Kernels:   ../sm100_kernel.hpp (dense, and MMA-transform)
#include <algorithm>
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../engine_fp8.hpp"
#include "../../sm100_epilogue.hpp"
#include "../../sm100_kernel.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// Everything the builders decide that the layout needs.
struct Sm100EngineLayout {
  Sm100Epilogue epi;
  bool blockwise = false;
  bool two_sm = false;
  long long a_m = 0, b_n = 0;  ///< per-CTA A rows (BlockTileA_M) and B columns (BlockTileB_N)
  int acc_stages = 0;          ///< AccumulatorPipelineStageCount
  int sched_stages = 0;        ///< SchedulerPipelineStageCount
  long long sfa = 0, sfb = 0;  ///< blockwise: scale floats per stage
};

/// Sm100DenseGemmTmaUmmaCarveout::KernelSmemCarveout (sm100_pipeline_carveout.inl:45-83), not
/// ptr-array: 16·Acc + 16·Sstg (CLC) + 16 (load order) + 8 (TMEM dealloc) + 16·Sstg (CLC
/// throttle) + 16·Sstg (CLC responses) + 4·Sstg (TMEM base pointers). The blockwise builder uses
/// the same carve-out with its own Acc and Sstg (sm100_blockwise_umma_builder.inl:367-373).
Bytes kernel_carveout(int acc, int sstg) {
  return 16 * Bytes{acc} + 16 * Bytes{sstg} + 16 + 8 + 16 * Bytes{sstg} +
         Bytes{sstg} * kSm100ClcResponseBytes + 4 * Bytes{sstg};
}

/// The mainloop TensorStorage : aligned_struct<128> at `stages`:
///   dense (sm100_mma_warpspecialized.hpp:223-231): { ArrayEngine A[S·CtaM·K]; B[S·Bn·K] }
///   blockwise (sm100_mma_warpspecialized_blockwise_scaling.hpp:288-294): { A; B;
///     ArrayEngine<float, S·SFA> smem_SFA; ArrayEngine<float, S·SFB> smem_SFB } — each array
///     rounded to 16 (cute/tensor_impl.hpp:71-80), SFA = ceil(CtaM/gM)·ceil(K/gK) and
///     SFB = ceil(N/gN)·ceil(K/gK) floats per stage (smem_atom_layoutSFA/SFB of the CTA shape,
///     sm100_mma_warpspecialized_blockwise_scaling.hpp:162-163;
///     cutlass/detail/blockwise_scale_layout.hpp:77-122).
template <class F>
F mainloop_tensors(const KernelConfig& cfg, const Sm100EngineLayout& s, int stages) {
  const Bytes S = stages;
  const F a = array_aligned<F>(Component::A, S * s.a_m * cfg.k);
  const F b = array_aligned<F>(Component::B, S * s.b_n * cfg.k);
  if (!s.blockwise) return make_struct({a, b}, 128);
  return make_struct({a, b, array_aligned<F>(Component::SFA, 4 * S * s.sfa),
                      array_aligned<F>(Component::SFB, 4 * S * s.sfb)},
                     128);
}

class EngineFp8Sm100 final : public EngineFamily<LaidOutFamily<EngineFp8Sm100, Sm100EngineLayout>> {
 public:
  /// The kernel's SharedStorage at `stages` (LaidOutFamily turns it into layout() and sizes()).
  template <class F>
  static BasicStorage<F> assemble(const KernelConfig& cfg, const Sm100EngineLayout& s, int stages) {
    const EpilogueStorage& e = s.epi.storage;
    Sm100KernelParts<F> parts;
    parts.mainloop_tensors = mainloop_tensors<F>(cfg, s, stages);
    parts.epilogue_tensors = e.tensors<F>();
    parts.epilogue_pipeline = e.pipeline<F>();
    parts.acc_stages = s.acc_stages;
    parts.sched_stages = s.sched_stages;
    BasicStorage<F> st;
    if (s.blockwise) {
      // CollectiveMainloop::PipelineStorage
      // (sm100_mma_warpspecialized_blockwise_scaling.hpp:300-304), a nested type the kernel
      // places in its pipelines: { alignas(16) PipelineTmaUmmaAsync<S> ab;
      // alignas(16) PipelineAsync<S> sf; alignas(16) PipelineUmmaAsync<Acc> accum; }.
      parts.mainloop_pipeline = make_struct(
          {with_align(pipeline_barriers<F>(Component::MainloopBarriers, stages), 16),
           with_align(pipeline_barriers<F>(Component::MainloopBarriers, stages), 16),
           with_align(pipeline_barriers<F>(Component::KernelBarriers, s.acc_stages), 16)});
      st.kernel = sm100_mma_transform_kernel_storage(parts);
      // CollectiveMainloop::SharedStorage holds only `tensors`
      // (sm100_mma_warpspecialized_blockwise_scaling.hpp:288-296).
      st.mainloop_shared = make_struct({parts.mainloop_tensors}).size;
    } else {
      parts.mainloop_pipeline = pipeline_barriers<F>(Component::MainloopBarriers, stages);
      st.kernel = sm100_kernel_storage(parts);
      st.mainloop_shared = make_struct({parts.mainloop_tensors, parts.mainloop_pipeline}).size;
    }
    st.epilogue_shared = e.shared<F>().size;
    return st;
  }

  std::string_view name() const override { return "engine_fp8_sm100"; }
  std::string_view description() const override {
    return "vLLM / SGLang FP8 GEMMs on SM100: scaled_mm (dense UMMA, scale and bias EVT, vLLM's "
           "C = D) and blockwise_fp8 (KernelTmaWarpSpecializedBlockwise1Sm/2SmSm100, TMA or "
           "no-smem epilogue)";
  }
  bool runs_on(int sm) const override { return sm == 100 || sm == 103 || sm == 110; }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    // static_assert(SharedStorageSize <= capacity) in the kernel's operator()
    // (sm100_gemm_tma_warpspecialized.hpp:410; the MMA-transform kernel likewise).
    p.overflow = Overflow::CompileStaticAssert;
    p.rule.capacity_constant = kSm100SmemCapacity;
    engine_common_checks(cfg, why);
    const bool blockwise = cfg.op == EngineOp::BlockwiseFp8;
    Sm100EngineLayout s;
    s.blockwise = blockwise;

    // ---- schedule and tiled MMA ------------------------------------------------------------
    const Schedule sch = cfg.schedule;
    const bool sched_ok =
        sch == Schedule::Sm1 || sch == Schedule::Sm2 || (sch == Schedule::Auto && !blockwise);
    if (!sched_ok)
      why.reject([&] {
        return diag(Code::engine_schedule)
            .schedule("schedule", sch)
            .arch("arch", cfg.arch)
            .name("op", engine_op_name(cfg.op))
            .name("allowed", blockwise ? "1sm, 2sm" : "auto, 1sm, 2sm");
      });
    const bool even_cluster_m = cfg.cluster[0] % 2 == 0;
    // The builders' is_2sm (sm100_umma_builder.inl:208-212, blockwise L302-306): a 2Sm schedule,
    // or KernelScheduleAuto with an even static cluster M. The tiled MMA
    // (sm100_make_trivial_tiled_mma, sm100_common.inl:444-476): 2SM for a 2Sm schedule, or for
    // auto when the cluster M is even and tile M % 128 == 0, else 1SM.
    const bool builder_2sm = sch == Schedule::Sm2 || (sch == Schedule::Auto && even_cluster_m);
    s.two_sm =
        sch == Schedule::Sm2 || (sch == Schedule::Auto && even_cluster_m && cfg.m % 128 == 0);
    if (s.two_sm) {
      // sm100_make_2sm_trivial_tiled_mma (sm100_common.inl:375-379).
      if (cfg.m != 128 && cfg.m != 256)
        why.reject([&] { return diag(Code::sm100_2sm_tile_m).integer("tile_m", cfg.m); });
      if (cfg.n % 8 != 0 || cfg.n > 256)
        why.reject([&] {
          return diag(Code::engine_sm100_tile_n).flag("two_sm", true).integer("tile_n", cfg.n);
        });
      // static_assert "schedule + cluster mismatch" (2SM needs an even cluster M).
      if (!even_cluster_m)
        why.reject(
            [&] { return diag(Code::sm100_2sm_cluster).integer("cluster_m", cfg.cluster[0]); });
    } else {
      // sm100_make_1sm_trivial_tiled_mma (sm100_common.inl:309-313): a 256-row tile on one SM
      // fails "Invalid TileShape_M.".
      if (cfg.m != 64 && cfg.m != 128)
        why.reject([&] { return diag(Code::sm100_1sm_tile_m).integer("tile_m", cfg.m); });
      if (cfg.n % 8 != 0 || cfg.n > 256)
        why.reject([&] {
          return diag(Code::engine_sm100_tile_n).flag("two_sm", false).integer("tile_n", cfg.n);
        });
    }
    // The f8f6f4 UMMA's K is 32 (cute/atom/mma_traits_sm100.hpp); the collective asserts the
    // tile is a whole number of instructions.
    if (cfg.k % 32 != 0)
      why.reject([&] {
        return diag(Code::sm100_instr_k)
            .integer("tile_k", cfg.k)
            .integer("instr_k", 32)
            .dtype("a", DType::E4M3);
      });
    if (blockwise) engine_scale_block_checks(cfg, why);
    const ScaleGranularity g = engine_scale_granularity(cfg);
    const bool bad_blocks = blockwise && (g.m <= 0 || g.n <= 0 || g.k <= 0);  // reader: 1..65536
    if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0 || bad_blocks || (s.two_sm && cfg.m < 2)) {
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }

    // ---- per-CTA tile, accumulator and scheduler stages ----------------------------------
    s.a_m = s.two_sm ? cfg.m / 2 : cfg.m;
    s.b_n = s.two_sm ? cfg.n / 2 : cfg.n;
    // AccumulatorPipelineStageCount (sm100_umma_builder.inl:263-268; blockwise
    // sm100_blockwise_umma_builder.inl:355-357):
    //   (is_2sm || MMA M > 64) ? 128·512 / (CtaM·N) : (512 / N)·2
    // capped at 4 by the dense builder only; SchedulerPipelineStageCount = 2 (dense,
    // sm100_umma_builder.inl:282) or Acc + 1 (blockwise, sm100_blockwise_umma_builder.inl:365).
    const long long acc =
        (builder_2sm || cfg.m > 64) ? (128LL * 512) / (s.a_m * cfg.n) : (512 / cfg.n) * 2;
    s.acc_stages = static_cast<int>(blockwise ? acc : std::min<long long>(4, acc));
    s.sched_stages = blockwise ? s.acc_stages + 1 : 2;
    if (s.acc_stages <= 0) {
      why.reject([] { return diag(Code::sm100_accumulator_stages); });
      s.acc_stages = 1;
      s.sched_stages = blockwise ? 2 : 2;
    }

    // ---- epilogue --------------------------------------------------------------------------
    KernelConfig r = engine_resolved(cfg);
    const EpilogueVariant v = cfg.epilogue.variant;
    const bool v_ok =
        v == EpilogueVariant::Auto || v == EpilogueVariant::Tma || v == EpilogueVariant::NoSmem;
    if (!v_ok)
      why.reject([&] {
        return diag(Code::engine_epilogue_variant)
            .epilogue("epilogue", v)
            .arch("arch", cfg.arch)
            .name("allowed", "auto, tma, nosmem");
      });
    // Blockwise: the engines name TmaWarpSpecialized{1,2}Sm (or the no-smem one), which follows
    // the mainloop's 1SM/2SM choice; "auto" is taken as that.
    if (blockwise && v == EpilogueVariant::Auto) r.epilogue.variant = EpilogueVariant::Tma;
    const bool nosmem = v == EpilogueVariant::NoSmem;
    s.epi = sm100_epilogue(r, Sm100EpilogueContext{s.two_sm, false}, why);
    EpilogueStorage& e = s.epi.storage;
    if (nosmem && blockwise) {
      // BlockwiseNoSmemWarpSpecialized{1,2}Sm with the default fusion: the builder's transform
      // path (`IsTransformSchedule`, sm100_builder.inl:1488-1493; its
      // `thread::LinearCombination`, sm100_builder.inl:1556-1564) takes the legacy
      // Sm100NoSmemWarpSpecialized collective, `struct SharedStorage { }`
      // (sm100_epilogue_nosmem.hpp:143): 1 B.
      e.kind = EpilogueStorage::Kind::NoSmemSm100Legacy;
    } else {
      // The fusion row spans the epilogue's CTA tile N (N also for 2SM).
      e.fusion = engine_fusion(cfg, cfg.n);
      // NoSmemWarpSpecialized with the engines' custom EVT allocates the reduction buffer
      // (IsReductionBufferNeeded, sm100_epilogue_nosmem.hpp:482-498): EpiM·EpiN bytes.
      if (nosmem) e.nosmem_buffer_bytes = e.epi_m * e.epi_n;
    }
    e.seal();
    if (!s.epi.decided) p.sizes_known = false;

    // ---- stage rule ------------------------------------------------------------------------
    if (blockwise) {
      s.sfa = ceil_div(s.a_m, g.m) * ceil_div(cfg.k, g.k);
      s.sfb = ceil_div(cfg.n, g.n) * ceil_div(cfg.k, g.k);
    }
    // ReducedSmemCapacityBytes = 232448 − KernelSmemCarveout (sm100_common.inl:998-1001).
    p.rule.builder_capacity = kSm100SmemCapacity - kernel_carveout(s.acc_stages, s.sched_stages);
    p.rule.carveout = e.shared<Extent>().size;
    if (blockwise) {
      // sm100_compute_stage_count_or_override_blockwise (sm100_blockwise_umma_builder.inl:78-114):
      //   ru(CtaM·K + Bn·K + 4·(M/gM)·(K/gK) + 4·(N/gN)·(K/gK), 128) + 16 (AB pipe) + 16 (SF pipe)
      // with the scale counts of the MMA tile (BlockTileScale_*, L401-405).
      const Bytes scales = 4 * (cfg.m / g.m) * (cfg.k / g.k) + 4 * (cfg.n / g.n) * (cfg.k / g.k);
      p.rule.stage_bytes =
          round_up(s.a_m * cfg.k + s.b_n * cfg.k + scales, 128) + 2 * kOneStageBarrierBytes;
    } else {
      // sm100_compute_stage_count_or_override (sm100_umma_builder.inl:84-99):
      //   CtaM·K + Bn·K + sizeof(PipelineTmaUmmaAsync<1>::SharedStorage)
      p.rule.stage_bytes = s.a_m * cfg.k + s.b_n * cfg.k + kOneStageBarrierBytes;
    }
    p.choose_stages(cfg.stages);
    // static_assert(Stages >= 2): sm100_mma_warpspecialized.hpp:191,
    // sm100_mma_warpspecialized_blockwise_scaling.hpp:247 (the builders' PipelineStages > 0 first).
    p.min_stages = 2;
    p.unbudgeted = "sm100";

    if (explain) {
      const char* sm = s.two_sm ? "2Sm" : "1Sm";
      engine_entry_point(p.kernel, cfg);
      if (blockwise)
        p.kernel.add(KernelText::engine_sm100_blockwise)
            .name("sm", sm)
            .integer("gran_m", g.m)
            .integer("gran_n", g.n)
            .integer("gran_k", g.k)
            .integer("acc", s.acc_stages)
            .integer("sched", s.sched_stages);
      else
        p.kernel
            .add(sch == Schedule::Auto ? KernelText::engine_sm100_kernel_auto
                                       : KernelText::engine_sm100_kernel)
            .name("sm", sm)
            .integer("acc", s.acc_stages);
      if (s.epi.decided) {
        p.kernel.add(KernelText::then_plus);
        sm100_epilogue_name(p.kernel, r, s.epi);
        if (!(nosmem && blockwise)) {
          p.kernel.add(KernelText::then_comma);
          engine_fusion_text(p.kernel, cfg, cfg.n);
        }
      }
      p.kernel.add(KernelText::c_type).dtype("c", r.c);
    }
    note_c_from_launcher(why, cfg, r.c, e.reuse_smem_c);
    if (cfg.arch != 100)
      why.note([&] { return diag(Code::sm100_family_modelled_as_sm100).arch("arch", cfg.arch); });
    finish(p, s, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& engine_fp8_sm100_family() { return the_family<EngineFp8Sm100>(); }

}  // namespace tilefit::model
