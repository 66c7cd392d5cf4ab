// The SM120 epilogue builder (epilogue/collective/builders/sm120_builder.inl), which maps
// Sm120TmaWarpSpecialized onto the SM90 TMA collective (sm120_builder.inl:404-426), plus the
// TensorRT-LLM / FlashInfer MoE epilogues built on it (docs/dev/sm120-moe-finalize.md).
#pragma once

#include <string>

#include "epilogue_storage.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/kernel_text.hpp"

namespace tilefit::model {

/// Applies the SM120 builder's rules to `cfg` (CTA tile M x N); rejections go to `why`:
///  * tile (sm120_compute_tile_shape_or_override, L145-219): explicit, or for non-FP6 D
///    EpiN = N < 32 ? N : 32, EpiM = N < 16 ? 128 : 64; FP6 D row-major 64x128,
///    column-major 128x32;
///  * stages (sm120_get_tma_dispatch_policy, L78-114):
///    ReuseSmem = bits(C) == bits(D) && bits(D) > 8;
///    StagesD = (FP6 D && row-major) ? 1 : min(EpiTiles, 2);
///    StagesC = ReuseSmem ? max(min(EpiTiles, 2), StagesD + 1) : StagesD;
///  * ptr-array: NumEpilogueWarpGroups = 2 (GetNumEpilogueWarpGroups default, L66-75), so the
///    TensorMapStorage holds 1 + 2 descriptors;
///  * atoms: ss_smem_selector on the contiguous extent (EpiN row-major, EpiM column-major),
///    fp6 stored as uint8 (L117-143);
///  * fusion storage (§2.4): LinearCombination empty (1 B); LinCombBlockScaleFactor
///    (blockscale_out) Sm120BlockScaleFactorRowStore 256 B / ColStore 128 B
///    (epilogue/fusion/sm120_visitor_store_tma_warpspecialized.hpp:70-85, 529-543);
///    TRT-LLM finalize: the per-column bias row (Sm90RowBroadcast, ru(CTA_N·sizeof(out),16)) or,
///    with swap_ab, fp32 router scales (ru(CTA_N·4,16)); every other scatter node is empty.
/// TRT-LLM epilogues (moe_gemm_tma_ws_launcher.inl): C = the output type; `finalize` passes
/// ElementD = void to the builder (no reuse, StagesC = StagesD) and stores D as ElementAux
/// (the output type); swap_ab makes C/D column-major.
EpilogueStorage sm120_epilogue(const KernelConfig& cfg, Findings& why);

/// Appends the epilogue's parts to `k` ("Sm120TmaWarpSpecialized epilogue 64x32, StagesC 3,
/// StagesD 2, ReuseSmemC, LinearCombination").
void sm120_epilogue_name(KernelDescription& k, const KernelConfig& cfg, const EpilogueStorage& e);

/// True when the C/D of `cfg` are column-major (layout letter 'n', or TRT-LLM swap_ab).
bool sm120_cd_column_major(const KernelConfig& cfg);

}  // namespace tilefit::model
