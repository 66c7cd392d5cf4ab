// `tilefit families [--format table|json]`: the kernel families the model covers.
#include <memory>

#include "cli/cli_context.hpp"
#include "report/families_report.hpp"

namespace tilefit::cli {

void register_families(CLI::App& app, Command& cmd) {
  auto* sub = app.add_subcommand("families", "List the kernel families tilefit models");
  auto format = std::make_shared<std::string>("table");
  sub->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->callback([format, &cmd] {
    cmd = [format](CliContext& ctx) {
      if (*format == "json") {
        Output::report_closed_pipes();
        ctx.out.write(report::families_json().dump(2) + "\n");
      } else {
        ctx.out.write(report::families_text());
      }
    };
  });
}

}  // namespace tilefit::cli
