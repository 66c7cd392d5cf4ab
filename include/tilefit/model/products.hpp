// NVIDIA products by the name a GPU reports: torch.cuda.get_device_name() with spaces written as
// underscores, the `device_name` of vLLM's and SGLang's tuned fused-MoE files
// ("E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3.json"). Used to pick the architecture of a
// tuned table when no --arch or --device is given.
#pragma once

#include <span>
#include <string_view>

namespace tilefit::model {

/// One product name and its compute capability (or AMD target id: kGfx942, kGfx950).
struct Product {
  std::string_view device_name;  ///< as in the file names: "NVIDIA_H100_80GB_HBM3"
  std::string_view product;      ///< for messages: "NVIDIA H100 SXM5 80GB"
  int sm = 0;                    ///< compute capability, major*10+minor
};

/// The table of known names (exact spellings seen in vLLM's and SGLang's config folders and the
/// names NVIDIA's drivers report), sm_75 … sm_121, then the AMD Instinct names (gfx942, gfx950)
/// as torch.cuda.get_device_name() returns them under ROCm.
std::span<const Product> products();

/// What a device_name names.
struct ProductMatch {
  std::string_view product;  ///< "NVIDIA H100 SXM5 80GB", or a family phrase for a token match
  int sm = 0;                ///< 0: unknown (not NVIDIA, or not in the table)
  bool exact = false;        ///< found by its exact spelling (else by its model token)
  /// sm == 0 and the name is a known GPU that tilefit does not model, or one that does not say
  /// which GPU it is: why, as a clause for messages ("an AMD Radeon (RDNA 4, gfx1201) GPU, not
  /// a modelled target"); empty otherwise.
  std::string_view not_modelled{};
};

/// Looks `device_name` up: its exact spelling first (case-insensitive, spaces and underscores
/// alike), then the model token in it (H100, H200, L40S, RTX_5090, GB10, ...; vLLM maps every
/// name with an H200 token to NVIDIA_H200; AMD Instinct MI300/MI325/MI308 -> gfx942,
/// MI350/MI355 -> gfx950). AMD Radeon names are never guessed: sm 0 with `not_modelled` saying
/// why. {"", 0} when unknown.
ProductMatch find_product(std::string_view device_name);

}  // namespace tilefit::model
