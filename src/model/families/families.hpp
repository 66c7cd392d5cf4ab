// Factories of the kernel families; each lives in its own file next to this one.
#pragma once

#include "tilefit/model/family.hpp"

namespace tilefit::model {

const KernelFamily& sm120_blockscaled_family();
const KernelFamily& sm120_dense_family();
const KernelFamily& sm90_tma_ws_family();
const KernelFamily& sm100_umma_family();
const KernelFamily& sm80_multistage_family();
const KernelFamily& triton_matmul_family();
const KernelFamily& triton_fused_moe_family();

// ---- inference-engine FP8 kernels (issue 11) ----
const KernelFamily& engine_fp8_sm89_family();
const KernelFamily& engine_fp8_sm90_family();
const KernelFamily& engine_fp8_sm100_family();
const KernelFamily& engine_fp8_sm120_family();

}  // namespace tilefit::model
