// The SM90 epilogue builder's shared decisions, used by SM90 (sm90_tma_ws and the engine FP8
// kernels) and (through the SM120 builder) SM120: which swizzle atom ss_smem_selector picks for
// the C/D buffers, and the TMA epilogue the builder decides.
#pragma once

#include "epilogue_storage.hpp"
#include "tilefit/model/bytes.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"

namespace tilefit::model {

/// alignment_for_swizzle of the widest swizzle atom that ss_smem_selector picks for an
/// element of `bits` along a contiguous extent of `extent` elements
/// (gemm/collective/builders/sm90_common.inl:270-325; cutlass/detail/layout.hpp:420-433):
/// SW128 (1024 bits wide) -> 1024, SW64 -> 512, SW32 -> 256, INTER (128 bits) -> 128.
/// Returns 0 when no atom divides the extent (CUTLASS static_asserts).
Bytes ss_swizzle_alignment(int bits, long long extent);

/// The SM90 epilogue builder (epilogue/collective/builders/sm90_builder.inl) for the TMA
/// epilogue of `cfg` (its C type cfg.c, D type cfg.d, C/D majorness cfg.cd_row_major);
/// `cooperative` is the epilogue schedule TmaWarpSpecializedCooperative, otherwise
/// TmaWarpSpecialized (what the pingpong and the basic warp-specialized kernels take):
///  tile (L112-165): cooperative EpiM = min(128, M), EpiN = gcd(min(32, N), N);
///    otherwise EpiM = min(64, M), EpiN = gcd(min(Nperf, N), N), Nperf = 64 if bits(D) == 8 and
///    N % 64 == 0, else 32; explicit tiles need M = 64 / 128 (cooperative), N % 16 == 0;
///  stages (sm90_get_tma_dispatch_policy, L64-86): EpiTiles = (M/EpiM)·(N/EpiN);
///    ReuseSmem = bits(C) == bits(D) && bits(D) > 8; StagesD = min(EpiTiles, 2);
///    StagesC = ReuseSmem ? max(min(EpiTiles, 4), StagesD + 1) : min(EpiTiles, 4);
///  atoms (L89-109): ss_smem_selector, K-major on EpiN for row-major D, MN-major on EpiM.
///  ptr-array: PtrArrayTmaWarpSpecialized{Cooperative,Pingpong} -> NumEpilogueWarpGroups = 2
///    (epilogue/dispatch_policy.hpp:58-60): 1 + 2 D/C descriptors.
/// The fusion storage is left empty (1 B); a caller with a fusion sets `fusion` before seal().
/// Rejections go to `why`.
EpilogueStorage sm90_tma_epilogue(const KernelConfig& cfg, bool cooperative, Findings& why);

}  // namespace tilefit::model
