// Checks on the raw text of a config file before and after JSON parsing: size, encoding,
// binary content, emptiness; and turning parser failures into one readable line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tilefit::io::detail {

/// Why `text` cannot be a UTF-8 JSON config file at all (too large, empty, UTF-16/32,
/// binary), or nullopt. The message is complete, e.g. "file is UTF-16; tilefit reads UTF-8
/// JSON (convert it with: iconv -f UTF-16 -t UTF-8)".
std::optional<std::string> check_text(std::string_view text);

/// `text` without a leading UTF-8 byte-order mark.
std::string_view strip_utf8_bom(std::string_view text);

/// 1-based line and column (in bytes) of byte `offset` of `text`.
struct TextPosition {
  std::size_t line = 1, column = 1;
};
TextPosition position_of(std::string_view text, std::size_t offset);

/// Byte offset of the bracket that opens nesting level `max_depth + 1`, or nullopt when the
/// text never nests that deep (strings are skipped).
std::optional<std::size_t> find_too_deep(std::string_view text, int max_depth);

/// The readable form of an nlohmann parse failure: "syntax error at line 3, column 7:
/// unexpected '}'; expected string literal". Control and non-UTF-8 bytes are shown as
/// <U+0001> / <0xFF>; the parser's "last read" excerpt is cut to its last 40 bytes.
std::string describe_parse_error(std::string_view text, std::size_t position,
                                 const std::string& parser_message, int parser_error_id);

/// Replaces what would not show as itself by a visible escape: bytes that are not UTF-8 by <0xXX>,
/// control characters by <U+00XX> (C0 and DEL; '\n' kept with `keep_newlines`), C1 controls and
/// bidirectional formatting characters (U+061C, U+200E/F, U+202A..E, U+2066..9) by <U+XXXX>.
/// Used for config text quoted in errors, for file paths, and for names in tables.
std::string printable(std::string_view s, bool keep_newlines = false);

/// printable(s) == s (cheap for plain ASCII).
bool is_printable(std::string_view s);

}  // namespace tilefit::io::detail
