// The target options shared by check (and sweep): --arch A | --device N | --builtin.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tilefit/analysis/target.hpp"

namespace tilefit::cli {
struct CliContext;
}

namespace tilefit::cli {

struct TargetOptions {
  std::string arch;         ///< --arch, as written
  bool arch_given = false;  ///< --arch was on the command line (even as "")
  int device = -1;          ///< --device
  bool builtin = false;
  std::vector<std::string> engines;  ///< --engine, as written, repeatable
  std::string hip_async_copy;        ///< --hip-async-copy on|off, as written ("" = not given)

  /// The request these options make; an unknown --arch or --engine, or two --engine for one
  /// engine, is a usage error (CommandError, exit 2); so is --hip-async-copy with --device N
  /// (an NVIDIA GPU) or with an --arch list that names no AMD target.
  analysis::TargetRequest request() const;
};

/// The releases `--engine` names (model::parse_engine_release): an unknown one, or two for one
/// engine, is a usage error (CommandError, exit 2) listing model::engine_release_choices().
std::vector<model::EngineRelease> engine_pins(const std::vector<std::string>& engines);

/// Which --engine pins applied to a config: each is a warning naming it when none did (an
/// `--engine sglang` over vLLM tables changes nothing, and the run must say so).
///   EngineUse use(opt.target);  … use.saw(entry.config.engine) for each result …;  use.warn(ctx);
class EngineUse {
 public:
  explicit EngineUse(const TargetOptions& opt);
  /// A config analysed with release `engine` (its own or the pinned one).
  void saw(model::EngineRelease engine);
  /// Configs of every engine may have been analysed (a sweep's "engine" axis).
  void saw_all() { applied_.assign(applied_.size(), true); }
  /// A warning for each --engine whose engine launched no config analysed.
  void warn(CliContext& ctx) const;

 private:
  std::vector<std::string> written_;  ///< --engine, as written
  std::vector<model::Launcher> of_;   ///< the engine each pins
  std::vector<bool> applied_;
};

/// Adds --arch, --device and --builtin (mutually exclusive), --engine and --hip-async-copy to
/// `sub`.
void add_target_options(CLI::App& sub, TargetOptions& opt);

/// A GPU index: a whole number 0, 1, ...; anything else is a usage error that says so (not
/// CLI11's range of doubles).
CLI::Validator gpu_index();

/// Checks the input paths of check, sweep and suggest: "-" (standard input) given more than once
/// is a usage error (it can be read only once); a path that is not printable UTF-8 is named in
/// the output with visible escapes (<0xFF>), and a warning says so.
void check_input_paths(const std::vector<std::string>& files, CliContext& ctx);

/// A device error's line as `tilefit device` / `probe` print it: they have no --arch, so the
/// device layer's "use --arch to analyse ..." advice names the command that has it.
std::string for_device_command(std::string message);

}  // namespace tilefit::cli
