// fused_moe_kernel_gptq_awq as vLLM 6adad08767583f52eb4d2122111af0bf638ed5e6 and SGLang
// d6ef68881e263812d4901f632786015005c4d050 launch it, compiled by Triton 3.6.0.
//
// The kernel (vLLM vllm/model_executor/layers/fused_moe/fused_moe.py:65-296, SGLang
// python/sglang/kernels/ops/moe/fused_moe_triton_kernels.py:92-321): per K step it loads A
// [BM, BK] (bf16, gathered through sorted_token_ids, contiguous along K) and the expert's weight
// as [BK, BN] bytes (int4: `(offs_k[:, None] // 2) * stride_bk`, two weights per byte picked by
// `(b >> b_shifter) & 0xF`, vLLM 192-198, 236-238, SGLang 217-223, 261-263; int8:
// `offs_k[:, None] * stride_bk`), the group scales b_scale [BK, BN]
// (`(offs_k + BLOCK_SIZE_K * k) // group_size`, vLLM 240-246, SGLang 265-271) and, with has_zp,
// the zero points; B is dequantised in registers, `((b - zp) * b_scale).to(compute_type)`, and
// `tl.dot(a, b)` is a bf16 dot (vLLM 276, SGLang 301). The buffers Triton allocates for it are
// the shared rules' (src/model/triton_gemm.cpp, KernelTraits::b_dequant_bits).
//
// Launchers: vLLM dispatch_fused_moe_kernel (fused_moe.py:907-1007) runs it through
// invoke_fused_moe_wna16_triton_kernel (673-760) for int8_w8a16/int4_w4a16 with a group
// block_shape [0, g], unless should_moe_wna16_use_cuda (1282-1290: 4-bit, g in 32/64/128,
// tokens·top_k / experts <= 6) picks the moe_wna16 CUDA kernel; the entry is passed as
// `**config` (759) after get_moe_wna16_block_config (1211), which adds nothing when the entry
// gives BLOCK_SIZE_N and BLOCK_SIZE_K. SGLang invoke_fused_moe_kernel (714-958) runs it for
// int4_w4a16 and group-quantised int8_w8a16 (839-886), the entry again as `**config`.
#include "gptq_awq.hpp"

#include <string>

#include "../../triton_gemm.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit::model::triton_fused_moe {

Plan gptq_awq_plan(const KernelConfig& cfg, int weight_bits, bool explain, Findings&& why) {
  const bool vllm = cfg.engine == EngineRelease::Vllm6adad087;
  const std::string engine = engine_release_text(cfg.engine);
  const char* weight = weight_bits == 4 ? "int4" : "int8";
  // vLLM: SPLIT_K is a parameter of fused_moe_kernel_gptq_awq (fused_moe.py:105) that
  // invoke_fused_moe_wna16_triton_kernel never sets: an entry without it fails to launch (Triton's
  // binder: "TypeError: dynamic_func() missing 1 required positional argument: 'SPLIT_K'",
  // measured on every such row). SGLang's kernel has no SPLIT_K.
  if (vllm && !cfg.tuned.split_k)
    why.reject([&] { return diag(Code::triton_moe_gptq_split_k).name("engine", engine); });
  if (vllm && weight_bits == 4)
    why.note([&] { return diag(Code::triton_moe_wna16_cuda).name("engine", engine); });
  why.note([&] {
    return diag(Code::triton_moe_gptq_awq).name("engine", engine).name("weight", weight);
  });
  if (cfg.d != DType::BF16 && cfg.d != DType::F16)
    why.reject([&] {
      return diag(Code::triton_output_dtype)
          .name("kernel", "triton_fused_moe")
          .dtype("d", cfg.d)
          .name("allowed", "bf16, f16");
    });
  triton::KernelTraits k;
  k.in_bits = 16;  // bf16 A and the dequantised B (compute_type bf16)
  k.out_bits = 16;
  k.b_dequant_bits = weight_bits;
  return triton::triton_plan(cfg, k, explain, std::move(why));
}

}  // namespace tilefit::model::triton_fused_moe
