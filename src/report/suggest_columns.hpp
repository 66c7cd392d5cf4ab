// The columns of a suggestion (report/columns.hpp): the members of each element of a result's
// `suggestions` in `suggest --format json`, the `suggest --format csv` rows, and the results
// schema's `suggestion`. CSV sample (kSuggestCsvKeys):
//
//   name,file,index,arch,rank,change,distance,stages,smem_bytes,saved_bytes,limit_bytes,status,config
//   finalize_128x256x128,configs/sm120_moe_finalize.json,2,sm_120,1,stages: auto -> 2,1,2,74752,...
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "report/columns.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"

namespace tilefit::report {

/// One suggestion of a result: the entry it is for, the suggestion, its rank (from 1).
struct SuggestRow {
  const analysis::Entry& entry;
  const analysis::Suggestion& suggestion;
  std::size_t rank = 0;
};

/// Every column of a suggestion, in the JSON's order (src/report/suggest_report.cpp).
std::span<const Column<SuggestRow>> suggest_columns();

/// The CSV's columns, in order.
inline constexpr std::string_view kSuggestCsvKeys[] = {
    "name",   "file",       "index",       "arch",        "rank",   "change", "distance",
    "stages", "smem_bytes", "saved_bytes", "limit_bytes", "status", "config"};

}  // namespace tilefit::report
