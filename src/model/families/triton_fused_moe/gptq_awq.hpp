// triton_fused_moe: fused_moe_kernel_gptq_awq, the Triton kernel vLLM 6adad087 and SGLang d6ef6888
// run for group-quantised int4 (and int8) weights with bf16 activations (gptq_awq.cpp).
#pragma once

#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model::triton_fused_moe {

/// The kernel fused_moe_kernel_gptq_awq as `cfg.engine` launches it, B a weight of `weight_bits`
/// (4: int4_w4a16, 8: int8_w8a16 with a group size): the launch checks and notes added to `why`,
/// then the shared Triton rules (triton::triton_plan) with B dequantised in registers.
Plan gptq_awq_plan(const KernelConfig& cfg, int weight_bits, bool explain, Findings&& why);

}  // namespace tilefit::model::triton_fused_moe
