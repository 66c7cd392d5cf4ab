// `tilefit archs [--format table|json]`: the built-in architecture table.
#include <memory>

#include "cli/cli_context.hpp"
#include "report/archs_report.hpp"

namespace tilefit::cli {

void register_archs(CLI::App& app, Command& cmd) {
  auto* sub = app.add_subcommand("archs", "Show the built-in architecture table (sm_70 ... sm_121)");
  auto format = std::make_shared<std::string>("table");
  sub->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->callback([format, &cmd] {
    cmd = [format](CliContext& ctx) {
      if (*format == "json") {
        Output::report_closed_pipes();
        ctx.out.write(report::archs_json().dump(2) + "\n");
      } else {
        ctx.out.write(report::archs_text());
      }
    };
  });
}

}  // namespace tilefit::cli
