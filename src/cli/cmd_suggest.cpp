// `tilefit suggest FILE... [--arch A | --device N | --builtin] [--max N]
//                   [--format table|json|csv|markdown]`
// Each config as check reports it; for each one that does not fit, up to N nearest alternatives
// that fit (tilefit/analysis/suggest.hpp). Exit 0 when every config fits or has an alternative,
// 1 when one has none, 2 on input errors, 3 on device errors.
#include <memory>

#include "cli/cli_context.hpp"
#include "cli/target_options.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/report/suggest_report.hpp"

namespace tilefit::cli {
namespace {

struct SuggestOptions {
  std::vector<std::string> files;
  std::vector<std::string> names;
  TargetOptions target;
  std::string format = "table";
  std::size_t max = 5;
};

void run_suggest(const SuggestOptions& opt, CliContext& ctx) {
  const analysis::TargetRequest request = opt.target.request();
  if (request.archs.size() > 1)
    throw CommandError(kExitInput, "suggest takes one architecture; run it once per --arch");
  if (opt.files.empty() && opt.names.empty())
    throw CommandError(kExitInput, "no configs: give config files (or - for standard input) or --name NAME");
  if (opt.format == "json") Output::report_closed_pipes();
  check_input_paths(opt.files, ctx);
  io::LoadResult loaded = opt.names.empty() ? io::LoadResult{} : io::load<io::LoadResult>(io::Source::kernel_names(opt.names));
  for (const std::string& file : opt.files) {
    io::LoadResult lr = io::load<io::LoadResult>(io::Source::file(file));
    for (io::ConfigError& e : lr.errors) loaded.errors.push_back(std::move(e));
    for (io::LoadedConfig& c : lr.configs) loaded.configs.push_back(std::move(c));
  }
  report::SuggestRun run;
  run.check = analysis::check_configs(std::move(loaded), request, device::system_devices());
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
  // On stderr whatever the format (JSON also carries them in "errors").
  for (const analysis::Problem& p : run.check.problems) ctx.errors.push_back(analysis::problem_text(p));
  if (none) ctx.raise(kExitNotFit);
  for (const analysis::Problem& p : run.check.problems)
    ctx.raise(p.kind == analysis::Problem::Kind::device ? kExitDevice : kExitInput);
}

}  // namespace

void register_suggest(CLI::App& app, Command& cmd) {
  auto opt = std::make_shared<SuggestOptions>();
  auto* sub = app.add_subcommand(
      "suggest",
      "For each config that does not fit, the nearest alternatives that fit: fewer stages, "
      "swap_ab, a smaller epilogue tile, the other schedule, a halved tile extent");
  sub->add_option("files", opt->files, "Config files (JSON); - reads standard input");
  sub->add_option("--name", opt->names, "A CUTLASS library kernel name (repeatable)");
  add_target_options(*sub, opt->target);
  sub->add_option("--max", opt->max, "Most suggestions per config (default 5)")->check(CLI::Range(1, 100));
  sub->add_option("--format", opt->format, "table (default), json, csv or markdown")
      ->check(CLI::IsMember({"table", "json", "csv", "markdown"}));
  sub->callback([opt, &cmd] { cmd = [opt](CliContext& ctx) { run_suggest(*opt, ctx); }; });
}

}  // namespace tilefit::cli
