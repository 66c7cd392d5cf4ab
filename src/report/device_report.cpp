#include "device_report.hpp"

#include "report/columns.hpp"
#include "report/table.hpp"
#include "tilefit/report/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace tilefit::report {
namespace {

using device::DeviceInfo;
using nlohmann::ordered_json;

std::string version_text(int v) {
  return v > 0 ? fmt::format("CUDA {} ({})", device::cuda_version_string(v), v) : "unknown";
}

/// Rows of label + one cell per column, left-aligned, two spaces apart, no header.
std::string grid(const std::vector<std::vector<std::string>>& rows) {
  std::size_t columns = 0;
  for (const auto& r : rows) columns = std::max(columns, r.size());
  Table t(std::vector<Table::Column>(columns), /*header=*/false);
  for (const auto& r : rows) t.add_row(r);
  return t.render();
}

std::string verdict_text(const device::ProbeOutcome& o) {
  if (o.launched) return "launched";
  return fmt::format("refused: {} ({})", o.error, o.refused_by);
}

}  // namespace

ordered_json device_json(const DeviceInfo& dev) {
  ordered_json j;
  j["index"] = dev.index;
  j["name"] = dev.name;
  j["compute_capability"] = device::compute_capability(dev);
  j["cc_major"] = dev.cc_major;
  j["cc_minor"] = dev.cc_minor;
  j["arch"] = model::arch_name(dev.limits.sm);
  j["sm_count"] = dev.sm_count;
  j["pci_bus_id"] = dev.pci_bus_id.empty() ? ordered_json(nullptr) : ordered_json(dev.pci_bus_id);
  j["limits"] = limits_json(dev.limits);
  j["driver_version"] = dev.driver_version;
  j["driver_cuda"] = device::cuda_version_string(dev.driver_version);
  j["runtime_version"] = dev.runtime_version;
  j["runtime_cuda"] = device::cuda_version_string(dev.runtime_version);
  j["table_differences"] = device::table_differences(dev);
  return j;
}

ordered_json device_error_json(const device::DeviceError& err) {
  return ordered_json{
      {"cuda_error", err.cuda_error.empty() ? ordered_json(nullptr) : ordered_json(err.cuda_error)},
      {"message", err.message}};
}

ordered_json devices_json(const std::vector<DeviceInfo>& devs) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["devices"] = ordered_json::array();
  for (const DeviceInfo& d : devs) j["devices"].push_back(device_json(d));
  return j;
}

std::string devices_text(const std::vector<DeviceInfo>& devs) {
  std::vector<std::vector<std::string>> rows;
  auto row = [&](std::string label, auto cell) {
    std::vector<std::string> r{std::move(label)};
    for (const DeviceInfo& d : devs) r.push_back(cell(d));
    rows.push_back(std::move(r));
  };
  auto bytes = [](model::Bytes b) { return fmt::format("{} B", b); };
  row("GPU", [](const DeviceInfo& d) { return std::to_string(d.index); });
  row("name", [](const DeviceInfo& d) { return d.name; });
  row("compute capability", [](const DeviceInfo& d) {
    return fmt::format("{} ({})", device::compute_capability(d), model::arch_name(d.limits.sm));
  });
  row("SMs", [](const DeviceInfo& d) { return std::to_string(d.sm_count); });
  row("smem opt-in per block",
      [&](const DeviceInfo& d) { return bytes(d.limits.optin_per_block); });
  row("smem per SM", [&](const DeviceInfo& d) { return bytes(d.limits.per_sm); });
  row("smem reserved per block",
      [&](const DeviceInfo& d) { return bytes(d.limits.reserved_per_block); });
  row("smem default per block",
      [&](const DeviceInfo& d) { return bytes(d.limits.default_per_block); });
  row("max CTAs per SM",
      [](const DeviceInfo& d) { return std::to_string(d.limits.max_ctas_per_sm); });
  row("registers per SM", [](const DeviceInfo& d) { return std::to_string(d.limits.regs_per_sm); });
  row("threads per SM",
      [](const DeviceInfo& d) { return std::to_string(d.limits.threads_per_sm); });
  row("PCI bus id",
      [](const DeviceInfo& d) { return d.pci_bus_id.empty() ? std::string("-") : d.pci_bus_id; });
  row("driver", [](const DeviceInfo& d) { return version_text(d.driver_version); });
  row("runtime", [](const DeviceInfo& d) { return version_text(d.runtime_version); });
  row("built-in table", [](const DeviceInfo& d) {
    const auto diff = device::table_differences(d);
    if (diff.empty()) return fmt::format("matches {}", model::arch_name(d.limits.sm));
    return fmt::format("{} difference{} (below)", diff.size(), diff.size() == 1 ? "" : "s");
  });
  std::string out = grid(rows);
  for (const DeviceInfo& d : devs) {
    const auto diff = device::table_differences(d);
    if (diff.empty()) continue;
    out += fmt::format(
        "\nGPU {} ({}) differs from the built-in table; the device's values are used:\n", d.index,
        d.name);
    for (const std::string& s : diff) out += "  " + s + "\n";
  }
  return out;
}

// --- probe -------------------------------------------------------------------------------

int ProbeReport::disagreements() const {
  int n = static_cast<int>(boundary_disagreements.size());
  for (const ProbeRow& r : rows) n += static_cast<int>(r.disagreements.size());
  return n;
}

int ProbeReport::probed() const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(),
                                        [](const ProbeRow& r) { return r.launch.has_value(); }));
}

std::string probe_text(const ProbeReport& rep) {
  const DeviceInfo& d = rep.device;
  const model::Limits& l = d.limits;
  std::string out =
      fmt::format("GPU {}: {} ({}, {} SMs), driver {}, runtime {}\n", d.index, d.name,
                  model::arch_name(l.sm), d.sm_count, device::cuda_version_string(d.driver_version),
                  device::cuda_version_string(d.runtime_version));
  out += fmt::format(
      "limits from the device: {} B opt-in per block, {} B per SM, {} B reserved per block, "
      "max {} CTAs per SM; probe block {} threads\n",
      l.optin_per_block, l.per_sm, l.reserved_per_block, l.max_ctas_per_sm,
      device::kProbeBlockThreads);

  if (!rep.rows.empty()) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"config", "where", "arch", "model status", "smem B", "model verdict",
                    "driver verdict", "CTAs/SM model", "CTAs/SM occupancy", "agree"});
    for (const ProbeRow& r : rep.rows) {
      std::vector<std::string> cells{r.name, fmt::format("{}#{}", r.file, r.index),
                                     model::arch_name(r.arch) + (r.arch_from_device ? "*" : "") +
                                         (r.what_if ? " (what-if)" : ""),
                                     std::string(model::status_name(r.result.status))};
      if (!r.launch) {
        cells.insert(cells.end(),
                     {r.smem ? std::to_string(*r.smem) : "-", "-", "not probed", "-", "-", "-"});
      } else {
        cells.push_back(std::to_string(*r.smem));
        cells.push_back(r.model_fits ? "fits" : "does not fit");
        cells.push_back(verdict_text(*r.launch));
        cells.push_back(std::to_string(r.model_ctas));
        cells.push_back(r.occupancy ? std::to_string(*r.occupancy) : "-");
        cells.push_back(r.disagreements.empty() ? "yes" : "NO");
      }
      rows.push_back(std::move(cells));
    }
    out += "\n";
    out += grid(rows);
    bool any_from_device = false, any_what_if = false;
    for (const ProbeRow& r : rep.rows) {
      any_from_device |= r.arch_from_device;
      any_what_if |= r.what_if;
    }
    if (any_from_device) out += "(* the config gives no arch: the device's is used)\n";
    if (any_what_if)
      out += fmt::format(
          "(what-if: the config is for another architecture; its smem_bytes are probed on this {} "
          "against this GPU's limits)\n",
          model::arch_name(l.sm));
    for (const ProbeRow& r : rep.rows) {
      if (!r.skipped.empty())
        out += fmt::format("not probed {}#{} '{}': {}\n", r.file, r.index, r.name, r.skipped);
      for (const std::string& n : r.notes)
        out += fmt::format("note {}#{} '{}': {}\n", r.file, r.index, r.name, n);
    }
  }

  if (rep.boundary) {
    const device::Boundary& b = *rep.boundary;
    out += fmt::format(
        "\nboundary: {} B launches, {} B is refused ({} at {}); device opt-in limit {} B: {} ({} "
        "launches)\n",
        b.largest_launched, b.first_refused, b.refusal_error, b.refused_by, l.optin_per_block,
        rep.boundary_disagreements.empty() ? "agrees" : "DOES NOT AGREE", b.launches);
  }
  for (const ProbeRow& r : rep.rows)
    for (const std::string& s : r.disagreements)
      out += fmt::format("DISAGREE {}#{} '{}': {}\n", r.file, r.index, r.name, s);
  for (const std::string& s : rep.boundary_disagreements)
    out += fmt::format("DISAGREE boundary: {}\n", s);

  const int skipped = static_cast<int>(rep.rows.size()) - rep.probed();
  out += fmt::format(
      "\nsummary: {} config{} probed, {} not probed, {} input error{}, {} disagreement{}\n",
      rep.probed(), rep.probed() == 1 ? "" : "s", skipped, rep.input_errors.size(),
      rep.input_errors.size() == 1 ? "" : "s", rep.disagreements(),
      rep.disagreements() == 1 ? "" : "s");
  return out;
}

namespace {

bool launched(const ProbeLine& l) { return l.row.launch.has_value(); }
bool not_launched(const ProbeLine& l) { return !l.row.launch.has_value(); }

template <class Out>
void texts(Out& o, const std::vector<std::string>& v) {
  o.begin_array();
  for (const std::string& s : v) o.value(s);
  o.end();
}

using T = ColumnType;
using Line = ProbeLine;

/// The columns of `tilefit probe --format json`'s results (report/columns.hpp), in order.
const Column<Line> kProbeColumns[] = {
    {.key = "file",
     .description = "the file the config was read from",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.file); })},
    {.key = "index",
     .type = T::count,
     .description = "its position in that file",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.index); })},
    {.key = "name",
     .description = "the config's name",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.name); })},
    {.key = "arch",
     .type = T::arch,
     .description = "the config's arch, or the device's when it gives none",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(model::arch_name(l.row.arch)); })},
    {.key = "arch_from_device",
     .type = T::boolean,
     .description = "true when the config gives no arch",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.arch_from_device); })},
    {.key = "what_if",
     .type = T::boolean,
     .description = "true when the config is for another arch than the device's",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.what_if); })},
    {.key = "kernel",
     .description = "the kernel family that builds it (\"\" when none does)",
     .json =
         json_fns<Line>([](auto& o, const Line& l) { o.value(std::string(l.row.result.family)); })},
    {.key = "status",
     .type = T::status,
     .description = "the model's verdict against the device's limits",
     .json = json_fns<Line>(
         [](auto& o, const Line& l) { o.value(model::status_name(l.row.result.status)); })},
    {.key = "stages",
     .type = T::integer,
     .description = "the pipeline stages the model built",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.result.stages); })},
    {.key = "smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "the size probed",
     .json = json_fns<Line>([](auto& o, const Line& l) {
       if (l.row.smem)
         o.value(*l.row.smem);
       else
         o.null();
     })},
    {.key = "limit_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the device's opt-in limit per block",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.limit_bytes); })},
    {.key = "probed",
     .type = T::boolean,
     .description = "true when the driver was asked",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.launch.has_value()); })},
    {.key = "model_fits",
     .type = T::boolean,
     .description = "smem_bytes <= limit_bytes",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.model_fits); }),
     .shown = launched},
    {.key = "driver_launched",
     .type = T::boolean,
     .description = "the driver's verdict",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.launch->launched); }),
     .shown = launched},
    {.key = "driver_error",
     .nullable = true,
     .description = "the CUDA error of the refusal",
     .json = json_fns<Line>([](auto& o, const Line& l) {
       if (l.row.launch->launched)
         o.null();
       else
         o.value(l.row.launch->error);
     }),
     .shown = launched},
    {.key = "driver_refused_by",
     .nullable = true,
     .description = "the call that refused it",
     .json = json_fns<Line>([](auto& o, const Line& l) {
       if (l.row.launch->launched)
         o.null();
       else
         o.value(l.row.launch->refused_by);
     }),
     .shown = launched},
    {.key = "model_ctas_per_sm",
     .type = T::count,
     .description = "the blocks an SM holds by the model",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.model_ctas); }),
     .shown = launched},
    {.key = "occupancy_ctas_per_sm",
     .type = T::count,
     .nullable = true,
     .description = "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
     .json = json_fns<Line>([](auto& o, const Line& l) {
       if (l.row.occupancy)
         o.value(*l.row.occupancy);
       else
         o.null();
     }),
     .shown = launched},
    {.key = "agree",
     .type = T::boolean,
     .description = "true when model and driver agree",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.disagreements.empty()); }),
     .shown = launched},
    {.key = "skipped",
     .description = "why it was not probed",
     .json = json_fns<Line>([](auto& o, const Line& l) { o.value(l.row.skipped); }),
     .shown = not_launched},
    {.key = "disagreements",
     .type = T::texts,
     .description = "each disagreement of model and driver",
     .json = json_fns<Line>([](auto& o, const Line& l) { texts(o, l.row.disagreements); })},
    {.key = "notes",
     .type = T::texts,
     .description = "anything else worth a line",
     .json = json_fns<Line>([](auto& o, const Line& l) { texts(o, l.row.notes); })},
};

/// The columns of the probe's `boundary` (a report with one).
const Column<ProbeReport> kBoundaryColumns[] = {
    {.key = "largest_launched_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the largest dynamic shared memory that launched",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary->largest_launched); })},
    {.key = "first_refused_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the smallest that was refused",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary->first_refused); })},
    {.key = "refusal_error",
     .description = "the CUDA error at first_refused_bytes",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary->refusal_error); })},
    {.key = "refused_by",
     .description = "the call that refused it",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary->refused_by); })},
    {.key = "launches",
     .type = T::count,
     .description = "the probe launches the search took",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary->launches); })},
    {.key = "optin_per_block_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the device's opt-in limit per block",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.device.limits.optin_per_block); })},
    {.key = "agrees",
     .type = T::boolean,
     .description = "true when the boundary is the opt-in limit",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { o.value(r.boundary_disagreements.empty()); })},
    {.key = "disagreements",
     .type = T::texts,
     .description = "each disagreement",
     .json = json_fns<ProbeReport>(
         [](auto& o, const ProbeReport& r) { texts(o, r.boundary_disagreements); })},
};

}  // namespace

std::span<const Column<ProbeLine>> probe_columns() { return kProbeColumns; }
std::span<const Column<ProbeReport>> probe_boundary_columns() { return kBoundaryColumns; }

ordered_json probe_json(const ProbeReport& rep) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["device"] = device_json(rep.device);
  j["probe_block_threads"] = device::kProbeBlockThreads;
  if (rep.boundary) {
    ordered_json b = ordered_json::object();
    emit::JsonTree t(b);
    write_members(t, probe_boundary_columns(), rep);
    j["boundary"] = std::move(b);
  } else {
    j["boundary"] = nullptr;
  }
  j["results"] = ordered_json::array();
  for (const ProbeRow& r : rep.rows) {
    ordered_json o = ordered_json::object();
    emit::JsonTree t(o);
    write_members(t, probe_columns(), ProbeLine{r, rep.device.limits.optin_per_block});
    j["results"].push_back(std::move(o));
  }
  j["errors"] = rep.input_errors;
  j["summary"] = ordered_json{{"configs", rep.rows.size()},
                              {"probed", rep.probed()},
                              {"not_probed", static_cast<int>(rep.rows.size()) - rep.probed()},
                              {"input_errors", rep.input_errors.size()},
                              {"disagreements", rep.disagreements()}};
  return j;
}

}  // namespace tilefit::report
