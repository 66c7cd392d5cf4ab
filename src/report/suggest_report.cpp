#include "tilefit/report/suggest_report.hpp"

#include <fmt/format.h>

#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::report {
namespace {

using nlohmann::ordered_json;

std::string line_of(std::size_t rank, const analysis::Suggestion& s) {
  const model::Result& r = s.result;
  return fmt::format("{}. {}: {} B, saves {} B, {} stage{} (distance {})", rank, change_text(s.changes),
                     *r.smem_bytes, s.saved_bytes, r.stages, r.stages == 1 ? "" : "s", s.distance);
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
    out += fmt::format("; {} invalid config{} (no kernel is built for {}: see the reason under {}) "
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
    while (end < table.size() && table.compare(end, 4, "    ") == 0) end = table.find('\n', end) + 1;
    out += table.substr(pos, end - pos);
    pos = end;
    const auto& sug = run.suggestions[i];
    if (analysis::wants_suggestions(run.check.entries[i].result) && sug.empty())
      out += "    no alternative that fits (fewer stages, another schedule or epilogue tile, swap_ab, a halved tile extent)\n";
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

std::string suggest_csv(const SuggestRun& run) {
  std::string out =
      "name,file,index,arch,rank,change,distance,stages,smem_bytes,saved_bytes,limit_bytes,status,config\n";
  for (std::size_t i = 0; i < run.check.entries.size(); ++i) {
    const analysis::Entry& e = run.check.entries[i];
    for (std::size_t k = 0; k < run.suggestions[i].size(); ++k) {
      const analysis::Suggestion& s = run.suggestions[i][k];
      append_csv_field(out, e.result.name);
      out += ',';
      append_csv_field(out, e.file);
      out += fmt::format(",{},{},{},", e.index, model::arch_name(e.result.arch), k + 1);
      append_csv_field(out, change_text(s.changes));
      out += fmt::format(",{},{},{},{},{},{},", s.distance, s.result.stages, *s.result.smem_bytes,
                         s.saved_bytes, s.result.limit_bytes, model::status_name(s.result.status));
      append_csv_field(out, io::config_json(s.config));
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
    for (const analysis::Suggestion& s : run.suggestions[i]) {
      ordered_json o;
      o["config"] = ordered_json::parse(io::config_json(s.config));
      o["change"] = change_text(s.changes);
      ordered_json changes = ordered_json::array();
      for (const analysis::FieldChange& c : s.changes)
        changes.push_back({{"field", c.field}, {"from", c.from}, {"to", c.to}});
      o["changes"] = std::move(changes);
      o["distance"] = s.distance;
      o["smem_bytes"] = *s.result.smem_bytes;
      o["saved_bytes"] = s.saved_bytes;
      o["stages"] = s.result.stages;
      o["max_stages"] = s.result.max_stages;
      o["status"] = std::string(model::status_name(s.result.status));
      o["headroom_bytes"] = *s.result.headroom_bytes;
      list.push_back(std::move(o));
    }
    results[i]["suggestions"] = std::move(list);
  }
  return j;
}

}  // namespace tilefit::report
