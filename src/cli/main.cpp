// tilefit: does this GEMM tile configuration fit in shared memory, with how many stages,
// and where do the bytes go?
#include <cstdio>
#include <exception>

#include "cli_context.hpp"

#ifndef TILEFIT_VERSION
#define TILEFIT_VERSION "0.1.0"
#endif

int main(int argc, char** argv) {
  using namespace tilefit::cli;
  CLI::App app{"tilefit " TILEFIT_VERSION
               " - does a CUTLASS GEMM tile configuration fit in GPU shared memory?"};
  app.require_subcommand(1);
  app.set_version_flag("--version", TILEFIT_VERSION);
  CliContext ctx;
  register_check(app, ctx);
  register_archs(app, ctx);
  register_families(app, ctx);
  register_device(app, ctx);
  register_probe(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilefit: internal error: %s\n", e.what());
    return kExitInput;
  }
  return ctx.exit_code;
}
