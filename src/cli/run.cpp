// The one place that parses, runs the chosen subcommand, catches, prints errors and picks the
// exit code.
#include <unistd.h>

#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_context.hpp"
#include "io/text_checks.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/report/json.hpp"

#ifndef TILEFIT_VERSION
#define TILEFIT_VERSION "0.1.0"
#endif

namespace tilefit::cli {

namespace {

/// Puts `in` on file descriptor 0 for a run (the io layer reads "-" from there) when it is another
/// stream, and the old descriptor 0 back at the end.
class StdinFor {
 public:
  explicit StdinFor(std::FILE* in) {
    if (in == nullptr || fileno(in) == STDIN_FILENO) return;
    saved_ = ::dup(STDIN_FILENO);
    swapped_ = ::dup2(fileno(in), STDIN_FILENO) >= 0;
  }
  ~StdinFor() {
    if (!swapped_) return;
    if (saved_ >= 0) {
      ::dup2(saved_, STDIN_FILENO);
      ::close(saved_);
    } else {
      ::close(STDIN_FILENO);
    }
  }
  StdinFor(const StdinFor&) = delete;
  StdinFor& operator=(const StdinFor&) = delete;

 private:
  int saved_ = -1;
  bool swapped_ = false;
};

/// The value of the last --format (or --format=VALUE) in `args`, "" when none.
std::string format_asked(const std::vector<std::string>& args) {
  std::string format;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format" && i + 1 < args.size()) format = args[i + 1];
    if (args[i].starts_with("--format=")) format = args[i].substr(9);
  }
  return format;
}

/// The JSON document a run under --format json writes when a usage error stops it before it
/// wrote anything: no results, the errors, and (check, suggest, sweep) the results schema's
/// target and zero counts, so a program reading stdout still reads JSON with "errors".
std::string usage_error_json(const std::vector<std::string>& args,
                             const std::vector<std::string>& errors) {
  using nlohmann::ordered_json;
  const std::string command = args.empty() ? "" : args.front();
  ordered_json doc;
  doc["schema_version"] = report::kSchemaVersion;
  doc["tool"] = "tilefit";
  const bool results = command == "check" || command == "suggest" || command == "sweep";
  if (command == "sweep" || command == "suggest" || !results)
    doc["command"] = io::detail::printable(command);
  if (results) {
    std::string mode = "per-config";
    for (const std::string& a : args) {
      if (a == "--arch" || a.starts_with("--arch=")) mode = "arch";
      if (a == "--device" || a.starts_with("--device=")) mode = "device";
      if (a == "--builtin") mode = "builtin";
    }
    doc["target"] = {{"mode", mode}};
    doc["results"] = ordered_json::array();
  }
  ordered_json list = ordered_json::array();
  for (const std::string& e : errors)
    list.push_back({{"kind", "input"},
                    {"file", ""},
                    {"index", nullptr},
                    {"config", ""},
                    {"field", ""},
                    {"message", e},
                    {"text", e}});
  doc["errors"] = std::move(list);
  if (results) {
    ordered_json summary;
    const auto counts =
        command == "sweep"
            ? std::vector<const char*>{"candidates", "fits", "does_not_fit", "invalid", "listed"}
            : std::vector<const char*>{"configs", "fits", "does_not_fit", "invalid"};
    for (const char* c : counts) summary[c] = 0;
    summary["errors"] = errors.size();
    doc["summary"] = std::move(summary);
  }
  return doc.dump(2) + "\n";
}

}  // namespace

int run(const std::vector<std::string>& args, const Env& env, const Extension& extension) {
  std::vector<const char*> argv{env.program.c_str()};
  for (const std::string& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  Output& out = env.out;
  ErrorOutput& err_out = env.err;
  std::FILE* err = err_out.file();
  const StdinFor stdin_for(env.in);
  CLI::App app{"tilefit " TILEFIT_VERSION
               " - does a GEMM tile configuration fit in GPU shared memory?"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tilefit " TILEFIT_VERSION " (" + device::cuda_support() + ")");
  app.footer(
      "Exit codes: 0 every config fits; 1 a config does not fit or is invalid; 2 usage or input "
      "error; 3 device error; 4 the output could not be written; 5 internal error.");
  Command command;
  using Register = void (*)(CLI::App&, Command&);
  static constexpr std::pair<std::string_view, Register> kCommands[] = {
      {"check", register_check}, {"sweep", register_sweep},       {"suggest", register_suggest},
      {"archs", register_archs}, {"families", register_families}, {"device", register_device},
      {"probe", register_probe}, {"schema", register_schema}};
  // Start-up: building every subcommand's options was a tenth of `check`'s instructions, so when
  // the first argument names a subcommand only that one is built (its parse, help and errors are
  // the same); anything else (--help, --version, a typo, an extension) gets them all.
  const std::string_view first =
      argc > 1 && !extension ? std::string_view(argv[1]) : std::string_view();
  bool one = false;
  for (const auto& [name, add] : kCommands)
    if (name == first) {
      add(app, command);
      one = true;
    }
  if (!one)
    for (const auto& [name, add] : kCommands) add(app, command);
  if (extension) extension(app, command);

  // Help and version go to the checked output too.
  auto finish = [&](int code) {
    if (out.finish()) return code;
    std::fprintf(err, "error: %s\n", out.problem().c_str());
    return static_cast<int>(kExitOutput);
  };
  CliContext ctx{env, out, err_out, {}, {}, {}, kExitOk};
  try {
    app.parse(argc, argv.data());
  } catch (const CLI::CallForHelp&) {
    out.write(app.help());
    return finish(kExitOk);
  } catch (const CLI::CallForAllHelp&) {
    out.write(app.help("", CLI::AppFormatMode::All));
    return finish(kExitOk);
  } catch (const CLI::CallForVersion& e) {
    out.write(std::string(e.what()) + "\n");
    return finish(kExitOk);
  } catch (const CLI::ParseError& e) {
    std::fprintf(err,
                 "error: %s\nrun 'tilefit --help' (or 'tilefit SUBCOMMAND --help') for usage\n",
                 e.what());
    if (format_asked(args) == "json" && !out.written()) {
      out.write(usage_error_json(args, {io::detail::printable(e.what())}));
      return finish(kExitInput);
    }
    return kExitInput;
  }

  try {
    if (command) command(ctx);
  } catch (const CommandError& e) {
    ctx.error(e.what(), e.exit_code());
    // Under --format json, an error that stopped the command before it wrote anything is
    // still a JSON document on stdout.
    if (format_asked(args) == "json" && !out.written())
      out.write(usage_error_json(args, ctx.errors));
  } catch (const std::exception& e) {
    ctx.error(std::string("internal error: ") + e.what(), kExitInternal);
  } catch (...) {
    ctx.error("internal error: unknown exception", kExitInternal);
  }
  if (!out.finish()) ctx.error(out.problem(), kExitOutput);
  for (const std::string& line : ctx.notes) std::fprintf(err, "note: %s\n", line.c_str());
  for (const std::string& line : ctx.warnings) std::fprintf(err, "warning: %s\n", line.c_str());
  for (const std::string& line : ctx.errors) std::fprintf(err, "error: %s\n", line.c_str());
  std::fflush(err);
  return ctx.exit_code;
}

}  // namespace tilefit::cli
