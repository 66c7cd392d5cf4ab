// `tilefit archs` and `tilefit families`: one list of rows shown two ways, a table for a person
// (report/table.hpp) and, for scripts, {"schema_version": N, "<key>": [one object per row]}.
// Sample (families_json):
//
//   {"schema_version": 1, "families": [{"name": "engine_fp8_sm89", "kind": "engine CUTLASS", ...}]}
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tilefit::report {

/// {"schema_version": version, key: [row_json(r) for r in rows]}.
template <class Rows, class RowJson>
nlohmann::ordered_json listing_json(int version, std::string_view key, const Rows& rows,
                                    RowJson row_json) {
  nlohmann::ordered_json j;
  j["schema_version"] = version;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : rows) list.push_back(row_json(r));
  j[std::string(key)] = std::move(list);
  return j;
}

}  // namespace tilefit::report
