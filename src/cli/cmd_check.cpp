// `tilefit check FILE... [--arch A | --device N] [--format table|json] [--breakdown]`
//
// Target rules (../shared/docs/design.md):
//  --arch A    the built-in table for A, for every config (overrides the configs' arch);
//  --device N  GPU N's queried limits; a config whose arch differs is invalid;
//  --builtin   the built-in table for each config's own arch (no GPU is asked);
//  neither     a config with an arch uses a present GPU of that arch, else the table; a
//              config without one uses GPU 0, and with no GPU that is a device error.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "cli_context.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/io/config_reader.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/report/check_report.hpp"

namespace tilefit::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> files;
  std::string arch;
  int device = -1;
  std::string format = "table";
  bool breakdown = false;
  bool builtin = false;  ///< never ask a GPU: limits from the table for each config's arch
};

report::TargetInfo builtin_target(int sm) {
  report::TargetInfo t;
  t.source = "builtin";
  t.limits = model::find_arch(sm)->limits;
  return t;
}

report::TargetInfo device_target(const device::DeviceInfo& d) {
  report::TargetInfo t;
  t.source = "device";
  t.device = d.index;
  t.device_name = d.name;
  t.limits = d.limits;
  return t;
}

/// A result for a config that cannot run on the chosen GPU.
model::Result arch_mismatch(const model::KernelConfig& cfg, const device::DeviceInfo& d) {
  model::Result r;
  r.name = cfg.name;
  r.arch = cfg.arch;
  r.status = model::Status::Invalid;
  r.limit_bytes = d.limits.optin_per_block;
  r.notes.push_back(fmt::format("config arch {} differs from device {} ({}, {}): its kernel cannot "
                                "run there; drop \"arch\" or use --arch to ask what-if",
                                model::arch_name(cfg.arch), d.index, d.name,
                                model::arch_name(d.limits.sm)));
  return r;
}

void run_check(const CheckOptions& opt, CliContext& ctx) {
  std::optional<int> forced_arch;
  if (!opt.arch.empty()) {
    forced_arch = model::parse_arch(opt.arch);
    if (!forced_arch || !model::find_arch(*forced_arch)) {
      fmt::print(stderr, "tilefit: --arch \"{}\": unknown architecture; allowed: {}\n", opt.arch,
                 model::arch_choices());
      ctx.raise(kExitInput);
      return;
    }
  }

  report::CheckReport rep;
  rep.mode = forced_arch ? "arch" : opt.device >= 0 ? "device" : opt.builtin ? "builtin" : "per-config";
  std::vector<io::LoadedConfig> configs;
  for (const std::string& file : opt.files) {
    io::LoadResult lr = io::read_config_file(file);
    for (auto& c : lr.configs) configs.push_back(std::move(c));
    for (auto& e : lr.errors) rep.errors.push_back(std::move(e));
  }

  // Devices are asked at most once, and only when a rule needs them.
  std::optional<device::DeviceList> devices;
  auto all_devices = [&]() -> const device::DeviceList& {
    if (!devices) devices = device::query_all();
    return *devices;
  };

  std::optional<device::DeviceResult> chosen;
  if (opt.device >= 0) {
    chosen = device::query_one(opt.device);
    if (!chosen->ok()) {
      rep.device_errors.push_back({"", -1, "", chosen->error().message});
      configs.clear();  // nothing can be analysed without the requested GPU
    } else {
      rep.common_target = device_target(chosen->value());
    }
  }
  if (forced_arch) rep.common_target = builtin_target(*forced_arch);

  for (io::LoadedConfig& lc : configs) {
    report::CheckEntry e;
    e.file = lc.file;
    e.index = lc.index;
    e.config = lc.config;
    model::KernelConfig& cfg = e.config;
    std::string override_note;
    if (forced_arch) {
      if (lc.arch_given && cfg.arch != *forced_arch)
        override_note = fmt::format("arch {} from the config is overridden by --arch {}",
                                    model::arch_name(cfg.arch), model::arch_name(*forced_arch));
      cfg.arch = *forced_arch;
      e.target = builtin_target(*forced_arch);
    } else if (chosen) {
      const device::DeviceInfo& d = chosen->value();
      e.target = device_target(d);
      if (lc.arch_given && cfg.arch != d.limits.sm) {
        e.result = arch_mismatch(cfg, d);
        rep.entries.push_back(std::move(e));
        continue;
      }
      cfg.arch = d.limits.sm;
    } else if (opt.builtin) {
      if (!lc.arch_given) {
        rep.errors.push_back({lc.file, lc.index, cfg.name, "arch",
                              "missing: --builtin takes the limits of each config's own arch; "
                              "give the config an \"arch\" or use --arch"});
        continue;
      }
      e.target = builtin_target(cfg.arch);
    } else if (lc.arch_given) {
      e.target = builtin_target(cfg.arch);
      const device::DeviceList& list = all_devices();
      if (list.ok())
        for (const device::DeviceInfo& d : list.value())
          if (d.limits.sm == cfg.arch) {
            e.target = device_target(d);
            break;
          }
    } else {
      const device::DeviceList& list = all_devices();
      if (!list.ok() || list.value().empty()) {
        rep.device_errors.push_back(
            {lc.file, lc.index, cfg.name,
             fmt::format("the config has no \"arch\" and no GPU can be asked ({}); give the "
                         "config an \"arch\" or run with --arch",
                         list.ok() ? "no device" : list.error().message)});
        continue;
      }
      const device::DeviceInfo& d = list.value().front();
      cfg.arch = d.limits.sm;
      e.target = device_target(d);
    }
    e.result = model::evaluate(cfg, e.target.limits);
    if (!override_note.empty()) e.result.notes.insert(e.result.notes.begin(), override_note);
    if (e.target.source == "device")
      e.result.notes.push_back(fmt::format("limits from device {} ({})", e.target.device,
                                           e.target.device_name));
    rep.entries.push_back(std::move(e));
  }

  if (opt.format == "json") {
    fmt::print("{}\n", report::to_json(rep).dump(2));
  } else {
    fmt::print("{}", report::render_table(rep, opt.breakdown));
    const std::string errors = report::render_errors(rep);
    if (!errors.empty()) {
      std::fflush(stdout);
      fmt::print(stderr, "{}", errors);
    }
  }

  for (const report::CheckEntry& e : rep.entries)
    if (e.result.status != model::Status::Fits) ctx.raise(kExitNotFit);
  if (!rep.errors.empty()) ctx.raise(kExitInput);
  if (!rep.device_errors.empty()) ctx.raise(kExitDevice);
}

}  // namespace

void register_check(CLI::App& app, CliContext& ctx) {
  auto opt = std::make_shared<CheckOptions>();
  auto* sub = app.add_subcommand(
      "check", "Check tile configs: fits or not, stage counts, bytes by component");
  sub->add_option("files", opt->files, "Config files (JSON); - reads standard input")->required();
  auto* arch = sub->add_option("--arch", opt->arch,
                               "Analyse every config for this architecture from the built-in "
                               "table (sm90, sm_120a, 100, 12.1, ...)");
  auto* dev = sub->add_option("--device", opt->device, "Analyse for GPU N (queried)")
                  ->check(CLI::NonNegativeNumber);
  auto* builtin = sub->add_flag("--builtin", opt->builtin,
                                "Never ask a GPU: use the built-in table for each config's own arch");
  arch->excludes(dev);
  builtin->excludes(dev);
  builtin->excludes(arch);
  sub->add_option("--format", opt->format, "table (default) or json")
      ->check(CLI::IsMember({"table", "json"}));
  sub->add_flag("--breakdown", opt->breakdown,
                "Show bytes per component, the limits used and the CUTLASS kernel under each config");
  sub->callback([opt, &ctx] { run_check(*opt, ctx); });
}

}  // namespace tilefit::cli
