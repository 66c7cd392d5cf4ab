// The table of kernel families (tilefit/model/family_table.hpp), in inference order: the first
// family whose claims() accepts a config models it. Adding a family: its folder in families/ and
// a row here (family_table.hpp lists every file it touches).
#include <array>
#include <tuple>
#include <type_traits>

#include "families/families.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/family_table.hpp"

namespace tilefit::model {
namespace {

// The versions cited by the families' own files: CUTLASS 4.7.0 at 7107b05 (sm80_multistage.cpp,
// cutlass2x_storage.hpp, engine_fp8.hpp), Triton at acd8104 (the 3.6.0 wheel's sources:
// triton_gemm.hpp, triton_layout.hpp), the vLLM and SGLang files and commits in the engine
// families' headers and engine_fp8.hpp, vLLM's fused_moe.py in triton_fused_moe.cpp.
constexpr std::string_view kCutlass = "CUTLASS 4.7.0 (7107b05)";

const auto& rows() {
  using K = FamilyKind;
  static const auto kRows = std::to_array<FamilyRow>({
      // Families a config names by an explicit field come first (Triton kernels, engine
      // launchers), then the CUTLASS families inferred from arch and types.
      // Inference-engine FP8 kernels (issue 11): configs with a `launcher`.
      {&engine_fp8_sm89_family(), K::EngineCutlass,
       "vLLM @1051220e, SGLang @04ec0bc2; CUTLASS 4.7.0 (7107b05)", "engine_fp8_sm89",
       "engine_fp8 sm80_multistage"},
      {&engine_fp8_sm90_family(), K::EngineCutlass,
       "vLLM @1051220e, SGLang @04ec0bc2 (blockwise @b227f632); CUTLASS 4.7.0 (7107b05)",
       "engine_fp8_sm90", "engine_fp8 sm90_tma_ws"},
      {&engine_fp8_sm100_family(), K::EngineCutlass,
       "vLLM @1051220e (blockwise @0f17ee06), SGLang @04ec0bc2 (blockwise @b227f632); CUTLASS "
       "4.7.0 (7107b05)",
       "engine_fp8_sm100", "engine_fp8 sm100_umma"},
      {&engine_fp8_sm120_family(), K::EngineCutlass,
       "vLLM @1051220e, SGLang @04ec0bc2 (blockwise @9ee53c76); CUTLASS 4.7.0 (7107b05)",
       "engine_fp8_sm120", "engine_fp8 sm120"},
      // Triton 3.6 kernels (issue 12): configs with a Triton kernel family.
      {&triton_matmul_family(), K::Triton,
       "Triton 3.6.0 (acd8104), the matrix-multiplication tutorial", "triton_matmul", "triton"},
      {&triton_fused_moe_family(), K::Triton, "Triton 3.6.0 (acd8104); vLLM fused_moe.py @000d1458",
       "triton_fused_moe", "triton triton_matmul"},
      {&triton_block_matmul_family(), K::Triton,
       "Triton 3.6.0 (acd8104); vLLM fp8_utils.py, int8_utils.py @6adad087; SGLang "
       "fp8_kernel.py, int8_kernel.py @d6ef6888",
       "triton_block_matmul", "triton triton_matmul"},
      // Triton attention (issue 19): launcher inference + the attention kernel model.
      {&triton_attention_family(), K::Triton,
       "Triton 3.6.0 (acd8104); vLLM triton_decode_attention.py, triton_unified_attention.py, "
       "triton_prefill_attention.py, prefix_prefill.py @6adad087; SGLang decode_attention.py, "
       "extend_attention.py, prefill_attention.py @d6ef6888",
       "triton_attention", "triton"},
      {&sm120_blockscaled_family(), K::Cutlass, kCutlass, "sm120_blockscaled", "sm120"},
      {&sm120_dense_family(), K::Cutlass, kCutlass, "sm120_dense", "sm120"},
      {&sm90_tma_ws_family(), K::Cutlass, kCutlass, "sm90_tma_ws", ""},
      {&sm100_umma_family(), K::Cutlass, kCutlass, "sm100_umma", ""},
      {&sm80_multistage_family(), K::Cutlass, kCutlass, "sm80_multistage", ""},
  });
  return kRows;
}

}  // namespace

std::string_view kind_name(FamilyKind kind) {
  switch (kind) {
    case FamilyKind::Cutlass:
      return "CUTLASS";
    case FamilyKind::EngineCutlass:
      return "engine CUTLASS";
    case FamilyKind::Triton:
      return "Triton";
  }
  return "";
}

std::span<const FamilyRow> family_table() { return rows(); }

const FamilyRow* find_family_row(std::string_view name) {
  for (const FamilyRow& r : family_table())
    if (r.family->name() == name) return &r;
  return nullptr;
}

std::vector<int> family_archs(const KernelFamily& family) {
  std::vector<int> out;
  for (const ArchInfo& a : builtin_archs())
    if (family.runs_on(a.limits.sm)) out.push_back(a.limits.sm);
  return out;
}

std::span<const KernelFamily* const> families() {
  static const auto kFamilies = [] {
    std::array<const KernelFamily*, std::tuple_size_v<std::remove_cvref_t<decltype(rows())>>> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = rows()[i].family;
    return out;
  }();
  return kFamilies;
}

const KernelFamily* find_family(std::string_view name) {
  const FamilyRow* r = find_family_row(name);
  return r ? r->family : nullptr;
}

std::string family_choices() {
  std::string out;
  for (const KernelFamily* f : families()) {
    if (!out.empty()) out += ", ";
    out += f->name();
  }
  return out;
}

}  // namespace tilefit::model
