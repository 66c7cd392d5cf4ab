// `tilefit archs [--format table|json]`: the built-in architecture table.
#include "cli/command_options.hpp"
#include "report/archs_report.hpp"

namespace tilefit::cli {

void register_archs(CLI::App& app, Command& cmd) {
  register_listing(app, cmd, "archs", "Show the built-in architecture table (sm_70 ... sm_121)",
                   report::archs_text, report::archs_json);
}

}  // namespace tilefit::cli
