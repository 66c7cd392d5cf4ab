// `tilefit schema [config|results]`: the JSON Schemas (draft 2020-12) of config files and of the
// JSON results, generated from the reader's vocabulary (report/schema.hpp).
#include <memory>

#include "cli/cli_context.hpp"
#include "tilefit/report/schema.hpp"

namespace tilefit::cli {

void register_schema(CLI::App& app, Command& cmd) {
  auto* sub = app.add_subcommand(
      "schema", "Print the JSON Schema (draft 2020-12) of config files or of the JSON results");
  auto which = std::make_shared<std::string>("config");
  sub->add_option("which", *which,
                  "config (default): config files; results: check/suggest --format json")
      ->check(CLI::IsMember({"config", "results"}));
  sub->callback([&cmd, which] {
    cmd = [which](CliContext& ctx) {
      const auto schema = *which == "results" ? report::results_schema() : report::config_schema();
      ctx.out.write(schema.dump(2) + "\n");
    };
  });
}

}  // namespace tilefit::cli
