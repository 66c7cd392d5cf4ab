// `tilefit families`: the kernel families the model covers.
#include <fmt/format.h>

#include "cli_context.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::cli {

void register_families(CLI::App& app, CliContext&) {
  auto* sub = app.add_subcommand("families", "List the CUTLASS kernel families tilefit models");
  sub->callback([] {
    for (const model::KernelFamily* f : model::families())
      fmt::print("{:<18} {}\n", f->name(), f->description());
  });
}

}  // namespace tilefit::cli
