#include "tilefit/report/check_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/buffered.hpp"
#include "report/budget_bar.hpp"
#include "tilefit/report/budget_svg.hpp"
#include "report/table.hpp"
#include "report/text.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/report/json.hpp"
#include "report/json_fields.hpp"
#include "report/result_columns.hpp"
#include "tilefit/report/pretty_json.hpp"

namespace tilefit::report {
namespace {

using model::Component;
using model::Status;
using nlohmann::ordered_json;

std::string source_text(const analysis::Target& t) {
  if (t.source == analysis::Target::Source::device)
    return fmt::format("device {} ({})", t.device, t.device_name);
  return "built-in table";
}

/// "vllm@6adad087 (commit 6adad08767583f52eb4d2122111af0bf638ed5e6, 2026-08-14)": whose launch
/// rules a config of an engine was analysed with.
std::string engine_line(model::EngineRelease release) {
  const model::EngineReleaseInfo& i = model::engine_release_info(release);
  return fmt::format("{} (commit {}, {})", model::engine_release_text(release), i.commit, i.date);
}

/// Notes that say the same for every entry of a file (the AMD async-copy default: one switch for
/// the whole table), shown once per file: the first entry carries it, the others do not repeat
/// it. JSON keeps every result's diagnostics.
class OncePerFile {
 public:
  /// True when `d` is to be shown under an entry of `file`.
  bool show(const std::string& file, const model::Diagnostic& d) {
    if (d.code != model::Code::triton_amd_async_copy) return true;
    if (file != file_) {
      file_ = file;
      shown_.clear();
    }
    std::string text = message(d);
    if (std::find(shown_.begin(), shown_.end(), text) != shown_.end()) return false;
    shown_.push_back(std::move(text));
    return true;
  }

 private:
  std::string file_;
  std::vector<std::string> shown_;  ///< the file's notes shown (one per arch and value at most)
};

/// The lines under a row: breakdown, limits, kernel and engine (with `breakdown`), then the notes.
std::string under_row(const analysis::Entry& e, bool breakdown, bool bars, OncePerFile& once) {
  std::string out;
  const model::Result& r = e.result;
  if (breakdown && bars && r.breakdown && r.smem_bytes) out += "    " + budget_bar(r) + "\n";
  if (breakdown && r.breakdown) {
    const model::Field& f = *r.breakdown;
    std::string parts;
    for (int c = 0; c < model::kComponentCount; ++c) {
      if (f.parts[c] == 0) continue;
      parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ",
                           model::component_key(static_cast<Component>(c)), f.parts[c]);
    }
    out += fmt::format("    bytes: {} = {}\n", f.size, parts);
    out += fmt::format("    limits: {} ({}: opt-in {} B/block, {} B/SM, {} B reserved/block)\n",
                       source_text(e.target), model::arch_name(e.target.limits.sm),
                       e.target.limits.optin_per_block, e.target.limits.per_sm,
                       e.target.limits.reserved_per_block);
    if (!r.kernel.empty())
      out += fmt::format("    {}: {}\n", r.family.rfind("triton_", 0) == 0 ? "triton" : "cutlass",
                         kernel_description(r.kernel));
    if (e.config.engine != model::EngineRelease::None)
      out += fmt::format("    engine: {}\n", engine_line(e.config.engine));
  }
  for (const model::Diagnostic& d : r.diagnostics)
    if (once.show(e.file, d))
      out += fmt::format("    - {}{}\n", d.severity == model::Severity::warning ? "warning: " : "",
                         message(d));
  return out;
}

}  // namespace

std::vector<std::string> notes(const model::Result& r) {
  std::vector<std::string> out;
  out.reserve(r.diagnostics.size());
  for (const model::Diagnostic& d : r.diagnostics) out.push_back(message(d));
  return out;
}

namespace {

/// What the JSON document says before its results, and its summary.
ordered_json target_head(const analysis::CheckRun& run) {
  ordered_json target;
  target["mode"] = std::string(analysis::mode_name(run.mode));
  if (run.common_target) {
    emit::JsonTree t(target);
    emit::target_members(t, *run.common_target);
  }
  return target;
}

ordered_json summary_json(const analysis::Tally& n) {
  ordered_json s = {{"configs", n.configs},
                    {"fits", n.fits},
                    {"does_not_fit", n.does_not_fit},
                    {"invalid", n.invalid},
                    {"errors", n.errors}};
  if (n.files_skipped) s["files_skipped"] = n.files_skipped;
  return s;
}

std::vector<Table::Column> table_columns(bool markdown) {
  return report::table_columns(result_columns(), kTableKeys, markdown);
}

/// A column-aligned text table streamed: the first kTableLookAhead rows set the widths.
class AlignedRows {
 public:
  explicit AlignedRows(std::vector<Table::Column> cols) : table_(std::move(cols)) {}
  void add(std::vector<std::string> cells, std::string after, Buffered& out) {
    if (!fixed_) {
      table_.add_row(std::move(cells), std::move(after));
      if (table_.size() == kTableLookAhead) flush(out);
      return;
    }
    out.buf() += table_.row_line(cells, widths_);
    out.buf() += Table::after_text(after);
    out.maybe_flush();
  }
  /// Writes the held rows (with the head) and fixes the widths.
  void flush(Buffered& out) {
    if (fixed_) return;
    fixed_ = true;
    widths_ = table_.widths();
    out.buf() += table_.render();
    table_.clear();
    out.maybe_flush();
  }

 private:
  Table table_;
  bool fixed_ = false;
  std::vector<std::size_t> widths_;
};

class TableWriter final : public CheckWriter {
 public:
  TableWriter(bool breakdown, bool bars, Emit emit, Extras extras)
      : breakdown_(breakdown),
        bars_(breakdown && bars),
        out_(std::move(emit)),
        rows_(table_columns(false)),
        extras_(std::move(extras)) {}
  void entry(analysis::Entry&& e) override {
    any_ = true;
    std::string after = under_row(e, breakdown_, bars_, once_);
    if (extras_.after_row) extras_.after_row(after, e);
    rows_.add(result_cells(e, kTableKeys), std::move(after), out_);
  }
  void problem(analysis::Problem&&) override {}
  void finish(const analysis::Tally& t) override {
    rows_.flush(out_);
    out_.buf() += "\n";
    if (bars_ && any_) out_.buf() += budget_bar_legend() + "\n";
    out_.buf() += summary_line(t);
    out_.flush();
  }

 private:
  bool breakdown_;
  bool bars_;
  bool any_ = false;
  Buffered out_;
  AlignedRows rows_;
  OncePerFile once_;
  Extras extras_;
};

class MarkdownWriter final : public CheckWriter {
 public:
  explicit MarkdownWriter(Emit emit) : out_(std::move(emit)), table_(table_columns(true)) {}
  void entry(analysis::Entry&& e) override {
    if (!head_written_) out_.buf() += table_.markdown_head();
    head_written_ = true;
    out_.buf() += Table::markdown_row(result_cells(e, kTableKeys));
    // A tuned table's engine, once per file (and again when it changes).
    if (e.config.engine != model::EngineRelease::None &&
        (e.file != engine_file_ || e.config.engine != engine_)) {
      engine_file_ = e.file;
      engine_ = e.config.engine;
      notes_.append(fmt::format("- {}: launched as {}\n", markdown_code(e.file),
                                engine_line(e.config.engine)));
    }
    for (const model::Diagnostic& d : e.result.diagnostics)
      if (once_.show(e.file, d))
        notes_.append(fmt::format("- {}: {}\n", markdown_code(e.result.name), message(d)));
    out_.maybe_flush();
  }
  void problem(analysis::Problem&&) override {}
  void finish(const analysis::Tally& t) override {
    if (!notes_.empty()) {
      out_.buf() += "\n";
      notes_.drain(out_);
    }
    out_.buf() += "\n";
    out_.buf() += summary_line(t);
    out_.flush();
  }

 private:
  Buffered out_;
  Table table_;
  bool head_written_ = false;
  Spill notes_;
  std::string engine_file_;
  model::EngineRelease engine_ = model::EngineRelease::None;
  OncePerFile once_;
};

class CsvWriter final : public CheckWriter {
 public:
  explicit CsvWriter(Emit emit) : out_(std::move(emit)) { out_.buf() += csv_header(); }
  void entry(analysis::Entry&& e) override {
    append_csv_row(out_.buf(), e);
    out_.maybe_flush();
  }
  void problem(analysis::Problem&&) override {}
  void finish(const analysis::Tally&) override { out_.flush(); }

 private:
  Buffered out_;
};

/// Several architectures: one row per config (its consecutive entries), one column per arch.
class MatrixWriter final : public CheckWriter {
 public:
  MatrixWriter(bool markdown, const analysis::CheckRun& head, Emit emit)
      : markdown_(markdown),
        archs_(head.archs),
        out_(std::move(emit)),
        rows_(columns()),
        md_(columns()) {}

  void entry(analysis::Entry&& e) override {
    if (!row_.empty() && (e.file != file_ || e.index != index_)) end_row();
    if (row_.empty()) {
      file_ = e.file;
      index_ = e.index;
      row_.assign(archs_.size() + 1, "-");
      row_[0] = e.result.name;
    }
    const model::Result& r = e.result;
    for (std::size_t a = 0; a < archs_.size(); ++a)
      if (archs_[a] == r.arch) row_[a + 1] = matrix_cell(e);
    if (r.status == Status::Fits) return;
    for (const model::Diagnostic& d : r.diagnostics)
      if (d.severity == model::Severity::error)
        notes_.append(markdown_ ? fmt::format("- {} on {}: {}\n", markdown_code(r.name),
                                              model::arch_name(r.arch), message(d))
                                : fmt::format("    {} on {}: {}\n", r.name,
                                              model::arch_name(r.arch), message(d)));
  }
  void problem(analysis::Problem&&) override {}
  void finish(const analysis::Tally& t) override {
    if (!row_.empty()) end_row();
    if (!markdown_) rows_.flush(out_);
    if (!notes_.empty()) {
      out_.buf() += "\n";
      notes_.drain(out_);
    }
    out_.buf() += "\n";
    out_.buf() += summary_line(t, "result");
    out_.flush();
  }

 private:
  std::vector<Table::Column> columns() const {
    std::vector<Table::Column> cols{{markdown_ ? "name" : "NAME", Table::Align::left}};
    for (int sm : archs_) cols.push_back({model::arch_name(sm), Table::Align::left});
    return cols;
  }
  void end_row() {
    if (markdown_) {
      if (!head_written_) out_.buf() += md_.markdown_head();
      head_written_ = true;
      out_.buf() += Table::markdown_row(row_);
      out_.maybe_flush();
    } else {
      rows_.add(std::move(row_), "", out_);
    }
    row_.clear();
  }

  bool markdown_;
  std::vector<int> archs_;
  Buffered out_;
  AlignedRows rows_;
  Table md_;
  bool head_written_ = false;
  std::vector<std::string> row_;
  std::string file_;
  int index_ = -1;
  Spill notes_;
};

/// The document to_json(run).dump(2) writes, a result at a time.
class JsonWriter final : public CheckWriter {
 public:
  JsonWriter(const analysis::CheckRun& head, Emit emit, Extras extras)
      : out_(std::move(emit)), extras_(std::move(extras)) {
    out_.buf() += fmt::format(
        "{{\n  \"schema_version\": {},\n  \"tool\": \"tilefit\",\n  \"target\": ", kSchemaVersion);
    append_pretty_json(out_.buf(), target_head(head), 2);
    out_.buf() += ",\n  \"results\": [";
  }
  void entry(analysis::Entry&& e) override {
    out_.buf() += any_ ? ",\n    " : "\n    ";
    any_ = true;
    if (extras_.json_result)
      extras_.json_result(out_.buf(), e);
    else
      append_result_json(out_.buf(), e, 4);
    out_.maybe_flush();
  }
  void problem(analysis::Problem&& p) override { errors_.push_back(problem_json(p)); }
  void finish(const analysis::Tally& t) override {
    out_.buf() += any_ ? "\n  ]" : "]";
    out_.buf() += ",\n  \"errors\": ";
    append_pretty_json(out_.buf(), errors_, 2);
    out_.buf() += ",\n  \"summary\": ";
    append_pretty_json(out_.buf(), summary_json(t), 2);
    out_.buf() += extras_.json_tail + "\n}\n";
    out_.flush();
  }

 private:
  Buffered out_;
  bool any_ = false;
  ordered_json errors_ = ordered_json::array();
  Extras extras_;
};

/// The budget picture (report/budget_svg.hpp): compact records only, drawn at the end.
class SvgWriter final : public CheckWriter {
 public:
  explicit SvgWriter(Emit emit) : emit_(std::move(emit)) {}
  void entry(analysis::Entry&& e) override { chart_.add(budget_record(e)); }
  void problem(analysis::Problem&&) override { ++errors_; }
  void finish(const analysis::Tally&) override { emit_(chart_.render(errors_)); }

 private:
  Emit emit_;
  BudgetChart chart_;
  std::size_t errors_ = 0;
};

/// Feeds a whole run to a writer and returns the text.
std::string render(Format format, bool breakdown, const analysis::CheckRun& run,
                   bool bars = false) {
  std::string text;
  auto w = CheckWriter::make(
      format, breakdown, run, [&text](std::string_view s) { text += s; }, {}, bars);
  for (const analysis::Entry& e : run.entries) w->entry(analysis::Entry(e));
  for (const analysis::Problem& p : run.problems) w->problem(analysis::Problem(p));
  w->finish(analysis::tally(run));
  return text;
}

}  // namespace

std::unique_ptr<CheckWriter> CheckWriter::make(Format format, bool breakdown,
                                               const analysis::CheckRun& head, Emit emit,
                                               std::function<bool()> stopped, bool bars,
                                               Extras extras) {
  std::unique_ptr<CheckWriter> w;
  const bool matrix = head.archs.size() > 1;
  switch (format) {
    case Format::json:
      w = std::make_unique<JsonWriter>(head, std::move(emit), std::move(extras));
      break;
    case Format::csv:
      w = std::make_unique<CsvWriter>(std::move(emit));
      break;
    case Format::svg:
      w = std::make_unique<SvgWriter>(std::move(emit));
      break;
    case Format::markdown:
      if (matrix)
        w = std::make_unique<MatrixWriter>(true, head, std::move(emit));
      else
        w = std::make_unique<MarkdownWriter>(std::move(emit));
      break;
    case Format::table:
      if (matrix)
        w = std::make_unique<MatrixWriter>(false, head, std::move(emit));
      else
        w = std::make_unique<TableWriter>(breakdown, bars, std::move(emit), std::move(extras));
      break;
  }
  w->stopped_ = std::move(stopped);
  return w;
}

std::string render_table(const analysis::CheckRun& run, bool breakdown, bool bars) {
  return render(Format::table, breakdown, run, bars);
}

std::string render_markdown(const analysis::CheckRun& run) {
  return render(Format::markdown, false, run);
}

std::string render_csv(const analysis::CheckRun& run) { return render(Format::csv, false, run); }

std::string render_matrix(const analysis::CheckRun& run, bool markdown) {
  return render(markdown ? Format::markdown : Format::table, false, run);
}

namespace {

/// A result's members, in the order of its columns (report/result_columns.hpp), for either emitter.
template <class Out>
void result_fields(Out& o, const analysis::Entry& e) {
  o.begin_object();
  write_members(o, result_columns(), e);
  o.end();
}

}  // namespace

ordered_json result_json(const analysis::Entry& e) {
  emit::JsonTree t;
  result_fields(t, e);
  return t.take();
}

void append_result_json(std::string& out, const analysis::Entry& e, unsigned indent) {
  emit::JsonText t(out, indent);
  result_fields(t, e);
}

ordered_json problem_json(const analysis::Problem& p) {
  ordered_json o;
  o["kind"] = p.kind == analysis::Problem::Kind::device ? "device" : "input";
  o["file"] = p.where.file;
  o["index"] = p.where.index >= 0 ? ordered_json(p.where.index) : ordered_json();
  o["config"] = p.where.config_name;
  o["field"] = p.where.field;
  o["message"] = p.where.message;
  o["text"] = analysis::problem_text(p);
  return o;
}

ordered_json to_json(const analysis::CheckRun& run) { return to_json(run, analysis::tally(run)); }

ordered_json to_json(const analysis::CheckRun& run, const analysis::Tally& tally) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = "tilefit";
  j["target"] = target_head(run);
  ordered_json results = ordered_json::array();
  for (const analysis::Entry& e : run.entries) results.push_back(result_json(e));
  j["results"] = std::move(results);
  ordered_json errors = ordered_json::array();
  for (const analysis::Problem& p : run.problems) errors.push_back(problem_json(p));
  j["errors"] = std::move(errors);
  j["summary"] = summary_json(tally);
  return j;
}

}  // namespace tilefit::report
