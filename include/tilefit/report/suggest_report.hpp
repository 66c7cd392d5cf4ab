// What `tilefit suggest` prints: each config as `check` reports it, and under each one that does
// not fit, its nearest alternatives that do. Table sample:
//
//   finalize_128x256x128  sm_120  128x256x128  3 auto  102400 / 101376  DOES NOT FIT
//     1. stages: auto -> 2                          74752 B, saves 27648 B, 2 stages   (distance 1)
//     2. swap_ab: false -> true                     74752 B, saves 27648 B, 2 stages   (distance 2)
//
// JSON: check's document, each result with "suggestions": [{"config", "change", "changes",
// "distance", "smem_bytes", "saved_bytes", "stages", "max_stages", "status"}]. CSV: one row per
// suggestion. Markdown: the check table, then the suggestions of each config as a list.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"

namespace tilefit::report {

struct SuggestRun {
  analysis::CheckRun check;
  /// The suggestions of each entry of `check` (empty for those that fit or cannot use them).
  std::vector<std::vector<analysis::Suggestion>> suggestions;
};

/// "stages: auto -> 2; tile.k: 256 -> 128".
std::string change_text(const std::vector<analysis::FieldChange>& changes);

std::string suggest_table(const SuggestRun& run);
std::string suggest_markdown(const SuggestRun& run);
std::string suggest_csv(const SuggestRun& run);
nlohmann::ordered_json suggest_json(const SuggestRun& run);

}  // namespace tilefit::report
