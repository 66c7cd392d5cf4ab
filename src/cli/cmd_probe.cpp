// `tilefit probe [FILE...] [--device N] [--format table|json]`: the model's verdicts next
// to the driver's, on the GPU in this machine.
//
// For each config: model::evaluate against the device's limits (a config without `arch`
// takes the device's), then a real launch of the probe kernel with the model's smem_bytes
// of dynamic shared memory, and cudaOccupancyMaxActiveBlocksPerMultiprocessor next to
// model::ctas_per_sm. Then the exact launch boundary. Any disagreement is printed on a
// line starting "DISAGREE" and makes the exit code 1; input errors exit 2; a device that
// cannot be probed (no driver, no GPU, bad index, built without a CUDA compiler) exits 3.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/command_options.hpp"
#include "report/device_report.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/device/probe.hpp"
#include "tilefit/device/probe_source.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/evaluate.hpp"

namespace tilefit::cli {
namespace {

struct ProbeOptions {
  std::vector<std::string> files;
  int device = 0;
  std::string format = "table";
  bool no_boundary = false;
};

void device_failure(const device::DeviceError& err, bool json, CliContext& ctx) {
  if (json) {
    nlohmann::ordered_json j;
    j["schema_version"] = report::kSchemaVersion;
    j["error"] = report::device_error_json(err);
    ctx.out.write(j.dump(2) + "\n");
  }
  ctx.error(for_device_command(err.message), kExitDevice);
}

/// Probes one evaluated config (when the model gives smem_bytes); a DeviceError stops the run.
std::optional<device::DeviceError> probe_one(const device::ProbeSource& probe,
                                             const device::DeviceInfo& dev, report::ProbeRow& row) {
  const model::Limits& lim = dev.limits;
  if (row.smem) {
    row.model_fits = *row.smem <= lim.optin_per_block;
    auto launch = probe.launch(dev.index, *row.smem);
    if (!launch) return launch.error();
    row.launch = *launch;
    row.model_ctas = model::ctas_per_sm(*row.smem, lim);
    auto occ = probe.occupancy(dev.index, *row.smem);
    if (!occ) return occ.error();
    row.occupancy = *occ;

    const std::string model_says =
        row.model_fits ? fmt::format("fits ({} B <= {} B)", *row.smem, lim.optin_per_block)
                       : fmt::format("does not fit ({} B > {} B)", *row.smem, lim.optin_per_block);
    if (row.launch->launched != row.model_fits) {
      row.disagreements.push_back(
          row.launch->launched
              ? fmt::format("the model says it {} but the driver launched it", model_says)
              : fmt::format("the model says it {} but the driver refused it ({}: {})", model_says,
                            row.launch->refused_by, row.launch->error));
    }
    if (*row.occupancy != row.model_ctas) {
      row.disagreements.push_back(
          fmt::format("CTAs per SM at {} B: the model says {} (floor({} / ({} + {})), at most {}), "
                      "the occupancy API says {}",
                      *row.smem, row.model_ctas, lim.per_sm, *row.smem, lim.reserved_per_block,
                      lim.max_ctas_per_sm, *row.occupancy));
    }
  }
  return std::nullopt;
}

void run_probe(const ProbeOptions& opt, CliContext& ctx) {
  const bool json = opt.format == "json";
  if (json) Output::report_closed_pipes();
  const device::ProbeSource& probe = ctx.env.probe;
  if (const std::string why = probe.unavailable_reason(); !why.empty()) {
    device_failure({"", why}, json, ctx);
    return;
  }
  auto dev = ctx.env.devices.one(opt.device);
  if (!dev) {
    device_failure(dev.error(), json, ctx);
    return;
  }

  report::ProbeReport rep;
  rep.device = *dev;
  for (const std::string& path : opt.files) {
    io::LoadResult loaded = io::load<io::LoadResult>(io::Source::file(path));
    for (const auto& e : loaded.errors) rep.input_errors.push_back(io::format_error(e));
    for (const auto& entry : loaded.configs) {
      report::ProbeRow row;
      row.file = entry.file;
      row.index = entry.index;
      model::KernelConfig cfg = entry.config;
      row.name = cfg.name.empty() ? "#" + std::to_string(entry.index) : cfg.name;
      if (!entry.arch_given || cfg.arch == 0) {
        cfg.arch = dev->limits.sm;
        row.arch_from_device = true;
      }
      row.arch = cfg.arch;
      row.what_if = cfg.arch != dev->limits.sm;
      row.result = model::evaluate(cfg, dev->limits);
      row.smem = row.result.smem_bytes;
      if (!row.smem) {
        const auto& why = row.result.diagnostics;
        row.skipped = fmt::format("the model gives no smem_bytes (status {}{}{})",
                                  model::status_name(row.result.status), why.empty() ? "" : ": ",
                                  why.empty() ? "" : report::message(why.front()));
      } else if (auto err = probe_one(probe, *dev, row)) {
        device_failure(*err, json, ctx);
        return;
      }
      rep.rows.push_back(std::move(row));
    }
  }

  if (!opt.no_boundary) {
    auto b = probe.boundary(dev->index);
    if (!b) {
      device_failure(b.error(), json, ctx);
      return;
    }
    rep.boundary = *b;
    if (b->largest_launched != dev->limits.optin_per_block)
      rep.boundary_disagreements.push_back(fmt::format(
          "the driver grants up to {} B but cudaDevAttrMaxSharedMemoryPerBlockOptin says {} B",
          b->largest_launched, dev->limits.optin_per_block));
  }

  ctx.out.write(json ? report::probe_json(rep).dump(2) + "\n" : report::probe_text(rep));
  for (const std::string& e : rep.input_errors) ctx.error(e, kExitInput);
  if (rep.disagreements() > 0) ctx.raise(kExitNotFit);
}

}  // namespace

void register_probe(CLI::App& app, Command& cmd) {
  auto [sub, opt] = add_command(
      app, cmd, "probe",
      "Confirm the model on the GPU: launch a probe kernel with each config's smem_bytes of "
      "dynamic shared memory, compare launched/refused and CTAs per SM (occupancy API) with the "
      "model, and find the exact launch boundary. Disagreements print 'DISAGREE' and exit 1; "
      "device errors exit 3. Needs a build with a CUDA compiler.",
      run_probe);
  sub->add_option("files", opt->files, "config files (JSON); none: the boundary only");
  sub->add_option("--device", opt->device, "GPU index (default 0)")->check(gpu_index());
  add_format_option(*sub, opt->format, "table (default) or json", {"table", "json"});
  sub->add_flag("--no-boundary", opt->no_boundary, "skip the boundary search");
}

}  // namespace tilefit::cli
