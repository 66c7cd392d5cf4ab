// The contract between the two halves of the triton_attention family (issue 19):
//   - launcher inference (the vLLM 6adad087 / SGLang d6ef6888 launchers' choices) turns a
//     config's AttentionSpec into one AttnLaunch per kernel launch of the operation;
//   - the kernel model turns one AttnLaunch and a target into Triton 3.6's shared memory.
// An AttnLaunch says what Triton compiles: which @triton.jit kernel, its constexpr arguments
// by the names the kernel's signature gives them, the dtypes of its tensors, num_warps and
// num_stages. The measured rows (tests/data/attention-triton-3.6.*) record the same things,
// so each half is tested on its own against them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model::attention {

/// The @triton.jit kernels (file and function at the pinned engine commits).
enum class AttnKernel : std::uint8_t {
  VllmDecodeStage1,         ///< vllm/v1/attention/ops/triton_decode_attention.py _fwd_kernel_stage1
  VllmDecodeGroupedStage1,  ///< ... _fwd_grouped_kernel_stage1
  VllmDecodeStage2,         ///< ... _fwd_kernel_stage2
  VllmUnified,              ///< triton_unified_attention.py kernel_unified_attention (IS_3D)
  VllmReduceSegments,       ///< triton_unified_attention.py reduce_segments
  VllmPrefill,              ///< triton_prefill_attention.py _fwd_kernel
  VllmPrefixPrefill,        ///< prefix_prefill.py _fwd_kernel
  VllmPrefixPrefillAlibi,   ///< prefix_prefill.py _fwd_kernel_alibi
  SglangDecodeStage1,  ///< python/sglang/kernels/ops/attention/decode_attention.py _fwd_kernel_stage1
  SglangDecodeGroupedStage1,  ///< ... _fwd_grouped_kernel_stage1
  SglangDecodeStage2,         ///< ... _fwd_kernel_stage2
  SglangExtend,               ///< extend_attention.py _fwd_kernel
  SglangExtendUnified,        ///< extend_attention.py _fwd_kernel_unified
  SglangPrefill,              ///< prefill_attention.py _fwd_kernel (context_attention_fwd)
};

/// The kernel's function name as in its source ("_fwd_grouped_kernel_stage1").
std::string_view kernel_function(AttnKernel k);

/// One kernel launch as Triton compiles it.
struct AttnLaunch {
  AttnKernel kernel = AttnKernel::VllmDecodeStage1;
  /// Which launch of the operation this is: "stage1", "stage2", "main" or "reduce".
  std::string_view stage;
  /// The constexpr arguments, by the kernel signature's names ("BLOCK_N", "BLOCK_DMODEL",
  /// "kv_group_num", "logit_cap", "IS_MLA" ...), booleans as 0/1; also the non-constexpr
  /// integer arguments that Triton specialises on (value 1) when the launcher passes 1.
  std::vector<std::pair<std::string, double>> constexprs;
  /// Element types of the tensors: q (and the output), the K/V cache.
  DType q_dtype = DType::BF16, kv_dtype = DType::BF16, out_dtype = DType::BF16;
  int num_warps = 4;
  int num_stages = 3;  ///< as passed (the launcher's value, else Triton's default for the target)

  /// The constexpr `name`, if the launch passes it.
  std::optional<double> get(std::string_view name) const {
    for (const auto& [n, v] : constexprs)
      if (n == name) return v;
    return std::nullopt;
  }
  bool operator==(const AttnLaunch&) const = default;
};

/// What the kernel model says about one launch on one target.
struct KernelSmem {
  /// Triton 3.6 fails to compile the launch for this target (the error diagnostics, with the
  /// compiler's reason, are in the Findings passed to kernel_smem).
  bool invalid = false;
  /// The launch is declined (decline(): an attn_unmodelled error naming what the rules do not
  /// cover, with `invalid` set): no size is claimed and there is no fits / does-not-fit verdict.
  bool unmodelled = false;
  /// The buffers Triton's allocator places, at launch.num_stages: `storage.kernel` is the total
  /// (CompiledKernel.metadata.shared) with the buffers live at the peak as its parts.
  Storage storage;
  /// False when num_stages does not change the kernel's shared memory (the pipeliner does not
  /// run on its loops, or pipelines nothing that lives in shared memory): suggest says so.
  bool stages_matter = true;
};

/// The kernel model (kernel_model.cpp): Triton 3.6's shared memory of `launch` compiled for
/// `arch` (a compute capability, 75 ... 121).
KernelSmem kernel_smem(const AttnLaunch& launch, int arch, Findings& why);

/// Declines `launch` (kernel_model.cpp): a launch the measured rows show the rules do not
/// cover gets the error attn_unmodelled {kernel, what} instead of a wrong size, and `r` is
/// marked unmodelled and invalid (the result has no smem_bytes and no verdict). `what` names
/// the class of launch ("SGLang _fwd_kernel on sm_75 with a sliding window"); it is copied.
/// In kernel_smem: `decline(r, why, l, "..."); return r;`
void decline(KernelSmem& r, Findings& why, const AttnLaunch& launch, std::string_view what);

}  // namespace tilefit::model::attention
