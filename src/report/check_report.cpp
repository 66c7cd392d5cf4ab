#include "tilefit/report/check_report.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tilefit::report {
namespace {

using model::Bytes;
using model::Component;
using model::Status;

std::string verdict(const model::Result& r) {
  switch (r.status) {
    case Status::Fits: return "fits";
    case Status::DoesNotFit: return "DOES NOT FIT";
    case Status::Invalid: return "INVALID";
  }
  return "?";
}

std::string source_text(const TargetInfo& t) {
  if (t.source == "device") return fmt::format("device {} ({})", t.device, t.device_name);
  return "built-in table";
}

nlohmann::ordered_json target_json(const TargetInfo& target) {
  nlohmann::ordered_json t;
  t["source"] = target.source;
  if (target.source == "device") {
    t["device"] = target.device;
    t["device_name"] = target.device_name;
  }
  t["arch"] = model::arch_name(target.limits.sm);
  t["optin_per_block"] = target.limits.optin_per_block;
  t["per_sm"] = target.limits.per_sm;
  t["reserved_per_block"] = target.limits.reserved_per_block;
  t["default_per_block"] = target.limits.default_per_block;
  t["max_ctas_per_sm"] = target.limits.max_ctas_per_sm;
  return t;
}

struct Column {
  std::string head;
  bool right;
};

}  // namespace

std::string tile_text(long long m, long long n, long long k) { return fmt::format("{}x{}x{}", m, n, k); }

nlohmann::ordered_json breakdown_json(const model::Field& f) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (int i = 0; i < model::kComponentCount; ++i) {
    if (f.parts[i] == 0) continue;
    j[std::string(model::component_key(static_cast<Component>(i)))] = f.parts[i];
  }
  return j;
}

std::string render_table(const CheckReport& report, bool breakdown) {
  const std::vector<Column> cols = {{"NAME", false},     {"KERNEL", false},  {"ARCH", false},
                                    {"TILE", false},     {"STAGES", true},   {"MAX", true},
                                    {"SMEM / LIMIT (B)", true}, {"HEADROOM", true},
                                    {"CTAs/SM", true},   {"VERDICT", false}};
  std::vector<std::vector<std::string>> rows;
  for (const CheckEntry& e : report.entries) {
    const model::Result& r = e.result;
    std::string stages = r.stages > 0 || !r.auto_stages ? std::to_string(r.stages) : "-";
    if (r.auto_stages && !r.family.empty()) stages += " auto";
    rows.push_back({r.name, r.family.empty() ? "-" : r.family, model::arch_name(r.arch),
                    tile_text(e.config.m, e.config.n, e.config.k), stages,
                    std::to_string(r.max_stages),
                    r.smem_bytes ? fmt::format("{} / {}", *r.smem_bytes, r.limit_bytes)
                                 : fmt::format("- / {}", r.limit_bytes),
                    r.headroom_bytes ? std::to_string(*r.headroom_bytes) : "-",
                    r.fits ? std::to_string(r.ctas_per_sm) : "-", verdict(r)});
  }
  std::vector<std::size_t> width(cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c) {
    width[c] = cols[c].head.size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cols.size(); ++c) {
      if (c) out += "  ";
      out += cols[c].right ? fmt::format("{:>{}}", cells[c], width[c])
                           : fmt::format("{:<{}}", cells[c], width[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };

  std::string out;
  if (!report.entries.empty()) {
    std::vector<std::string> heads;
    for (const Column& c : cols) heads.push_back(c.head);
    out += line(heads);
  }
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    const CheckEntry& e = report.entries[i];
    out += line(rows[i]);
    if (breakdown && e.result.breakdown) {
      const model::Field& f = *e.result.breakdown;
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
      if (!e.result.kernel.empty()) out += fmt::format("    cutlass: {}\n", e.result.kernel);
    }
    for (const std::string& n : e.result.notes) out += fmt::format("    - {}\n", n);
  }

  int fits = 0, over = 0, invalid = 0;
  for (const CheckEntry& e : report.entries) {
    if (e.result.status == Status::Fits) ++fits;
    else if (e.result.status == Status::DoesNotFit) ++over;
    else ++invalid;
  }
  const std::size_t nerr = report.errors.size() + report.device_errors.size();
  out += fmt::format("\n{} config{}: {} fit, {} do not fit, {} invalid", report.entries.size(),
                     report.entries.size() == 1 ? "" : "s", fits, over, invalid);
  if (nerr) out += fmt::format("; {} error{}", nerr, nerr == 1 ? "" : "s");
  out += "\n";
  return out;
}

std::string render_errors(const CheckReport& report) {
  std::string out;
  for (const io::ConfigError& err : report.errors) out += "error: " + io::format_error(err) + "\n";
  for (const DeviceProblem& d : report.device_errors) {
    out += "device error: ";
    if (!d.file.empty()) out += d.file + ": ";
    if (d.index >= 0) out += fmt::format("config #{} \"{}\": ", d.index, d.config_name);
    out += d.message + "\n";
  }
  return out;
}

nlohmann::ordered_json to_json(const CheckReport& report) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = "tilefit";
  ordered_json target;
  target["mode"] = report.mode;
  if (report.common_target) {
    const ordered_json t = target_json(*report.common_target);
    for (auto it = t.begin(); it != t.end(); ++it) target[it.key()] = it.value();
  }
  j["target"] = target;
  ordered_json results = ordered_json::array();
  for (const CheckEntry& e : report.entries) {
    const model::Result& r = e.result;
    ordered_json o;
    o["name"] = r.name;
    o["file"] = e.file;
    o["index"] = e.index;
    o["kernel"] = r.family.empty() ? ordered_json() : ordered_json(r.family);
    o["kernel_reason"] = r.family_reason;
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
    o["notes"] = r.notes;
    results.push_back(std::move(o));
  }
  j["results"] = std::move(results);
  ordered_json errors = ordered_json::array();
  for (const io::ConfigError& err : report.errors) {
    ordered_json o;
    o["kind"] = "input";
    o["file"] = err.file;
    o["index"] = err.index >= 0 ? ordered_json(err.index) : ordered_json();
    o["config"] = err.config_name;
    o["field"] = err.field;
    o["message"] = err.message;
    o["text"] = io::format_error(err);
    errors.push_back(std::move(o));
  }
  for (const DeviceProblem& d : report.device_errors) {
    ordered_json o;
    o["kind"] = "device";
    o["file"] = d.file;
    o["index"] = d.index >= 0 ? ordered_json(d.index) : ordered_json();
    o["config"] = d.config_name;
    o["field"] = "";
    o["message"] = d.message;
    o["text"] = d.message;
    errors.push_back(std::move(o));
  }
  j["errors"] = std::move(errors);
  int fits = 0, over = 0, invalid = 0;
  for (const CheckEntry& e : report.entries) {
    if (e.result.status == Status::Fits) ++fits;
    else if (e.result.status == Status::DoesNotFit) ++over;
    else ++invalid;
  }
  j["summary"] = {{"configs", report.entries.size()}, {"fits", fits}, {"does_not_fit", over},
                  {"invalid", invalid},
                  {"errors", report.errors.size() + report.device_errors.size()}};
  return j;
}

}  // namespace tilefit::report
