// The list of kernel families, in inference order: the first family whose claims()
// accepts a config models it. Adding a family: a file in families/ and a line here.
#include <array>

#include "families/families.hpp"

namespace tilefit::model {

std::span<const KernelFamily* const> families() {
  static const std::array kFamilies = {
      // Families a config names by an explicit field come first (Triton kernels, engine
      // launchers), then the CUTLASS families inferred from arch and types.
      // Inference-engine FP8 kernels (issue 11): configs with a `launcher`.
      &engine_fp8_sm89_family(),
      &engine_fp8_sm90_family(),
      &engine_fp8_sm100_family(),
      &engine_fp8_sm120_family(),
      // Triton 3.6 kernels (issue 12): configs with a Triton kernel family.
      &triton_matmul_family(),
      &triton_fused_moe_family(),
      &sm120_blockscaled_family(),
      &sm120_dense_family(),
      &sm90_tma_ws_family(),
      &sm100_umma_family(),
      &sm80_multistage_family(),
  };
  return kFamilies;
}

const KernelFamily* find_family(std::string_view name) {
  for (const KernelFamily* f : families())
    if (f->name() == name) return f;
  return nullptr;
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
