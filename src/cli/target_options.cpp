#include "cli/target_options.hpp"

#include "cli/cli_context.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::cli {

analysis::TargetRequest TargetOptions::request() const {
  analysis::TargetRequest r;
  if (!arch.empty()) {
    const auto sm = model::parse_arch(arch);
    if (!sm || !model::find_arch(*sm))
      throw CommandError(kExitInput, "--arch \"" + arch + "\": unknown architecture; allowed: " +
                                         model::arch_choices());
    r.mode = analysis::TargetRequest::Mode::arch;
    r.arch = model::find_arch(*sm)->limits.sm;
  } else if (device >= 0) {
    r.mode = analysis::TargetRequest::Mode::device;
    r.device = device;
  } else if (builtin) {
    r.mode = analysis::TargetRequest::Mode::builtin;
  }
  return r;
}

void add_target_options(CLI::App& sub, TargetOptions& opt) {
  auto* arch = sub.add_option("--arch", opt.arch,
                              "Analyse every config for this architecture from the built-in "
                              "table (sm90, sm_120a, 100, 12.1, ...)");
  auto* dev = sub.add_option("--device", opt.device, "Analyse for GPU N (queried)")
                  ->check(CLI::NonNegativeNumber);
  auto* builtin = sub.add_flag("--builtin", opt.builtin,
                               "Never ask a GPU: use the built-in table for each config's own arch");
  arch->excludes(dev);
  builtin->excludes(dev);
  builtin->excludes(arch);
}

}  // namespace tilefit::cli
