// The answer for one config.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/kernel_text.hpp"
#include "tilefit/model/launch_summary.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

enum class Status { Fits, DoesNotFit, Invalid };

/// "fits", "does_not_fit", "invalid".
std::string_view status_name(Status s);

struct Result {
  std::string name;
  std::string_view family;  ///< kernel family modelled (static storage); empty when none
  /// Why that family: given, inferred (a claim_* code), or why none was found (full detail).
  std::optional<Diagnostic> family_reason;
  /// The CUTLASS schedule / kernel the config maps to, as parts (full detail only; the words:
  /// report::kernel_description).
  KernelDescription kernel;
  int arch = 0;
  Status status = Status::Invalid;
  bool fits = false;
  int stages = 0;  ///< what the kernel is built with (auto: the builder's pick)
  bool auto_stages = true;
  StageParam stage_param = StageParam::CutlassStageCount;  ///< how the family spells stages
  int max_stages = 0;                    ///< largest count whose SharedStorage fits (0: none)
  std::optional<Bytes> max_stages_smem;  ///< SharedStorage at max_stages
  std::optional<Bytes> smem_bytes;       ///< dynamic smem requested at `stages`
  Bytes limit_bytes = 0;
  std::optional<Bytes> headroom_bytes;  ///< limit - smem (negative when over)
  int ctas_per_sm = 0;
  std::optional<Field> breakdown;      ///< parts sum to smem_bytes (full detail only)
  std::optional<Bytes> epilogue_smem;  ///< sizeof(CollectiveEpilogue::SharedStorage)
  std::optional<Bytes> mainloop_smem;  ///< sizeof(CollectiveMainloop::SharedStorage)
  /// The epilogue tile the builder decided (epilogues that stage tiles in shared memory).
  std::optional<std::array<long long, 2>> epilogue_tile;
  /// Why it is invalid or does not fit, what fits instead, and what is worth knowing, in the
  /// order a reader wants them (full detail only).
  std::vector<Diagnostic> diagnostics;
  /// Every kernel launch of the config's operation (triton_attention), with its inferred
  /// constexprs, warps, stages and bytes; the verdict is the worst. Empty for other families.
  std::vector<LaunchSummary> launches;
  /// The engine refuses the configuration before any kernel runs (vLLM: FP8 KV below sm_89),
  /// whatever the shared memory says (triton_attention).
  bool engine_refuses = false;
};

}  // namespace tilefit::model
