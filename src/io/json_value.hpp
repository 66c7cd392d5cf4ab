// The reader's own small JSON tree: one config at a time is held in it (see json_stream.hpp).
// Unlike nlohmann::json it keeps object members in file order and with duplicates, and it
// keeps the text of every number as written ("1e3", "12.0", "9223372036854775808"), so that
// errors quote the user's own spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilefit::io::detail {

struct Value {
  enum class Kind { Null, Bool, Integer, Unsigned, Float, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::int64_t integer = 0;       ///< Kind::Integer (negative numbers)
  std::uint64_t unsigned_ = 0;    ///< Kind::Unsigned (non-negative integers up to 2^64-1)
  std::string text;               ///< String: the value; numbers: the text as written
  std::vector<Value> items;       ///< Array elements; Object member values
  std::vector<std::string> keys;  ///< Object member keys, parallel to items
  bool truncated = false;         ///< children were left out (the value was too large to keep)

  bool is_number() const {
    return kind == Kind::Integer || kind == Kind::Unsigned || kind == Kind::Float;
  }
};

/// The value in compact JSON ("[128, 0, 128]", "{\"a\": 1}"), cut to about `max_bytes`
/// with "..." when longer.
std::string render(const Value& v, std::size_t max_bytes = 40);

/// `s` as a JSON string literal (quotes, escapes), cut to `max_bytes` of content with "...".
std::string quote(std::string_view s, std::size_t max_bytes = 40);

/// `s` cut to at most `max_bytes` bytes at a UTF-8 character boundary, with "..." appended
/// when anything was cut.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);

}  // namespace tilefit::io::detail
