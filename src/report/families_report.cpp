#include "report/families_report.hpp"

#include "report/listing.hpp"
#include "report/table.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/family_table.hpp"
#include "tilefit/report/json.hpp"

namespace tilefit::report {
namespace {

/// `tilefit families --format json`'s version: none of its fields changed when the documents
/// with results and limits went to 2 (tilefit/report/json.hpp kSchemaVersion).
constexpr int kFamiliesSchemaVersion = 1;

}  // namespace

std::string families_text() {
  Table t({{"", Table::Align::left, 18, 0}, {"", Table::Align::left, 0, 1}}, /*header=*/false);
  for (const model::FamilyRow& r : model::family_table())
    t.add_row({std::string(r.family->name()), std::string(r.family->description())});
  return t.render();
}

nlohmann::ordered_json families_json() {
  return listing_json(kFamiliesSchemaVersion, "families", model::family_table(),
                      [](const model::FamilyRow& r) {
                        nlohmann::ordered_json f;
                        f["name"] = std::string(r.family->name());
                        f["kind"] = std::string(model::kind_name(r.kind));
                        f["description"] = std::string(r.family->description());
                        nlohmann::ordered_json archs = nlohmann::ordered_json::array();
                        for (int sm : model::family_archs(*r.family))
                          archs.push_back(model::arch_name(sm));
                        f["archs"] = std::move(archs);
                        f["mirrors"] = std::string(r.mirrors);
                        return f;
                      });
}

}  // namespace tilefit::report
