#include "tilefit/report/suggest_report.hpp"

#include <fmt/format.h>

#include <charconv>

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

/// How many configs wanted suggestions and how many got none.
std::string tally_line(const SuggestRun& run) {
  std::size_t wanted = 0, none = 0, invalid = 0;
  for (std::size_t i = 0; i < run.check.entries.size(); ++i) {
    if (!analysis::wants_suggestions(run.check.entries[i].result)) {
      if (run.check.entries[i].result.status == model::Status::Invalid) ++invalid;
      continue;
    }
    ++wanted;
    if (run.suggestions[i].empty()) ++none;
  }
  std::string out = fmt::format("{} config{} to fix, {} with no alternative that fits", wanted,
                                wanted == 1 ? "" : "s", none);
  // Invalid configs have no kernel to shrink: say so rather than "0 configs to fix" alone.
  if (invalid > 0)
    out += fmt::format(
        "; {} invalid config{} (no kernel is built for {}: see the reason under {}) "
        "{} nothing to suggest",
        invalid, invalid == 1 ? "" : "s", invalid == 1 ? "it" : "them",
        invalid == 1 ? "it" : "each", invalid == 1 ? "has" : "have");
  return out + "\n";
}

}  // namespace

std::string change_text(const std::vector<analysis::FieldChange>& changes) {
  std::string out;
  for (const analysis::FieldChange& c : changes)
    out += (out.empty() ? "" : "; ") + c.field + ": " + c.from + " -> " + c.to;
  return out;
}

std::string suggest_table(const SuggestRun& run) {
  // check's table, with the suggestions under each row in place of nothing more.
  analysis::CheckRun shown = run.check;
  std::string out;
  for (std::size_t i = 0; i < shown.entries.size(); ++i) {
    auto& d = shown.entries[i].result.diagnostics;
    // Keep the error (why it does not fit); the suggestions replace the "what fits" advice.
    std::vector<model::Diagnostic> keep;
    for (model::Diagnostic& x : d)
      if (x.severity == model::Severity::error) keep.push_back(std::move(x));
    d = std::move(keep);
  }
  std::string table = render_table(shown, false);
  // Insert the suggestions after each entry's lines: render entry by entry.
  out.clear();
  const std::size_t head_end = table.find('\n') + 1;
  out += table.substr(0, head_end);
  std::size_t pos = head_end;
  for (std::size_t i = 0; i < shown.entries.size(); ++i) {
    // The row and its diagnostics: up to the next line that does not start with spaces.
    std::size_t end = table.find('\n', pos) + 1;
    while (end < table.size() && table.compare(end, 4, "    ") == 0)
      end = table.find('\n', end) + 1;
    out += table.substr(pos, end - pos);
    pos = end;
    const auto& sug = run.suggestions[i];
    if (analysis::wants_suggestions(run.check.entries[i].result) && sug.empty())
      out +=
          "    no alternative that fits (fewer stages, another schedule or epilogue tile, swap_ab, "
          "a halved tile extent)\n";
    for (std::size_t k = 0; k < sug.size(); ++k) out += "    " + line_of(k + 1, sug[k]) + "\n";
  }
  out += table.substr(pos);
  return out + tally_line(run);
}

std::string suggest_markdown(const SuggestRun& run) {
  std::string out = render_markdown(run.check);
  std::string list;
  for (std::size_t i = 0; i < run.check.entries.size(); ++i) {
    const auto& sug = run.suggestions[i];
    if (sug.empty()) continue;
    list += fmt::format("\n**`{}`**\n\n", run.check.entries[i].result.name);
    for (std::size_t k = 0; k < sug.size(); ++k) list += line_of(k + 1, sug[k]) + "\n";
  }
  return out + list + "\n" + tally_line(run);
}

std::span<const Column<SuggestRow>> suggest_columns() { return kSuggestColumns; }

std::string suggest_csv(const SuggestRun& run) {
  std::vector<const Column<SuggestRow>*> columns;
  std::string out;
  for (const std::string_view k : kSuggestCsvKeys) {
    columns.push_back(find_column(suggest_columns(), k));
    out += (out.empty() ? "" : ",") + std::string(columns.back()->csv);
  }
  out += '\n';
  for (std::size_t i = 0; i < run.check.entries.size(); ++i) {
    for (std::size_t k = 0; k < run.suggestions[i].size(); ++k) {
      const SuggestRow row{run.check.entries[i], run.suggestions[i][k], k + 1};
      CsvCell<SuggestRow> cell{out, row, {}};
      for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c) out += ',';
        columns[c]->csv_field(cell);
      }
      out += '\n';
    }
  }
  return out;
}

ordered_json suggest_json(const SuggestRun& run) {
  ordered_json j = to_json(run.check);
  j["command"] = "suggest";
  auto& results = j["results"];
  for (std::size_t i = 0; i < run.check.entries.size(); ++i) {
    ordered_json list = ordered_json::array();
    for (std::size_t k = 0; k < run.suggestions[i].size(); ++k) {
      ordered_json o = ordered_json::object();
      emit::JsonTree t(o);
      write_members(t, suggest_columns(),
                    SuggestRow{run.check.entries[i], run.suggestions[i][k], k + 1});
      list.push_back(std::move(o));
    }
    results[i]["suggestions"] = std::move(list);
  }
  return j;
}

}  // namespace tilefit::report
