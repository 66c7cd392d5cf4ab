// `tilefit device [--device N|all] [--format table|json]`: what the GPUs in this machine
// say about themselves, next to the built-in table.
#include <charconv>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_options.hpp"
#include "report/device_report.hpp"
#include "tilefit/device/device_source.hpp"

namespace tilefit::cli {
namespace {

struct DeviceOptions {
  std::string device = "all";
  std::string format = "table";
};

/// "3" -> 3; anything but a whole number -> nullopt.
std::optional<int> parse_index(const std::string& s) {
  int v = 0;
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;  // no sign, no space
  const char* b = s.data();
  const char* e = s.data() + s.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || s.empty()) return std::nullopt;
  return v;
}

void run_device(const DeviceOptions& opt, CliContext& ctx) {
  const bool json = opt.format == "json";
  if (json) Output::report_closed_pipes();
  std::vector<device::DeviceInfo> devs;
  std::optional<device::DeviceError> err;
  if (opt.device == "all") {
    auto r = ctx.env.devices.all();
    if (r)
      devs = std::move(r).value();
    else
      err = r.error();
  } else if (auto idx = parse_index(opt.device)) {
    auto r = ctx.env.devices.one(*idx);
    if (r)
      devs.push_back(std::move(r).value());
    else
      err = r.error();
  } else {
    throw CommandError(kExitInput,
                       "--device '" + opt.device +
                           "': not a GPU index; allowed: a whole number 0, 1, 2, ... or 'all'");
  }

  if (err) {
    if (json) {
      auto j = report::devices_json({});
      j["error"] = report::device_error_json(*err);
      ctx.out.write(j.dump(2) + "\n");
    }
    ctx.error(for_device_command(err->message), kExitDevice);
    return;
  }
  ctx.out.write(json ? report::devices_json(devs).dump(2) + "\n" : report::devices_text(devs));
}

}  // namespace

void register_device(CLI::App& app, Command& cmd) {
  auto [sub, opt] = add_command(
      app, cmd, "device",
      "Show what the GPUs here report (CUDA Runtime): compute capability, SMs, shared memory "
      "limits, CTAs/registers/threads per SM, driver and runtime; and where they differ from "
      "the built-in table. Honours CUDA_VISIBLE_DEVICES. Exit 3 when no GPU can be queried.",
      run_device);
  sub->add_option("--device", opt->device, "GPU index, or 'all' (default)");
  add_format_option(*sub, opt->format, "table (default) or json", {"table", "json"});
}

}  // namespace tilefit::cli
