// `tilefit check FILE... [--arch A[,B...] | --device N | --builtin]
//                 [--format table|json|csv|markdown|svg] [--breakdown]`
// Options -> analysis::check_files (target rules in tilefit/analysis/target.hpp) -> a report.
#include <memory>

#include "cli/cli_context.hpp"
#include "cli/target_options.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/io/config_reader.hpp"
#include "tilefit/report/budget_svg.hpp"
#include "tilefit/report/check_report.hpp"

namespace tilefit::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> files;
  std::vector<std::string> names;
  TargetOptions target;
  std::string format = "table";
  bool breakdown = false;
};

void run_check(const CheckOptions& opt, CliContext& ctx) {
  const analysis::TargetRequest request = opt.target.request();
  const bool json = opt.format == "json";
  if (opt.format != "table") Output::report_closed_pipes();
  if (opt.files.empty() && opt.names.empty())
    throw CommandError(kExitInput, "no configs: give config files (or - for standard input) or --name NAME");
  io::LoadResult loaded = opt.names.empty() ? io::LoadResult{} : io::configs_from_names(opt.names);
  for (const std::string& file : opt.files) {
    io::LoadResult lr = io::read_config_file(file);
    for (io::ConfigError& e : lr.errors) loaded.errors.push_back(std::move(e));
    for (io::LoadedConfig& c : lr.configs) loaded.configs.push_back(std::move(c));
  }
  const analysis::CheckRun run =
      analysis::check_configs(std::move(loaded), request, device::system_devices());

  if (json) {
    ctx.out.write(report::to_json(run).dump(2) + "\n");
  } else {
    if (opt.format == "csv")
      ctx.out.write(report::render_csv(run));
    else if (opt.format == "svg")
      ctx.out.write(report::render_budget_svg(run));
    else if (opt.format == "markdown")
      ctx.out.write(report::render_markdown(run));
    else
      ctx.out.write(report::render_table(run, opt.breakdown, /*bars=*/ctx.out.terminal()));
    for (const analysis::Problem& p : run.problems) ctx.errors.push_back(analysis::problem_text(p));
  }
  for (const analysis::Entry& e : run.entries)
    if (e.result.status != model::Status::Fits) ctx.raise(kExitNotFit);
  for (const analysis::Problem& p : run.problems)
    ctx.raise(p.kind == analysis::Problem::Kind::device ? kExitDevice : kExitInput);
}

}  // namespace

void register_check(CLI::App& app, Command& cmd) {
  auto opt = std::make_shared<CheckOptions>();
  auto* sub = app.add_subcommand(
      "check", "Check tile configs: fits or not, stage counts, bytes by component");
  sub->add_option("files", opt->files, "Config files (JSON); - reads standard input");
  sub->add_option("--name", opt->names,
                  "A CUTLASS library kernel name to check, e.g. cutlass3x_sm90_tensorop_gemm_bf16_bf16_"
                  "f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma "
                  "(repeatable)");
  add_target_options(*sub, opt->target);
  sub->add_option("--format", opt->format,
                  "table (default), json, csv, markdown or svg (each config's budget as a stacked bar "
                  "against the limit)")
      ->check(CLI::IsMember({"table", "json", "csv", "markdown", "svg"}));
  sub->add_flag("--breakdown", opt->breakdown,
                "Show bytes per component, the limits used and the CUTLASS kernel under each config");
  sub->callback([opt, &cmd] { cmd = [opt](CliContext& ctx) { run_check(*opt, ctx); }; });
}

}  // namespace tilefit::cli
