// What every subcommand shares: the parsed global options and the exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace tilefit::cli {

/// Exit codes (../shared/docs/design.md): 0 every config fits; 1 at least one does not fit
/// or is invalid; 2 usage or input error (wins over 1); 3 device error.
enum ExitCode : int { kExitOk = 0, kExitNotFit = 1, kExitInput = 2, kExitDevice = 3 };

struct CliContext {
  int exit_code = kExitOk;
  /// Raise the exit code; input errors win over not-fit, device errors over both.
  void raise(int code) {
    if (code > exit_code) exit_code = code;
  }
};

// Each subcommand lives in its own cmd_<name>.cpp and registers itself here.
void register_check(CLI::App& app, CliContext& ctx);
void register_archs(CLI::App& app, CliContext& ctx);
void register_device(CLI::App& app, CliContext& ctx);
void register_probe(CLI::App& app, CliContext& ctx);
void register_families(CLI::App& app, CliContext& ctx);

}  // namespace tilefit::cli
