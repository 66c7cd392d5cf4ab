// `tilefit archs`: the built-in architecture table.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli_context.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::cli {

void register_archs(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("archs", "Show the built-in architecture table (sm_70 ... sm_121)");
  auto format = std::make_shared<std::string>("table");
  sub->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->callback([format, &ctx] {
    if (*format == "json") {
      nlohmann::ordered_json j;
      j["schema_version"] = 1;
      nlohmann::ordered_json rows = nlohmann::ordered_json::array();
      for (const model::ArchInfo& a : model::builtin_archs()) {
        const model::Limits& l = a.limits;
        rows.push_back({{"arch", model::arch_name(l.sm)},
                        {"examples", a.examples},
                        {"optin_per_block", l.optin_per_block},
                        {"per_sm", l.per_sm},
                        {"reserved_per_block", l.reserved_per_block},
                        {"default_per_block", l.default_per_block},
                        {"max_ctas_per_sm", l.max_ctas_per_sm},
                        {"regs_per_sm", l.regs_per_sm},
                        {"threads_per_sm", l.threads_per_sm},
                        {"source", a.source}});
      }
      j["archs"] = rows;
      fmt::print("{}\n", j.dump(2));
      return;
    }
    fmt::print("{:<7} {:>13} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}  {}\n", "ARCH", "OPT-IN/BLOCK",
               "PER SM", "RESERVED", "DEFAULT", "CTAs/SM", "REGS/SM", "THR/SM", "EXAMPLES");
    for (const model::ArchInfo& a : model::builtin_archs()) {
      const model::Limits& l = a.limits;
      fmt::print("{:<7} {:>13} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}  {}\n", model::arch_name(l.sm),
                 l.optin_per_block, l.per_sm, l.reserved_per_block, l.default_per_block,
                 l.max_ctas_per_sm, l.regs_per_sm, l.threads_per_sm, a.examples);
    }
    fmt::print("\nBytes. Sources: CCCL arch_traits.h and CUTLASS arch.h / library.py (see `--format json`);\n"
               "a GPU's own answer (`tilefit device`) wins over this table.\n");
    (void)ctx;
  });
}

}  // namespace tilefit::cli
