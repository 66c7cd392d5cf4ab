// The output formats of the reports that list results (check, sweep, suggest).
#pragma once

#include <string_view>

namespace tilefit::report {

enum class Format { table, json, csv, markdown, svg };

/// "json", "csv", "markdown" -> that format; anything else (the CLI allows only "table") -> table.
inline Format format_named(std::string_view name) {
  if (name == "json") return Format::json;
  if (name == "csv") return Format::csv;
  if (name == "markdown") return Format::markdown;
  if (name == "svg") return Format::svg;
  return Format::table;
}

}  // namespace tilefit::report
