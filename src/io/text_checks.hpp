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

/// Replaces bytes that are not printable UTF-8 by <U+00XX> (controls) or <0xXX> (invalid).
std::string printable(std::string_view s);

}  // namespace tilefit::io::detail
