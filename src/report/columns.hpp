// The column model of every report that lists fields: one row per field (its JSON key, the key it
// replaces, its type and unit, its schema description, and how each format gets its value from a
// row), shared by the text table, Markdown, CSV and JSON writers and by the schema
// (report/schema.cpp), so that a field is listed once. A report declares a column set over its
// own row type: the results (report/result_columns.hpp: analysis::Entry), a target's limits
// (model::Limits), the probe's results (report/device_report.cpp: ProbeRow).
//
// A row of a column set, as the JSON writers see it:
//   {.key = "smem_bytes", .type = ColumnType::count, .unit = Unit::bytes, .nullable = true,
//    .description = "...", .json = json_fns<Entry>([](auto& o, const Entry& e) { ... })}
// writes   "smem_bytes": 102400   (or null) into the object being written, through either emitter
// of report/json_emit.hpp; a column with a `deprecated_key` writes that key first, same value.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>
#include <span>
#include <string>
#include <string_view>

#include "report/json_emit.hpp"
#include "report/table.hpp"

namespace tilefit::report {

/// What a column holds (the schema's type for it; report/schema.cpp column_schema).
enum class ColumnType {
  text,         ///< a string
  integer,      ///< any integer
  count,        ///< an integer >= 0
  boolean,      ///< true / false
  arch,         ///< "sm_90"
  status,       ///< "fits", "does_not_fit", "invalid"
  tile,         ///< [m, n, k]
  breakdown,    ///< {component: bytes} (#/$defs/breakdown)
  target,       ///< a target object (#/$defs/target)
  texts,        ///< an array of strings
  diagnostics,  ///< an array of typed diagnostics (#/$defs/diagnostic)
  object,       ///< any object
  config,       ///< a config as the config schema has it (#/$defs/config)
  positive,     ///< an integer >= 1
  fits,         ///< the status "fits" (a suggestion's)
  changes,      ///< [{"field", "from", "to"}]
  engine,       ///< {"name": "vllm" | "sglang", "commit": 40 hex digits}
  launches,     ///< [{"stage", "kernel", "constexprs", "num_warps", "num_stages", ...}]
};

/// The unit of a column's numbers. A byte quantity's JSON key ends in "_bytes" (the house rule;
/// tests/columns_test.cpp checks every column set).
enum class Unit { none, bytes };

/// How the JSON writers write a column's value: the same generic code for both emitters.
template <class Row>
struct JsonFns {
  void (*text)(emit::JsonText&, const Row&) = nullptr;
  void (*tree)(emit::JsonTree&, const Row&) = nullptr;
  explicit operator bool() const { return text != nullptr; }
};

/// JsonFns from one captureless generic lambda `[](auto& o, const Row& r) { ... }`.
template <class Row, class F>
constexpr JsonFns<Row> json_fns(F) {
  return {[](emit::JsonText& o, const Row& r) { F{}(o, r); },
          [](emit::JsonTree& o, const Row& r) { F{}(o, r); }};
}

/// What the CSV writer hands a column: the row, and the config's JSON when the row has one
/// (`quoted`: already a CSV field).
template <class Row>
struct CsvCell {
  std::string& out;
  const Row& row;
  std::string_view config;
  bool quoted = true;
};

template <class Row>
struct Column {
  std::string_view key = {};  ///< the JSON key (and the column's name in the format lists)
  std::string_view deprecated_key =
      {};  ///< the key it replaces, written too until the next schema version
  ColumnType type = ColumnType::text;
  Unit unit = Unit::none;
  bool nullable = false;              ///< JSON null when the row has no value
  std::string_view description = {};  ///< the schema's description
  JsonFns<Row> json = {};             ///< empty: not in the JSON
  bool (*shown)(const Row&) =
      nullptr;  ///< JSON: written only for the rows it is true of (null: always)
  /// In the verdict profile (the C ABI's TILEFIT_VERDICT results: what the model computes without
  /// the explanation); every JSON column is in the full profile.
  bool verdict = false;
  // Table and Markdown:
  std::string_view head = {};     ///< the text table's head
  std::string_view md_head = {};  ///< the Markdown head
  Table::Align align = Table::Align::left;
  std::string (*cell)(const Row&) = nullptr;  ///< the cell text; null: not in the tables
  // CSV:
  std::string_view csv = {};                   ///< the CSV head
  void (*csv_field)(CsvCell<Row>&) = nullptr;  ///< appends the field; null: not in the CSV
};

/// The column named `key` of `set`, or nullptr.
template <class Row>
const Column<Row>* find_column(std::span<const Column<Row>> set, std::string_view key) {
  for (const Column<Row>& c : set)
    if (c.key == key) return &c;
  return nullptr;
}

/// Which of a column set's JSON columns a writer writes: all of them (the CLI's JSON, the C ABI's
/// full results), or the verdict ones (the C ABI's TILEFIT_VERDICT results).
enum class Profile { full, verdict };

/// Writes the JSON members of `row` for every column of `set` that is in the JSON, in `profile`
/// and shown for it, in order, into the object being written (each deprecated key first, with the
/// same value).
template <class Row, class Out>
void write_members(Out& o, std::span<const Column<Row>> set, const Row& row,
                   Profile profile = Profile::full) {
  for (const Column<Row>& c : set) {
    if (!c.json || (c.shown && !c.shown(row))) continue;
    if (profile == Profile::verdict && !c.verdict) continue;
    auto write = [&] {
      if constexpr (std::is_same_v<Out, emit::JsonText>)
        c.json.text(o, row);
      else
        c.json.tree(o, row);
    };
    if (!c.deprecated_key.empty()) {
      o.key(c.deprecated_key);
      write();
    }
    o.key(c.key);
    write();
  }
}

/// The Table columns (heads, alignment) of `keys`, each a column of `set` with a cell.
template <class Row>
std::vector<Table::Column> table_columns(std::span<const Column<Row>> set,
                                         std::span<const std::string_view> keys, bool markdown) {
  std::vector<Table::Column> out;
  out.reserve(keys.size());
  for (const std::string_view k : keys) {
    const Column<Row>* c = find_column(set, k);
    out.push_back({std::string(markdown ? c->md_head : c->head), c->align});
  }
  return out;
}

}  // namespace tilefit::report
