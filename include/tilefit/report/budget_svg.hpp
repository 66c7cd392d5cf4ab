// `tilefit check --format svg`: each config's shared-memory budget as one horizontal stacked bar
// — its components (A, B, scale factors, epilogue, barriers, tensormaps, scheduler, padding …, as
// in `--breakdown`) against a line at the limit, the part over the limit hatched, the stage count
// built and the largest that fits written beside it. Rendering only: no evaluation, no I/O.
//
// The chart holds compact records (BudgetRecord: name, arch, tile, the non-zero components,
// smem, limit, stages, max_stages, status, one note), appended one at a time, so a caller that
// streams results keeps only these: at most kMaxBudgetBars bars are drawn; the configs after that
// are counted by status in one line under the last bar ("… 1000 more configs not drawn").
//
// Sample (render(), abridged; a <title> on every bar and segment carries the exact numbers):
//   <svg … viewBox="0 0 840 250" font-family="sans-serif">
//   <text x="16" y="24" font-size="16" font-weight="bold">Shared memory per config</text>
//   <g><title>finalize_128x256x128 (sm_120, 128x256x128): 102400 B at 3 stages (auto), over the
//      limit 101376 B by 1024 B; at most 2 stages fit (74752 B)</title>
//   <rect x="230" y="70" width="192" height="16" fill="#4e79a7"><title>A: 49152 B</title></rect> …
//   <rect … fill="url(#over)" …><title>over the limit by 1024 B</title></rect></g>
//   <line … stroke="#111111" …/>   (the limit)
//   <text …>3 stages (auto) · max 2 · over by 1024 B</text>
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tilefit/analysis/check.hpp"
#include "tilefit/model/layout.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::report {

/// What one bar needs of a result (a few hundred bytes, whatever the config).
struct BudgetRecord {
  std::string name;
  int arch = 0;
  std::string tile;                                              ///< "128x256x128"
  std::vector<std::pair<model::Component, model::Bytes>> parts;  ///< non-zero, in component order
  std::optional<model::Bytes> smem;                              ///< unset: it cannot be built
  model::Bytes limit = 0;
  int stages = 0;
  bool auto_stages = false;
  int max_stages = 0;
  std::optional<model::Bytes> max_stages_smem;
  model::Status status = model::Status::Invalid;
  std::string note;  ///< the first error's sentence (why it does not fit, why it is invalid)
};

/// The record of one analysed config.
BudgetRecord budget_record(const analysis::Entry& e);

/// The most bars one picture draws (the rest are counted, not drawn).
inline constexpr std::size_t kMaxBudgetBars = 256;

class BudgetChart {
 public:
  /// Appends one config (beyond kMaxBudgetBars only its status is counted).
  void add(BudgetRecord r);
  /// The SVG document; `errors`: input or device errors of the run (counted in the summary).
  std::string render(std::size_t errors = 0) const;

 private:
  std::vector<BudgetRecord> bars_;
  analysis::Tally all_, dropped_;
};

/// Every entry of `run` as a bar (BudgetChart).
std::string render_budget_svg(const analysis::CheckRun& run);

}  // namespace tilefit::report
