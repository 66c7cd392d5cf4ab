// The SM100 (B200 UMMA) epilogue builder: schedule, epilogue tile, StagesC / StagesD,
// ReuseSmemC and swizzle atoms (epilogue/collective/builders/sm100_builder.inl). The decided
// collective is laid out by EpilogueStorage (epilogue_storage.hpp).
//
// It differs from the SM90-style builder in three ways that change bytes: ReuseSmemC needs
// only bits(C) > 8 and strides both C and D stages by the larger stage; the swizzle atom comes
// from sm100_smem_selector on the TMA-contiguous extent; the ptr-array TensorMapStorage holds
// 2 descriptors (C, D).
#pragma once

#include <string>

#include "epilogue_storage.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/kernel_text.hpp"

namespace tilefit::model {

/// What the SM100 epilogue builder decides for a config.
struct Sm100Epilogue {
  EpilogueStorage storage;         ///< the collective, as laid out
  bool two_sm = false;             ///< TmaWarpSpecialized2Sm / NoSmemWarpSpecialized2Sm
  long long cta_m = 0, cta_n = 0;  ///< per-CTA tile: (MMA M / 2 for 2SM, MMA N)
  int warp_m = 4, warp_n = 1;      ///< TMEM warp shape (sm100_builder.inl:1069-1081)
  int epi_tiles = 0;               ///< epilogue tiles per CTA tile (0 when not decided)
  bool blockscale_out = false;     ///< LinCombBlockScaleFactor (row-major SF store: empty storage)
  bool decided = false;            ///< false when the builder stops before a layout exists
};

/// Inputs the epilogue builder sees from the mainloop side.
struct Sm100EpilogueContext {
  bool mainloop_two_sm = false;  ///< the mainloop's 1SM/2SM choice
  bool block_scaled = false;     ///< OpClassBlockScaledTensorOp
};

/// Runs the SM100 epilogue builder's rules on `cfg`; rejections and notes go to `why`.
///
/// Schedule (sm100_builder.inl:1698-1715): EpilogueScheduleAuto picks 2Sm when cluster M is
/// even and the MMA tile M is 256 (block-scaled) or 128/256 (dense), else 1Sm. Explicit "tma",
/// "nosmem" and "blockscale_out" follow the mainloop's 1SM/2SM choice. Grouped kernels use the
/// PtrArray* variant (the ptr-array kernel needs the epilogue's TensorMapStorage).
///
/// Tile (sm100_dense_compute_tile_shape_or_override, sm100_builder.inl:979-1067), per CTA tile
/// (CtaM = MMA M / 2 for 2SM, L1199-1209) and TMEM warps (2,2) for 2SM with MMA M 128, else (4,1):
///   block-scaled op class, CtaN == 256:  (min(CtaM, 32·WarpM), 128)
///   otherwise EpiM = min(CtaM, 32·WarpM) and, with MaxBits = max(bits C, bits D) (void C -> D),
///     Nperf = void C:  MaxBits == 4 ? 8192 / EpiM : 4096 / EpiM
///             C:       MaxBits == 32 ? (CtaM > 64 && CtaN <= 128 ? 16 : 32)
///                      : MaxBits == 16 ? (CtaN <= 128 ? 32 : 64) : 64
///     NminX = (void C or X column-major) ? 8·WarpN : bits(X) == 6 ? 128·WarpN : 128/bits(X)·WarpN
///     Ntmp = min(CtaN, max(Nperf, NminC, NminD));  EpiN = CtaN % Ntmp == 0 ? Ntmp : CtaN
///   no-smem (sm100_builder.inl:1520-1537): (CtaM, min(64, CtaN)) — no shared memory either way.
/// Stages (sm100_dense_dispatch_policy, sm100_builder.inl:1106-1115):
///   ReuseSmem = bits(C) > 8;  SD = min(EpiTiles, 2);
///   SC = ReuseSmem ? max(min(EpiTiles, 4), SD + 1) : min(EpiTiles, 4)
/// Atoms (sm100_get_epilogue_smem_swizzle_layout_atom, sm100_builder.inl:70-97 ->
/// sm100_smem_selector, gemm/collective/builders/sm100_common.inl:79-133): row-major C/D use
/// the K-major selector on the contiguous N extent, column-major the MN-major selector on EpiM
/// (4-byte elements: always SW128_32B); SW128 -> 1024, SW64 -> 512, SW32 -> 256, INTER -> 128.
/// No-smem: a ptr-array kernel with the default fusion on a non-block-scaled op class takes the
/// legacy thread::LinearCombination path whose SharedStorage is empty (sm100_builder.inl:1556-1565).
Sm100Epilogue sm100_epilogue(const KernelConfig& cfg, const Sm100EpilogueContext& ctx,
                             Findings& why);

/// Appends the epilogue's parts to `k` ("TmaWarpSpecialized1Sm, epilogue tile 128x64, StagesC 4
/// StagesD 2, ..." in `kernel_description`).
void sm100_epilogue_name(KernelDescription& k, const KernelConfig& cfg, const Sm100Epilogue& e);

}  // namespace tilefit::model
