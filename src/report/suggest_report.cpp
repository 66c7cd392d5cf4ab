#include "tilefit/report/suggest_report.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

#include "report/buffered.hpp"
#include "report/result_columns.hpp"
#include "report/suggest_columns.hpp"

#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::report {
namespace {

using nlohmann::ordered_json;

void num(std::string& out, long long v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

using T = ColumnType;
using R = SuggestRow;

const Column<R> kSuggestColumns[] = {
    {.key = "name",
     .description = "the config the suggestion is for",
     .csv = "name",
     .csv_field = [](CsvCell<R>& c) { append_csv_field(c.out, c.row.entry.result.name); }},
    {.key = "file",
     .description = "its file",
     .csv = "file",
     .csv_field = [](CsvCell<R>& c) { append_csv_field(c.out, c.row.entry.file); }},
    {.key = "index",
     .type = T::count,
     .description = "its position in that file",
     .csv = "index",
     .csv_field = [](CsvCell<R>& c) { num(c.out, c.row.entry.index); }},
    {.key = "arch",
     .type = T::arch,
     .description = "the architecture",
     .csv = "arch",
     .csv_field = [](CsvCell<R>& c) { c.out += model::arch_name(c.row.entry.result.arch); }},
    {.key = "rank",
     .type = T::count,
     .description = "1 for the nearest",
     .csv = "rank",
     .csv_field = [](CsvCell<R>& c) { num(c.out, static_cast<long long>(c.row.rank)); }},
    {.key = "config",
     .type = T::config,
     .description = "the changed config",
     .json = json_fns<R>([](auto& o, const R& r) { o.raw(io::config_json(r.suggestion.config)); }),
     .csv = "config",
     .csv_field =
         [](CsvCell<R>& c) { append_csv_field(c.out, io::config_json(c.row.suggestion.config)); }},
    {.key = "change",
     .description = "what changed, in words (\"field: from -> to; ...\")",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(change_text(r.suggestion.changes)); }),
     .csv = "change",
     .csv_field =
         [](CsvCell<R>& c) { append_csv_field(c.out, change_text(c.row.suggestion.changes)); }},
    {.key = "changes",
     .type = T::changes,
     .description = "what changed, field by field",
     .json = json_fns<R>([](auto& o, const R& r) {
       o.begin_array();
       for (const analysis::FieldChange& ch : r.suggestion.changes) {
         o.begin_object();
         o.key("field"), o.value(ch.field);
         o.key("from"), o.value(ch.from);
         o.key("to"), o.value(ch.to);
         o.end();
       }
       o.end();
     })},
    {.key = "distance",
     .type = T::positive,
     .description = "how many moves away from the config",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(r.suggestion.distance); }),
     .csv = "distance",
     .csv_field = [](CsvCell<R>& c) { num(c.out, c.row.suggestion.distance); }},
    {.key = "smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the shared memory it requests",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(*r.suggestion.result.smem_bytes); }),
     .csv = "smem_bytes",
     .csv_field = [](CsvCell<R>& c) { num(c.out, *c.row.suggestion.result.smem_bytes); }},
    {.key = "saved_bytes",
     .type = T::integer,
     .unit = Unit::bytes,
     .description = "the config's bytes (or what its builder pick needs) minus these",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(r.suggestion.saved_bytes); }),
     .csv = "saved_bytes",
     .csv_field = [](CsvCell<R>& c) { num(c.out, c.row.suggestion.saved_bytes); }},
    {.key = "limit_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the opt-in limit per block",
     .csv = "limit_bytes",
     .csv_field = [](CsvCell<R>& c) { num(c.out, c.row.suggestion.result.limit_bytes); }},
    {.key = "stages",
     .type = T::integer,
     .description = "the stages it is built with",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(r.suggestion.result.stages); }),
     .csv = "stages",
     .csv_field = [](CsvCell<R>& c) { num(c.out, c.row.suggestion.result.stages); }},
    {.key = "max_stages",
     .type = T::integer,
     .description = "the largest stage count that fits",
     .json = json_fns<R>([](auto& o, const R& r) { o.value(r.suggestion.result.max_stages); })},
    {.key = "status",
     .type = T::fits,
     .description = "fits (a suggestion always does)",
     .json = json_fns<R>([](auto& o, const R& r) {
       o.value(std::string(model::status_name(r.suggestion.result.status)));
     }),
     .csv = "status",
     .csv_field =
         [](CsvCell<R>& c) { c.out += model::status_name(c.row.suggestion.result.status); }},
    {.key = "headroom_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "limit_bytes - smem_bytes",
     .json =
         json_fns<R>([](auto& o, const R& r) { o.value(*r.suggestion.result.headroom_bytes); })},
};

std::string line_of(std::size_t rank, const analysis::Suggestion& s) {
  const model::Result& r = s.result;
  return fmt::format("{}. {}: {} B, saves {} B, {} stage{} (distance {})", rank,
                     change_text(s.changes), *r.smem_bytes, s.saved_bytes, r.stages,
                     r.stages == 1 ? "" : "s", s.distance);
}

}  // namespace

std::string change_text(const std::vector<analysis::FieldChange>& changes) {
  std::string out;
  for (const analysis::FieldChange& c : changes)
    out += (out.empty() ? "" : "; ") + c.field + ": " + c.from + " -> " + c.to;
  return out;
}

std::span<const Column<SuggestRow>> suggest_columns() { return kSuggestColumns; }

struct SuggestWriter::State {
  Format format;
  /// check's writer (table, Markdown, JSON) with suggest's additions; none for CSV.
  std::unique_ptr<CheckWriter> check;
  /// The suggestions of the entry being written (for check's writer's additions).
  const std::vector<analysis::Suggestion>* current = nullptr;
  bool current_wants = false;
  Buffered out;
  std::function<bool()> stopped;
  std::vector<const Column<SuggestRow>*> columns;  ///< CSV
  Spill list;                                      ///< Markdown: the suggestions after the table
  std::size_t wanted = 0, none = 0, invalid = 0;

  State(Format f, CheckWriter::Emit emit) : format(f), out(std::move(emit)) {}

  /// How many configs wanted suggestions and how many got none.
  std::string tally_line() const {
    std::string text = fmt::format("{} config{} to fix, {} with no alternative that fits", wanted,
                                   wanted == 1 ? "" : "s", none);
    // Invalid configs have no kernel to shrink: say so rather than "0 configs to fix" alone.
    if (invalid > 0)
      text += fmt::format(
          "; {} invalid config{} (no kernel is built for {}: see the reason under {}) "
          "{} nothing to suggest",
          invalid, invalid == 1 ? "" : "s", invalid == 1 ? "it" : "them",
          invalid == 1 ? "it" : "each", invalid == 1 ? "has" : "have");
    return text + "\n";
  }
};

SuggestWriter::SuggestWriter(Format format, const analysis::CheckRun& head, CheckWriter::Emit emit,
                             std::function<bool()> stopped)
    : s_(std::make_unique<State>(format, emit)) {
  State& s = *s_;
  s.stopped = stopped;
  switch (format) {
    case Format::csv:
      for (const std::string_view k : kSuggestCsvKeys) {
        s.columns.push_back(find_column(suggest_columns(), k));
        if (s.columns.size() > 1) s.out.buf() += ',';
        s.out.buf() += s.columns.back()->csv;
      }
      s.out.buf() += '\n';
      return;
    case Format::svg:
      throw std::invalid_argument("suggest has no svg report");
    case Format::table:
    case Format::markdown:
    case Format::json:
      break;
  }
  CheckWriter::Extras extras;
  // Table: each entry's suggestions under its row (after its error diagnostics).
  extras.after_row = [&s](std::string& out, const analysis::Entry&) {
    const auto& sug = *s.current;
    if (s.current_wants && sug.empty())
      out +=
          "    no alternative that fits (fewer stages, another schedule or epilogue tile, swap_ab, "
          "a halved tile extent)\n";
    for (std::size_t k = 0; k < sug.size(); ++k) out += "    " + line_of(k + 1, sug[k]) + "\n";
  };
  // JSON: check's result with its "suggestions", as the tree's dump(2) writes it.
  extras.json_result = [&s](std::string& out, const analysis::Entry& e) {
    emit::JsonText o(out, 4);
    o.begin_object();
    write_members(o, result_columns(), e);
    o.key("suggestions");
    o.begin_array();
    for (std::size_t k = 0; k < s.current->size(); ++k) {
      o.begin_object();
      write_members(o, suggest_columns(), SuggestRow{e, (*s.current)[k], k + 1});
      o.end();
    }
    o.end();
    o.end();
  };
  extras.json_tail = ",\n  \"command\": \"suggest\"";
  s.check = CheckWriter::make(format, false, head, std::move(emit), std::move(stopped), false,
                              std::move(extras));
}

SuggestWriter::~SuggestWriter() = default;

bool SuggestWriter::stopped() const {
  return s_->check ? s_->check->stopped() : s_->stopped && s_->stopped();
}

void SuggestWriter::entry(analysis::Entry&& e, std::vector<analysis::Suggestion>&& suggestions) {
  State& s = *s_;
  const bool wants = analysis::wants_suggestions(e.result);
  if (wants) {
    ++s.wanted;
    if (suggestions.empty()) ++s.none;
  } else if (e.result.status == model::Status::Invalid) {
    ++s.invalid;
  }
  switch (s.format) {
    case Format::csv:
      for (std::size_t k = 0; k < suggestions.size(); ++k) {
        const SuggestRow row{e, suggestions[k], k + 1};
        CsvCell<SuggestRow> cell{s.out.buf(), row, {}};
        for (std::size_t c = 0; c < s.columns.size(); ++c) {
          if (c) s.out.buf() += ',';
          s.columns[c]->csv_field(cell);
        }
        s.out.buf() += '\n';
      }
      s.out.maybe_flush();
      return;
    case Format::markdown:
      if (!suggestions.empty()) {
        s.list.append(fmt::format("\n**`{}`**\n\n", e.result.name));
        for (std::size_t k = 0; k < suggestions.size(); ++k)
          s.list.append(line_of(k + 1, suggestions[k]) + "\n");
      }
      break;
    case Format::table: {
      // Keep the error (why it does not fit); the suggestions replace the "what fits" advice.
      auto& d = e.result.diagnostics;
      std::erase_if(
          d, [](const model::Diagnostic& x) { return x.severity != model::Severity::error; });
      break;
    }
    case Format::json:
    case Format::svg:
      break;
  }
  s.current = &suggestions;
  s.current_wants = wants;
  s.check->entry(std::move(e));
  s.current = nullptr;
}

void SuggestWriter::problem(analysis::Problem&& p) {
  if (s_->check) s_->check->problem(std::move(p));
}

void SuggestWriter::finish(const analysis::Tally& tally) {
  State& s = *s_;
  if (s.check) s.check->finish(tally);
  switch (s.format) {
    case Format::table:
      s.out.buf() += s.tally_line();
      break;
    case Format::markdown:
      s.list.drain(s.out);
      s.out.buf() += "\n";
      s.out.buf() += s.tally_line();
      break;
    case Format::csv:
    case Format::json:
    case Format::svg:
      break;
  }
  s.out.flush();
}

namespace {

/// Feeds a whole run to a writer and returns the text.
std::string render(Format format, const SuggestRun& run) {
  std::string text;
  SuggestWriter w(format, run.check, [&text](std::string_view t) { text += t; });
  for (std::size_t i = 0; i < run.check.entries.size(); ++i)
    w.entry(analysis::Entry(run.check.entries[i]),
            std::vector<analysis::Suggestion>(run.suggestions[i]));
  for (const analysis::Problem& p : run.check.problems) w.problem(analysis::Problem(p));
  w.finish(analysis::tally(run.check));
  return text;
}

}  // namespace

std::string suggest_table(const SuggestRun& run) { return render(Format::table, run); }
std::string suggest_markdown(const SuggestRun& run) { return render(Format::markdown, run); }
std::string suggest_csv(const SuggestRun& run) { return render(Format::csv, run); }
ordered_json suggest_json(const SuggestRun& run) {
  return ordered_json::parse(render(Format::json, run));
}

}  // namespace tilefit::report
