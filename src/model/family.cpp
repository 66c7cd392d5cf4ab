#include "tilefit/model/family.hpp"

#include <algorithm>

namespace tilefit::model {

int StageRule::automatic() const {
  if (stage_bytes <= 0) return 0;
  return static_cast<int>(std::max<Bytes>(0, (builder_capacity - carveout) / stage_bytes));
}

void Plan::choose_stages(const std::optional<int>& explicit_stages) {
  auto_stages = !explicit_stages.has_value();
  stages = explicit_stages ? *explicit_stages : rule.automatic();
}

void Plan::take(Findings&& f) {
  invalid = invalid || f.invalid();
  no_storage = no_storage || f.no_storage();
  for (Diagnostic& d : f.reasons()) reasons.push_back(std::move(d));
  for (Diagnostic& d : f.notes()) notes.push_back(std::move(d));
}

}  // namespace tilefit::model
