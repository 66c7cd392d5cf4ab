// One CSV (RFC 4180) field (src/report/csv_field.cpp): `a ""quoted"" name` when it needs quotes.
#pragma once

#include <string>
#include <string_view>

namespace tilefit::report {

/// Appends `field` to `out`, quoted when it holds a comma, a quote or a line break.
void append_csv_field(std::string& out, std::string_view field);

}  // namespace tilefit::report
