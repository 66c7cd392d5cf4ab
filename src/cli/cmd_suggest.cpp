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

/// Each result's suggestions, then the report writer; what the CLI needs of every result and
/// problem (the exit code, a line on stderr).
class SuggestSink final : public analysis::CheckSink {
 public:
  SuggestSink(report::SuggestWriter& w, std::size_t max, EngineUse& engines, CliContext& ctx)
      : w_(w), max_(max), engines_(engines), ctx_(ctx) {}
  void entry(analysis::Entry&& e) override {
    engines_.saw(e.config.engine);
    std::vector<analysis::Suggestion> s;
    if (analysis::wants_suggestions(e.result)) {
      s = analysis::suggest(e.config, e.target.limits, e.result, max_);
      if (s.empty()) ctx_.raise(kExitNotFit);
    } else if (e.result.status != model::Status::Fits) {
      ctx_.raise(kExitNotFit);  // invalid for another reason
    }
    w_.entry(std::move(e), std::move(s));
  }
  void problem(analysis::Problem&& p) override {
    // On stderr whatever the format (JSON also carries them in "errors").
    ctx_.error(analysis::problem_text(p), exit_code_of(p));
    w_.problem(std::move(p));
  }
  bool stopped() const override { return w_.stopped(); }

 private:
  report::SuggestWriter& w_;
  std::size_t max_;
  EngineUse& engines_;
  CliContext& ctx_;
};

void run_suggest(const SuggestOptions& opt, CliContext& ctx) {
  const analysis::TargetRequest request = opt.target.request();
  if (request.archs.size() > 1)
    throw CommandError(kExitInput, "suggest takes one architecture; run it once per --arch");
  if (opt.format == "json") Output::report_closed_pipes();
  require_inputs(opt, "config files", ctx);
  // Files are read and analysed one at a time and each result written with its suggestions as it
  // comes (as check does): memory stays bounded whatever the number of files and configs.
  analysis::CheckStream stream(request, ctx.env.devices);
  report::SuggestWriter writer(
      report::format_named(opt.format), stream.head(),
      [&ctx](std::string_view text) { ctx.out.write(text); }, [&ctx] { return ctx.out.failed(); });
  EngineUse engines(opt.target);
  SuggestSink sink(writer, opt.max, engines, ctx);
  if (!opt.names.empty())
    stream.add(io::load<io::LoadResult>(io::Source::kernel_names(opt.names)), sink);
  for (const std::string& file : opt.files) {
    if (sink.stopped()) break;
    stream.add_file(file, sink);
  }
  writer.finish(stream.finish(sink));
  engines.warn(ctx);
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
