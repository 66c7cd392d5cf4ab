// sm100_umma: B200 UMMA GEMM (1SM and 2SM; dense and block-scaled nvfp4/mxfp4/mxfp8/mxf8f6f4;
// non-grouped and grouped / ptr-array; TMA, no-smem, auto and blockscale_out epilogues).
//
// Builders:  gemm/collective/builders/sm100_umma_builder.inl (dense, OpClassTensorOp),
//            sm100_blockscaled_umma_builder.inl (OpClassBlockScaledTensorOp),
//            sm100_pipeline_carveout.inl (the builder's kernel carve-out),
//            sm100_common.inl, sm1xx_common.inl (tiled MMA, 1SM/2SM, instruction choice)
// Mainloops: gemm/collective/sm100_mma_warpspecialized.hpp:223-231,
//            sm100_mma_array_warpspecialized.hpp:233-246,
//            sm100_blockscaled_mma_warpspecialized.hpp:274-284,
//            sm100_blockscaled_mma_array_warpspecialized.hpp:285-302
// Kernels:   gemm/kernel/sm100_gemm_tma_warpspecialized.hpp:182-210,
//            sm100_gemm_array_tma_warpspecialized.hpp:239-294
// Epilogue:  ../sm100_epilogue.hpp
// Reference: docs/dev/cutlass-smem-model.md §5 (and §1.3, §2.3-§2.6.3, P10-P17).
#include <algorithm>
#include <string>
#include <vector>

#include "../../cutlass_constants.hpp"
#include "../../sm100_epilogue.hpp"
#include "../../sm100_kernel.hpp"
#include "../families.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::model {
namespace {

/// detail::CLCResponseSize (sm100_kernel.hpp).
constexpr Bytes kClcResponseBytes = kSm100ClcResponseBytes;
/// Grouped: WithTensorMapUpdateInfo<PersistentTileSchedulerSm90Group::WorkTileInfo> = four
/// int32 + two uint16 = 20 B, alignment 4 (sm100_gemm_array_tma_warpspecialized.hpp:205-211;
/// sm90_tile_scheduler_group.hpp:66-70).
constexpr Bytes kGroupedResponseBytes = 20;
/// tensormaps[NumTensorMapUpdaterThreads/32 + 1] with 4 updater warps (array kernel L154, L278).
constexpr int kGroupedTensormapCopies = 5;

enum class Instr { Dense, Mxf8f6f4, Mxf4Nvf4 };

/// Everything the builders decide that the layout needs (the family's layout state).
struct Decision {
  bool block_scaled = false;
  Instr instr = Instr::Dense;
  bool two_sm = false;                 ///< the tiled MMA is 2SM (AtomThrID size 2)
  int a_bits = 0, b_bits = 0;          ///< smem allocation bits of A and B
  long long a_m = 0, b_n = 0;          ///< per-CTA BlockTileA_M and BlockTileB_N
  Bytes sfa_stage = 0, sfb_stage = 0;  ///< scale-factor bytes per stage (block-scaled)
  int acc_stages = 0;                  ///< AccumulatorPipelineStageCount
  int sched_stages = 0;                ///< SchedulerPipelineStageCount
  int tensormaps = 2;                  ///< mainloop TMA descriptors (2 dense, 4 block-scaled)
  Sm100Epilogue epi;
};

/// Smem allocation bits of a dense operand: sm1xx_kernel_input_element_to_mma_input_element maps
/// float to tf32 (32 bits) and every sub-byte MMA type is allocated as uint8_t
/// (sm100_umma_builder.inl:224-225; collective sm100_mma_warpspecialized.hpp:211-212).
int dense_alloc_bits(DType t) { return std::max(8, bits(t)); }

/// K of one UMMA instruction in elements: 256 bits of the MMA type; F8F6F4 operands (fp4/fp6
/// are unpacked to 8 bits) -> 32 (cute/atom/mma_traits_sm100.hpp).
int dense_instr_k(DType t) { return 256 / dense_alloc_bits(t); }

bool dense_type_ok(DType a, DType b) {
  // check_input_datatypes (sm100_umma_builder.inl:101-149).
  auto non_f8f6f4 = [](DType t) {
    return t == DType::TF32 || t == DType::F32 || t == DType::F16 || t == DType::BF16 ||
           t == DType::S8 || t == DType::U8;
  };
  if (is_f8f6f4(a) && is_f8f6f4(b)) return true;
  return non_f8f6f4(a) && a == b;
}

/// sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement (sm1xx_common.inl:203-364), dense (not
/// sparse): an unpacked fp4/fp6 operand needs TileK % 128 when K-major, else Tile M % 128 (A,
/// per CTA for 2SM) or Tile N % 128 (1SM) / % 256 (2SM) (B).
bool unpacked_f4f6_ok(const KernelConfig& cfg, bool a_unpacked, bool b_unpacked, bool two_sm) {
  const long long tile_m = two_sm ? cfg.m / 2 : cfg.m;
  const bool a_ok = !a_unpacked || (cfg.a_k_major ? cfg.k % 128 == 0 : tile_m % 128 == 0);
  const bool b_ok =
      !b_unpacked || (cfg.b_k_major ? cfg.k % 128 == 0 : cfg.n % (two_sm ? 256 : 128) == 0);
  return a_ok && b_ok;
}

/// The builders' decisions for `cfg`; rejections and notes go to `why`, and the CUTLASS
/// kernel and epilogue to `text` when explaining.
Decision decide_builders(const KernelConfig& cfg, Findings& why, KernelDescription& text) {
  std::string kernel;  // the kernel type's name
  Decision d;
  auto reject = [&](auto&& make) { why.reject(make); };

  // ---- schedule and operands -------------------------------------------------------------
  if (cfg.schedule != Schedule::Auto && cfg.schedule != Schedule::Sm1 &&
      cfg.schedule != Schedule::Sm2)
    reject([&] { return diag(Code::sm100_schedule).schedule("schedule", cfg.schedule); });
  if (cfg.warp) reject([] { return diag(Code::warp_tile_sm80_only); });
  if (cfg.swap_ab) reject([] { return diag(Code::swap_ab_sm120_moe_only); });
  for (int c : cfg.cluster)
    if (c < 1) reject([] { return diag(Code::cluster_extent_min); });
  if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0) {
    reject([] { return diag(Code::tile_extents_positive); });
    return d;
  }

  d.block_scaled = cfg.a.block_scaled() || cfg.b.block_scaled();
  const bool even_cluster_m = cfg.cluster[0] % 2 == 0;

  if (d.block_scaled) {
    // ---- block-scaled: sm100_blockscaled_umma_builder.inl + sm1xx_common.inl -------------
    d.tensormaps = 4;
    if (!cfg.a.block_scaled() || !cfg.b.block_scaled())
      reject([&] {
        return diag(Code::sm100_blockscaled_both_operands).operand("a", cfg.a).operand("b", cfg.b);
      });
    if (cfg.a.sf != cfg.b.sf) reject([] { return diag(Code::sm100_blockscaled_sf_type_mismatch); });
    if (cfg.a.sf_vec != cfg.b.sf_vec)
      reject([] { return diag(Code::sm100_blockscaled_sf_vec_mismatch); });
    const int vs = std::max(cfg.a.sf_vec, cfg.b.sf_vec);
    const int ab = bits(cfg.a.elem), bb = bits(cfg.b.elem);
    auto f468 = [](int x) { return x == 4 || x == 6 || x == 8; };
    if (!is_f8f6f4(cfg.a.elem) || !is_f8f6f4(cfg.b.elem) || !f468(ab) || !f468(bb))
      reject([] { return diag(Code::sm100_blockscaled_types); });

    // Instruction (select_instr, sm1xx_common.inl:731-800): an explicit Mxf8f6f4 / Nvf4-Mxf4
    // schedule decides; auto: 6-8 bit pairs and fp4 mixed with 6/8 bit -> MXF8F6F4; fp4 x fp4
    // with K-major A and B -> MXF4_NVF4, otherwise MXF8F6F4.
    if (cfg.mma == Mma::F8F6F4) {
      d.instr = Instr::Mxf8f6f4;
    } else if (cfg.mma == Mma::Nvf4) {
      d.instr = Instr::Mxf4Nvf4;
    } else if (ab == 4 && bb == 4) {
      d.instr = (cfg.a_k_major && cfg.b_k_major) ? Instr::Mxf4Nvf4 : Instr::Mxf8f6f4;
    } else {
      d.instr = Instr::Mxf8f6f4;
    }
    if (d.instr == Instr::Mxf8f6f4) {
      // MX_F4F6F8: ue8m0 SF, vector size 32 (sm1xx_common.inl:553-600, 623-636).
      if (cfg.a.sf != DType::UE8M0 || vs != 32)
        reject([] { return diag(Code::sm100_mxf8f6f4_scale_factors); });
    } else {
      if (ab != 4 || bb != 4) reject([] { return diag(Code::sm100_mxf4_fp4_only); });
      if (!cfg.a_k_major || !cfg.b_k_major) reject([] { return diag(Code::sm100_mxf4_k_major); });
      if (vs != 16 && vs != 32) reject([] { return diag(Code::sm100_mxf4_sf_vec); });
    }
    // 1SM/2SM (is_2sm, sm1xx_common.inl:692-726).
    if (cfg.schedule == Schedule::Sm2) {
      d.two_sm = true;
    } else if (cfg.schedule == Schedule::Sm1) {
      d.two_sm = false;
    } else if (even_cluster_m) {
      if (cfg.m != 256 && cfg.m != 128)
        reject([&] { return diag(Code::sm100_auto_even_cluster_tile_m).integer("tile_m", cfg.m); });
      d.two_sm = cfg.m == 256;
    }
    // Tiled MMA (sm100_common.inl:824-832, 885-893).
    if (d.two_sm ? cfg.m != 256 : cfg.m != 128)
      reject([&] {
        return diag(Code::sm100_blockscaled_tile_m)
            .flag("two_sm", d.two_sm)
            .integer("tile_m", cfg.m);
      });
    if (cfg.n != 64 && cfg.n != 128 && cfg.n != 192 && cfg.n != 256)
      reject([&] { return diag(Code::sm100_blockscaled_tile_n).integer("tile_n", cfg.n); });
    // Instruction K: 32 (MXF8F6F4) or 64 (MXF4/NVF4) (mma_traits_sm100.hpp:2547-2548, 3310-3311);
    // the collective asserts evenly_divides(TileShape, tile_shape(TiledMma))
    // (sm100_blockscaled_mma_warpspecialized.hpp:124; dense: sm100_mma_warpspecialized.hpp:119).
    const int instr_k = d.instr == Instr::Mxf8f6f4 ? 32 : 64;
    if (cfg.k % instr_k != 0)
      reject([&] {
        return diag(Code::sm100_blockscaled_instr_k)
            .integer("tile_k", cfg.k)
            .integer("instr_k", instr_k);
      });
    if (vs > 0 && cfg.k % (4LL * vs) != 0)
      reject([&] {
        return diag(Code::sm100_blockscaled_sf_k)
            .integer("tile_k", cfg.k)
            .integer("k_multiple", 4LL * vs);
      });

    // Smem element (sm100_blockscaled_umma_builder.inl:176-177): MXF8F6F4 -> uint8_t, MXF4/NVF4
    // -> the 4-bit MMA type (packed, array_subbyte).
    d.a_bits = d.instr == Instr::Mxf8f6f4 ? 8 : 4;
    d.b_bits = d.a_bits;
    if (d.instr == Instr::Mxf8f6f4 && !unpacked_f4f6_ok(cfg, ab < 8, bb < 8, d.two_sm))
      reject([&] { return diag(Code::sm100_unpacked_f4f6).flag("two_sm", d.two_sm); });

    // Scale factors per stage (Sm1xxBlockScaledConfig::deduce_smem_layoutSFA/SFB,
    // cutlass/detail/sm100_blockscaled_layout.hpp:119-183), with MMA_NSF·(4/MMA_NSF) = 4:
    //   SFA = ⌊MMA_M/128⌋ · 128 · 4 · ⌊⌊K/Vs⌋/4⌋,  MMA_M = M / (2SM ? 2 : 1)
    //   SFB = ⌈N/128⌉ · 128 · 4 · ⌊⌊K/Vs⌋/4⌋  over the full MMA N, also for 2SM (P17)
    if (vs > 0) {
      const long long k_blocks = (cfg.k / vs) / 4;
      const long long mma_m = cfg.m / (d.two_sm ? 2 : 1);
      d.sfa_stage = (mma_m / 128) * 128 * 4 * k_blocks;
      d.sfb_stage = ceil_div(cfg.n, 128) * 128 * 4 * k_blocks;
    }
    // AccumulatorPipelineStageCount = (MMA_N == 256) ? 1 : 2 (L241-242).
    d.acc_stages = cfg.n == 256 ? 1 : 2;
    if (why.keep()) {
      const char* variant = d.instr == Instr::Mxf8f6f4 ? "Mxf8f6f4" : (vs == 16 ? "Nvf4" : "Mxf4");
      kernel = std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized"
                                       : "KernelTmaWarpSpecialized") +
               (d.two_sm ? "2Sm" : "1Sm") + variant + "Sm100";
    }
  } else {
    // ---- dense: sm100_umma_builder.inl -----------------------------------------------------
    if (!dense_type_ok(cfg.a.elem, cfg.b.elem))
      reject([&] {
        return diag(Code::sm100_dense_types).dtype("a", cfg.a.elem).dtype("b", cfg.b.elem);
      });
    if (cfg.mma == Mma::Nvf4) reject([] { return diag(Code::mma_nvf4_is_block_scaled); });
    // Tiled MMA (sm100_common.inl:444-476): explicit 2SM / 1SM; auto -> 2SM when the static
    // cluster M is even and tile M % 128 == 0.
    bool builder_2sm = false;  // is_2sm of the builder (L208-212), used for the accumulator
    if (cfg.schedule == Schedule::Sm2) {
      d.two_sm = builder_2sm = true;
    } else if (cfg.schedule == Schedule::Sm1) {
      d.two_sm = builder_2sm = false;
    } else {
      builder_2sm = even_cluster_m;
      d.two_sm = even_cluster_m && cfg.m % 128 == 0;
    }
    const bool is_s8 = cfg.a.elem == DType::S8 || cfg.a.elem == DType::U8;
    if (d.two_sm) {
      // sm100_common.inl:372-379; N: SM100_MMA_*_2x1SM_SS (cute/arch/mma_sm100_umma.hpp:515,
      // 555: N % 16 in [16, 256]; S8 L1093: N % 32 in [32, 256]).
      if (cfg.m != 128 && cfg.m != 256)
        reject([&] { return diag(Code::sm100_2sm_tile_m).integer("tile_m", cfg.m); });
      const long long nq = is_s8 ? 32 : 16;
      if (cfg.n % nq != 0 || cfg.n < nq || cfg.n > 256)
        reject([&] {
          return diag(Code::sm100_2sm_tile_n).integer("tile_n", cfg.n).integer("n_multiple", nq);
        });
    } else {
      // sm100_common.inl:306-313; S8 1SM: N == 8 or N % 16 (mma_sm100_umma.hpp:972).
      if (cfg.m != 64 && cfg.m != 128)
        reject([&] { return diag(Code::sm100_1sm_tile_m).integer("tile_m", cfg.m); });
      const bool n_ok = is_s8 ? (cfg.n == 8 || (cfg.n % 16 == 0 && cfg.n >= 16 && cfg.n <= 256))
                              : (cfg.n % 8 == 0 && cfg.n <= 256);
      if (!n_ok) reject([&] { return diag(Code::sm100_1sm_tile_n).integer("tile_n", cfg.n); });
    }
    const int instr_k = dense_instr_k(cfg.a.elem);
    if (cfg.k % instr_k != 0)
      reject([&] {
        return diag(Code::sm100_instr_k)
            .integer("tile_k", cfg.k)
            .integer("instr_k", instr_k)
            .dtype("a", cfg.a.elem);
      });
    d.a_bits = dense_alloc_bits(cfg.a.elem);
    d.b_bits = dense_alloc_bits(cfg.b.elem);
    if (is_f8f6f4(cfg.a.elem) && is_f8f6f4(cfg.b.elem) &&
        !unpacked_f4f6_ok(cfg, bits(cfg.a.elem) < 8, bits(cfg.b.elem) < 8, d.two_sm))
      reject([&] { return diag(Code::sm100_unpacked_f4f6).flag("two_sm", d.two_sm); });

    // AccumulatorPipelineStageCount (L260-268):
    //   min(4, (is_2sm || MMA atom M > 64) ? 128·512 / (CtaM·CtaN) : (512 / CtaN)·2)
    const long long cta_m = d.two_sm ? cfg.m / 2 : cfg.m;
    const long long acc = cta_m <= 0                    ? 0
                          : (builder_2sm || cfg.m > 64) ? (128LL * 512) / (cta_m * cfg.n)
                                                        : (512 / cfg.n) * 2;
    d.acc_stages = static_cast<int>(std::min<long long>(4, acc));
    if (d.acc_stages <= 0) reject([] { return diag(Code::sm100_accumulator_stages); });
    if (why.keep())
      kernel = std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized"
                                       : "KernelTmaWarpSpecialized") +
               (d.two_sm ? "2Sm" : "1Sm") + "Sm100";
  }

  if (d.two_sm && !even_cluster_m)
    reject([&] { return diag(Code::sm100_2sm_cluster).integer("cluster_m", cfg.cluster[0]); });
  if (cfg.schedule == Schedule::Auto && cfg.grouped)
    why.note([&] { return diag(Code::sm100_grouped_auto_mainloop).name("kernel", kernel); });

  // Per-CTA smem tile (SmemTileShape = (BlockTileA_M, BlockTileB_N, K), L239-241, 295): the
  // 2SM atoms split A by M and B by N across the CTA pair (doc §5.1).
  d.a_m = d.two_sm ? cfg.m / 2 : cfg.m;
  d.b_n = d.two_sm ? cfg.n / 2 : cfg.n;
  // SchedulerPipelineStageCount: 8 for grouped (pointer strides), else 2 (L276-282; block-scaled
  // L243-247).
  d.sched_stages = cfg.grouped ? 8 : 2;

  d.epi = sm100_epilogue(cfg, Sm100EpilogueContext{d.two_sm, d.block_scaled}, why);
  d.epi.storage.seal();
  if (why.keep()) {
    text.add(KernelText::kernel).name("kernel", kernel);
    if (d.epi.decided) {
      text.add(KernelText::then_plus);
      sm100_epilogue_name(text, cfg, d.epi);
    }
  }
  return d;
}

/// Sm100DenseGemmTmaUmmaCarveout::KernelSmemCarveout (sm100_pipeline_carveout.inl:45-83),
/// NumCLC = ptr-array ? 2 : 1, T = 2 (dense) or 4 (block-scaled) descriptors:
///   16·Acc + 16·Sstg·NumCLC + 16 (load order) + 8 (TMEM dealloc) + 16·Sstg (CLC throttle)
///   + 16·Sstg·NumCLC (CLC responses) + 4·Sstg (TMEM base pointers)
///   + ptr-array: 128·T·5 (tensormaps) + 16·Sstg (tensormap-ready pipeline)
Bytes kernel_carveout(const Decision& d, bool ptr_array) {
  const Bytes sstg = d.sched_stages;
  const Bytes num_clc = ptr_array ? 2 : 1;
  Bytes c = 16 * d.acc_stages + 16 * sstg * num_clc + 16 + 8 + 16 * sstg +
            sstg * kClcResponseBytes * num_clc + 4 * sstg;
  if (ptr_array) c += kTmaDescriptorBytes * d.tensormaps * 5 + 16 * sstg;
  return c;
}

/// The builder's per-stage estimate:
///   dense (sm100_compute_stage_count_or_override, sm100_umma_builder.inl:84-99):
///     B(A, BlockTileA_M·K) + B(B, BlockTileB_N·K) + sizeof(PipelineTmaUmmaAsync<1>) (16)
///   block-scaled (sm100_blockscaled_umma_builder.inl:69-88):
///     B(A, …) + B(B, …) + ru(16, 128) + SFA + SFB
Bytes stage_bytes(const Decision& d, const KernelConfig& cfg) {
  const Bytes ab = bits_to_bytes(Bytes{d.a_bits} * d.a_m * cfg.k) +
                   bits_to_bytes(Bytes{d.b_bits} * d.b_n * cfg.k);
  if (!d.block_scaled) return ab + 16;
  return ab + 128 + d.sfa_stage + d.sfb_stage;
}

/// Mainloop TensorStorage : aligned_struct<128> { ArrayEngine A; ArrayEngine B; [ArrayEngine
/// SFA; ArrayEngine SFB] } — no alignas on the arrays; fp4 (MXF4/NVF4) A/B are sub-byte arrays
/// (alignment 1), everything else rounds to 16.
template <class F>
F mainloop_tensors(const Decision& d, const KernelConfig& cfg, int stages) {
  const F a = array_engine<F>(Component::A, Bytes{stages} * d.a_m * cfg.k, d.a_bits);
  const F b = array_engine<F>(Component::B, Bytes{stages} * d.b_n * cfg.k, d.b_bits);
  if (!d.block_scaled) return make_struct({a, b}, 128);
  return make_struct({a, b, array_aligned<F>(Component::SFA, stages * d.sfa_stage),
                      array_aligned<F>(Component::SFB, stages * d.sfb_stage)},
                     128);
}

/// Mainloop TensorMapStorage : aligned_struct<128> { TmaDescriptor × T } (T = 2 or 4).
template <class F>
F mainloop_tensormaps(const Decision& d) {
  return make_struct({leaf<F>(Component::Tensormaps, kTmaDescriptorBytes * d.tensormaps, 64)}, 128);
}

/// `n` copies of `f` (a C array of structs).
Field repeat(const Field& f, int count) {
  Field out = f;
  out.size = f.size * count;
  for (Bytes& p : out.parts) p *= count;
  return out;
}
Extent repeat(const Extent& f, int count) { return {f.size * count, f.align}; }

class Sm100Umma final : public LaidOutFamily<Sm100Umma, Decision> {
 public:
  std::string_view name() const override { return "sm100_umma"; }
  std::string_view description() const override {
    return "SM100 (B200) UMMA GEMM, 1SM/2SM, dense and block-scaled (nvfp4, mxfp4, mxfp8, "
           "mxf8f6f4), grouped; TMA / no-smem / blockscale_out epilogues";
  }
  bool runs_on(int sm) const override { return sm == 100 || sm == 101 || sm == 103 || sm == 110; }

  bool claims(const KernelConfig& cfg, int sm) const override {
    if (!runs_on(sm) || cfg.warp) return false;
    if (cfg.launcher != Launcher::None) return false;  // the engine families model those
    return cfg.schedule == Schedule::Auto || cfg.schedule == Schedule::Sm1 ||
           cfg.schedule == Schedule::Sm2;
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const override {
    return diag(Code::claim_sm100_umma)
        .arch("arch", sm)
        .flag("block_scaled", cfg.a.block_scaled() || cfg.b.block_scaled());
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    const Decision d = decide_builders(cfg, why, p.kernel);
    p.overflow = Overflow::CompileStaticAssert;  // sm100_gemm_tma_warpspecialized.hpp:410
    p.rule.capacity_constant = kSm100SmemCapacity;
    // Only the dense collective asserts Stages >= 2 (sm100_mma_warpspecialized.hpp:191; array
    // L194); the block-scaled collectives accept 1.
    p.min_stages = d.block_scaled ? 1 : 2;
    if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0 || cfg.d == DType::Void || d.a_m <= 0 ||
        d.b_n <= 0 || (d.epi.storage.kind == EpilogueStorage::Kind::Tma && d.epi.epi_tiles == 0)) {
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }
    // ReducedSmemCapacityBytes = 232448 − KernelSmemCarveout (sm100_common.inl:998-1001).
    p.rule.builder_capacity = kSm100SmemCapacity - kernel_carveout(d, cfg.grouped);
    // StageCountAutoCarveout<sizeof(CollectiveEpilogue::SharedStorage)>, used as is (P2).
    p.rule.carveout = d.epi.storage.shared<Extent>().size;
    p.rule.stage_bytes = stage_bytes(d, cfg);
    // (Capacity − carveout) / stage_bytes, then static_assert(PipelineStages > 0) (dense L300,
    // block-scaled L265).
    p.choose_stages(cfg.stages);
    if (cfg.arch == 103 || cfg.arch == 101 || cfg.arch == 110)
      why.note([&] { return diag(Code::sm100_family_modelled_as_sm100).arch("arch", cfg.arch); });
    p.unbudgeted = cfg.grouped ? "sm100_grouped" : "sm100";
    p.epilogue_tile = d.epi.storage.staged_tile();
    finish(p, d, std::move(why));
    return p;
  }

  template <class F>
  static BasicStorage<F> assemble(const KernelConfig& cfg, const Decision& d, int stages) {
    const EpilogueStorage& e = d.epi.storage;
    const F main_t = mainloop_tensors<F>(d, cfg, stages);
    const F main_pipe = pipeline_barriers<F>(Component::MainloopBarriers, stages);
    const F epi_t = e.tensors<F>();
    const F epi_pipe = e.pipeline<F>();
    const Bytes sstg = d.sched_stages;

    // Kernel pipelines : aligned_struct<16> (sm100_gemm_tma_warpspecialized.hpp:182-199;
    // array kernel L221-255), every member alignas(16):
    //   mainloop PipelineTmaUmmaAsync<S> 16·S; epi_load PipelineTransactionAsync<SC> 16·SC (2 B
    //   for SC = 0); load_order OrderedSequenceBarrier<1,2> 16; clc PipelineCLCFetchAsync<Sstg>
    //   16·Sstg (grouped: PipelineAsync<8>, 128); accumulator PipelineUmmaAsync<Acc> 16·Acc;
    //   clc_throttle PipelineAsync<Sstg> 16·Sstg (grouped: PipelineEmpty, 1 B);
    //   tmem_dealloc ClusterBarrier 8; grouped: tensor_map_ready PipelineAsync<8> 128.
    const F load_order = with_align(leaf<F>(Component::KernelBarriers, 16, 8), 16);
    const F clc = with_align(leaf<F>(Component::Scheduler, 16 * sstg, 8), 16);
    const F accumulator = with_align(leaf<F>(Component::KernelBarriers, 16 * d.acc_stages, 8), 16);
    const F tmem_dealloc = with_align(leaf<F>(Component::KernelBarriers, 8, 8), 16);
    const F tmem_ptr = leaf<F>(Component::TmemPointer, 4, 4);  // uint32_t tmem_base_ptr
    // TensorStorage : aligned_struct<128> { epilogue; mainloop; } — epilogue FIRST (P14).
    const F tensors = make_struct({epi_t, main_t}, 128);

    BasicStorage<F> st;
    if (!cfg.grouped) {
      // The shared shell (sm100_kernel.hpp): pipelines, clc_response[Sstg], tmem_base_ptr, tensors.
      Sm100KernelParts<F> parts;
      parts.mainloop_tensors = main_t;
      parts.mainloop_pipeline = main_pipe;
      parts.epilogue_tensors = epi_t;
      parts.epilogue_pipeline = epi_pipe;
      parts.acc_stages = d.acc_stages;
      parts.sched_stages = d.sched_stages;
      st.kernel = sm100_kernel_storage(parts);
      st.mainloop_shared = make_struct({main_t, main_pipe}).size;
    } else {
      // Grouped (pointer StrideB): PersistentTileSchedulerSm100Group, not dynamic-persistent,
      // so IsTensorMapUpdateAsync (array kernel L132-140, L180-195).
      const F pipelines = make_struct(
          {with_align(main_pipe, 16), with_align(epi_pipe, 16), load_order, clc, accumulator,
           with_align(empty_member<F>(Component::Scheduler), 16), tmem_dealloc,
           with_align(leaf<F>(Component::KernelBarriers, 16 * sstg, 8), 16)},
          16);
      // alignas(16) clc_response[2][Sstg] of WithTensorMapUpdateInfo<WorkTileInfo> (20 B).
      const F responses =
          with_align(leaf<F>(Component::Scheduler, 2 * sstg * kGroupedResponseBytes, 4), 16);
      // TensorMapStorage : aligned_struct<128> { alignas(128) epilogue; alignas(128) mainloop; }
      // tensormaps[5] (sm100_gemm_array_tma_warpspecialized.hpp:280-285).
      const F one_copy = make_struct(
          {with_align(e.tensormaps<F>(), 128), with_align(mainloop_tensormaps<F>(d), 128)}, 128);
      st.kernel = make_struct(
          {pipelines, responses, tmem_ptr, repeat(one_copy, kGroupedTensormapCopies), tensors});
      // Array mainloop SharedStorage { tensors; TensorMapStorage tensormaps; pipeline; }.
      st.mainloop_shared = make_struct({main_t, mainloop_tensormaps<F>(d), main_pipe}).size;
    }
    st.epilogue_shared = e.shared<F>().size;
    return st;
  }
};

}  // namespace

const KernelFamily& sm100_umma_family() { return the_family<Sm100Umma>(); }

}  // namespace tilefit::model
