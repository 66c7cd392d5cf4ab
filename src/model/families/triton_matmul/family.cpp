// Family `triton_matmul`: a tiled GEMM as in Triton's matrix-multiplication tutorial, compiled by
// Triton 3.6.0 — A [M, K] and B [K, N] both contiguous along K, loaded per K step with masks,
// `tl.dot` into an fp32 accumulator, the result cast to C's type (`d`) and stored
// (tools/triton/matmul_kernel.py is the kernel the ground truth compiled).
//
// The shared memory is what Triton's allocator gives the kernel's buffers (src/model/
// triton_gemm.hpp: MMA choice, pipelined loads, layout conversions, allocator); this file says
// what the kernel's types are.
#include "../families.hpp"
#include "../../triton_gemm.hpp"

namespace tilefit::model {
namespace {

class TritonMatmul final : public triton::TritonFamily {
 public:
  std::string_view name() const override { return "triton_matmul"; }

  std::string_view description() const override {
    return "Triton 3.6 tiled GEMM as in the matrix-multiplication tutorial (A and B K-contiguous, "
           "fp32 accumulator, C in d): f16, bf16, f32 (tf32 dot), e4m3; num_warps, num_stages";
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Findings why(explain);
    triton::KernelTraits k;
    // The dot's operand type: f16/bf16 (16 bits), f32 (a tf32 dot, Triton's default
    // input_precision; 32 bits in shared memory), e4m3 (fp8e4nv, 8 bits).
    const DType t = cfg.a.elem;
    const bool plain = !cfg.a.block_scaled() && cfg.a == cfg.b && !cfg.fp8_w8a8;
    if (plain && (t == DType::F16 || t == DType::BF16)) {
      k.in_bits = 16;
    } else if (plain && (t == DType::F32 || t == DType::TF32)) {
      k.in_bits = 32;
    } else if (plain && t == DType::E4M3) {
      k.in_bits = 8;
      k.fp8 = true;
    } else {
      why.reject([&] {
        return diag(Code::triton_dtype)
            .name("kernel", name())
            .name("dtype", cfg.fp8_w8a8 ? "fp8_w8a8" : operand_name(cfg.a))
            .name("allowed", "f16, bf16, f32, e4m3");
      });
    }
    // The epilogue converts the accumulator after casting it to C's type.
    if (cfg.d != DType::F16 && cfg.d != DType::BF16 && cfg.d != DType::F32)
      why.reject([&] {
        return diag(Code::triton_output_dtype)
            .name("kernel", name())
            .dtype("d", cfg.d)
            .name("allowed", "f16, bf16, f32");
      });
    k.out_bits = bits(cfg.d);
    return triton::triton_plan(cfg, k, explain, std::move(why));
  }
};

}  // namespace

const KernelFamily& triton_matmul_family() { return the_family<TritonMatmul>(); }

}  // namespace tilefit::model
