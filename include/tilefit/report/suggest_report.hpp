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

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/report/format.hpp"

namespace tilefit::report {

struct SuggestRun {
  analysis::CheckRun check;
  /// The suggestions of each entry of `check` (empty for those that fit or cannot use them).
  std::vector<std::vector<analysis::Suggestion>> suggestions;
};

/// "stages: auto -> 2; tile.k: 256 -> 128".
std::string change_text(const std::vector<analysis::FieldChange>& changes);

/// `tilefit suggest`'s output (table, json, csv or markdown), streamed as check's is
/// (CheckWriter): each config's result and its suggestions are written (or, for the first
/// kTableLookAhead rows of a text table, held) as they come and then dropped; the Markdown list
/// of suggestions, which follows the table, is kept in a temporary file past 1 MiB. The output is
/// byte for byte what suggest_table / suggest_markdown / suggest_csv / suggest_json(...).dump(2)
/// give for the same run.
class SuggestWriter {
 public:
  SuggestWriter(Format format, const analysis::CheckRun& head, CheckWriter::Emit emit,
                std::function<bool()> stopped = {});
  ~SuggestWriter();
  /// A config's result and its suggestions (empty for one that fits or cannot use them).
  void entry(analysis::Entry&& e, std::vector<analysis::Suggestion>&& suggestions);
  void problem(analysis::Problem&& p);
  /// Writes what is held and the end of the document.
  void finish(const analysis::Tally& tally);
  /// True once the output failed.
  bool stopped() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// A whole run at once (the same writer).
std::string suggest_table(const SuggestRun& run);
std::string suggest_markdown(const SuggestRun& run);
std::string suggest_csv(const SuggestRun& run);
nlohmann::ordered_json suggest_json(const SuggestRun& run);

}  // namespace tilefit::report
