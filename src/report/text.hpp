// Text from the user (config names, file paths) made safe to show in Markdown and in CSV, and
// measured the way a terminal lays it out (io::detail::printable, io/text_checks.hpp, makes it
// safe to show at all: control and bidi characters escaped).
//
//   display_width("größe")           -> 5 (bytes: 7); display_width("表") -> 2
//   markdown_code("a`b")             -> "``a`b``"
//   csv_text("=HYPERLINK(...)")      -> "'=HYPERLINK(...)"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tilefit::report {

/// Columns a terminal gives `s` (UTF-8): one per character, two for East Asian wide and
/// fullwidth characters, none for combining marks.
std::size_t display_width(std::string_view s);

/// `s` as a Markdown code span that survives backticks in it (a longer fence, padded by spaces
/// when `s` starts or ends with one).
std::string markdown_code(std::string_view s);

/// A CSV text field that a spreadsheet will not run as a formula: a leading =, +, -, @, tab or
/// carriage return gets a ' before it (OWASP's advice). Numbers are not text fields.
std::string csv_text(std::string_view s);

}  // namespace tilefit::report
