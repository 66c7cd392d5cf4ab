// The columns of a result (analysis::Entry): the one list of the fields `check`, `sweep` and
// `suggest` write, shared by the text table, Markdown, CSV and JSON writers and the results schema
// (report/columns.hpp describes the model). The JSON writes the columns in the order of
// result_columns(); the tables and the CSV pick theirs by key:
//
//   table / Markdown (kTableKeys): NAME  KERNEL  ARCH  TILE  STAGES  MAX  SMEM / LIMIT (B)  HEADROOM  CTAs/SM  VERDICT
//   CSV (kCsvKeys):                name,file,index,arch,kernel,tile,stages,auto_stages,...,target,config
//   JSON (result_columns()):       {"name", "file", "index", "kernel", ..., "notes", "diagnostics"}
#pragma once

#include <span>
#include <string_view>

#include "report/columns.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/io/space.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::report {

using ResultColumn = Column<analysis::Entry>;

/// Every column of a result, in the JSON's (and the schema's) order.
std::span<const ResultColumn> result_columns();

/// The text table's and Markdown's columns of `tilefit check`, in order.
inline constexpr std::string_view kTableKeys[] = {
    "name",       "kernel",     "arch",           "tile",        "stages",
    "max_stages", "smem_bytes", "headroom_bytes", "ctas_per_sm", "status"};
/// The columns `tilefit sweep`'s table and Markdown show after the name and the varying fields.
inline constexpr std::string_view kSweepTableKeys[] = {
    "arch",       "kernel",         "stages",      "max_stages",
    "smem_bytes", "headroom_bytes", "ctas_per_sm", "status"};
/// The CSV's columns, in order (`config`: the config's JSON).
inline constexpr std::string_view kCsvKeys[] = {"name",
                                                "file",
                                                "index",
                                                "arch",
                                                "kernel",
                                                "tile",
                                                "stages",
                                                "auto_stages",
                                                "max_stages",
                                                "max_stages_smem_bytes",
                                                "smem_bytes",
                                                "limit_bytes",
                                                "headroom_bytes",
                                                "ctas_per_sm",
                                                "status",
                                                "epilogue_smem_bytes",
                                                "mainloop_smem_bytes",
                                                "target",
                                                "config"};

/// One candidate of a sweep: its entry, and the alternative it took in each varying field.
struct SweepRow {
  const analysis::Entry& entry;
  const io::ConfigSpace& space;
  const std::vector<std::size_t>& choice;
};

/// What a sweep result has beyond a check result's columns: `alternatives` and `config`.
std::span<const Column<SweepRow>> sweep_columns();

/// A cell of the several-architecture matrix (check and sweep): "fits (4)", "DOES NOT FIT (3)",
/// "INVALID".
std::string matrix_cell(const model::Result& r);
/// The same for a result with its config: an AMD target's cell adds the async-copy value it was
/// checked with ("fits (2, async off)", "INVALID (async on)").
std::string matrix_cell(const analysis::Entry& e);

/// The table cells of `e` for the columns `keys` of result_columns().
std::vector<std::string> result_cells(const analysis::Entry& e,
                                      std::span<const std::string_view> keys);

}  // namespace tilefit::report
