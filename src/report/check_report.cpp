#include "tilefit/report/check_report.hpp"

#include <fmt/format.h>

#include "report/budget_bar.hpp"
#include "report/table.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/report/json.hpp"

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

/// The lines under a row: breakdown, limits and kernel (with `breakdown`), then the notes.
std::string under_row(const analysis::Entry& e, bool breakdown, bool bars) {
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
      out += fmt::format("    {}: {}\n", r.family.rfind("triton_", 0) == 0 ? "triton" : "cutlass", r.kernel);
  }
  for (const model::Diagnostic& d : r.diagnostics)
    out += fmt::format("    - {}{}\n", d.severity == model::Severity::warning ? "warning: " : "",
                       message(d));
  return out;
}

/// The columns of a result, as the text table shows them.
std::vector<std::string> result_cells(const analysis::Entry& e) {
  const model::Result& r = e.result;
  std::string stages = r.stages > 0 || !r.auto_stages ? std::to_string(r.stages) : "-";
  if (r.auto_stages && !r.family.empty()) stages += " auto";
  return {r.name, r.family.empty() ? "-" : std::string(r.family), model::arch_name(r.arch),
          tile_text(e.config.m, e.config.n, e.config.k), stages, std::to_string(r.max_stages),
          r.smem_bytes ? fmt::format("{} / {}", *r.smem_bytes, r.limit_bytes)
                       : fmt::format("- / {}", r.limit_bytes),
          r.headroom_bytes ? std::to_string(*r.headroom_bytes) : "-",
          r.fits ? std::to_string(r.ctas_per_sm) : "-", verdict_text(r.status)};
}

std::string matrix_cell(const model::Result& r) {
  if (r.status == Status::Invalid) return "INVALID";
  return fmt::format("{} ({})", verdict_text(r.status), r.stages);
}

}  // namespace

std::string verdict_text(Status s) {
  switch (s) {
    case Status::Fits: return "fits";
    case Status::DoesNotFit: return "DOES NOT FIT";
    case Status::Invalid: return "INVALID";
  }
  return "?";
}

std::string tile_text(long long m, long long n, long long k) { return fmt::format("{}x{}x{}", m, n, k); }

std::vector<std::string> notes(const model::Result& r) {
  std::vector<std::string> out;
  out.reserve(r.diagnostics.size());
  for (const model::Diagnostic& d : r.diagnostics) out.push_back(message(d));
  return out;
}

std::string render_table(const analysis::CheckRun& run, bool breakdown, bool bars) {
  if (run.archs.size() > 1) return render_matrix(run, /*markdown=*/false);
  using A = Table::Align;
  Table t({{"NAME", A::left}, {"KERNEL", A::left}, {"ARCH", A::left}, {"TILE", A::left},
           {"STAGES", A::right}, {"MAX", A::right}, {"SMEM / LIMIT (B)", A::right},
           {"HEADROOM", A::right}, {"CTAs/SM", A::right}, {"VERDICT", A::left}});
  for (const analysis::Entry& e : run.entries) t.add_row(result_cells(e), under_row(e, breakdown, bars));
  const std::string legend = breakdown && bars && !run.entries.empty() ? budget_bar_legend() + "\n" : "";
  return t.render() + "\n" + legend + summary_line(analysis::tally(run));
}

std::string summary_line(const analysis::Tally& n, std::string_view noun) {
  std::string out = fmt::format("{} {}{}: {} fit, {} do not fit, {} invalid", n.configs, noun,
                                n.configs == 1 ? "" : "s", n.fits, n.does_not_fit, n.invalid);
  if (n.errors) out += fmt::format("; {} error{}", n.errors, n.errors == 1 ? "" : "s");
  return out + "\n";
}

std::string render_markdown(const analysis::CheckRun& run) {
  if (run.archs.size() > 1) return render_matrix(run, /*markdown=*/true);
  using A = Table::Align;
  Table t({{"name", A::left}, {"kernel", A::left}, {"arch", A::left}, {"tile", A::left},
           {"stages", A::right}, {"max", A::right}, {"smem / limit (B)", A::right},
           {"headroom", A::right}, {"CTAs/SM", A::right}, {"verdict", A::left}});
  std::string notes;
  for (const analysis::Entry& e : run.entries) {
    t.add_row(result_cells(e));
    for (const model::Diagnostic& d : e.result.diagnostics)
      notes += fmt::format("- `{}`: {}\n", e.result.name, message(d));
  }
  std::string out = t.empty() ? "" : t.render_markdown();
  if (!notes.empty()) out += "\n" + notes;
  return out + "\n" + summary_line(analysis::tally(run));
}

std::string render_csv(const analysis::CheckRun& run) {
  std::string out(csv_header());
  for (const analysis::Entry& e : run.entries) append_csv_row(out, e);
  return out;
}

std::string render_matrix(const analysis::CheckRun& run, bool markdown) {
  std::vector<Table::Column> cols{{markdown ? "name" : "NAME", Table::Align::left}};
  for (int sm : run.archs) cols.push_back({model::arch_name(sm), Table::Align::left});
  Table t(cols);
  std::string notes;
  const std::size_t per = run.archs.size();
  for (std::size_t i = 0; i + per <= run.entries.size(); i += per) {
    std::vector<std::string> row{run.entries[i].result.name};
    for (std::size_t a = 0; a < per; ++a) {
      const model::Result& r = run.entries[i + a].result;
      row.push_back(matrix_cell(r));
      if (r.status == Status::Fits) continue;
      for (const model::Diagnostic& d : r.diagnostics)
        if (d.severity == model::Severity::error)
          notes += markdown ? fmt::format("- `{}` on {}: {}\n", r.name, model::arch_name(r.arch), message(d))
                            : fmt::format("    {} on {}: {}\n", r.name, model::arch_name(r.arch), message(d));
    }
    t.add_row(std::move(row));
  }
  std::string out = markdown ? (t.empty() ? "" : t.render_markdown()) : t.render();
  if (!notes.empty()) out += "\n" + notes;
  return out + "\n" + summary_line(analysis::tally(run), "result");
}

ordered_json result_json(const analysis::Entry& e) {
  const model::Result& r = e.result;
  ordered_json o;
  o["name"] = r.name;
  o["file"] = e.file;
  o["index"] = e.index;
  o["kernel"] = r.family.empty() ? ordered_json() : ordered_json(std::string(r.family));
  o["kernel_reason"] = r.family_reason ? message(*r.family_reason) : std::string();
  o["cutlass_kernel"] = r.kernel;
  o["arch"] = model::arch_name(r.arch);
  o["tile"] = {e.config.m, e.config.n, e.config.k};
  o["fits"] = r.fits;
  o["status"] = std::string(model::status_name(r.status));
  o["stages"] = r.stages;
  o["auto_stages"] = r.auto_stages;
  o["max_stages"] = r.max_stages;
  o["max_stages_smem_bytes"] = r.max_stages_smem ? ordered_json(*r.max_stages_smem) : ordered_json();
  o["smem_bytes"] = r.smem_bytes ? ordered_json(*r.smem_bytes) : ordered_json();
  o["limit_bytes"] = r.limit_bytes;
  o["headroom_bytes"] = r.headroom_bytes ? ordered_json(*r.headroom_bytes) : ordered_json();
  o["ctas_per_sm"] = r.ctas_per_sm;
  o["breakdown"] = r.breakdown ? breakdown_json(*r.breakdown) : ordered_json::object();
  o["epilogue_smem"] = r.epilogue_smem ? ordered_json(*r.epilogue_smem) : ordered_json();
  o["mainloop_smem"] = r.mainloop_smem ? ordered_json(*r.mainloop_smem) : ordered_json();
  o["target"] = target_json(e.target);
  o["notes"] = notes(r);
  ordered_json diags = ordered_json::array();
  for (const model::Diagnostic& d : r.diagnostics) diags.push_back(diagnostic_json(d));
  o["diagnostics"] = std::move(diags);
  return o;
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

ordered_json to_json(const analysis::CheckRun& run) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = "tilefit";
  ordered_json target;
  target["mode"] = std::string(analysis::mode_name(run.mode));
  if (run.common_target) {
    const ordered_json t = target_json(*run.common_target);
    for (auto it = t.begin(); it != t.end(); ++it) target[it.key()] = it.value();
  }
  j["target"] = target;
  ordered_json results = ordered_json::array();
  for (const analysis::Entry& e : run.entries) results.push_back(result_json(e));
  j["results"] = std::move(results);
  ordered_json errors = ordered_json::array();
  for (const analysis::Problem& p : run.problems) errors.push_back(problem_json(p));
  j["errors"] = std::move(errors);
  const analysis::Tally n = analysis::tally(run);
  j["summary"] = {{"configs", n.configs}, {"fits", n.fits}, {"does_not_fit", n.does_not_fit},
                  {"invalid", n.invalid}, {"errors", n.errors}};
  return j;
}

}  // namespace tilefit::report
