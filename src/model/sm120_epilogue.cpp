#include "sm120_epilogue.hpp"

#include <algorithm>

#include "sm90_epilogue.hpp"

namespace tilefit::model {
namespace {

/// Bits of an element as the epilogue stores it in shared memory: fp6 in a uint8 container
/// (sm120_builder.inl:117-143; float_subbyte.h:389-399), fp4 packed, void 0.
int smem_bits(DType t) { return bits(t) == 6 ? 8 : bits(t); }

bool trtllm(EpilogueVariant v) {
  return v == EpilogueVariant::TrtllmDefault || v == EpilogueVariant::Finalize;
}

}  // namespace

bool sm120_cd_column_major(const KernelConfig& cfg) { return cfg.swap_ab || !cfg.cd_row_major; }

EpilogueStorage sm120_epilogue(const KernelConfig& cfg, Findings& why) {
  EpilogueStorage e;
  const EpilogueVariant v = cfg.epilogue.variant;
  const bool col_major = sm120_cd_column_major(cfg);

  if (v == EpilogueVariant::NoSmem)
    why.reject([&] { return diag(Code::sm120_no_nosmem_epilogue); });
  if (trtllm(v) && !cfg.grouped)
    why.reject([&] { return diag(Code::trtllm_epilogue_needs_grouped).epilogue("epilogue", v); });

  // Element types as the builder sees them.
  const DType out = cfg.d;
  const DType c = trtllm(v) ? out : cfg.c;                                     // launcher: C = D
  const DType d_builder = v == EpilogueVariant::Finalize ? DType::Void : out;  // finalize: D = void
  const bool fp6_d = bits(out) == 6;

  // Epilogue tile.
  const long long M = cfg.m, N = cfg.n;
  if (cfg.epilogue.tile) {
    e.epi_m = (*cfg.epilogue.tile)[0];
    e.epi_n = (*cfg.epilogue.tile)[1];
  } else if (fp6_d) {
    e.epi_m = col_major ? 128 : 64;
    e.epi_n = col_major ? 32 : 128;
  } else {
    e.epi_n = N < 32 ? N : 32;
    e.epi_m = N < 16 ? 128 : 64;
  }
  if (e.epi_m <= 0 || e.epi_n <= 0 || M % e.epi_m != 0 || N % e.epi_n != 0) {
    why.reject([&] {
      return diag(Code::sm120_epilogue_tile_divides)
          .integer("epilogue_m", e.epi_m)
          .integer("epilogue_n", e.epi_n)
          .integer("tile_m", M)
          .integer("tile_n", N);
    });
    e.epi_m = std::max<long long>(1, std::min(e.epi_m, M));
    e.epi_n = std::max<long long>(1, std::min(e.epi_n, N));
  }
  const long long epi_tiles = (M / e.epi_m) * (N / e.epi_n);

  // Stages and reuse.
  const bool reuse = bits(c) == bits(d_builder) && bits(d_builder) > 8;
  int sd = (fp6_d && !col_major) ? 1 : static_cast<int>(std::min<long long>(epi_tiles, 2));
  int sc = reuse ? std::max(static_cast<int>(std::min<long long>(epi_tiles, 2)), sd + 1) : sd;
  if (cfg.epilogue.stages_d) sd = *cfg.epilogue.stages_d;
  if (cfg.epilogue.stages_c) sc = *cfg.epilogue.stages_c;
  e.stages_c = sc;
  e.stages_d = sd;
  e.reuse_smem_c = reuse && c != DType::Void;
  if (e.reuse_smem_c && sd > sc) why.reject([&] { return diag(Code::reuse_smem_c_stages); });
  e.c_bits = smem_bits(c);
  e.d_bits = smem_bits(out);  // finalize stores D as ElementAux = the output type

  // Swizzle atoms on the contiguous extent.
  const long long extent = col_major ? e.epi_m : e.epi_n;
  e.align_c = c == DType::Void ? 128 : ss_swizzle_alignment(e.c_bits, extent);
  e.align_d = ss_swizzle_alignment(e.d_bits, extent);
  if (e.align_c == 0 || e.align_d == 0) {
    why.reject(
        [&] { return diag(Code::sm120_epilogue_no_swizzle_atom).integer("extent", extent); });
    if (e.align_c == 0) e.align_c = 128;
    if (e.align_d == 0) e.align_d = 128;
  }

  // Fusion storage.
  if (v == EpilogueVariant::BlockScaleOut) {
    e.fusion = col_major ? array_aligned(Component::Fusion, 32 * 4)
                         : array_aligned(Component::Fusion, 64 * 4);
  } else if (v == EpilogueVariant::Finalize) {
    const Bytes per = cfg.swap_ab ? 4 : bits(out) / 8;
    e.fusion = array_aligned(Component::Fusion, N * per);
  }

  e.ptr_array = cfg.grouped;
  e.descriptors = 1 + 2;  // C and NumEpilogueWarpGroups = 2 D descriptors
  return e;
}

void sm120_epilogue_name(KernelDescription& k, const KernelConfig& cfg, const EpilogueStorage& e) {
  k.add(KernelText::epilogue_tile)
      .name("epilogue", cfg.grouped ? "Sm120PtrArrayTmaWarpSpecialized" : "Sm120TmaWarpSpecialized")
      .integer("epi_m", e.epi_m)
      .integer("epi_n", e.epi_n);
  k.add(KernelText::epilogue_stages)
      .integer("stages_c", e.stages_c)
      .integer("stages_d", e.stages_d);
  if (e.reuse_smem_c) k.add(KernelText::reuse_smem_c);
  const EpilogueVariant v = cfg.epilogue.variant;
  if (v == EpilogueVariant::BlockScaleOut) {
    k.add(sm120_cd_column_major(cfg) ? KernelText::sm120_fusion_sf_col
                                     : KernelText::sm120_fusion_sf_row);
  } else if (v == EpilogueVariant::Finalize) {
    const Bytes per = cfg.swap_ab ? 4 : bits(cfg.d) / 8;
    k.add(cfg.swap_ab ? KernelText::sm120_fusion_finalize_router
                      : KernelText::sm120_fusion_finalize_bias)
        .bytes("bytes", cfg.n * per);
  } else {
    k.add(KernelText::sm120_fusion_linear);
  }
}

}  // namespace tilefit::model
