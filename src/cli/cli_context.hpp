// What every subcommand shares: the run's Env (input, checked standard output, GPUs, probe), the
// errors to print, the exit code. Subcommands never print to stderr and never pick the process's
// exit code: they write results to `out`, add error lines to `errors` and raise() the code;
// cli::run() (run.cpp) is the one place that catches, prints ("error: ...") and exits.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/env.hpp"
#include "cli/output.hpp"

namespace tilefit::cli {

/// Exit codes (docs/guide/results.md, "Exit codes"). A higher code wins when several apply.
enum ExitCode : int {
  kExitOk = 0,        ///< every config fits
  kExitNotFit = 1,    ///< at least one config does not fit or is invalid
  kExitInput = 2,     ///< usage or input error (the good configs are still reported)
  kExitDevice = 3,    ///< no GPU when one was required, a CUDA failure
  kExitOutput = 4,    ///< the output could not be fully written (full disk, closed pipe)
  kExitInternal = 5,  ///< a bug in tilefit: an exception that should not happen
};

/// An error that ends a command: its message is printed as "error: <what()>".
class CommandError : public std::runtime_error {
 public:
  CommandError(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

struct CliContext {
  const Env& env;  ///< where the command reads, writes and asks GPUs
  Output& out;
  /// Standard error, for the progress line only (cli/progress.hpp); errors go to `errors`.
  ErrorOutput& err;
  std::vector<std::string> errors;    ///< lines for stderr, without the "error: " prefix
  std::vector<std::string> warnings;  ///< lines for stderr before the errors, without "warning: "
  std::vector<std::string> notes;     ///< lines for stderr before the warnings, without "note: "
  int exit_code = kExitOk;

  /// Raise the exit code (a higher code wins).
  void raise(int code) {
    if (code > exit_code) exit_code = code;
  }
  /// An error line and its exit code.
  void error(std::string line, int code) {
    errors.push_back(std::move(line));
    raise(code);
  }
};

/// The work of the chosen subcommand, set by its CLI11 callback and run after parsing.
using Command = std::function<void(CliContext&)>;

// Each subcommand lives in its own cmd_<name>.cpp and registers itself here; its callback only
// stores the Command to run.
void register_check(CLI::App& app, Command& cmd);
void register_archs(CLI::App& app, Command& cmd);
void register_device(CLI::App& app, Command& cmd);
void register_probe(CLI::App& app, Command& cmd);
void register_families(CLI::App& app, Command& cmd);
void register_sweep(CLI::App& app, Command& cmd);
void register_suggest(CLI::App& app, Command& cmd);
void register_schema(CLI::App& app, Command& cmd);

/// Registers more subcommands (tests add one that throws, to see the internal-error path).
using Extension = std::function<void(CLI::App& app, Command& cmd)>;

/// Parses `args` (the arguments after the program name), runs the subcommand with `env`, prints
/// its errors to env.err and returns the exit code. Catches everything: a usage error exits 2, an
/// unwritable output 4, any other exception 5.
int run(const std::vector<std::string>& args, const Env& env, const Extension& extension = {});

}  // namespace tilefit::cli
