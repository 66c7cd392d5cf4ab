// The one place that parses, runs the chosen subcommand, catches, prints errors and picks the
// exit code.
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include "cli/cli_context.hpp"

#ifndef TILEFIT_VERSION
#define TILEFIT_VERSION "0.1.0"
#endif

namespace tilefit::cli {

int run(int argc, const char* const* argv, Output& out, std::FILE* err, const Extension& extension) {
  ErrorOutput e(err);
  return run(argc, argv, out, e, extension);
}

int run(int argc, const char* const* argv, Output& out, ErrorOutput& err_out,
        const Extension& extension) {
  std::FILE* err = err_out.file();
  CLI::App app{"tilefit " TILEFIT_VERSION
               " - does a GEMM tile configuration fit in GPU shared memory?"};
  app.require_subcommand(1);
  app.set_version_flag("--version", TILEFIT_VERSION);
  app.footer(
      "Exit codes: 0 every config fits; 1 a config does not fit or is invalid; 2 usage or input "
      "error; 3 device error; 4 the output could not be written; 5 internal error.");
  Command command;
  using Register = void (*)(CLI::App&, Command&);
  static constexpr std::pair<std::string_view, Register> kCommands[] = {
      {"check", register_check},   {"sweep", register_sweep},       {"suggest", register_suggest},
      {"archs", register_archs},   {"families", register_families}, {"device", register_device},
      {"probe", register_probe},   {"schema", register_schema}};
  // Start-up: building every subcommand's options was a tenth of `check`'s instructions, so when
  // the first argument names a subcommand only that one is built (its parse, help and errors are
  // the same); anything else (--help, --version, a typo, an extension) gets them all.
  const std::string_view first = argc > 1 && !extension ? std::string_view(argv[1]) : std::string_view();
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
  CliContext ctx{out, err_out, {}, {}, kExitOk};
  try {
    app.parse(argc, argv);
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
    std::fprintf(err, "error: %s\nrun 'tilefit --help' (or 'tilefit SUBCOMMAND --help') for usage\n",
                 e.what());
    return kExitInput;
  }

  try {
    if (command) command(ctx);
  } catch (const CommandError& e) {
    ctx.error(e.what(), e.exit_code());
  } catch (const std::exception& e) {
    ctx.error(std::string("internal error: ") + e.what(), kExitInternal);
  } catch (...) {
    ctx.error("internal error: unknown exception", kExitInternal);
  }
  if (!out.finish()) ctx.error(out.problem(), kExitOutput);
  for (const std::string& line : ctx.warnings) std::fprintf(err, "warning: %s\n", line.c_str());
  for (const std::string& line : ctx.errors) std::fprintf(err, "error: %s\n", line.c_str());
  std::fflush(err);
  return ctx.exit_code;
}

}  // namespace tilefit::cli
