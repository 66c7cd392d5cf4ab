#include "cli/target_options.hpp"

#include <algorithm>

#include "cli/cli_context.hpp"
#include "io/text_checks.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit::cli {
namespace {

/// An option's value as error lines show it: bytes that are not UTF-8 and control characters as
/// visible escapes (<0xFF>, <U+001B>), as paths are shown.
std::string shown(const std::string& value) { return io::detail::printable(value); }

}  // namespace

std::vector<model::EngineRelease> engine_pins(const std::vector<std::string>& engines) {
  std::vector<model::EngineRelease> pins;
  std::vector<std::string> written;
  for (const std::string& e : engines) {
    const auto release = model::parse_engine_release(e);
    if (!release)
      throw CommandError(kExitInput, "--engine \"" + shown(e) +
                                         "\": not a modelled engine release; allowed: " +
                                         model::engine_release_choices());
    const model::Launcher of = model::engine_release_info(*release).engine;
    for (std::size_t i = 0; i < pins.size(); ++i)
      if (model::engine_release_info(pins[i]).engine == of)
        throw CommandError(kExitInput, "--engine \"" + shown(e) +
                                           "\": " + std::string(model::launcher_name(of)) +
                                           " is already pinned by --engine \"" + shown(written[i]) +
                                           "\"; give at most one --engine per engine");
    pins.push_back(*release);
    written.push_back(e);
  }
  return pins;
}

EngineUse::EngineUse(const TargetOptions& opt) : written_(opt.engines) {
  for (const model::EngineRelease pin : engine_pins(opt.engines))
    of_.push_back(model::engine_release_info(pin).engine);
  applied_.assign(of_.size(), false);
}

void EngineUse::saw(model::EngineRelease engine) {
  const model::Launcher l = model::engine_release_info(engine).engine;
  for (std::size_t i = 0; i < of_.size(); ++i)
    if (of_[i] == l) applied_[i] = true;
}

void EngineUse::warn(CliContext& ctx) const {
  for (std::size_t i = 0; i < of_.size(); ++i)
    if (!applied_[i]) {
      const std::string name(model::launcher_name(of_[i]));
      ctx.warnings.push_back("--engine \"" + shown(written_[i]) +
                             "\" applied to no config: none was launched by " + name + " (no " +
                             name + " tuned table, no config whose \"engine\" is " + name +
                             "); it changed nothing");
    }
}

analysis::TargetRequest TargetOptions::request() const {
  analysis::TargetRequest r;
  if (arch_given && arch.empty())
    throw CommandError(kExitInput,
                       "--arch \"\": no architecture given (an unset variable?); allowed: " +
                           model::arch_choices() + "; several: sm_90,sm_120");
  if (!arch.empty()) {
    // "sm_90,sm_120": one result per config per architecture.
    std::size_t start = 0;
    while (start <= arch.size()) {
      const std::size_t end = std::min(arch.find(',', start), arch.size());
      const std::string one = arch.substr(start, end - start);
      if (one.empty())
        throw CommandError(kExitInput, "--arch \"" + shown(arch) +
                                           "\": an empty architecture in the list; give "
                                           "them comma-separated with none empty (sm_90,sm_120)");
      const auto sm = model::parse_arch(one);
      if (!sm || !model::find_arch(*sm)) {
        const std::string_view hint = model::unmodelled_amd_hint(one);
        throw CommandError(kExitInput, "--arch \"" + shown(one) +
                                           "\": unknown architecture; allowed: " +
                                           model::arch_choices() + "; several: sm_90,sm_120" +
                                           (hint.empty() ? "" : "; " + std::string(hint)));
      }
      const int canonical = model::find_arch(*sm)->limits.sm;
      if (std::find(r.archs.begin(), r.archs.end(), canonical) != r.archs.end())
        throw CommandError(kExitInput, "--arch \"" + shown(arch) + "\": " +
                                           model::arch_name(canonical) + " is given twice");
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
  r.engines = engine_pins(engines);
  if (!hip_async_copy.empty()) {
    const std::string& v = hip_async_copy;
    if (v != "on" && v != "off")
      throw CommandError(kExitInput, "--hip-async-copy \"" + shown(v) +
                                         "\": allowed: on or off (TRITON_HIP_USE_ASYNC_COPY=1 "
                                         "or 0; left out: Triton 3.6's default, off)");
    if (r.mode == analysis::TargetRequest::Mode::device)
      throw CommandError(kExitInput,
                         "--hip-async-copy " + v +
                             ": --device asks an NVIDIA GPU (CUDA Runtime), and the switch "
                             "applies to the AMD targets only (gfx942, gfx950); give --arch "
                             "gfx942 (or gfx950) instead of --device");
    if (r.mode == analysis::TargetRequest::Mode::arch &&
        std::none_of(r.archs.begin(), r.archs.end(), model::is_amd))
      throw CommandError(kExitInput,
                         "--hip-async-copy " + v + ": --arch \"" + shown(arch) +
                             "\" names no AMD target, and the switch applies to the AMD targets "
                             "only (gfx942, gfx950); add one (--arch " +
                             shown(arch) +
                             ",gfx942) or "
                             "drop --hip-async-copy");
    r.hip_async_copy = v == "on";
  }
  return r;
}

void add_target_options(CLI::App& sub, TargetOptions& opt) {
  auto* arch = sub.add_option("--arch", opt.arch,
                              "Analyse every config for this architecture from the built-in "
                              "table (sm90, sm_120a, 100, 12.1, ...; AMD: gfx942 or mi300x, "
                              "gfx950 or mi355x); several, comma-separated (sm_90,gfx942), give "
                              "one result per config per architecture");
  arch->each([&opt](const std::string&) { opt.arch_given = true; });
  auto* dev =
      sub.add_option("--device", opt.device, "Analyse for GPU N (queried)")->check(gpu_index());
  auto* builtin =
      sub.add_flag("--builtin", opt.builtin,
                   "Never ask a GPU: use the built-in table for each config's own arch");
  arch->excludes(dev);
  builtin->excludes(dev);
  builtin->excludes(arch);
  sub.add_option("--engine", opt.engines,
                 "Whose launch rules apply to the configs of an engine (the tuned tables of its "
                 "folders, and configs whose \"engine\" names it): vllm@COMMIT or sglang@COMMIT "
                 "(a prefix of 8+ hex digits of a modelled commit: " +
                     model::engine_release_choices() +
                     "); the name alone is its newest; at most one per engine (repeatable)")
      ->allow_extra_args(false);
  sub.add_option("--hip-async-copy", opt.hip_async_copy,
                 "AMD targets (gfx942, gfx950): TRITON_HIP_USE_ASYNC_COPY on or off for every "
                 "config analysed there (overrides a config's \"hip_async_copy\"); default "
                 "Triton 3.6's (off). An NVIDIA-only target is an error; in a several-arch run "
                 "(--arch sm_90,gfx942) it applies to the AMD targets only");
}

void check_input_paths(const std::vector<std::string>& files, CliContext& ctx) {
  const auto stdin_count = std::count(files.begin(), files.end(), "-");
  if (stdin_count > 1)
    throw CommandError(kExitInput, "- (standard input) is given " + std::to_string(stdin_count) +
                                       " times; it can be read only once");
  for (const std::string& f : files)
    if (!io::detail::is_printable(f))
      ctx.warnings.push_back(
          io::detail::printable(f) +
          ": the path is not printable UTF-8; it is named with <0xXX> escapes for the "
          "bytes that are not UTF-8 and <U+XXXX> for control characters");
}

std::string for_device_command(std::string message) {
  static constexpr std::string_view kFrom = "use --arch to";
  static constexpr std::string_view kTo = "use 'tilefit check --arch ARCH' (or sweep, suggest) to";
  for (std::size_t at = message.find(kFrom); at != std::string::npos;
       at = message.find(kFrom, at + kTo.size()))
    message.replace(at, kFrom.size(), kTo);
  return message;
}

CLI::Validator gpu_index() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const bool digits =
            !s.empty() && s.size() <= 6 &&
            std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits) return "";
        return "'" + s +
               "' is not a GPU index; allowed: a whole number 0, 1, 2, ... (tilefit device lists "
               "them)";
      },
      "INDEX", "gpu_index");
}

}  // namespace tilefit::cli
