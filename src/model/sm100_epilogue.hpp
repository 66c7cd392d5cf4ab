// The SM100 (B200 UMMA) epilogue: the builder's decisions (schedule, epilogue tile, StagesC /
// StagesD, ReuseSmemC, swizzle atoms) and the collectives' SharedStorage.
//
//   builder:      epilogue/collective/builders/sm100_builder.inl
//   TMA:          epilogue/collective/sm100_epilogue_tma_warpspecialized.hpp:130-221
//   ptr-array TMA: sm100_epilogue_array_tma_warpspecialized.hpp:140-229
//   no-smem:      sm100_epilogue_nosmem.hpp:494-498 (EVT), sm100_epilogue_array_nosmem.hpp:115-120
//                 (legacy thread::LinearCombination), wrapped in Sm100TmaWarpSpecializedAdapter
//                 (epilogue/collective/detail.hpp:559-571)
// ../shared/docs/cutlass-smem-model.md §2.3, §2.4, §2.5, §2.6.3; pitfalls P3, P10, P17.
//
// It differs from the SM90-style collective (sm90_epilogue.hpp) in three ways that change bytes:
// ReuseSmemC needs only bits(C) > 8 and strides both C and D stages by the larger stage; the
// swizzle atom comes from sm100_smem_selector on the TMA-contiguous extent; the ptr-array
// TensorMapStorage holds 2 descriptors (C, D).
#pragma once

#include <string>
#include <vector>

#include "tilefit/model/config.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// What the SM100 epilogue builder decides for a config.
struct Sm100Epilogue {
  enum class Kind { Tma, NoSmem };
  Kind kind = Kind::Tma;
  bool two_sm = false;     ///< TmaWarpSpecialized2Sm / NoSmemWarpSpecialized2Sm
  bool ptr_array = false;  ///< PtrArray* schedule (grouped kernels)
  long long cta_m = 0, cta_n = 0;  ///< per-CTA tile: (MMA M / 2 for 2SM, MMA N)
  int warp_m = 4, warp_n = 1;      ///< TMEM warp shape (sm100_builder.inl:1069-1081)
  long long epi_m = 0, epi_n = 0;  ///< epilogue tile
  long long contig_m = 0, contig_n = 0;  ///< TMA-contiguous extents of the tile (swizzle choice)
  int epi_tiles = 0;
  int stages_c = 0, stages_d = 0;
  bool reuse_smem_c = false;
  int c_bits = 0;  ///< bits of the C element in smem (0: void C); fp6 is held in 8 bits
  int d_bits = 0;  ///< bits of the D element in smem; fp6 is held in 8 bits
  Bytes align_c = 128, align_d = 128;  ///< alignment_for_swizzle of the C / D atoms
  bool blockscale_out = false;  ///< LinCombBlockScaleFactor (row-major SF store: empty storage)
  /// ptr-array no-smem with the default fusion on a non-block-scaled op class takes the legacy
  /// thread::LinearCombination path whose SharedStorage is empty (sm100_builder.inl:1556-1565).
  bool nosmem_legacy = false;
  std::string schedule;     ///< CUTLASS epilogue schedule tag, e.g. "TmaWarpSpecialized1Sm"
  std::string description;  ///< one line: schedule, tile, stages, reuse, alignment
  std::vector<std::string> invalid;
  std::vector<std::string> notes;
};

/// Inputs the epilogue builder sees from the mainloop side.
struct Sm100EpilogueContext {
  bool mainloop_two_sm = false;  ///< the mainloop's 1SM/2SM choice
  bool block_scaled = false;     ///< OpClassBlockScaledTensorOp
};

/// Runs the SM100 epilogue builder's rules on `cfg`. With `explain` false only the numbers are
/// decided: `schedule`, `description`, `invalid` and `notes` stay empty (for storage(), which
/// runs at every stage count the max_stages search tries).
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
Sm100Epilogue sm100_epilogue(const KernelConfig& cfg, const Sm100EpilogueContext& ctx,
                             bool explain);

/// CollectiveEpilogue::TensorStorage (what the kernel places first in its `tensors`):
///   TMA (sm100_epilogue_tma_warpspecialized.hpp:178-205):
///     no C:       union { cute::array<C,0> (1 B); alignas(alignD) ArrayEngine D[SD stages] }
///     ReuseSmemC: union { alignas(max) ArrayEngine C; alignas(max) ArrayEngine D }, both with
///                 SC stages strided by MaxStageBits: cosize = stage + (SC-1)·MaxStageBits/bits
///     otherwise:  struct { alignas(alignC) C[SC stages]; alignas(alignD) D[SD stages] }
///     TensorStorage = struct { collective; FusionStorage thread }   (empty fusion = 1 B: P3)
///   no-smem EVT (sm100_epilogue_nosmem.hpp:494-498; array L538-542):
///     struct { FusionStorage thread (1 B); array_aligned<uint8_t, 0> buffer (16 B) } = 32 B
///   no-smem legacy (sm100_epilogue_array_nosmem.hpp:115-118): an empty struct, 1 B.
Field sm100_epilogue_tensor_storage(const Sm100Epilogue& e);

/// CollectiveEpilogue::PipelineStorage = PipelineTransactionAsync<StagesC>: 16·SC; the no-smem
/// adapter uses PipelineTransactionAsync<0>: 2 B (detail.hpp:562, sm90_pipeline.hpp:766-778).
Field sm100_epilogue_pipeline_storage(const Sm100Epilogue& e);

/// CollectiveEpilogue::TensorMapStorage (ptr-array kernels only):
///   TMA: aligned_struct<128> { TmaDescriptor C; TmaDescriptor D; } = 256 B
///        (sm100_epilogue_array_tma_warpspecialized.hpp:218-221);
///   no-smem adapter: EpilogueOp::SharedStorage again (detail.hpp:567): 32 B (EVT) or 1 B.
Field sm100_epilogue_tensormaps(const Sm100Epilogue& e);

/// sizeof(CollectiveEpilogue::SharedStorage): the builder's carve-out.
///   TMA:       struct { tensors; [tensormaps (ptr-array)]; pipeline }
///   no-smem:   EpilogueOp::SharedStorage (the adapter inherits it): 32 B (EVT) or 1 B (legacy).
Field sm100_epilogue_shared_storage(const Sm100Epilogue& e);

}  // namespace tilefit::model
