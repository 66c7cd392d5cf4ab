#include "cli/target_options.hpp"

#include <algorithm>

#include "cli/cli_context.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::cli {

analysis::TargetRequest TargetOptions::request() const {
  analysis::TargetRequest r;
  if (!arch.empty()) {
    // "sm_90,sm_120": one result per config per architecture.
    std::size_t start = 0;
    while (start <= arch.size()) {
      const std::size_t end = std::min(arch.find(',', start), arch.size());
      const std::string one = arch.substr(start, end - start);
      const auto sm = model::parse_arch(one);
      if (!sm || !model::find_arch(*sm))
        throw CommandError(kExitInput, "--arch \"" + one + "\": unknown architecture; allowed: " +
                                           model::arch_choices() + "; several: sm_90,sm_120");
      const int canonical = model::find_arch(*sm)->limits.sm;
      if (std::find(r.archs.begin(), r.archs.end(), canonical) != r.archs.end())
        throw CommandError(kExitInput, "--arch \"" + arch + "\": " + model::arch_name(canonical) +
                                           " is given twice");
      r.archs.push_back(canonical);
      start = end + 1;
    }
    r.mode = analysis::TargetRequest::Mode::arch;
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
                              "table (sm90, sm_120a, 100, 12.1, ...); several, comma-separated "
                              "(sm_90,sm_120), give one result per config per architecture");
  auto* dev = sub.add_option("--device", opt.device, "Analyse for GPU N (queried)")
                  ->check(CLI::NonNegativeNumber);
  auto* builtin = sub.add_flag("--builtin", opt.builtin,
                               "Never ask a GPU: use the built-in table for each config's own arch");
  arch->excludes(dev);
  builtin->excludes(dev);
  builtin->excludes(arch);
}

}  // namespace tilefit::cli
