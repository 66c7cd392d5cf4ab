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
// (docs/dev/triton-model.md §9).
//
// A tuned-table entry of vLLM 6adad08767583f52eb4d2122111af0bf638ed5e6 or SGLang
// d6ef68881e263812d4901f632786015005c4d050 (cfg.engine) is launched as those releases do
// (decide_engine): vLLM fused_moe.py:299-615 (the kernel), 763-905 (invoke_fused_moe_triton_kernel),
// 907 (dispatch_fused_moe_kernel), utils.py:586-591 (enable_swap_ab); SGLang
// kernels/ops/moe/fused_moe_triton_kernels.py:61-68 (should_enable_swap_ab), 324-653 (the
// kernel), 714-958 (invoke_fused_moe_kernel), srt/layers/moe/moe_runner/triton_utils/
// fused_moe.py:359-409 (USE_TMA). vLLM 000d1458 and plain configs keep the rules above.
// int4_w4a16 tables of those releases run fused_moe_kernel_gptq_awq (gptq_awq.cpp).
#include <algorithm>
#include <string>

#include "../families.hpp"
#include "../../triton_gemm.hpp"
#include "gptq_awq.hpp"
#include "tilefit/model/engine_release.hpp"

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
    if (cfg.engine == EngineRelease::Vllm6adad087 || cfg.engine == EngineRelease::SglangD6ef6888)
      return decide_engine(cfg, explain);
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
    // SPLIT_K: vLLM 000d1458's fused_moe_kernel has no split-K (a tuned entry carries 1).
    if (cfg.tuned.split_k.value_or(1) != 1)
      why.reject(
          [&] { return diag(Code::triton_moe_split_k).integer("split_k", *cfg.tuned.split_k); });
    k.out_bits = 16;
    return triton::triton_plan(cfg, k, explain, std::move(why));
  }

 private:
  /// An entry's SPLIT_K as the launcher passes it. vLLM 6adad087: fused_moe_kernel gets a copy
  /// of the entry with SPLIT_K = 1 (invoke_fused_moe_triton_kernel, fused_moe.py:842-843) and
  /// fused_moe_kernel_gptq_awq the entry's (fused_moe.py:759); both declare SPLIT_K (343, 105)
  /// and never read it. SGLang d6ef6888 passes the entry as **config (fused_moe_triton_kernels.py
  /// 884, 957) to kernels without a SPLIT_K parameter: Triton 3.6's JITFunction refuses any
  /// keyword that is neither a parameter nor an option (runtime/jit.py:682-684).
  static void split_k(const KernelConfig& cfg, bool gptq, Findings& why) {
    if (!cfg.tuned.split_k) return;
    const int s = *cfg.tuned.split_k;
    if (cfg.engine == EngineRelease::SglangD6ef6888)
      why.reject([&] {
        return diag(Code::triton_moe_split_k_unknown)
            .name("engine", engine_release_text(cfg.engine))
            .name("kernel", gptq ? "fused_moe_kernel_gptq_awq" : "fused_moe_kernel");
      });
    else if (s != 1)
      why.note([&] {
        return diag(gptq ? Code::triton_moe_split_k_unread : Code::triton_moe_split_k_reset)
            .name("engine", engine_release_text(cfg.engine))
            .integer("split_k", s);
      });
  }

  /// The launch of vLLM 6adad087 and SGLang d6ef6888.
  static Plan decide_engine(const KernelConfig& cfg, bool explain) {
    using Quant = KernelConfig::TunedLaunch::Quant;
    Findings why(explain);
    triton::KernelTraits k;
    const KernelConfig::TunedLaunch& t = cfg.tuned;
    const bool sglang = cfg.engine == EngineRelease::SglangD6ef6888;
    // Block-wise scales when both block_shape entries are non-zero (both launchers pass
    // group_n = block_shape[0], group_k = block_shape[1]; the kernel tests group_k > 0 and
    // group_n > 0 first, then per_channel_quant, else per-tensor scalars).
    const bool block = cfg.block_shape && (*cfg.block_shape)[0] > 0 && (*cfg.block_shape)[1] > 0;
    bool scaled = false;  // fp8_w8a8 or int8_w8a8: a_scale / b_scale
    switch (t.quant) {
      case Quant::None:
      case Quant::Bf16:
        // No dtype, or "bf16": the unquantised kernel (compute_type bf16 or f16) of bf16 / f16
        // operands; another operand type (a config's "dtype": "e4m3") is no kernel of theirs.
        if (cfg.a.block_scaled() || cfg.a != cfg.b ||
            (cfg.a.elem != DType::BF16 && cfg.a.elem != DType::F16))
          why.reject([&] {
            return diag(Code::triton_dtype)
                .name("kernel", "triton_fused_moe")
                .name("dtype", operand_name(cfg.a))
                .name("allowed", "bf16, f16, fp8_w8a8, int8_w8a8, int8_w8a16, int4_w4a16");
          });
        k.in_bits = 16;
        if (cfg.block_shape)
          why.note(
              [&] { return diag(Code::triton_block_shape_ignored).dtype("dtype", DType::BF16); });
        break;
      case Quant::Fp8W8a8:
        k.in_bits = 8;
        k.fp8 = true;
        scaled = true;
        break;
      case Quant::Int8W8a8:
        // use_int8_w8a8: int8 A and B, `accumulator += tl.dot(a, b)` (an int8 dot,
        // vLLM fused_moe.py:557-563; SGLang fused_moe_triton_kernels.py:564-581).
        k.in_bits = 8;
        k.int8 = true;
        scaled = true;
        break;
      case Quant::Int8W8a16:
        // Without a group size (per-channel) both launchers run fused_moe_kernel with
        // use_int8_w8a16: int8 B loaded and converted to compute_type before a bf16 dot (vLLM
        // fused_moe.py:552-553; SGLang fused_moe_triton_kernels.py:559-560), b_scale [1, BN]
        // loaded before the loop. With a group size (block_shape [0, group], which the file
        // name leaves out) both run fused_moe_kernel_gptq_awq (vLLM dispatch_fused_moe_kernel,
        // fused_moe.py:933-975, should_moe_wna16_use_cuda is false for 8 bits; SGLang
        // fused_moe_triton_kernels.py:851-886): not modelled, said in a warning.
        k.in_bits = 16;
        k.b_load_elem_bits = 8;
        why.note([&] {
          return diag(Code::triton_moe_quant_ambiguous)
              .name("engine", engine_release_text(cfg.engine))
              .name("dtype", "int8_w8a16")
              .name("kernel", "fused_moe_kernel with use_int8_w8a16")
              .name("other", "fused_moe_kernel_gptq_awq (not modelled)");
        });
        break;
      case Quant::Int4W4a16:
        // int4_w4a16 is always group-quantised (block_shape [0, group]): both engines run
        // fused_moe_kernel_gptq_awq (vLLM dispatch_fused_moe_kernel, fused_moe.py:907-1007, the
        // moe_wna16 CUDA kernel aside; SGLang fused_moe_triton_kernels.py:839-886), modelled in
        // gptq_awq.cpp. SWAP_AB, USE_TMA and the block-wise scales are fused_moe_kernel's.
        if (t.num_ctas.value_or(1) != 1)
          why.reject(
              [&] { return diag(Code::triton_moe_num_ctas).integer("num_ctas", *t.num_ctas); });
        split_k(cfg, true, why);
        return triton_fused_moe::gptq_awq_plan(cfg, 4, explain, std::move(why));
      case Quant::Other:
        why.reject([&] {
          return diag(Code::triton_unmodelled_dtype).name("dtype", cfg.unmodelled_dtype);
        });
        break;
    }
    if (scaled) {
      k.fp8_block = block;
      if (!block && t.per_channel_quant)
        why.note([&] {
          return diag(Code::triton_moe_per_channel).name("engine", engine_release_text(cfg.engine));
        });
      // SGLang: with BLOCK_SIZE_N <= group_n the kernel loads one b_scale per K step
      // (offs_bsn = pid_n * BLOCK_SIZE_N // group_n, fused_moe_triton_kernels.py:497-500).
      k.b_scale_scalar = sglang && block && cfg.n <= (*cfg.block_shape)[0];
      // SWAP_AB for fp8_w8a8 only, on a device of capability 9.0, BLOCK_SIZE_M < 64 and
      // BLOCK_SIZE_N >= 64: vLLM enable_swap_ab (utils.py:586-591, is_device_capability(90)),
      // SGLang should_enable_swap_ab (is_sm90_supported: major 9, common.py:296-300). It follows
      // the GPU the kernel runs on, not the table's device_name.
      k.swap_ab = k.fp8 && cfg.arch == 90 && cfg.m < 64 && cfg.n >= 64;
      if (k.swap_ab)
        why.note([&] {
          return diag(Code::triton_moe_swap_ab)
              .name("engine", engine_release_text(cfg.engine))
              .arch("arch", cfg.arch)
              .integer("tile_m", cfg.m)
              .integer("tile_n", cfg.n);
        });
      if (sglang && block) {
        const long long bmin = std::min((*cfg.block_shape)[0], (*cfg.block_shape)[1]);
        if (cfg.k > bmin)
          why.note([&] {
            return diag(Code::triton_moe_block_k_unclamped)
                .name("engine", engine_release_text(cfg.engine))
                .integer("block_k", cfg.k)
                .integer("block_n", (*cfg.block_shape)[0])
                .integer("block_k_scale", (*cfg.block_shape)[1]);
          });
      }
    }
    // USE_TMA: SGLang pops it from the down GEMM's config and passes tensor descriptors for A
    // and B (fused_moe.py:359-361, 404-409: support_tensor_descriptor() holds with Triton 3.6;
    // fused_moe_triton_kernels.py:888-904). From sm_90 on these are TMA copies (modelled:
    // KernelTraits::tma); below, Triton's make_ttir rewrites them to pointer loads
    // (third_party/nvidia/backend/compiler.py, add_rewrite_tensor_descriptor_to_pointer) that
    // are not pipelined (KernelTraits::tma_pointers; measured on sm_80, sm_86 and sm_89).
    if (sglang && t.use_tma.value_or(false)) {
      if (cfg.arch < 90 && !is_amd(cfg.arch))
        k.tma_pointers = true;
      else
        k.tma = true;
    }
    if (t.num_ctas.value_or(1) != 1)
      why.reject([&] { return diag(Code::triton_moe_num_ctas).integer("num_ctas", *t.num_ctas); });
    split_k(cfg, false, why);
    if (cfg.d != DType::BF16 && cfg.d != DType::F16)
      why.reject([&] {
        return diag(Code::triton_output_dtype)
            .name("kernel", "triton_fused_moe")
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
