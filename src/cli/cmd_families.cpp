// `tilefit families`: the kernel families the model covers.
#include "cli/cli_context.hpp"
#include "report/table.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::cli {

void register_families(CLI::App& app, Command& cmd) {
  auto* sub = app.add_subcommand("families", "List the kernel families tilefit models");
  sub->callback([&cmd] {
    cmd = [](CliContext& ctx) {
      report::Table t({{"", report::Table::Align::left, 18, 0}, {"", report::Table::Align::left, 0, 1}},
                      /*header=*/false);
      for (const model::KernelFamily* f : model::families())
        t.add_row({std::string(f->name()), std::string(f->description())});
      ctx.out.write(t.render());
    };
  });
}

}  // namespace tilefit::cli
