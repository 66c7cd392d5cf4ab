// What the subcommands share in their options, their start and their end: the subcommand with its
// options and the Command it stores, the config inputs of check, sweep and suggest (FILE...,
// --name, the target options), a --format option, the problems on stderr, and a command that only
// prints a table or its JSON (archs, families).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/cli_context.hpp"
#include "cli/target_options.hpp"
#include "tilefit/analysis/check.hpp"

namespace tilefit::cli {

/// The inputs of check, sweep and suggest.
struct InputOptions {
  std::vector<std::string> files;  ///< FILE...; "-" is standard input
  std::vector<std::string> names;  ///< --name, repeatable
  TargetOptions target;            ///< --arch | --device | --builtin
  std::string format = "table";    ///< --format
};

/// Adds FILE... (`files_help`), --name (`name_help`) and the target options, in that order.
void add_input_options(CLI::App& sub, InputOptions& opt, const std::string& files_help,
                       const std::string& name_help);

/// Adds --format, one of `choices`.
void add_format_option(CLI::App& sub, std::string& format, const std::string& help,
                       const std::vector<std::string>& choices);

/// The start every config command makes: no file and no --name is a usage error ("no configs:
/// give `what` (or - for standard input) or --name NAME"), then check_input_paths().
void require_inputs(const InputOptions& opt, const std::string& what, CliContext& ctx);

/// Adds the subcommand `name` (`help`), whose options are an `Options` shared with its Command:
/// once parsed, `run(*options, ctx)` is what runs. Returns the subcommand and the options, for the
/// caller to add the options to.
template <class Options>
std::pair<CLI::App*, std::shared_ptr<Options>> add_command(
    CLI::App& app, Command& cmd, const std::string& name, const std::string& help,
    void (*run)(const Options&, CliContext&)) {
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(name, help);
  sub->callback([opt, run, &cmd] { cmd = [opt, run](CliContext& ctx) { run(*opt, ctx); }; });
  return {sub, opt};
}

/// The problems of a run on stderr whatever the format (JSON also carries them in "errors"), each
/// raising the exit code: 3 for a device problem, 2 for an input problem.
void report_problems(const std::vector<analysis::Problem>& problems, CliContext& ctx);
/// That exit code of one problem.
int exit_code_of(const analysis::Problem& p);

/// A subcommand `name` that prints `text()`, or with --format json `json()` (indented by 2).
void register_listing(CLI::App& app, Command& cmd, const std::string& name, const std::string& help,
                      std::string (*text)(), nlohmann::ordered_json (*json)());

}  // namespace tilefit::cli
