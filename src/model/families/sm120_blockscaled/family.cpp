// sm120_blockscaled: SM120/SM121 block-scaled GEMM (nvfp4, mxfp4, mxfp6, mxfp8 and mixes),
// dense and grouped (ptr-array), cooperative and pingpong.
//
// Builder:   gemm/collective/builders/sm120_blockscaled_mma_builder.inl
// Mainloop:  gemm/collective/sm120_blockscaled_mma_tma.hpp (dense),
//            gemm/collective/sm120_blockscaled_mma_array_tma.hpp (grouped)
// Kernels:   the SM90 shells (sm90_gemm_[array_]tma_warpspecialized_{cooperative,pingpong}.hpp)
// Reference: docs/dev/cutlass-smem-model.md §3 (line numbers below are CUTLASS 4.7).
#include <string>

#include "../../cutlass_constants.hpp"
#include "../../sm120_common.hpp"
#include "../../sm120_epilogue.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// SchedulerPipelineStageCount, hard-coded to 3 for block-scaled (builder L240).
constexpr int kSchedulerStages = 3;

/// The builder's reduced capacity (builder L240-261):
///   non-grouped: 101376 − PipelineCLCFetchAsync<3> (48) − CLCResponse[3] (48) = 101280
///   grouped:     101376 − PipelineAsyncSharedStorage<8> (128) − 2 TmaDescriptors (256)
///                − TensorMapReady PipelineAsync<3> (48) = 100944
Bytes builder_capacity(bool grouped) {
  return grouped ? kSm120SmemCapacity - 128 - 256 - 48 : kSm120SmemCapacity - 48 - 48;
}

/// The mainloop's element widths and scale-factor bytes per stage.
///  * select_instr (builders/sm1xx_common.inl:731-…): MXF4/NVF4 for fp4 x fp4 under an automatic
///    or NV schedule; MXF8F6F4 when forced, or when any operand is 6/8-bit.
///  * SmemAllocType = uint8_t on the MXF8F6F4 path, else the 4-bit MMA type (builder L150-152).
///  * Scale factors per stage (builder L186-216; Blk_MN = 128, Blk_SF = 4,
///    cutlass/detail/sm100_blockscaled_layout.hpp:51-52), 1-byte SF, compact layouts:
///      SFA = floor(M/128)·128 · K/Vs        SFB = floor(max(N,128)/128)·128 · K/Vs   (L209)
struct Shape {
  bool f8f6f4 = false;  ///< MXF8F6F4 instruction (uint8 smem)
  int alloc_bits = 4;   ///< smem element width of A and B
  int vs = 16;          ///< scale-factor vector size
  Bytes sfa_per_stage = 0, sfb_per_stage = 0;
};

Shape shape_of(const KernelConfig& cfg) {
  Shape s;
  const bool both_fp4 = bits(cfg.a.elem) == 4 && bits(cfg.b.elem) == 4;
  s.f8f6f4 = cfg.mma == Mma::F8F6F4 || !both_fp4;
  s.alloc_bits = s.f8f6f4 ? 8 : 4;
  s.vs = cfg.a.sf_vec > 0 ? cfg.a.sf_vec : 16;
  const long long k_sf = cfg.k / s.vs;
  s.sfa_per_stage = (cfg.m / 128) * 128 * k_sf;
  s.sfb_per_stage = (std::max<long long>(cfg.n, 128) / 128) * 128 * k_sf;
  return s;
}

/// Builder's per-stage bytes (sm100_compute_stage_count_or_override_blockscaled,
/// builders/sm100_blockscaled_umma_builder.inl:69-88, called from builder L263-264):
///   stage = B(alloc, M·K) + B(alloc, N·K) + ru(sizeof(PipelineTmaUmmaAsync<1>) = 16, 128)
///           + SFA + SFB
Bytes builder_stage_bytes(const KernelConfig& cfg, const Shape& s) {
  return bits_to_bytes(cfg.m * cfg.k * s.alloc_bits) + bits_to_bytes(cfg.n * cfg.k * s.alloc_bits) +
         round_up(kOneStageBarrierBytes, 128) + s.sfa_per_stage + s.sfb_per_stage;
}

class Sm120BlockScaled final : public Sm120Family<Sm120BlockScaled> {
 public:
  std::string_view name() const override { return "sm120_blockscaled"; }
  std::string_view description() const override {
    return "SM120/SM121 block-scaled GEMM (nvfp4, mxfp4, mxfp6, mxfp8), dense and grouped, "
           "cooperative and pingpong";
  }
  bool runs_on(int sm) const override { return sm == 120 || sm == 121; }

  bool claims(const KernelConfig& cfg, int sm) const override {
    // Configs with a launcher are the engine families' (issue 11).
    return runs_on(sm) && cfg.a.block_scaled() && cfg.b.block_scaled() &&
           cfg.launcher == Launcher::None;
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const override {
    return operand_claim(Code::claim_sm120_blockscaled, cfg, sm);
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    p.rule.capacity_constant = kSm120SmemCapacity;
    p.rule.builder_capacity = builder_capacity(cfg.grouped);
    p.overflow = Overflow::RuntimeInitialize;
    sm120_common_checks(cfg, why);

    if (!cfg.a.block_scaled() || !cfg.b.block_scaled()) {
      why.reject([&] {
        return diag(Code::sm120_needs_block_scaled).operand("a", cfg.a).operand("b", cfg.b);
      });
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }
    // builder L87-95: SFA and SFB must agree in type and vector size.
    if (cfg.a.sf != cfg.b.sf || cfg.a.sf_vec != cfg.b.sf_vec)
      why.reject([&] {
        return diag(Code::sm120_scale_factors_differ).operand("a", cfg.a).operand("b", cfg.b);
      });
    const Shape s = shape_of(cfg);
    if (cfg.mma == Mma::Nvf4 && s.f8f6f4)
      why.reject([] { return diag(Code::sm120_nvf4_needs_fp4); });
    // Shape divisibility of the SF atoms (builder L186-216, collective L214): the SF tile is
    // built from 128-row blocks, so N (and M) above 128 must be multiples of 128.
    if (cfg.n > 128 && cfg.n % 128 != 0) {
      why.reject([&] { return diag(Code::sm120_blockscaled_tile_n).integer("tile_n", cfg.n); });
      p.sizes_known = false;
    }
    // Measured (tests/data/measured-sm120-sm90.jsonl, 192x128x128): the SFA buffer covers
    // floor(192/128) = 1 block (builder L199) and the kernel's TMA setup for the 192-row tile
    // fails cute's "Shape Divisibility Condition" (sm120_blockscaled_mma_tma.hpp:309-314).
    if (cfg.m > 128 && cfg.m % 128 != 0) {
      why.reject([&] { return diag(Code::sm120_blockscaled_tile_m).integer("tile_m", cfg.m); });
      p.sizes_known = false;
    }
    if (cfg.k % (4 * s.vs) != 0) {
      why.reject([&] {
        return diag(Code::sm120_blockscaled_tile_k_sf)
            .integer("tile_k", cfg.k)
            .integer("sf_vec", s.vs)
            .integer("k_multiple", 4 * s.vs);
      });
      p.sizes_known = false;
    }
    // sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement (builders/sm1xx_common.inl:203).
    if (s.f8f6f4 && (bits(cfg.a.elem) < 8 || bits(cfg.b.elem) < 8) && cfg.k % 128 != 0)
      why.reject([&] { return diag(Code::sm120_blockscaled_mix8bit_k).integer("tile_k", cfg.k); });

    Sm120Layout state = sm120_common_layout(cfg, why);
    state.a_bits = state.b_bits = s.alloc_bits;
    state.block_scaled = true;
    state.sfa_per_stage = s.sfa_per_stage;
    state.sfb_per_stage = s.sfb_per_stage;
    state.scheduler_stages = kSchedulerStages;
    state.mainloop_descriptors = 4;  // grouped: A, B, SFA, SFB

    if (explain) {
      p.kernel
          .add(s.f8f6f4 ? KernelText::sm120_blockscaled_f8f6f4 : KernelText::sm120_blockscaled_f4)
          .name("kernel", sm120_kernel_schedule(cfg))
          .integer("sf_vec", s.vs);
      sm120_epilogue_name(p.kernel, cfg, state.epilogue);
    }

    // StageCountAutoCarveout<sizeof(CollectiveEpilogue::SharedStorage)>: the carve-out is
    // used as is (not rounded) on SM120 (cutlass-smem-model.md P2); static_assert(Stages >= 2):
    // sm120_blockscaled_mma_tma.hpp:220, array :225.
    sm120_stage_rule(p, cfg, state, p.sizes_known ? builder_stage_bytes(cfg, s) : 0);
    p.unbudgeted = cfg.grouped ? "sm120_blockscaled_grouped" : "sm120_blockscaled";
    finish(p, state, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& sm120_blockscaled_family() { return the_family<Sm120BlockScaled>(); }

}  // namespace tilefit::model
