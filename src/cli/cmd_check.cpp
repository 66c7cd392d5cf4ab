// `tilefit check FILE|DIR... [--arch A[,B...] | --device N | --builtin] [--engine E@COMMIT]...
//                 [--format table|json|csv|markdown|svg] [--breakdown]`
// A DIR is every JSON file under it (io::walk_folder), each read as what it is (a config file, a
// tuned table, a list of CUTLASS kernel names); the other files are counted in one note per
// folder and in the summary; what cannot be walked is an input error naming the path.
// Options -> analysis::CheckStream (target rules in tilefit/analysis/target.hpp; files and folders
// through CheckStream::add_path, as the C ABI reads them) -> a streamed report
// (report::CheckWriter).
#include <memory>

#include "cli/command_options.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/report/budget_svg.hpp"
#include "tilefit/report/check_report.hpp"

namespace tilefit::cli {
namespace {

struct CheckOptions : InputOptions {
  bool breakdown = false;
};

/// The report writer, plus what the CLI needs of every problem (a line on stderr, the exit code).
class Sink final : public analysis::CheckSink {
 public:
  Sink(report::CheckWriter& w, CliContext& ctx, EngineUse& engines)
      : w_(w), ctx_(ctx), engines_(engines) {}
  void entry(analysis::Entry&& e) override {
    if (e.result.status != model::Status::Fits) ctx_.raise(kExitNotFit);
    engines_.saw(e.config.engine);
    w_.entry(std::move(e));
  }
  void problem(analysis::Problem&& p) override {
    // On stderr whatever the format (JSON also carries them in "errors").
    ctx_.error(analysis::problem_text(p), exit_code_of(p));
    w_.problem(std::move(p));
  }
  bool stopped() const override { return w_.stopped(); }

 private:
  report::CheckWriter& w_;
  CliContext& ctx_;
  EngineUse& engines_;
};

void run_check(const CheckOptions& opt, CliContext& ctx) {
  const analysis::TargetRequest request = opt.target.request();
  const report::Format format = report::format_named(opt.format);
  if (format == report::Format::json || format == report::Format::svg)
    Output::report_closed_pipes();
  require_inputs(opt, "config files", ctx);
  if (opt.breakdown && format != report::Format::table)
    throw CommandError(
        kExitInput,
        "--breakdown is for --format table; --format " + opt.format +
            (format == report::Format::json  ? " always carries \"breakdown\""
             : format == report::Format::svg ? " always draws the breakdown"
                                             : " has no room for it: use --format json"));

  // Files are read and analysed one at a time and each result written as it comes: memory stays
  // bounded whatever the number of files and configs.
  analysis::CheckStream stream(request, ctx.env.devices);
  auto writer = report::CheckWriter::make(
      format, opt.breakdown, stream.head(), [&ctx](std::string_view text) { ctx.out.write(text); },
      [&ctx] { return ctx.out.failed(); }, /*bars=*/ctx.out.terminal());
  EngineUse engines(opt.target);
  Sink sink(*writer, ctx, engines);
  if (!opt.names.empty())
    stream.add(io::load<io::LoadResult>(io::Source::kernel_names(opt.names)), sink);
  std::size_t skipped = 0;
  for (const std::string& file : opt.files) {
    if (sink.stopped()) break;
    skipped += stream.add_path(file, sink,
                               [&ctx](std::string note) { ctx.notes.push_back(std::move(note)); });
  }
  analysis::Tally tally = stream.finish(sink);
  tally.files_skipped = skipped;
  writer->finish(tally);
  engines.warn(ctx);
}

}  // namespace

void register_check(CLI::App& app, Command& cmd) {
  auto [sub, opt] =
      add_command(app, cmd, "check",
                  "Check tile configs: fits or not, stage counts, bytes by component", run_check);
  add_input_options(
      *sub, *opt,
      "Config files (JSON); - reads standard input; a folder: every *.json file under it "
      "(recursively, each real file once, at most 64 folders deep and 1,000,000 names; "
      "other files are counted in one note)",
      "A CUTLASS library kernel name to check, e.g. cutlass3x_sm90_tensorop_gemm_bf16_bf16_"
      "f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma "
      "(repeatable)");
  add_format_option(
      *sub, opt->format,
      "table (default), json, csv, markdown or svg (each config's budget as a stacked bar "
      "against the limit)",
      {"table", "json", "csv", "markdown", "svg"});
  sub->add_flag(
      "--breakdown", opt->breakdown,
      "Show bytes per component, the limits used and the CUTLASS kernel under each config");
}

}  // namespace tilefit::cli
