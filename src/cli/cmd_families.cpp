// `tilefit families [--format table|json]`: the kernel families the model covers.
#include "cli/command_options.hpp"
#include "report/families_report.hpp"

namespace tilefit::cli {

void register_families(CLI::App& app, Command& cmd) {
  register_listing(app, cmd, "families", "List the kernel families tilefit models",
                   report::families_text, report::families_json);
}

}  // namespace tilefit::cli
