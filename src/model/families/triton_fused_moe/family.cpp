// Family `triton_fused_moe`: vLLM's `fused_moe_kernel` (vllm/model_executor/layers/fused_moe/
// fused_moe.py at 000d1458098ebf47491dad470d164d443ab18a9c), compiled by Triton 3.6.0: a grouped
// GEMM over the tokens routed to each expert — A rows gathered through sorted_token_ids, B the
// expert's weights, both contiguous along K, an fp32 accumulator converted to `compute_type`
// (bf16 or f16) and stored.
//   * unquantised (bf16/f16 activations and weights);
//   * fp8_w8a8 per-tensor: fp8 e4m3 A and B, scalar scales applied after the loop (nothing in
//     shared memory beyond the fp8 operands);
//   * fp8_w8a8 block-wise (block_shape [block_n, block_k]): per K step the kernel loads
//     a_scale[BM] and b_scale[BN] and multiplies them into the dot result inside the loop, which
//     can add conversion scratch or, with an asynchronous tcgen05 MMA, a b_scale buffer
//     (src/model/triton_gemm.cpp).
// MUL_ROUTED_WEIGHT (the MoE's second GEMM) and GROUP_SIZE_M do not change shared memory
// (docs/triton-model.md §9).
#include "../families.hpp"
#include "../../triton_gemm.hpp"

namespace tilefit::model {
namespace {

class TritonFusedMoe final : public triton::TritonFamily {
 public:
  std::string_view name() const override { return "triton_fused_moe"; }

  std::string_view description() const override {
    return "vLLM's Triton fused_moe_kernel compiled by Triton 3.6: bf16, f16, fp8_w8a8 per-tensor "
           "and block-wise (block_shape); vLLM/SGLang tuned config files are read as they are";
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Findings why(explain);
    triton::KernelTraits k;
    if (!cfg.unmodelled_dtype.empty()) {
      // int8_w8a16, int4_w4a16 (fused_moe_kernel_gptq_awq or a CUDA kernel), int8_w8a8 (an
      // int8 dot), mxfp4 and the rest: not the kernel modelled here.
      why.reject(
          [&] { return diag(Code::triton_unmodelled_dtype).name("dtype", cfg.unmodelled_dtype); });
    } else if (cfg.fp8_w8a8) {
      k.in_bits = 8;
      k.fp8 = true;
      // Block-wise when both block_shape entries are non-zero (vLLM passes group_n, group_k).
      k.fp8_block = cfg.block_shape && (*cfg.block_shape)[0] > 0 && (*cfg.block_shape)[1] > 0;
    } else if (!cfg.a.block_scaled() && cfg.a == cfg.b &&
               (cfg.a.elem == DType::BF16 || cfg.a.elem == DType::F16)) {
      k.in_bits = 16;
      if (cfg.block_shape)
        why.note([&] { return diag(Code::triton_block_shape_ignored).dtype("dtype", cfg.a.elem); });
    } else {
      why.reject([&] {
        return diag(Code::triton_dtype)
            .name("kernel", name())
            .name("dtype", operand_name(cfg.a))
            .name("allowed", "bf16, f16, fp8_w8a8");
      });
    }
    // C has the activations' type; the epilogue converts compute_type (bf16/f16) values.
    if (cfg.d != DType::BF16 && cfg.d != DType::F16)
      why.reject([&] {
        return diag(Code::triton_output_dtype)
            .name("kernel", name())
            .dtype("d", cfg.d)
            .name("allowed", "bf16, f16");
      });
    k.out_bits = 16;
    return triton::triton_plan(cfg, k, explain, std::move(why));
  }
};

}  // namespace

const KernelFamily& triton_fused_moe_family() { return the_family<TritonFusedMoe>(); }

}  // namespace tilefit::model
