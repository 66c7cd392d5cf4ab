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
/// picks (gemm/collective/builders/sm100_common.inl:79-133), or 0 with `*why` set (when `why`
/// is not null) when it static_asserts.
///   K-major (row-major C/D, N contiguous): the widest of SW128/SW64/SW32/INTER whose width
///     (1024/512/256/128 bits) in elements divides `k_extent` -> 1024/512/256/128 B;
///   MN-major (column-major C/D, M contiguous): 4-byte elements always take MN_SW128_32B
///     (Swizzle<2,5,2>, 32 elements wide: 512 B, cute/atom/mma_traits_sm100.hpp:73-76); others
///     as above on `mn_extent`.
///   static_assert(BLK_MN0 % 8 == 0 && BLK_K0 % 8 == 0) (sm100_common.inl:86-87).
Bytes sm100_swizzle_alignment(bool mn_major, int elem_bits, long long mn_extent,
                              long long k_extent, std::string* why) {
  if (mn_extent % 8 != 0 || k_extent % 8 != 0) {
    if (why)
      *why = "epilogue smem atom: the TMA-contiguous tile extents " + std::to_string(mn_extent) +
             " x " + std::to_string(k_extent) +
             " must be multiples of 8 (static_assert \"BLK_MN0/BLK_K0 must be a multiple of 8.\", "
             "gemm/collective/builders/sm100_common.inl:86-87)";
    return 0;
  }
  const long long extent = mn_major ? mn_extent : k_extent;
  if (mn_major && elem_bits == 32) {
    if (extent % 32 != 0) {
      if (why)
        *why = "epilogue smem atom: a column-major 32-bit C/D needs the epilogue tile M (" +
               std::to_string(extent) + ") to be a multiple of 32 (SW128_32B is the only "
               "MN-major atom for 4-byte elements, sm100_common.inl:91-93)";
      return 0;
    }
    return 512;
  }
  constexpr struct { int width_bits; Bytes align; } kAtoms[] = {
      {1024, 1024}, {512, 512}, {256, 256}, {128, 128}};
  for (const auto& atom : kAtoms) {
    const int elems = atom.width_bits / elem_bits;
    if (elems > 0 && extent % elems == 0) return atom.align;
  }
  if (why)
    *why = "epilogue smem atom: no UMMA swizzle atom divides the contiguous extent " +
           std::to_string(extent) + " of " + std::to_string(elem_bits) +
           "-bit elements (static_assert in sm100_smem_selector, sm100_common.inl:109-131)";
  return 0;
}

std::string n(long long x) { return std::to_string(x); }

}  // namespace

Sm100Epilogue sm100_epilogue(const KernelConfig& cfg, const Sm100EpilogueContext& ctx,
                             bool explain) {
  Sm100Epilogue e;
  // Reasons and notes: `text` builds the string only when explaining.
  auto reject = [&](auto&& text) {
    if (explain) e.invalid.push_back(text());
  };
  auto note = [&](auto&& text) {
    if (explain) e.notes.push_back(text());
  };
  const EpilogueSpec& spec = cfg.epilogue;
  e.ptr_array = cfg.grouped;

  switch (spec.variant) {
    case EpilogueVariant::Auto: {
      // EpilogueScheduleAuto (sm100_builder.inl:1698-1715).
      const bool even_cluster_m = cfg.cluster[0] % 2 == 0;
      e.two_sm = even_cluster_m && (ctx.block_scaled ? cfg.m == 256 : (cfg.m == 256 || cfg.m == 128));
      e.kind = Sm100Epilogue::Kind::Tma;
      if (e.two_sm != ctx.mainloop_two_sm)
        note([&] { return std::string("EpilogueScheduleAuto picks TmaWarpSpecialized") +
                          (e.two_sm ? "2Sm" : "1Sm") + " (cluster M " + n(cfg.cluster[0]) +
                          ", MMA M " + n(cfg.m) + ", sm100_builder.inl:1698-1715) while the "
                          "mainloop is " + (ctx.mainloop_two_sm ? "2SM" : "1SM") +
                          "; pass epilogue \"tma\" to pair the matching epilogue"; });
      if (cfg.grouped)
        note([&] { return "grouped: EpilogueScheduleAuto would give the non-ptr-array "
                          "TmaWarpSpecialized epilogue, which has no TensorMapStorage for the "
                          "ptr-array kernel; modelled as PtrArrayTmaWarpSpecialized"; });
      break;
    }
    case EpilogueVariant::Tma:
    case EpilogueVariant::BlockScaleOut:
      e.two_sm = ctx.mainloop_two_sm;
      e.kind = Sm100Epilogue::Kind::Tma;
      break;
    case EpilogueVariant::NoSmem:
      e.two_sm = ctx.mainloop_two_sm;
      e.kind = Sm100Epilogue::Kind::NoSmem;
      break;
    case EpilogueVariant::TrtllmDefault:
    case EpilogueVariant::Finalize:
      reject([&] { return "epilogue \"" + std::string(epilogue_name(spec.variant)) +
                          "\" is a TensorRT-LLM SM120 MoE epilogue; SM100 UMMA kernels take "
                          "auto, tma, nosmem or blockscale_out"; });
      return e;
  }
  e.blockscale_out = spec.variant == EpilogueVariant::BlockScaleOut;

  if (explain) {
    const char* sm = e.two_sm ? "2Sm" : "1Sm";
    if (e.kind == Sm100Epilogue::Kind::NoSmem)
      e.schedule = std::string(e.ptr_array ? "PtrArrayNoSmemWarpSpecialized"
                                           : "NoSmemWarpSpecialized") + sm;
    else
      e.schedule =
          std::string(e.ptr_array ? "PtrArrayTmaWarpSpecialized" : "TmaWarpSpecialized") + sm;
  }

  // static_assert(not (Is2SmMma && size<0>(ClusterShape_MNK{}) % 2 == 1), "schedule + cluster
  // mismatch") (sm100_builder.inl:1174, 1495).
  if (e.two_sm && cfg.cluster[0] % 2 != 0)
    reject([&] {
      return "2SM epilogue with cluster M = " + n(cfg.cluster[0]) +
             ": static_assert \"schedule + cluster mismatch\" (sm100_builder.inl:1174)";
    });
  if (cfg.d == DType::Void) {
    reject([&] { return "D = void (no output tensor) is not modelled for SM100 epilogues"; });
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
    reject([&] { return "the per-CTA tile " + n(e.cta_m) + "x" + n(e.cta_n) + " is empty"; });
    return e;
  }
  const bool void_c = cfg.c == DType::Void;
  e.c_bits = void_c ? 0 : smem_bits(cfg.c);
  e.d_bits = smem_bits(cfg.d);

  if (e.kind == Sm100Epilogue::Kind::NoSmem) {
    // static_assert(sizeof_bits_v<ElementD> != 6, "Output element requires TMA") (L1478).
    if (bits(cfg.d) == 6)
      reject([&] { return "no-smem epilogue with an fp6 D: static_assert \"Output element "
                          "requires TMA\" (sm100_builder.inl:1478)"; });
    // Legacy thread::LinearCombination path for ptr-array no-smem with the default fusion on a
    // non-block-scaled op class (sm100_builder.inl:1556-1565): empty SharedStorage.
    e.nosmem_legacy = e.ptr_array && !ctx.block_scaled;
    e.epi_m = e.cta_m;
    e.epi_n = std::min<long long>(64, e.cta_n);  // L1530-1532
    if (explain)
      e.description = e.schedule + " (no shared-memory epilogue: " +
                      (e.nosmem_legacy ? "empty SharedStorage, 1 B" : "fusion 1 B + empty "
                                                                      "array_aligned 16 B = 32 B") +
                      ")";
    return e;
  }

  // ---- epilogue tile -------------------------------------------------------------------
  const int bits_c_gmem = void_c ? bits(cfg.d) : bits(cfg.c);  // void C: ElementC = ElementD
  const int bits_d_gmem = bits(cfg.d);
  const bool m_major = !cfg.cd_row_major;
  if (spec.tile) {
    // Explicit EpilogueTile: static_assert(N % 8 == 0, "Unsupported tile shape") (L1063).
    e.epi_m = (*spec.tile)[0];
    e.epi_n = (*spec.tile)[1];
    e.contig_m = e.epi_m;
    e.contig_n = e.epi_n;
    if (e.epi_n % 8 != 0)
      reject([&] { return "epilogue tile N = " + n(e.epi_n) + " is not a multiple of 8: "
                          "static_assert \"Unsupported tile shape\" (sm100_builder.inl:1063)"; });
    if (spec.variant == EpilogueVariant::Auto)
      reject([&] { return "an explicit epilogue tile with the auto epilogue schedule: "
                          "static_assert \"Don't specify epilogue tile with auto schedule\" "
                          "(sm100_builder.inl:1718)"; });
  } else if (ctx.block_scaled && e.cta_n == 256) {
    // Block-scaled op class with CtaN == 256 (L987-998): (min(CtaM, 32·WarpM), 128).
    e.epi_m = std::min<long long>(e.cta_m, 32LL * e.warp_m);
    e.epi_n = 128;
    e.contig_m = e.epi_m;
    e.contig_n = 128;
  } else {
    // L999-1055.
    const int max_bits = std::max(bits_c_gmem, bits_d_gmem);
    e.epi_m = std::min<long long>(e.cta_m, 32LL * e.warp_m);
    long long n_perf = 0;
    if (void_c) {
      n_perf = (max_bits == 4 ? 8192 : 4096) / e.epi_m;
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
      reject([&] { return "CTA tile N = " + n(e.cta_n) + " is below the epilogue's minimum N (" +
                          n(std::max(n_min_c, n_min_d)) + "): static_assert \"CTA tile too "
                          "small\" (sm100_builder.inl:1047)"; });
    const long long n_tmp = std::min(e.cta_n, std::max({n_perf, n_min_c, n_min_d}));
    e.epi_n = (n_tmp > 0 && e.cta_n % n_tmp == 0) ? n_tmp : e.cta_n;
    // tile_n = Layout<Shape<N/WarpN, WarpN>, Stride<1, CtaN/WarpN>> (L1051-1052): contiguous
    // along N for its whole length only when N == CtaN (the two modes then coalesce).
    e.contig_m = e.epi_m;
    e.contig_n = (e.warp_n == 1 || e.epi_n == e.cta_n) ? e.epi_n : e.epi_n / e.warp_n;
  }
  if (e.epi_m <= 0 || e.epi_n <= 0 || e.cta_m % e.epi_m != 0 || e.cta_n % e.epi_n != 0) {
    reject([&] { return "epilogue tile " + n(e.epi_m) + "x" + n(e.epi_n) +
                        " does not divide the CTA tile " + n(e.cta_m) + "x" + n(e.cta_n) +
                        " (shape_div in sm100_builder.inl:1254)"; });
    return e;
  }
  e.epi_tiles = static_cast<int>((e.cta_m / e.epi_m) * (e.cta_n / e.epi_n));

  // ---- stages (sm100_dense_dispatch_policy, L1106-1115) ---------------------------------
  e.reuse_smem_c = bits(cfg.c) > 8;
  e.stages_d = std::min(e.epi_tiles, 2);
  e.stages_c = e.reuse_smem_c ? std::max(std::min(e.epi_tiles, 4), e.stages_d + 1)
                              : std::min(e.epi_tiles, 4);
  if (spec.stages_c) e.stages_c = *spec.stages_c;
  if (spec.stages_d) e.stages_d = *spec.stages_d;
  // static_assert(StagesC >= 1), (StagesD >= 1) (sm100_epilogue_tma_warpspecialized.hpp:139-140).
  if (e.stages_c < 1 || e.stages_d < 1) {
    reject([&] { return "epilogue StagesC = " + n(e.stages_c) + ", StagesD = " + n(e.stages_d) +
                        ": static_assert \"StagesC/StagesD must be >= 1\" "
                        "(sm100_epilogue_tma_warpspecialized.hpp:139-140)"; });
    return e;
  }
  const long long stage_elems = e.epi_m * e.epi_n;
  if (e.reuse_smem_c) {
    // support_smem_reuse (L165-168): C present, StagesD <= StagesC, MaxStageBits divisible
    // by both element widths.
    const long long max_stage_bits = stage_elems * std::max(e.c_bits, e.d_bits);
    if (e.stages_d > e.stages_c || max_stage_bits % e.c_bits != 0 || max_stage_bits % e.d_bits != 0)
      reject([&] { return "ReuseSmemC with StagesD " + n(e.stages_d) + " > StagesC " +
                          n(e.stages_c) + ": static_assert \"Smem reuse requirements not met\" "
                          "(sm100_epilogue_tma_warpspecialized.hpp:165-168)"; });
  }

  // ---- swizzle atoms ---------------------------------------------------------------------
  std::string why;
  std::string* const why_out = explain ? &why : nullptr;
  const int c_atom_bits = void_c ? e.d_bits : e.c_bits;  // void C: the D type stands in
  e.align_c = sm100_swizzle_alignment(m_major, c_atom_bits, e.contig_m, e.contig_n, why_out);
  if (e.align_c == 0) reject([&] { return why; });
  e.align_d = sm100_swizzle_alignment(m_major, e.d_bits, e.contig_m, e.contig_n, why_out);
  if (e.align_d == 0) reject([&] { return why; });
  if (e.align_c == 0) e.align_c = 128;
  if (e.align_d == 0) e.align_d = 128;

  // ---- block-scale-factor output (LinCombBlockScaleFactor, row-major SF) -------------------
  if (e.blockscale_out) {
    const int vs = spec.sf_vec;
    if (vs != 16 && vs != 32) {
      reject([&] { return "blockscale_out needs the output scale-factor vector size sf_vec = "
                          "16 or 32, got " + n(vs); });
    } else if (e.epi_n % vs != 0 ||
               (e.epi_n / vs != 1 && e.epi_n / vs != 2 && e.epi_n / vs != 4 && e.epi_n / vs != 8)) {
      // Sm100BlockScaleFactorRowStore (fusion/sm100_visitor_store_tma_warpspecialized.hpp:111-116).
      reject([&] { return "blockscale_out: epilogue tile N = " + n(e.epi_n) + " with sf_vec " +
                          n(vs) + ": static_assert \"EpilogueTileN should be divisible by "
                          "SFVecSize\" / 1, 2, 4 or 8 vectors (sm100_visitor_store_tma_"
                          "warpspecialized.hpp:111-116)"; });
    }
    if (spec.sf != DType::UE4M3 && spec.sf != DType::UE8M0)
      reject([&] {
        return "blockscale_out needs an output scale-factor type sf = ue4m3 or ue8m0";
      });
  }

  if (explain)
    e.description = e.schedule + ", epilogue tile " + n(e.epi_m) + "x" + n(e.epi_n) +
                    ", StagesC " + n(e.stages_c) + " StagesD " + n(e.stages_d) +
                    (e.reuse_smem_c ? ", C/D share smem (ReuseSmemC)" : "") + ", swizzle align " +
                    n(std::max(void_c ? Bytes{0} : e.align_c, e.align_d)) +
                    (e.blockscale_out ? ", LinCombBlockScaleFactor<" + n(spec.sf_vec) + ">" : "");
  return e;
}

Field sm100_epilogue_tensor_storage(const Sm100Epilogue& e) {
  if (e.kind == Sm100Epilogue::Kind::NoSmem) {
    if (e.nosmem_legacy) return empty_member(Component::Fusion);
    // struct { FusionStorage thread; array_aligned<uint8_t, 0> buffer; }: 1 + 15 + 16 = 32.
    return make_struct({empty_member(Component::Fusion), array_aligned(Component::Fusion, 0)});
  }
  const long long stage_elems = e.epi_m * e.epi_n;
  Field collective;
  if (e.c_bits == 0) {
    // CollectiveStorageWithoutC: union { cute::array<C,0>; alignas(alignD) smem_D } (L183-186).
    Field d = array_engine(Component::EpilogueD, stage_elems * e.stages_d, e.d_bits);
    collective = make_union({empty_member(Component::EpilogueD), with_align(d, e.align_d)});
  } else if (e.reuse_smem_c) {
    // CollectiveStorageReuseC (L188-191): both laid out with StagesC stages strided by
    // MaxStageBits (L158-163): cosize = stage + (SC - 1) · MaxStageBits / bits.
    const Bytes max_stage_bits = stage_elems * std::max(e.c_bits, e.d_bits);
    const Bytes c_elems = stage_elems + (e.stages_c - 1) * (max_stage_bits / e.c_bits);
    const Bytes d_elems = stage_elems + (e.stages_c - 1) * (max_stage_bits / e.d_bits);
    const Bytes mx = std::max(e.align_c, e.align_d);
    collective = make_union({with_align(array_engine(Component::EpilogueCD, c_elems, e.c_bits), mx),
                             with_align(array_engine(Component::EpilogueCD, d_elems, e.d_bits), mx)});
  } else {
    // CollectiveStorageWithC (L178-181).
    collective = make_struct(
        {with_align(array_engine(Component::EpilogueC, stage_elems * e.stages_c, e.c_bits), e.align_c),
         with_align(array_engine(Component::EpilogueD, stage_elems * e.stages_d, e.d_bits), e.align_d)});
  }
  // FusionStorage: LinearCombination and the row-major Sm100BlockScaleFactorRowStore
  // (fusion/sm100_visitor_store_tma_warpspecialized.hpp:118) are empty: 1 byte (P3).
  return make_struct({collective, empty_member(Component::Fusion)});
}

Field sm100_epilogue_pipeline_storage(const Sm100Epilogue& e) {
  if (e.kind == Sm100Epilogue::Kind::NoSmem) return pipeline_barriers(Component::EpilogueBarriers, 0);
  return pipeline_barriers(Component::EpilogueBarriers, e.stages_c);
}

Field sm100_epilogue_tensormaps(const Sm100Epilogue& e) {
  if (e.kind == Sm100Epilogue::Kind::NoSmem)
    return relabel(sm100_epilogue_tensor_storage(e), Component::Tensormaps);
  // TmaDescriptor: 128 B, alignas(64) (cute/arch/copy_sm90_desc.hpp:292-296).
  return make_struct({leaf(Component::Tensormaps, 2 * 128, 64)}, 128);
}

Field sm100_epilogue_shared_storage(const Sm100Epilogue& e) {
  if (e.kind == Sm100Epilogue::Kind::NoSmem) return sm100_epilogue_tensor_storage(e);
  if (e.ptr_array)
    return make_struct({sm100_epilogue_tensor_storage(e), sm100_epilogue_tensormaps(e),
                        sm100_epilogue_pipeline_storage(e)});
  return make_struct({sm100_epilogue_tensor_storage(e), sm100_epilogue_pipeline_storage(e)});
}

}  // namespace tilefit::model
