// One kernel launch of an operation that runs several (triton_attention, issue 19): what the
// launcher passes and what it needs in shared memory. A family's Plan carries them and the
// Result shows them (README "Triton attention").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tilefit/model/bytes.hpp"

namespace tilefit::model {

struct LaunchSummary {
  std::string stage;   ///< "stage1", "stage2", "main", "reduce"
  std::string kernel;  ///< the @triton.jit function ("_fwd_grouped_kernel_stage1")
  /// The constexprs by the kernel signature's names, as the launcher passes them.
  std::vector<std::pair<std::string, double>> constexprs;
  int num_warps = 0;
  int num_stages = 0;
  std::optional<Bytes> smem_bytes;  ///< Triton's metadata.shared; absent when it does not compile
  bool invalid = false;             ///< Triton fails to compile it for the target
  bool stages_matter = true;        ///< num_stages changes its shared memory
  bool fits = false;                ///< smem_bytes <= the target's limit (set by evaluate())

  bool operator==(const LaunchSummary&) const = default;
};

}  // namespace tilefit::model
