#include "sm120_epilogue.hpp"

#include <algorithm>

namespace tilefit::model {
namespace {

/// Bits of an element as the epilogue stores it in shared memory: fp6 in a uint8 container
/// (sm120_builder.inl:117-143; float_subbyte.h:389-399), fp4 packed, void 0.
int smem_bits(DType t) { return bits(t) == 6 ? 8 : bits(t); }

std::string num(long long v) { return std::to_string(v); }

}  // namespace

bool sm120_cd_column_major(const KernelConfig& cfg) { return cfg.swap_ab || !cfg.cd_row_major; }

Sm120EpiloguePlan sm120_epilogue(const KernelConfig& cfg, bool explain) {
  Sm120EpiloguePlan p;
  TmaEpilogue& e = p.epi;
  const EpilogueVariant v = cfg.epilogue.variant;
  const bool trtllm = v == EpilogueVariant::TrtllmDefault || v == EpilogueVariant::Finalize;
  const bool col_major = sm120_cd_column_major(cfg);

  if (v == EpilogueVariant::NoSmem)
    if (explain) p.invalid.push_back(
        "epilogue \"nosmem\": the SM120 epilogue builder has no no-smem schedule; it accepts "
        "EpilogueScheduleAuto and the TMA schedules only (sm120_builder.inl:485-491)");
  if (trtllm && !cfg.grouped)
    if (explain) p.invalid.push_back("epilogue \"" + std::string(epilogue_name(v)) +
                        "\" is TensorRT-LLM's MoE grouped GEMM epilogue: set \"grouped\": true");

  // Element types as the builder sees them.
  const DType out = cfg.d;
  DType c = trtllm ? out : cfg.c;                          // launcher: ElementC = ElementD
  DType d_builder = v == EpilogueVariant::Finalize ? DType::Void : out;  // finalize: D = void
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
    if (explain) p.invalid.push_back("epilogue tile " + num(e.epi_m) + "x" + num(e.epi_n) +
                        " must divide the CTA tile " + num(M) + "x" + num(N) +
                        " (sm120_compute_tile_shape_or_override)");
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
  if (e.reuse_smem_c && sd > sc)
    if (explain) p.invalid.push_back("ReuseSmemC needs StagesD <= StagesC (sm90_epilogue_tma_warpspecialized.hpp:170-172)");
  e.c_bits = smem_bits(c);
  e.d_bits = smem_bits(out);  // finalize stores D as ElementAux = the output type

  // Swizzle atoms on the contiguous extent.
  const long long extent = col_major ? e.epi_m : e.epi_n;
  e.align_c = c == DType::Void ? 128 : ss_swizzle_alignment(e.c_bits, extent);
  e.align_d = ss_swizzle_alignment(e.d_bits, extent);
  if (e.align_c == 0 || e.align_d == 0) {
    if (explain) p.invalid.push_back("no shared-memory swizzle atom divides the epilogue tile's contiguous "
                        "extent of " + num(extent) + " elements (ss_smem_selector, sm90_common.inl:270-325)");
    if (e.align_c == 0) e.align_c = 128;
    if (e.align_d == 0) e.align_d = 128;
  }

  // Fusion storage.
  std::string fusion = "LinearCombination";
  if (v == EpilogueVariant::BlockScaleOut) {
    e.fusion = col_major ? array_aligned(Component::Fusion, 32 * 4)
                         : array_aligned(Component::Fusion, 64 * 4);
    if (explain)
      fusion = col_major ? "LinCombBlockScaleFactor (Sm120BlockScaleFactorColStore, 128 B)"
                       : "LinCombBlockScaleFactor (Sm120BlockScaleFactorRowStore, 256 B)";
  } else if (v == EpilogueVariant::Finalize) {
    const Bytes per = cfg.swap_ab ? 4 : bits(out) / 8;
    e.fusion = array_aligned(Component::Fusion, N * per);
    if (explain)
      fusion = std::string("TRT-LLM finalize scatter (") +
             (cfg.swap_ab ? "fp32 router scales, " : "bias row, ") + num(N * per) +
             " B; the C stages are allocated but never read, D is the scatter's scratch)";
  }

  e.ptr_array = cfg.grouped;
  e.num_epilogue_wg = 2;

  if (!explain) return p;
  p.description = std::string(cfg.grouped ? "Sm120PtrArrayTmaWarpSpecialized" : "Sm120TmaWarpSpecialized") +
                  " epilogue " + num(e.epi_m) + "x" + num(e.epi_n) + ", StagesC " + num(sc) +
                  ", StagesD " + num(sd) + (e.reuse_smem_c ? ", ReuseSmemC" : "") + ", " + fusion;
  return p;
}

}  // namespace tilefit::model
