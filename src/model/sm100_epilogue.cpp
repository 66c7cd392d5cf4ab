#include "sm100_epilogue.hpp"

#include <algorithm>

namespace tilefit::model {
namespace {

/// Bits of a C/D element as the SM100 epilogue holds it in shared memory:
/// get_unpacked_element_type maps fp6 (e2m3, e3m2) to an 8-bit container, everything else
/// (fp4 included) stays as is (cutlass/float_subbyte.h:389-399).
int smem_bits(DType t) {
  const int b = bits(t);
  return b == 6 ? 8 : b;
}

/// alignment_for_swizzle (cutlass/detail/layout.hpp:420-433) of the atom sm100_smem_selector
/// picks (gemm/collective/builders/sm100_common.inl:79-133), or 0 (with the reason in `why`)
/// when it static_asserts.
///   K-major (row-major C/D, N contiguous): the widest of SW128/SW64/SW32/INTER whose width
///     (1024/512/256/128 bits) in elements divides `k_extent` -> 1024/512/256/128 B;
///   MN-major (column-major C/D, M contiguous): 4-byte elements always take MN_SW128_32B
///     (Swizzle<2,5,2>, 32 elements wide: 512 B, cute/atom/mma_traits_sm100.hpp:73-76); others
///     as above on `mn_extent`.
///   static_assert(BLK_MN0 % 8 == 0 && BLK_K0 % 8 == 0) (sm100_common.inl:86-87).
Bytes sm100_swizzle_alignment(bool mn_major, int elem_bits, long long mn_extent, long long k_extent,
                              Findings& why) {
  if (mn_extent % 8 != 0 || k_extent % 8 != 0) {
    why.reject([&] {
      return diag(Code::sm100_epilogue_atom_extents)
          .integer("mn_extent", mn_extent)
          .integer("k_extent", k_extent);
    });
    return 0;
  }
  const long long extent = mn_major ? mn_extent : k_extent;
  if (mn_major && elem_bits == 32) {
    if (extent % 32 != 0) {
      why.reject([&] {
        return diag(Code::sm100_epilogue_column_major_32bit).integer("epilogue_m", extent);
      });
      return 0;
    }
    return 512;
  }
  constexpr struct {
    int width_bits;
    Bytes align;
  } kAtoms[] = {{1024, 1024}, {512, 512}, {256, 256}, {128, 128}};
  for (const auto& atom : kAtoms) {
    const int elems = atom.width_bits / elem_bits;
    if (elems > 0 && extent % elems == 0) return atom.align;
  }
  why.reject([&] {
    return diag(Code::sm100_epilogue_no_swizzle_atom)
        .integer("extent", extent)
        .integer("bits", elem_bits);
  });
  return 0;
}

}  // namespace

Sm100Epilogue sm100_epilogue(const KernelConfig& cfg, const Sm100EpilogueContext& ctx,
                             Findings& why) {
  Sm100Epilogue e;
  EpilogueStorage& s = e.storage;
  const EpilogueSpec& spec = cfg.epilogue;
  s.ptr_array = cfg.grouped;
  s.descriptors = 2;  // C and D (sm100_epilogue_array_tma_warpspecialized.hpp:218-221)
  bool nosmem = false;

  switch (spec.variant) {
    case EpilogueVariant::Auto: {
      // EpilogueScheduleAuto (sm100_builder.inl:1698-1715).
      const bool even_cluster_m = cfg.cluster[0] % 2 == 0;
      e.two_sm =
          even_cluster_m && (ctx.block_scaled ? cfg.m == 256 : (cfg.m == 256 || cfg.m == 128));
      if (e.two_sm != ctx.mainloop_two_sm)
        why.note([&] {
          return diag(Code::sm100_auto_epilogue_mismatch)
              .flag("epilogue_2sm", e.two_sm)
              .integer("cluster_m", cfg.cluster[0])
              .integer("tile_m", cfg.m)
              .flag("mainloop_2sm", ctx.mainloop_two_sm);
        });
      if (cfg.grouped) why.note([] { return diag(Code::sm100_grouped_auto_epilogue); });
      break;
    }
    case EpilogueVariant::Tma:
    case EpilogueVariant::BlockScaleOut:
      e.two_sm = ctx.mainloop_two_sm;
      break;
    case EpilogueVariant::NoSmem:
      e.two_sm = ctx.mainloop_two_sm;
      nosmem = true;
      break;
    case EpilogueVariant::TrtllmDefault:
    case EpilogueVariant::Finalize:
      why.reject(
          [&] { return diag(Code::sm100_trtllm_epilogue).epilogue("epilogue", spec.variant); });
      return e;
  }
  e.blockscale_out = spec.variant == EpilogueVariant::BlockScaleOut;

  // static_assert(not (Is2SmMma && size<0>(ClusterShape_MNK{}) % 2 == 1), "schedule + cluster
  // mismatch") (sm100_builder.inl:1174, 1495).
  if (e.two_sm && cfg.cluster[0] % 2 != 0)
    why.reject([&] {
      return diag(Code::sm100_epilogue_2sm_cluster).integer("cluster_m", cfg.cluster[0]);
    });
  if (cfg.d == DType::Void) {
    why.reject([] { return diag(Code::sm100_void_d); });
    return e;
  }

  // Per-CTA tile and TMEM warps (sm100_builder.inl:1069-1096, 1199-1210).
  e.cta_m = e.two_sm ? cfg.m / 2 : cfg.m;
  e.cta_n = cfg.n;
  if (e.two_sm && cfg.m == 128) {
    e.warp_m = 2;
    e.warp_n = 2;
  }
  if (e.cta_m <= 0 || e.cta_n <= 0) {
    why.reject([&] {
      return diag(Code::sm100_epilogue_empty_cta_tile)
          .integer("cta_m", e.cta_m)
          .integer("cta_n", e.cta_n);
    });
    return e;
  }
  const bool void_c = cfg.c == DType::Void;
  s.c_bits = void_c ? 0 : smem_bits(cfg.c);
  s.d_bits = smem_bits(cfg.d);

  if (nosmem) {
    // static_assert(sizeof_bits_v<ElementD> != 6, "Output element requires TMA") (L1478).
    if (bits(cfg.d) == 6) why.reject([] { return diag(Code::sm100_nosmem_fp6); });
    // Legacy thread::LinearCombination path for ptr-array no-smem with the default fusion on a
    // non-block-scaled op class (sm100_builder.inl:1556-1565): empty SharedStorage.
    s.kind = s.ptr_array && !ctx.block_scaled ? EpilogueStorage::Kind::NoSmemSm100Legacy
                                              : EpilogueStorage::Kind::NoSmemSm100;
    s.epi_m = e.cta_m;
    s.epi_n = std::min<long long>(64, e.cta_n);  // L1530-1532
    e.decided = true;
    return e;
  }

  // ---- epilogue tile -------------------------------------------------------------------
  const int bits_c_gmem = void_c ? bits(cfg.d) : bits(cfg.c);  // void C: ElementC = ElementD
  const int bits_d_gmem = bits(cfg.d);
  const bool m_major = !cfg.cd_row_major;
  long long contig_m = 0, contig_n = 0;  // TMA-contiguous extents of the tile
  if (spec.tile) {
    // Explicit EpilogueTile: static_assert(N % 8 == 0, "Unsupported tile shape") (L1063).
    s.epi_m = (*spec.tile)[0];
    s.epi_n = (*spec.tile)[1];
    contig_m = s.epi_m;
    contig_n = s.epi_n;
    if (s.epi_n % 8 != 0)
      why.reject([&] {
        return diag(Code::sm100_epilogue_tile_n_multiple_of_8).integer("epilogue_n", s.epi_n);
      });
    if (spec.variant == EpilogueVariant::Auto)
      why.reject([] { return diag(Code::sm100_epilogue_tile_with_auto); });
  } else if (ctx.block_scaled && e.cta_n == 256) {
    // Block-scaled op class with CtaN == 256 (L987-998): (min(CtaM, 32·WarpM), 128).
    s.epi_m = std::min<long long>(e.cta_m, 32LL * e.warp_m);
    s.epi_n = 128;
    contig_m = s.epi_m;
    contig_n = 128;
  } else {
    // L999-1055.
    const int max_bits = std::max(bits_c_gmem, bits_d_gmem);
    s.epi_m = std::min<long long>(e.cta_m, 32LL * e.warp_m);
    long long n_perf = 0;
    if (void_c) {
      n_perf = (max_bits == 4 ? 8192 : 4096) / s.epi_m;
    } else if (max_bits == 32) {
      n_perf = (e.cta_m > 64 && e.cta_n <= 128) ? 16 : 32;
    } else if (max_bits == 16) {
      n_perf = e.cta_n <= 128 ? 32 : 64;
    } else {
      n_perf = 64;
    }
    auto n_min = [&](bool is_void, int b) -> long long {
      if (is_void || m_major) return 8LL * e.warp_n;
      if (b == 6) return 128LL * e.warp_n;  // TMA store only supports SW128B for FP6
      return 128LL / b * e.warp_n;
    };
    const long long n_min_c = n_min(void_c, bits_c_gmem);
    const long long n_min_d = n_min(false, bits_d_gmem);
    if (e.cta_n < n_min_c || e.cta_n < n_min_d)
      why.reject([&] {
        return diag(Code::sm100_epilogue_cta_n_min)
            .integer("cta_n", e.cta_n)
            .integer("min_n", std::max(n_min_c, n_min_d));
      });
    const long long n_tmp = std::min(e.cta_n, std::max({n_perf, n_min_c, n_min_d}));
    s.epi_n = (n_tmp > 0 && e.cta_n % n_tmp == 0) ? n_tmp : e.cta_n;
    // tile_n = Layout<Shape<N/WarpN, WarpN>, Stride<1, CtaN/WarpN>> (L1051-1052): contiguous
    // along N for its whole length only when N == CtaN (the two modes then coalesce).
    contig_m = s.epi_m;
    contig_n = (e.warp_n == 1 || s.epi_n == e.cta_n) ? s.epi_n : s.epi_n / e.warp_n;
  }
  if (s.epi_m <= 0 || s.epi_n <= 0 || e.cta_m % s.epi_m != 0 || e.cta_n % s.epi_n != 0) {
    why.reject([&] {
      return diag(Code::sm100_epilogue_tile_divides)
          .integer("epilogue_m", s.epi_m)
          .integer("epilogue_n", s.epi_n)
          .integer("cta_m", e.cta_m)
          .integer("cta_n", e.cta_n);
    });
    return e;
  }
  e.epi_tiles = static_cast<int>((e.cta_m / s.epi_m) * (e.cta_n / s.epi_n));

  // ---- stages (sm100_dense_dispatch_policy, L1106-1115) ---------------------------------
  s.reuse_smem_c = bits(cfg.c) > 8;
  s.stages_d = std::min(e.epi_tiles, 2);
  s.stages_c = s.reuse_smem_c ? std::max(std::min(e.epi_tiles, 4), s.stages_d + 1)
                              : std::min(e.epi_tiles, 4);
  if (spec.stages_c) s.stages_c = *spec.stages_c;
  if (spec.stages_d) s.stages_d = *spec.stages_d;
  // static_assert(StagesC >= 1), (StagesD >= 1) (sm100_epilogue_tma_warpspecialized.hpp:139-140).
  if (s.stages_c < 1 || s.stages_d < 1) {
    why.reject([&] {
      return diag(Code::sm100_epilogue_stages_min)
          .integer("stages_c", s.stages_c)
          .integer("stages_d", s.stages_d);
    });
    return e;
  }
  if (s.reuse_smem_c) {
    // support_smem_reuse (sm100_epilogue_tma_warpspecialized.hpp:165-168): C present,
    // StagesD <= StagesC, MaxStageBits divisible by both element widths.
    const long long max_stage_bits = s.epi_m * s.epi_n * std::max(s.c_bits, s.d_bits);
    if (s.stages_d > s.stages_c || max_stage_bits % s.c_bits != 0 || max_stage_bits % s.d_bits != 0)
      why.reject([&] {
        return diag(Code::sm100_reuse_smem_c)
            .integer("stages_d", s.stages_d)
            .integer("stages_c", s.stages_c);
      });
  }

  // ---- swizzle atoms ---------------------------------------------------------------------
  const int c_atom_bits = void_c ? s.d_bits : s.c_bits;  // void C: the D type stands in
  s.align_c = sm100_swizzle_alignment(m_major, c_atom_bits, contig_m, contig_n, why);
  s.align_d = sm100_swizzle_alignment(m_major, s.d_bits, contig_m, contig_n, why);
  if (s.align_c == 0) s.align_c = 128;
  if (s.align_d == 0) s.align_d = 128;

  // ---- block-scale-factor output (LinCombBlockScaleFactor, row-major SF) -------------------
  if (e.blockscale_out) {
    const int vs = spec.sf_vec;
    if (vs != 16 && vs != 32) {
      why.reject([&] { return diag(Code::sm100_blockscale_out_sf_vec).integer("sf_vec", vs); });
    } else if (s.epi_n % vs != 0 ||
               (s.epi_n / vs != 1 && s.epi_n / vs != 2 && s.epi_n / vs != 4 && s.epi_n / vs != 8)) {
      // Sm100BlockScaleFactorRowStore (fusion/sm100_visitor_store_tma_warpspecialized.hpp:111-116).
      why.reject([&] {
        return diag(Code::sm100_blockscale_out_tile_n)
            .integer("epilogue_n", s.epi_n)
            .integer("sf_vec", vs);
      });
    }
    if (spec.sf != DType::UE4M3 && spec.sf != DType::UE8M0)
      why.reject([] { return diag(Code::sm100_blockscale_out_sf_type); });
  }
  // FusionStorage: LinearCombination and the row-major Sm100BlockScaleFactorRowStore
  // (fusion/sm100_visitor_store_tma_warpspecialized.hpp:118) are empty: 1 byte (P3), the default.
  e.decided = true;
  return e;
}

void sm100_epilogue_name(KernelDescription& k, const KernelConfig& cfg, const Sm100Epilogue& e) {
  const EpilogueStorage& s = e.storage;
  const char* sm = e.two_sm ? "2Sm" : "1Sm";
  const bool nosmem = s.kind != EpilogueStorage::Kind::Tma;
  const std::string schedule =
      nosmem
          ? std::string(s.ptr_array ? "PtrArrayNoSmemWarpSpecialized" : "NoSmemWarpSpecialized") +
                sm
          : std::string(s.ptr_array ? "PtrArrayTmaWarpSpecialized" : "TmaWarpSpecialized") + sm;
  if (nosmem) {
    k.add(s.kind == EpilogueStorage::Kind::NoSmemSm100Legacy
              ? KernelText::sm100_nosmem_epilogue_legacy
              : KernelText::sm100_nosmem_epilogue)
        .name("schedule", schedule);
    return;
  }
  const bool void_c = cfg.c == DType::Void;
  k.add(KernelText::sm100_tma_epilogue)
      .name("schedule", schedule)
      .integer("epi_m", s.epi_m)
      .integer("epi_n", s.epi_n)
      .integer("stages_c", s.stages_c)
      .integer("stages_d", s.stages_d);
  if (s.reuse_smem_c) k.add(KernelText::sm100_reuse_smem_c);
  k.add(KernelText::sm100_swizzle_align)
      .bytes("align", std::max(void_c ? Bytes{0} : s.align_c, s.align_d));
  if (e.blockscale_out)
    k.add(KernelText::sm100_blockscale_out).integer("sf_vec", cfg.epilogue.sf_vec);
}

}  // namespace tilefit::model
