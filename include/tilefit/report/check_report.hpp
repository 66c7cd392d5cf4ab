// What `tilefit check` prints: a table a person reads and JSON for scripts, both from one
// analysis::CheckRun (collect once, render twice). Rendering only: no evaluation, no I/O.
//
// Table sample (render_table):
//   NAME                  KERNEL             ARCH    TILE         STAGES  MAX  SMEM / LIMIT (B)  HEADROOM  CTAs/SM  VERDICT
//   finalize_128x256x128  sm120_blockscaled  sm_120  128x256x128  3 auto    2   102400 / 101376     -1024        -  DOES NOT FIT
//       - the builder picks 3 stages but the kernel then needs 102400 B > 101376 B (over by 1024 B): ...
//
//   1 config: 0 fit, 1 do not fit, 0 invalid
//
// JSON sample (to_json): {"schema_version": 3, "tool": "tilefit", "target": {"mode": ...},
//   "results": [{"name", "file", "index", "kernel", "kernel_reason", "cutlass_kernel", "arch",
//   "tile", "fits", "status", "stages", ..., "target": {...}, "notes": [...],
//   "diagnostics": [...]}], "errors": [...], "summary": {...}}
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tilefit/analysis/check.hpp"
#include "tilefit/model/result.hpp"
#include "tilefit/report/format.hpp"
#include "tilefit/report/summary_line.hpp"
#include "tilefit/report/tile_text.hpp"
#include "tilefit/report/verdict_text.hpp"

namespace tilefit::report {

/// The text table's column widths come from the first results (a bounded look-ahead); a later
/// cell that is wider widens only its own row. The JSON, CSV and Markdown rows never wait.
inline constexpr std::size_t kTableLookAhead = 1000;

/// `tilefit check`'s output, streamed: each result is written (or, for the first
/// kTableLookAhead rows of a text table, held) as it comes and then dropped; what the format
/// puts at the end (JSON's errors and summary, Markdown's and the matrix's notes, the summary
/// line) follows finish(). Notes kept for the end go to a temporary file past 1 MiB. The
/// output of every format is byte for byte what render_table / render_markdown / render_csv /
/// render_matrix / to_json(...).dump(2) give for the same run.
class CheckWriter : public analysis::CheckSink {
 public:
  using Emit = std::function<void(std::string_view)>;
  /// What a report built on check's adds to it (suggest's, tilefit/report/suggest_report.hpp).
  struct Extras {
    /// Text table: lines after a row's own (its diagnostics).
    std::function<void(std::string& out, const analysis::Entry&)> after_row;
    /// JSON: writes a result instead of append_result_json(out, e, 4).
    std::function<void(std::string& out, const analysis::Entry&)> json_result;
    /// JSON: members after "summary", each as ",\n  \"key\": value".
    std::string json_tail;
  };
  /// `head`: a run's mode, archs and common target (CheckStream::head()); `stopped`: true once
  /// the output failed.
  /// `bars`: with `breakdown`, the table also draws each config's budget as a one-line bar
  /// (report/budget_bar.hpp; for a terminal).
  static std::unique_ptr<CheckWriter> make(Format format, bool breakdown,
                                           const analysis::CheckRun& head, Emit emit,
                                           std::function<bool()> stopped = {}, bool bars = false,
                                           Extras extras = {});
  /// Writes what is held and the end of the document.
  virtual void finish(const analysis::Tally& tally) = 0;
  bool stopped() const override { return stopped_ && stopped_(); }

 private:
  std::function<bool()> stopped_;
};

/// One line per config, its diagnostics beneath, a summary line. `breakdown` adds the bytes per
/// component, the limits used and the CUTLASS kernel under each config; with `bars` as well, each
/// config's budget as a one-line bar of block characters and their legend (for a terminal).
std::string render_table(const analysis::CheckRun& run, bool breakdown, bool bars = false);

/// Markdown: the results table (GitHub Markdown), then each config's diagnostics as a list, then
/// the summary line.
std::string render_markdown(const analysis::CheckRun& run);

/// CSV (tilefit/report/csv.hpp): a header and one row per result, the config as JSON.
std::string render_csv(const analysis::CheckRun& run);

/// Several architectures (run.archs): configs x architectures, each cell the verdict and the
/// stage count ("fits (4)", "DOES NOT FIT (3)", "INVALID"); the error diagnostics of the cells
/// that are not "fits" follow, one line each, then the summary. `markdown` for a Markdown table.
/// Sample:
///   NAME                  sm_90     sm_120
///   bf16_coop_128x256x64  fits (4)  INVALID
std::string render_matrix(const analysis::CheckRun& run, bool markdown);

/// JSON for scripts: schema_version, tool, target, results, errors, summary.
nlohmann::ordered_json to_json(const analysis::CheckRun& run);
/// The same with the summary of `tally` (a streamed run's: files_skipped, ...).
nlohmann::ordered_json to_json(const analysis::CheckRun& run, const analysis::Tally& tally);

/// One result as a JSON object (also used by sweep and suggest).
nlohmann::ordered_json result_json(const analysis::Entry& e);
/// The same result written straight as text into `out`: result_json(e).dump(2) with later lines
/// indented by `indent` more spaces (what the streamed JSON document holds), without the tree.
void append_result_json(std::string& out, const analysis::Entry& e, unsigned indent);

/// One problem as a JSON object: kind, file, index, config, field, message, text.
nlohmann::ordered_json problem_json(const analysis::Problem& p);

/// The messages of a result's diagnostics, in order (the JSON `notes`).
std::vector<std::string> notes(const model::Result& r);

}  // namespace tilefit::report
