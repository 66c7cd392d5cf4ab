// `tilefit suggest FILE... [--arch A | --device N | --builtin] [--max N]
//                   [--format table|json|csv|markdown]`
// Each config as check reports it; for each one that does not fit, up to N nearest alternatives
// that fit (tilefit/analysis/suggest.hpp). Exit 0 when every config fits or has an alternative,
// 1 when one has none, 2 on input errors, 3 on device errors.
#include <memory>

#include "cli/command_options.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/report/suggest_report.hpp"

namespace tilefit::cli {
namespace {

struct SuggestOptions : InputOptions {
  std::size_t max = 5;
};

void run_suggest(const SuggestOptions& opt, CliContext& ctx) {
  const analysis::TargetRequest request = opt.target.request();
  if (request.archs.size() > 1)
    throw CommandError(kExitInput, "suggest takes one architecture; run it once per --arch");
  if (opt.format == "json") Output::report_closed_pipes();
  require_inputs(opt, "config files", ctx);
  io::LoadResult loaded = opt.names.empty()
                              ? io::LoadResult{}
                              : io::load<io::LoadResult>(io::Source::kernel_names(opt.names));
  for (const std::string& file : opt.files) {
    io::LoadResult lr = io::load<io::LoadResult>(io::Source::file(file));
    for (io::ConfigError& e : lr.errors) loaded.errors.push_back(std::move(e));
    for (io::LoadedConfig& c : lr.configs) loaded.configs.push_back(std::move(c));
  }
  report::SuggestRun run;
  run.check = analysis::check_configs(std::move(loaded), request, ctx.env.devices);
  bool none = false;
  for (const analysis::Entry& e : run.check.entries) {
    run.suggestions.emplace_back();
    if (!analysis::wants_suggestions(e.result)) {
      if (e.result.status != model::Status::Fits) none = true;  // invalid for another reason
      continue;
    }
    run.suggestions.back() = analysis::suggest(e.config, e.target.limits, e.result, opt.max);
    if (run.suggestions.back().empty()) none = true;
  }

  if (opt.format == "json") {
    ctx.out.write(report::suggest_json(run).dump(2) + "\n");
  } else {
    if (opt.format == "csv")
      ctx.out.write(report::suggest_csv(run));
    else if (opt.format == "markdown")
      ctx.out.write(report::suggest_markdown(run));
    else
      ctx.out.write(report::suggest_table(run));
  }
  if (none) ctx.raise(kExitNotFit);
  EngineUse engines(opt.target);
  for (const analysis::Entry& e : run.check.entries) engines.saw(e.config.engine);
  engines.warn(ctx);
  report_problems(run.check.problems, ctx);
}

}  // namespace

void register_suggest(CLI::App& app, Command& cmd) {
  auto [sub, opt] = add_command(
      app, cmd, "suggest",
      "For each config that does not fit, the nearest alternatives that fit: fewer stages, "
      "swap_ab, a smaller epilogue tile, the other schedule, a halved tile extent",
      run_suggest);
  add_input_options(*sub, *opt, "Config files (JSON); - reads standard input",
                    "A CUTLASS library kernel name (repeatable)");
  sub->add_option("--max", opt->max, "Most suggestions per config (default 5)")
      ->check(CLI::Range(1, 100));
  add_format_option(*sub, opt->format, "table (default), json, csv or markdown",
                    {"table", "json", "csv", "markdown"});
}

}  // namespace tilefit::cli
