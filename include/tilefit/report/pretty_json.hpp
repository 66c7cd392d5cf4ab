// JSON text exactly as nlohmann's `dump(2, ' ', false, error_handler_t::replace)` writes it, only
// faster: `check --format json` spent a third of its instructions in nlohmann's serializer (about
// 33 instructions per byte written). Strings that are plain printable ASCII, integers, booleans and
// null are written here; any other string, and every floating-point number, goes through nlohmann's
// own serializer, so escapes, U+FFFD replacement of bytes that are not UTF-8 and number formatting
// are nlohmann's. tests/pretty_json_test.cpp compares the two byte for byte.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tilefit::report {

/// Appends `j` to `out` as dump(2) would with its first line at the current position and every
/// later line indented by `indent` more spaces (an element inside an enclosing document).
void append_pretty_json(std::string& out, const nlohmann::ordered_json& j, unsigned indent = 0);

/// Appends `s` as a JSON string (quoted and escaped as dump() writes it).
void append_json_string(std::string& out, std::string_view s);

}  // namespace tilefit::report
