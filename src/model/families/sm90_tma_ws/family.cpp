// sm90_tma_ws: Hopper TMA warp-specialized GEMM, cooperative and pingpong, TMA or no-smem
// epilogue, dense and ptr-array grouped.
//
// Builder:   gemm/collective/builders/sm90_gmma_builder.inl
// Mainloop:  gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized[_fp8].hpp,
//            sm90_mma_array_tma_gmma_ss_warpspecialized[_fp8].hpp (ptr-array)
// Epilogue:  epilogue/collective/builders/sm90_builder.inl -> sm90_epilogue_[array_]tma_warpspecialized.hpp
// Kernels:   gemm/kernel/sm90_gemm_[array_]tma_warpspecialized_{cooperative,pingpong}.hpp
// Reference: docs/dev/cutlass-smem-model.md §4, §2.1, §2.2, §2.5, §2.6.1.
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../epilogue_storage.hpp"
#include "../../sm90_epilogue.hpp"
#include "../../sm90_kernel.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// KernelScheduleAuto (sm90_gmma_builder.inl:970-1048, TMA-compatible alignment):
/// pingpong when tile M == 64, cooperative otherwise.
bool is_pingpong(const KernelConfig& cfg) {
  if (cfg.schedule == Schedule::Auto) return cfg.m == 64;
  return cfg.schedule == Schedule::Pingpong;
}

/// The MMA element: tf32 for f32 A/B (sm90_gmma_builder.inl:246-247).
int mma_bits(DType t) { return t == DType::F32 ? 32 : bits(t); }

bool tma_epilogue(const KernelConfig& cfg) { return cfg.epilogue.variant == EpilogueVariant::Tma; }

/// What layout() needs: the epilogue as decided, and the schedule.
struct Sm90Layout {
  EpilogueStorage epilogue;
  bool pingpong = false;
};

/// The SM90 epilogue the builder decides: EpilogueScheduleAuto on SM90 is the no-smem epilogue,
/// which holds no buffers (§2.5); "tma" is the TMA epilogue of sm90_epilogue.hpp
/// (TmaWarpSpecialized for pingpong, TmaWarpSpecializedCooperative otherwise). Its rejections
/// go to `why` (used only for the TMA epilogue).
EpilogueStorage sm90_epilogue(const KernelConfig& cfg, Findings& why) {
  if (!tma_epilogue(cfg)) {
    EpilogueStorage e;
    e.ptr_array = cfg.grouped;
    e.descriptors = 1 + 2;
    e.kind = EpilogueStorage::Kind::NoSmemSm90;
    return e;
  }
  return sm90_tma_epilogue(cfg, !is_pingpong(cfg), why);
}

/// The kernel and epilogue types, for `kernel_description`.
KernelDescription kernel_name(const KernelConfig& cfg, const EpilogueStorage& e, bool pingpong) {
  KernelDescription k;
  k.add(KernelText::kernel)
      .name("kernel", std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized"
                                              : "KernelTmaWarpSpecialized") +
                          (pingpong ? "Pingpong" : "Cooperative"));
  k.add(KernelText::then_semicolon);
  if (e.kind != EpilogueStorage::Kind::Tma) {
    k.add(KernelText::sm90_nosmem_epilogue)
        .name("epilogue", cfg.grouped ? "PtrArrayNoSmemWarpSpecialized" : "NoSmemWarpSpecialized");
    return k;
  }
  k.add(KernelText::epilogue_tile)
      .name("epilogue",
            std::string(cfg.grouped ? "PtrArrayTmaWarpSpecialized" : "TmaWarpSpecialized") +
                (pingpong ? "" : "Cooperative"))
      .integer("epi_m", e.epi_m)
      .integer("epi_n", e.epi_n);
  k.add(KernelText::epilogue_stages)
      .integer("stages_c", e.stages_c)
      .integer("stages_d", e.stages_d);
  if (e.reuse_smem_c) k.add(KernelText::reuse_smem_c);
  return k;
}

/// Mainloop TensorStorage : aligned_struct<128> { array_aligned<AMma, S·M·K> A;
/// array_aligned<BMma, S·N·K> B; } (sm90_mma_tma_gmma_ss_warpspecialized.hpp:153-162):
/// no alignas(1024) — unlike SM120 — so the tensors are 128-aligned.
template <class F>
F mainloop_tensors(const KernelConfig& cfg, int stages) {
  return make_struct(
      {array_aligned<F>(Component::A, bits_to_bytes(stages * cfg.m * cfg.k * mma_bits(cfg.a.elem))),
       array_aligned<F>(Component::B,
                        bits_to_bytes(stages * cfg.n * cfg.k * mma_bits(cfg.b.elem)))},
      128);
}

/// The kernel SharedStorage at `stages` (sm90_kernel.hpp's shells).
template <class F>
BasicStorage<F> sm90_assemble(const KernelConfig& cfg, const Sm90Layout& s, int stages) {
  const EpilogueStorage& epi = s.epilogue;
  Sm90KernelParts<F> parts;
  parts.mainloop_tensors = mainloop_tensors<F>(cfg, stages);
  parts.mainloop_pipeline = pipeline_barriers<F>(Component::MainloopBarriers, stages);
  parts.epilogue_tensors = epi.tensors<F>();
  parts.epilogue_pipeline = epi.pipeline<F>();
  parts.pingpong = s.pingpong;
  // PersistentTileSchedulerSm90::SharedStorage is empty: 1 B (sm90_tile_scheduler.hpp:53-65).
  parts.scheduler = empty_member<F>(Component::Scheduler);
  // Grouped: PersistentTileSchedulerSm90Group<…, 8>: PipelineAsyncSharedStorage<8> (128 B),
  // WorkTileInfo[8] (16 B each); mainloop tensormaps: 2 descriptors (A, B)
  // (sm90_mma_array_tma_gmma_ss_warpspecialized.hpp:170-183).
  parts.scheduler_pipeline = leaf<F>(Component::Scheduler, 128, 8);
  parts.scheduler_responses = leaf<F>(Component::Scheduler, 8 * 16, 4);
  parts.mainloop_tensormaps =
      make_struct({leaf<F>(Component::Tensormaps, 2 * kTmaDescriptorBytes, 64)}, 128);
  parts.epilogue_tensormaps = epi.tensormaps<F>();

  BasicStorage<F> st;
  st.kernel = cfg.grouped ? sm90_array_kernel_storage(parts) : sm90_kernel_storage(parts);
  st.epilogue_shared = epi.shared<F>().size;
  // CollectiveMainloop::SharedStorage = { TensorStorage; [TensorMapStorage (ptr-array);]
  // PipelineStorage }.
  st.mainloop_shared = cfg.grouped
                           ? make_struct({parts.mainloop_tensors, parts.mainloop_tensormaps,
                                          parts.mainloop_pipeline})
                                 .size
                           : make_struct({parts.mainloop_tensors, parts.mainloop_pipeline}).size;
  return st;
}

class Sm90TmaWs final : public LaidOutFamily<Sm90TmaWs, Sm90Layout> {
 public:
  std::string_view name() const override { return "sm90_tma_ws"; }
  std::string_view description() const override {
    return "Hopper TMA warp-specialized GEMM, cooperative and pingpong, TMA or no-smem "
           "epilogue, dense and ptr-array grouped";
  }
  bool runs_on(int sm) const override { return sm == 90; }

  bool claims(const KernelConfig& cfg, int sm) const override {
    return runs_on(sm) && dense_3x_config(cfg);
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const override {
    return operand_claim(Code::claim_sm90_gmma, cfg, sm);
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    p.overflow = Overflow::RuntimeInitialize;
    const bool pingpong = is_pingpong(cfg);

    if (cfg.a.block_scaled() || cfg.b.block_scaled())
      why.reject([&] { return diag(Code::sm90_block_scaled_operand); });
    for (const Operand* op : {&cfg.a, &cfg.b}) {
      const DType t = op->elem;
      const bool ok = t == DType::BF16 || t == DType::F16 || t == DType::F32 || t == DType::TF32 ||
                      t == DType::E4M3 || t == DType::E5M2 || t == DType::S8 || t == DType::U8;
      if (!ok) why.reject([&] { return diag(Code::sm90_operand_type).operand("operand", *op); });
    }
    // fp8, int8 and tf32 operands must be K-major (sm90_common.inl:61-…).
    const bool k_major_only = bits(cfg.a.elem) != 16 || bits(cfg.b.elem) != 16;
    if (k_major_only && (!cfg.a_k_major || !cfg.b_k_major))
      why.reject([&] { return diag(Code::sm90_k_major_required); });
    switch (cfg.schedule) {
      case Schedule::Auto:
      case Schedule::Cooperative:
      case Schedule::Pingpong:
        break;
      default:
        why.reject([&] { return diag(Code::sm90_schedule).schedule("schedule", cfg.schedule); });
    }
    if (!pingpong && cfg.m < 128)
      why.reject_kernel(
          [&] { return diag(Code::sm90_cooperative_tile_m).integer("tile_m", cfg.m); });
    if (cfg.m % 64 != 0)
      why.reject([&] { return diag(Code::sm90_tile_m_multiple_of_64).integer("tile_m", cfg.m); });
    const auto v = cfg.epilogue.variant;
    if (v != EpilogueVariant::Auto && v != EpilogueVariant::Tma && v != EpilogueVariant::NoSmem)
      why.reject([&] { return diag(Code::sm90_epilogue_variant).epilogue("epilogue", v); });

    Sm90Layout state;
    state.pingpong = pingpong;
    state.epilogue = sm90_epilogue(cfg, why);
    state.epilogue.seal();
    if (explain) p.kernel = kernel_name(cfg, state.epilogue, pingpong);

    // compute_stage_count_or_override (sm90_gmma_builder.inl:69-85):
    //   stage = ru(B(AMma,M·K) + B(BMma,N·K), 128) + sizeof(PipelineTmaAsync<1>::SharedStorage)=16
    //   Cap   = rd(232448 − KernelSmemCarveout, 128),  KernelSmemCarveout = ptr-array ? 2·128 (+128
    //           scheduler pipeline for pointer strides) : 0    (L240-242, L269-273)
    //   S     = (Cap − ru(carveout, 128)) / stage
    const Bytes kernel_carveout = cfg.grouped ? 256 + 128 : 0;
    p.rule.capacity_constant = kSm90SmemCapacity;
    p.rule.builder_capacity = round_down(kSm90SmemCapacity - kernel_carveout, 128);
    p.rule.carveout = round_up(state.epilogue.shared<Extent>().size, 128);
    p.rule.stage_bytes = round_up(bits_to_bytes(cfg.m * cfg.k * mma_bits(cfg.a.elem)) +
                                      bits_to_bytes(cfg.n * cfg.k * mma_bits(cfg.b.elem)),
                                  128) +
                         kOneStageBarrierBytes;
    p.choose_stages(cfg.stages);
    p.min_stages = 2;  // static_assert(Stages >= 2): sm90_mma_tma_gmma_ss_warpspecialized.hpp:137
    p.unbudgeted = "sm90";
    if (v == EpilogueVariant::Auto)
      why.note([&] { return diag(Code::sm90_auto_epilogue_is_nosmem); });
    p.epilogue_tile = state.epilogue.staged_tile();
    finish(p, state, std::move(why));
    return p;
  }

  template <class F>
  static BasicStorage<F> assemble(const KernelConfig& cfg, const Sm90Layout& s, int stages) {
    return sm90_assemble<F>(cfg, s, stages);
  }
};

}  // namespace

const KernelFamily& sm90_tma_ws_family() { return the_family<Sm90TmaWs>(); }

}  // namespace tilefit::model
