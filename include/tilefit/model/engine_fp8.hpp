// The FP8 GEMMs inference engines build with CUTLASS (vLLM `cutlass_scaled_mm`, SGLang
// `fp8_scaled_mm` / `fp8_blockwise_scaled_mm`): which architectures each launcher has a kernel
// for and the blockwise scale-block rules — what the config reader checks a config against and
// the engine families (src/model/families/engine_fp8_*.cpp) model.
#pragma once

#include <string_view>

#include "tilefit/model/config.hpp"

namespace tilefit::model {

/// The engine family that models launcher configs on compute capability `sm`
/// ("engine_fp8_sm90"), or "" when neither engine builds an FP8 CUTLASS kernel for `sm`.
std::string_view engine_family_for(int sm);

/// The architectures the engine families cover, for messages.
std::string_view engine_arch_choices();

/// True when `launcher` builds an `op` kernel for `sm`: scaled_mm on sm_89 (CUTLASS 2.x), sm_90,
/// sm_100 and sm_120; blockwise_fp8 on sm_90, sm_100 and sm_120 only (neither engine has a
/// 2.x blockwise kernel).
bool engine_has_kernel(Launcher launcher, EngineOp op, int sm);

/// The kernel's scale granularities (ScaleGranularityM, N, K) from `scale_block`: A's block
/// gives M, B's gives N, unless swap_ab swaps the operands (vLLM's
/// Sm100BlockwiseScaleConfig<128, 1, 128, K, MN>, SGLang's swapab launcher).
struct ScaleGranularity {
  long long m = 1, n = 128, k = 128;
};
ScaleGranularity engine_scale_granularity(const KernelConfig& cfg);

/// Which of CUTLASS's scale-granularity static_asserts a blockwise_fp8 config fails on its
/// arch, with the extents involved. One source for the reader's scale_block errors and the
/// families' invalid reasons.
enum class ScaleBlockProblem {
  none,
  k_blocks_differ,  ///< A and B blocks name different K (one ScaleGranularityK)
  m_not_dividing,   ///< tile M % gM != 0 (or gM > tile M)
  n_not_dividing,   ///< tile N % gN != 0 (or gN > tile N)
  k_not_tile_k,     ///< SM90: K == gK and gK % 128 == 0; SM120: K == gK
  k_not_dividing,   ///< SM100: tile K % gK != 0 (or gK > tile K)
  k_not_mma_k,      ///< SM100: gK % 32 != 0 (the f8f6f4 MMA's K)
  cta_smaller,      ///< SM100 2SM: the per-CTA tile M (tile M / 2) is below gM
};
struct ScaleBlockCheck {
  ScaleBlockProblem problem = ScaleBlockProblem::none;
  long long tile = 0;         ///< the tile extent involved (per-CTA M for cta_smaller)
  long long granularity = 0;  ///< the granularity involved
};
/// The first failing rule for cfg.arch (none when the arch has no blockwise kernel).
ScaleBlockCheck engine_scale_block_check(const KernelConfig& cfg);

}  // namespace tilefit::model
