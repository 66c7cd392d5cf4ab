// The answer for one config.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

enum class Status { Fits, DoesNotFit, Invalid };

std::string_view status_name(Status s);

struct Result {
  std::string name;
  std::string family;         ///< kernel family modelled
  std::string family_reason;  ///< why that family (given, or how it was inferred)
  std::string kernel;         ///< CUTLASS schedule / kernel the config maps to
  int arch = 0;
  Status status = Status::Invalid;
  bool fits = false;
  int stages = 0;             ///< what the kernel is built with (auto: the builder's pick)
  bool auto_stages = true;
  int max_stages = 0;         ///< largest count whose SharedStorage fits (0: none)
  std::optional<Bytes> max_stages_smem;  ///< SharedStorage at max_stages
  std::optional<Bytes> smem_bytes;      ///< dynamic smem requested at `stages`
  Bytes limit_bytes = 0;
  std::optional<Bytes> headroom_bytes;  ///< limit - smem (negative when over)
  int ctas_per_sm = 0;
  std::optional<Field> breakdown;       ///< parts sum to smem_bytes
  std::optional<Bytes> epilogue_smem;   ///< sizeof(CollectiveEpilogue::SharedStorage)
  std::optional<Bytes> mainloop_smem;   ///< sizeof(CollectiveMainloop::SharedStorage)
  std::vector<std::string> notes;
};

}  // namespace tilefit::model
