// Family `triton_block_matmul`: the block-quantised W8A8 matmuls of vLLM and SGLang, compiled by
// Triton 3.6.0 — a GEMM C[M, N] = A[M, K] · B[N, K]ᵀ with per-[1, block_k] activation scales As
// and per-[block_n, block_k] weight scales Bs, applied to every K step's dot result:
//   * vLLM 6adad087 `_w8a8_triton_block_scaled_mm` (model_executor/layers/quantization/utils/
//     fp8_utils.py:737-818, launched by w8a8_triton_block_scaled_mm 860-985) — fp8 e4m3;
//   * vLLM 6adad087 `_w8a8_block_int8_matmul` (int8_utils.py:234-315, launcher 360-448) — int8;
//   * SGLang d6ef6888 `_w8a8_block_fp8_matmul` (kernels/ops/quantization/fp8_kernel.py:964-1053,
//     launcher w8a8_block_fp8_matmul_triton 1405-1486) — fp8 e4m3;
//   * SGLang d6ef6888 `_w8a8_block_int8_matmul` (int8_kernel.py:238-319, launcher 364-450): the
//     same kernel and launcher as vLLM's, line for line.
//
// What reaches shared memory, compared line by line:
//   * A [BM, BK] and B [BK, BN] are K-contiguous loads (A rows at offs_am = (pid_m·BM + arange)
//     % M, not gathered; B at offs_bn), dotted with an fp32 (fp8) or int32 (int8) result that is
//     scaled by a_s[:, None] · b_s[None, :] and added to the fp32 accumulator inside the K loop:
//     the shape of triton_fused_moe's block-wise fp8 (KernelTraits::fp8_block), so the same
//     shared rules (src/model/triton_gemm.cpp) apply: operand buffers, tcgen05's b_scale buffer
//     and barriers, the scales' conversion scratch, the epilogue conversion.
//   * a_s = As[offs_am · stride_As_m + k-block]: a [BM] f32 load with no mask (fused_moe masks
//     its a_scale with token_mask) and no contiguous [BM] access in its slice (fused_moe has the
//     sorted_token_ids load), so its load layout has 1 element per thread
//     (KernelTraits::a_scale_vectorised = false). b_s = Bs[(offs_bn // group_n) · stride] as in
//     fused_moe.
//   * int8 (`tl.dot(a, b).to(tl.float32)`, int8_utils.py:300): an i8 × i8 → i32 dot
//     (KernelTraits::int8) whose i32 result is converted element-wise in the accumulator's layout
//     (no shared memory); the rest as fp8.
//   * SGLang's fp8 kernel differs from vLLM's in two lines, neither of which reaches shared
//     memory: its A/B loads are unmasked when K % BLOCK_SIZE_K == 0 (`needs_masking`, fp8_kernel.py
//     1024-1029; the K masks never limit the vector width, docs/dev/triton-model.md §3), and its scale
//     pointers are advanced in the loop (1038-1039) instead of indexed by k (fp8_utils.py
//     800-801): the same loads. One rule serves both; the ground-truth rows check it.
//   * C: `accumulator.to(C's element type)` then tl.store — the epilogue converts C-typed values:
//     16 bits for bf16/f16, 32 for f32. The engines pass the model's dtype (vLLM
//     TritonFp8BlockScaledMMKernel: `self.config.out_dtype`, kernels/linear/scaled_mm/triton.py:
//     166-180), bf16 for every model these tables serve; the tables do not say, so a tuned entry
//     is checked with bf16 C (f16 gives the same bytes).
// group_n, group_k, M, N, K are runtime arguments (not constexpr): the block shape changes no
// shared memory; GROUP_SIZE_M is index arithmetic only.
#include "../families.hpp"
#include "../../triton_gemm.hpp"

namespace tilefit::model {
namespace {

class TritonBlockMatmul final : public triton::TritonFamily {
 public:
  std::string_view name() const override { return "triton_block_matmul"; }

  std::string_view description() const override {
    return "vLLM's and SGLang's block-quantised W8A8 matmuls compiled by Triton 3.6 "
           "(_w8a8_triton_block_scaled_mm, _w8a8_block_fp8_matmul: fp8_w8a8; "
           "_w8a8_block_int8_matmul: int8_w8a8); their N=…,K=… tuned tables are read as they are";
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Findings why(explain);
    triton::KernelTraits k;
    k.in_bits = 8;
    k.fp8_block = true;
    k.a_scale_vectorised = false;
    const bool int8 = !cfg.fp8_w8a8 && cfg.a.elem == DType::S8 && cfg.a == cfg.b;
    if (!cfg.unmodelled_dtype.empty()) {
      why.reject([&] {
        return diag(Code::triton_block_unmodelled_dtype).name("dtype", cfg.unmodelled_dtype);
      });
    } else if (cfg.fp8_w8a8) {
      k.fp8 = true;
    } else if (int8) {
      k.int8 = true;
    } else {
      why.reject([&] {
        return diag(Code::triton_dtype)
            .name("kernel", name())
            .name("dtype", operand_name(cfg.a))
            .name("allowed", "fp8_w8a8, int8_w8a8");
      });
    }
    // C's type: `accumulator.to(C.dtype.element_ty)` before the store (fp8_utils.py:807-812,
    // int8_utils.py:304-309, fp8_kernel.py:1041-1046).
    if (cfg.d != DType::BF16 && cfg.d != DType::F16 && cfg.d != DType::F32)
      why.reject([&] {
        return diag(Code::triton_output_dtype)
            .name("kernel", name())
            .dtype("d", cfg.d)
            .name("allowed", "bf16, f16, f32");
      });
    k.out_bits = cfg.d == DType::F32 ? 32 : 16;
    // SGLang's fp8 table reader raises BLOCK_SIZE_K (the tuned-table reader applied it and kept
    // the written value in tuned_block_k); the shared rules' clamp note is fused_moe's.
    if (cfg.tuned_block_k > 0) {
      why.note([&] {
        return diag(Code::triton_block_k_raised)
            .integer("block_k", cfg.tuned_block_k)
            .integer("tile_k", cfg.k);
      });
      KernelConfig launched = cfg;
      launched.tuned_block_k = 0;
      return finish(cfg, triton::triton_plan(launched, k, explain, std::move(why)), explain);
    }
    return finish(cfg, triton::triton_plan(cfg, k, explain, std::move(why)), explain);
  }

 private:
  /// The kernel's name in front of Triton's description of it.
  static Plan finish(const KernelConfig& cfg, Plan p, bool explain) {
    if (!explain || p.kernel.empty()) return p;
    const bool sglang = cfg.engine == EngineRelease::SglangD6ef6888;
    const bool int8 = !cfg.fp8_w8a8;
    const char* kernel = int8     ? "_w8a8_block_int8_matmul"
                         : sglang ? "_w8a8_block_fp8_matmul"
                                  : "_w8a8_triton_block_scaled_mm";
    KernelDescription named;
    named.add(KernelText::triton_engine_kernel)
        .name("engine", sglang ? "SGLang" : "vLLM")
        .name("kernel", kernel);
    p.kernel.prepend(named);
    return p;
  }
};

}  // namespace

const KernelFamily& triton_block_matmul_family() { return the_family<TritonBlockMatmul>(); }

}  // namespace tilefit::model
