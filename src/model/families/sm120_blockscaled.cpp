// sm120_blockscaled: SM120/SM121 block-scaled GEMM (nvfp4, mxfp4, mxfp6, mxfp8 and mixes),
// dense and grouped (ptr-array), cooperative and pingpong.
//
// Builder:   gemm/collective/builders/sm120_blockscaled_mma_builder.inl
// Mainloop:  gemm/collective/sm120_blockscaled_mma_tma.hpp (dense),
//            gemm/collective/sm120_blockscaled_mma_array_tma.hpp (grouped)
// Kernels:   the SM90 shells (sm90_gemm_[array_]tma_warpspecialized_{cooperative,pingpong}.hpp)
// Reference: ../shared/docs/cutlass-smem-model.md §3 (line numbers below are CUTLASS 4.7).
#include <string>

#include "../sm120_common.hpp"
#include "families.hpp"

namespace tilefit::model {
namespace {

/// CUTLASS's capacity constant: cutlass/arch/arch.h:45 sm120_smem_capacity_bytes.
constexpr Bytes kSm120Capacity = 101376;
/// SchedulerPipelineStageCount, hard-coded to 3 for block-scaled (builder L240).
constexpr int kSchedulerStages = 3;

/// The builder's reduced capacity (builder L240-261):
///   non-grouped: 101376 − PipelineCLCFetchAsync<3> (48) − CLCResponse[3] (48) = 101280
///   grouped:     101376 − PipelineAsyncSharedStorage<8> (128) − 2 TmaDescriptors (256)
///                − TensorMapReady PipelineAsync<3> (48) = 100944
Bytes builder_capacity(bool grouped) {
  return grouped ? kSm120Capacity - 128 - 256 - 48 : kSm120Capacity - 48 - 48;
}

struct Shape {
  int alloc_a_bits = 4, alloc_b_bits = 4;  ///< smem element width of A / B
  bool f8f6f4 = false;                     ///< MXF8F6F4 instruction (uint8 smem)
  int vs = 16;                             ///< scale-factor vector size
  Bytes sfa_per_stage = 0, sfb_per_stage = 0;
};

/// Scale-factor bytes per stage (builder L186-216; Blk_MN = 128, Blk_SF = 4,
/// cutlass/detail/sm100_blockscaled_layout.hpp:51-52). 1-byte SF, compact layouts:
///   SFA = floor(M/128)·128 · K/Vs        SFB = floor(max(N,128)/128)·128 · K/Vs   (L209)
Shape shape_of(const KernelConfig& cfg) {
  Shape s;
  // select_instr (builders/sm1xx_common.inl:731-…): MXF4/NVF4 for fp4 x fp4 under an
  // automatic or NV schedule; MXF8F6F4 when forced, or when any operand is 6/8-bit.
  const bool both_fp4 = bits(cfg.a.elem) == 4 && bits(cfg.b.elem) == 4;
  s.f8f6f4 = cfg.mma == Mma::F8F6F4 || !both_fp4;
  // SmemAllocType = uint8_t on the MXF8F6F4 path, else the 4-bit MMA type (builder L150-152).
  s.alloc_a_bits = s.f8f6f4 ? 8 : bits(cfg.a.elem);
  s.alloc_b_bits = s.f8f6f4 ? 8 : bits(cfg.b.elem);
  s.vs = cfg.a.sf_vec > 0 ? cfg.a.sf_vec : 16;
  const long long k_sf = cfg.k / s.vs;
  s.sfa_per_stage = (cfg.m / 128) * 128 * k_sf;
  s.sfb_per_stage = (std::max<long long>(cfg.n, 128) / 128) * 128 * k_sf;
  return s;
}

/// Builder's per-stage bytes (sm100_compute_stage_count_or_override_blockscaled,
/// builders/sm100_blockscaled_umma_builder.inl:69-88, called from builder L263-264):
///   stage = B(allocA, M·K) + B(allocB, N·K) + ru(sizeof(PipelineTmaUmmaAsync<1>) = 16, 128)
///           + SFA + SFB
Bytes builder_stage_bytes(const KernelConfig& cfg, const Shape& s) {
  return bits_to_bytes(cfg.m * cfg.k * s.alloc_a_bits) + bits_to_bytes(cfg.n * cfg.k * s.alloc_b_bits) +
         round_up(16, 128) + s.sfa_per_stage + s.sfb_per_stage;
}

/// Mainloop TensorStorage (sm120_blockscaled_mma_tma.hpp:266-275; array L269-286):
///   struct TensorStorage : aligned_struct<128> {
///     alignas(1024) ArrayEngine<allocA, S·M·K> smem_A;  alignas(1024) … smem_B;
///     alignas(16)   ArrayEngine<SF, S·SFA>   smem_SFA;  alignas(16)   … smem_SFB; };
Field mainloop_tensors(const KernelConfig& cfg, const Shape& s, int stages) {
  return make_struct(
      {with_align(array_engine(Component::A, stages * cfg.m * cfg.k, s.alloc_a_bits), 1024),
       with_align(array_engine(Component::B, stages * cfg.n * cfg.k, s.alloc_b_bits), 1024),
       with_align(array_aligned(Component::SFA, stages * s.sfa_per_stage), 16),
       with_align(array_aligned(Component::SFB, stages * s.sfb_per_stage), 16)},
      128);
}

class Sm120BlockScaled final : public KernelFamily {
 public:
  std::string_view name() const override { return "sm120_blockscaled"; }
  std::string_view description() const override {
    return "SM120/SM121 block-scaled GEMM (nvfp4, mxfp4, mxfp6, mxfp8), dense and grouped, "
           "cooperative and pingpong";
  }
  bool runs_on(int sm) const override { return sm == 120 || sm == 121; }

  std::optional<std::string> claims(const KernelConfig& cfg, int sm) const override {
    if (!runs_on(sm) || !cfg.a.block_scaled() || !cfg.b.block_scaled()) return std::nullopt;
    return arch_name(sm) + " with block-scaled operands (" + operand_name(cfg.a) + " x " +
           operand_name(cfg.b) + "): the SM120 block-scaled builder (OpClassBlockScaledTensorOp)";
  }

  BuildPlan plan(const KernelConfig& cfg) const override {
    BuildPlan p;
    p.capacity_constant = kSm120Capacity;
    p.builder_capacity = builder_capacity(cfg.grouped);
    p.overflow = Overflow::RuntimeInitialize;
    sm120_common_checks(cfg, p.invalid);

    if (!cfg.a.block_scaled() || !cfg.b.block_scaled()) {
      p.invalid.push_back("sm120_blockscaled needs block-scaled operands (nvfp4, mxfp4, mxfp6, "
                          "mxfp8); got " + operand_name(cfg.a) + " x " + operand_name(cfg.b));
      p.sizes_known = false;
      return p;
    }
    // builder L87-95: SFA and SFB must agree in type and vector size.
    if (cfg.a.sf != cfg.b.sf || cfg.a.sf_vec != cfg.b.sf_vec)
      p.invalid.push_back("A and B scale factors must match in type and vector size (" +
                          operand_name(cfg.a) + " vs " + operand_name(cfg.b) + ")");
    const Shape s = shape_of(cfg);
    if (cfg.mma == Mma::Nvf4 && s.f8f6f4)
      p.invalid.push_back("mma \"nvf4\" (MXF4/NVF4 instruction) needs fp4 (e2m1) A and B");
    // Shape divisibility of the SF atoms (builder L186-216, collective L214): the SF tile is
    // built from 128-row blocks, so N (and M) above 128 must be multiples of 128.
    if (cfg.n > 128 && cfg.n % 128 != 0) {
      p.invalid.push_back("tile N = " + std::to_string(cfg.n) +
                          ": SM120 block-scaled needs N <= 128 or a multiple of 128 (the SFB "
                          "layout covers max(N,128) rows in 128-row blocks; cute's \"Shape "
                          "Divisibility Condition\", sm120_blockscaled_mma_tma.hpp:214)");
      p.sizes_known = false;
    }
    // Measured (tests/data/measured-sm120-sm90.jsonl, 192x128x128): the SFA buffer covers
    // floor(192/128) = 1 block (builder L199) and the kernel's TMA setup for the 192-row tile
    // fails cute's "Shape Divisibility Condition" (sm120_blockscaled_mma_tma.hpp:309-314).
    if (cfg.m > 128 && cfg.m % 128 != 0) {
      p.invalid.push_back("tile M = " + std::to_string(cfg.m) +
                          ": SM120 block-scaled needs M <= 128 or a multiple of 128 (SFA is "
                          "tiled in 128-row blocks; cute's \"Shape Divisibility Condition\", "
                          "sm120_blockscaled_mma_tma.hpp:309-314)");
      p.sizes_known = false;
    }
    if (cfg.k % (4 * s.vs) != 0) {
      p.invalid.push_back("tile K = " + std::to_string(cfg.k) + ": scale-factor vector " +
                          std::to_string(s.vs) + " needs K a multiple of " +
                          std::to_string(4 * s.vs) +
                          " (the SF atom spans 4 scale factors along K; K/Vs/4 = 0 gives an "
                          "empty SF layout, sm120_blockscaled_mma_tma.hpp:214)");
      p.sizes_known = false;
    }
    // sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement (builders/sm1xx_common.inl:203).
    if (s.f8f6f4 && (bits(cfg.a.elem) < 8 || bits(cfg.b.elem) < 8) && cfg.k % 128 != 0)
      p.invalid.push_back("tile K = " + std::to_string(cfg.k) +
                          ": sub-byte operands on the MXF8F6F4 path need K a multiple of 128 "
                          "(\"TileSize and MNK Major does not met with MMA Mix 8-bit TMA load "
                          "requirement\", sm1xx_common.inl:203)");

    const Sm120EpiloguePlan epi = sm120_epilogue(cfg);
    for (const std::string& why : epi.invalid) p.invalid.push_back(why);

    const bool pingpong = sm120_pingpong(cfg);
    p.kernel = std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized" : "KernelTmaWarpSpecialized") +
               (pingpong ? "Pingpong" : "Cooperative") + "BlockScaledSm120 (" +
               (s.f8f6f4 ? "MXF8F6F4, A/B stored as uint8" : "MXF4/NVF4, A/B packed 4-bit") +
               ", SF vector " + std::to_string(s.vs) + "); " + epi.description;

    // StageCountAutoCarveout<sizeof(CollectiveEpilogue::SharedStorage)>: the carve-out is
    // used as is (not rounded) on SM120 (cutlass-smem-model.md P2).
    p.carveout = tma_epilogue_shared_storage(epi.epi).size;
    p.stage_bytes = p.sizes_known ? builder_stage_bytes(cfg, s) : 0;
    if (cfg.stages) {
      p.auto_stages = false;
      p.stages = *cfg.stages;
    } else if (p.sizes_known) {
      // S = (Cap − carveout) / stage: integer division as in C++ (truncates toward zero).
      p.stages = static_cast<int>((p.builder_capacity - p.carveout) / p.stage_bytes);
    }
    p.min_stages = 2;  // static_assert(Stages >= 2): sm120_blockscaled_mma_tma.hpp:220, array :225
    p.unbudgeted =
        cfg.grouped
            ? "4 mainloop and 3 epilogue tensormaps where it reserves 2, scheduler_response[8], "
              "the load-order barrier, and the 1 KiB alignment of the tensor block and of the struct"
            : "the scheduler's 144 B where it reserves 96, the kernel pipelines, and the 1 KiB "
              "header that alignas(1024) on A/B forces";
    return p;
  }

  Storage storage(const KernelConfig& cfg, const BuildPlan&, int stages) const override {
    // Grouped: 4 mainloop descriptors (A, B, SFA, SFB).
    return sm120_storage(mainloop_tensors(cfg, shape_of(cfg), stages), stages, cfg,
                         kSchedulerStages, /*mainloop_descriptors=*/4);
  }
};

}  // namespace

const KernelFamily& sm120_blockscaled_family() {
  static const Sm120BlockScaled family;
  return family;
}

}  // namespace tilefit::model
