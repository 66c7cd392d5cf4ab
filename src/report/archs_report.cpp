#include "report/archs_report.hpp"

#include "report/listing.hpp"
#include "report/table.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/report/json.hpp"

namespace tilefit::report {

std::string archs_text() {
  using A = Table::Align;
  Table t({{"ARCH", A::left, 7},
           {"OPT-IN/BLOCK", A::right, 13, 1},
           {"PER SM", A::right, 9, 1},
           {"RESERVED", A::right, 9, 1},
           {"DEFAULT", A::right, 9, 1},
           {"CTAs/SM", A::right, 8, 1},
           {"REGS/SM", A::right, 8, 1},
           {"THR/SM", A::right, 8, 1},
           {"WAVE", A::right, 5, 1},
           {"EXAMPLES", A::left, 0, 2}});
  for (const model::ArchInfo& a : model::builtin_archs()) {
    const model::Limits& l = a.limits;
    t.add_row({model::arch_name(l.sm), std::to_string(l.optin_per_block), std::to_string(l.per_sm),
               std::to_string(l.reserved_per_block), std::to_string(l.default_per_block),
               std::to_string(l.max_ctas_per_sm), std::to_string(l.regs_per_sm),
               std::to_string(l.threads_per_sm), std::to_string(a.wave_size),
               std::string(a.examples) +
                   (a.aliases.empty() ? "" : " (--arch " + std::string(a.aliases) + ")")});
  }
  return t.render() +
         "\nBytes. Sources: CCCL arch_traits.h and CUTLASS arch.h / library.py (see `--format "
         "json`);\n"
         "a GPU's own answer (`tilefit device`) wins over this table.\n"
         "AMD rows (gfx942, gfx950): LDS per workgroup and per CU, workgroups, VGPRs and "
         "work-items per CU\n"
         "(Triton's AMD TargetInfo.cpp, ROCm gpu-specs, LLVM AMDGPUBaseInfo.cpp); `tilefit "
         "device` is NVIDIA-only.\n";
}

nlohmann::ordered_json archs_json() {
  return listing_json(kSchemaVersion, "archs", model::builtin_archs(),
                      [](const model::ArchInfo& a) {
                        nlohmann::ordered_json r;
                        r["arch"] = model::arch_name(a.limits.sm);
                        r["examples"] = std::string(a.examples);
                        r["sm"] = a.limits.sm;
                        r["vendor"] = std::string(model::vendor_name(a.vendor));
                        r["wave_size"] = a.wave_size;
                        nlohmann::ordered_json aliases = nlohmann::ordered_json::array();
                        for (std::string_view rest = a.aliases; !rest.empty();) {
                          const std::size_t comma = rest.find(',');
                          std::string_view one = rest.substr(0, comma);
                          while (one.starts_with(' ')) one.remove_prefix(1);
                          aliases.push_back(std::string(one));
                          rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
                        }
                        r["aliases"] = std::move(aliases);
                        add_limits(r, a.limits);
                        r["source"] = std::string(a.source);
                        return r;
                      });
}

}  // namespace tilefit::report
