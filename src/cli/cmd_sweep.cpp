// `tilefit sweep FILE... [--arch A[,B...] | --device N | --builtin] [--all]
//                 [--format table|json|csv|markdown|svg] [--sort stages|bytes|headroom|tile]
//                 [--reverse] [--top N] [--progress | --no-progress]`
// Every candidate of every config space (tilefit/io/space.hpp), streamed. Exit 0 when at least
// one candidate fits, 1 when none does, 2 on input errors, 3 on device errors.
#include <memory>

#include "cli/command_options.hpp"
#include "cli/progress.hpp"
#include "tilefit/analysis/sweep.hpp"
#include "tilefit/report/sweep_map_svg.hpp"
#include "tilefit/report/sweep_report.hpp"

namespace tilefit::cli {
namespace {

struct SweepCliOptions : InputOptions {
  bool all = false;
  std::string sort = "none";
  bool reverse = false;
  std::uint64_t top = 0;
  bool top_given = false;
  bool progress = false, no_progress = false;
};

analysis::SortKey sort_of(const std::string& s) {
  if (s == "stages") return analysis::SortKey::stages;
  if (s == "bytes") return analysis::SortKey::bytes;
  if (s == "headroom") return analysis::SortKey::headroom;
  if (s == "tile") return analysis::SortKey::tile;
  return analysis::SortKey::none;
}

void run_sweep(const SweepCliOptions& opt, CliContext& ctx) {
  analysis::SweepOptions o;
  o.request = opt.target.request();
  o.all = opt.all;
  o.sort = sort_of(opt.sort);
  o.reverse = opt.reverse;
  o.top = opt.top;
  if (opt.top_given && o.sort == analysis::SortKey::none)
    throw CommandError(kExitInput, "--top " + std::to_string(opt.top) +
                                       " needs --sort (stages, bytes, headroom or tile)");
  if (opt.reverse && o.sort == analysis::SortKey::none)
    throw CommandError(kExitInput,
                       "--reverse needs --sort (stages, bytes, headroom or tile): without it the "
                       "candidates come in the space's order");
  const report::Format format = report::format_named(opt.format);
  // The map (svg) draws every candidate, with the reason of each invalid one.
  if (format == report::Format::svg) o.all = true;
  o.detail = format == report::Format::json || format == report::Format::svg
                 ? model::Detail::full
                 : model::Detail::verdict;
  if (format == report::Format::json || format == report::Format::svg)
    Output::report_closed_pipes();

  require_inputs(opt, "sweep files", ctx);
  std::vector<io::ConfigSpace> spaces;
  std::vector<analysis::Problem> problems;
  std::vector<io::SpaceLoad> loads;
  if (!opt.names.empty())
    loads.push_back(io::load<io::SpaceLoad>(io::Source::kernel_names(opt.names)));
  for (const std::string& f : opt.files)
    loads.push_back(io::load<io::SpaceLoad>(io::Source::file(f)));
  for (io::SpaceLoad& load : loads) {
    for (io::ConfigSpace& s : load.spaces) spaces.push_back(std::move(s));
    for (io::ConfigError& e : load.errors)
      problems.push_back({analysis::Problem::Kind::input, std::move(e)});
  }

  class Sink final : public analysis::SweepSink {
   public:
    Sink(report::SweepWriter& w, Output& out, Progress& p) : w_(w), out_(out), progress_(p) {}
    void result(const io::ConfigSpace& s, std::uint64_t i,
                std::span<const analysis::Entry> e) override {
      progress_.clear();  // a result on the same terminal must not land inside the line
      w_.result(s, i, e);
    }
    bool stopped() const override { return out_.failed(); }
    void progress(std::uint64_t done, std::uint64_t total) override {
      progress_.update(done, total);
    }

   private:
    report::SweepWriter& w_;
    Output& out_;
    Progress& progress_;
  };
  if (format == report::Format::svg)
    if (const auto why = report::sweep_map_refusal(spaces, o.request))
      throw CommandError(kExitInput, *why);
  // The cap on candidates is the whole command's: every space on every architecture.
  const std::uint64_t archs = o.request.archs.empty() ? 1 : o.request.archs.size();
  std::uint64_t total = 0;
  for (const io::ConfigSpace& s : spaces) total += s.size();
  if (total > io::kMaxCandidates / archs)
    throw CommandError(
        kExitInput,
        "the sweep has " + std::to_string(total) + " candidates" +
            (archs > 1 ? " x " + std::to_string(archs) + " architectures" : std::string()) +
            " in all (" + std::to_string(spaces.size()) + " config" +
            (spaces.size() == 1 ? "" : "s") + "): more than " + std::to_string(io::kMaxCandidates) +
            ", the most one sweep evaluates; narrow the alternatives" +
            (archs > 1 ? ", give fewer architectures" : "") +
            " or sweep the files in several runs");
  // Nothing to sweep (every space refused or unreadable): the errors alone, no empty table.
  if (spaces.empty() && format != report::Format::json) {
    ctx.raise(kExitNotFit);
    report_problems(problems, ctx);
    return;
  }
  auto writer = report::SweepWriter::make(format, spaces, o.request,
                                          [&ctx](std::string_view text) { ctx.out.write(text); });
  Progress progress(ctx.err,
                    opt.no_progress ? ProgressMode::off
                    : opt.progress  ? ProgressMode::on
                                    : ProgressMode::automatic,
                    "sweep");
  Sink sink(*writer, ctx.out, progress);
  // Whose launch rules each space's configs take (a space with an "engine" axis names engines:
  // every pin may apply).
  EngineUse engines(opt.target);
  for (const io::ConfigSpace& s : spaces) {
    model::KernelConfig first;
    s.candidate(0, first);
    engines.saw(first.engine);
    for (const io::ConfigSpace::Axis& a : s.axes())
      if (a.field == "engine") engines.saw_all();
  }
  const analysis::SweepTally tally =
      analysis::run_sweep(spaces, o, ctx.env.devices, sink, problems);
  progress.finish();
  writer->finish(tally, problems);

  ctx.raise(tally.fits > 0 ? kExitOk : kExitNotFit);
  engines.warn(ctx);
  report_problems(problems, ctx);
}

}  // namespace

void register_sweep(CLI::App& app, Command& cmd) {
  auto [sub, opt] = add_command(
      app, cmd, "sweep",
      "Sweep spaces of configs: any field may hold an array of alternatives (tile also "
      "{\"m\": [...], \"n\": [...], \"k\": [...]} or a list of tiles); lists the candidates that "
      "fit (--all: every one), each with its concrete config",
      run_sweep);
  add_input_options(*sub, *opt,
                    "Sweep files (the config format with alternatives); - reads standard input",
                    "A CUTLASS library kernel name (repeatable)");
  sub->add_flag("--all", opt->all, "List every candidate, not only those that fit");
  add_format_option(
      *sub, opt->format,
      "table (default), json, csv, markdown or svg (the map: largest stage count that fits by "
      "tile M x N, a panel per architecture and value of the other varying fields; implies --all)",
      {"table", "json", "csv", "markdown", "svg"});
  sub->add_option("--sort", opt->sort,
                  "stages (most first), bytes (fewest first), headroom (tightest first) or tile "
                  "(largest M*N*K first); holds the listed candidates (32 B each) until the end")
      ->check(CLI::IsMember({"none", "stages", "bytes", "headroom", "tile"}));
  sub->add_flag("--reverse", opt->reverse, "Sort the other way round");
  sub->add_option("--top", opt->top, "With --sort: only the best N (N >= 1)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            const bool digits = !s.empty() && s.size() <= 18 &&
                                s.find_first_not_of("0123456789") == std::string::npos;
            if (digits && s.find_first_not_of('0') != std::string::npos) return "";
            return "'" + s + "' is not a count of candidates; allowed: a whole number 1, 2, 3, ...";
          },
          "N", "count"))
      ->each([o = opt](const std::string&) { o->top_given = true; });
  auto* on = sub->add_flag(
      "--progress", opt->progress,
      "Show candidates done/total, rate and time left on stderr (default: when stderr "
      "is a terminal and the sweep takes more than a second)");
  auto* off = sub->add_flag("--no-progress", opt->no_progress, "Never show the progress line");
  on->excludes(off);
}

}  // namespace tilefit::cli
