#include "tilefit/report/pretty_json.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace tilefit::report {

using nlohmann::ordered_json;

namespace {

/// nlohmann's serializer for the cases written the slow way (escapes, non-ASCII, floats).
void append_nlohmann(std::string& out, const ordered_json& j, unsigned indent) {
  nlohmann::detail::serializer<ordered_json> s(
      nlohmann::detail::output_adapter<char, std::string>(out), ' ',
      ordered_json::error_handler_t::replace);
  s.dump(j, true, false, 2, indent);
}

/// The bytes nlohmann writes between quotes unchanged: 0x20..0x7F except '"' and '\\'
/// (serializer.hpp dump_escaped escapes the others or checks them as UTF-8).
constexpr std::array<bool, 256> kPlainByte = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7F; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}();

/// True when one of the 8 bytes of `w` is below 0x20, 0x80 or above, '"' or '\\' (SWAR: `(x - b
/// * ones) & ~x & high` is non-zero exactly when a byte of x is below b, for b <= 0x80).
constexpr bool special_word(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const auto below = [](std::uint64_t x, std::uint64_t b) { return (x - b * kOnes) & ~x & kHigh; };
  return (below(w, 0x20) | (w & kHigh) | below(w ^ ('"' * kOnes), 1) |
          below(w ^ ('\\' * kOnes), 1)) != 0;
}

/// The position of the first byte nlohmann would not copy unchanged (s.size() when none).
std::size_t first_special(std::string_view s) {
  std::size_t i = 0;
  // Eight bytes at a time: this scan of every string of `check --format json` (about 230 MB for
  // the engines' tuned folders on six architectures) was the largest single cost of the output.
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (special_word(w)) break;
  }
  for (; i < s.size(); ++i)
    if (!kPlainByte[static_cast<unsigned char>(s[i])]) return i;
  return s.size();
}

void append_string(std::string& out, std::string_view s) {
  std::size_t i = first_special(s);
  if (i == s.size()) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  for (std::size_t j = i; j < s.size(); ++j) {
    if (static_cast<unsigned char>(s[j]) >= 0x80) {
      // UTF-8 (checked, and replaced where invalid): nlohmann's own serializer.
      append_nlohmann(out, ordered_json(std::string(s)), 0);
      return;
    }
  }
  // ASCII with escapes, as serializer.hpp dump_escaped writes them (ensure_ascii off): \b \t \n
  // \f \r \" \\, other control bytes \u00xx (lower-case hex), every other byte unchanged.
  out += '"';
  out.append(s.data(), i);
  static constexpr char kHex[] = "0123456789abcdef";
  for (; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_value(std::string& out, const ordered_json& j, unsigned indent) {
  // The layout of nlohmann_json's serializer.hpp dump() with pretty_print: "{\n", members at
  // indent + 2 as "key": value joined by ",\n", then "\n" and the closing brace at indent; {}
  // and [] when empty.
  switch (j.type()) {
    case ordered_json::value_t::object: {
      if (j.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out.append(indent + 2, ' ');
        append_string(out, it.key());
        out += ": ";
        append_value(out, it.value(), indent + 2);
      }
      out += '\n';
      out.append(indent, ' ');
      out += '}';
      return;
    }
    case ordered_json::value_t::array: {
      if (j.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      bool first = true;
      for (const ordered_json& e : j) {
        if (!first) out += ",\n";
        first = false;
        out.append(indent + 2, ' ');
        append_value(out, e, indent + 2);
      }
      out += '\n';
      out.append(indent, ' ');
      out += ']';
      return;
    }
    case ordered_json::value_t::string:
      append_string(out, j.get_ref<const std::string&>());
      return;
    case ordered_json::value_t::boolean:
      out += j.get<bool>() ? "true" : "false";
      return;
    case ordered_json::value_t::null:
      out += "null";
      return;
    case ordered_json::value_t::number_integer:
      append_int(out, j.get<std::int64_t>());
      return;
    case ordered_json::value_t::number_unsigned:
      append_int(out, j.get<std::uint64_t>());
      return;
    default:
      append_nlohmann(out, j, indent);
      return;  // floats, binary, discarded
  }
}

}  // namespace

void append_pretty_json(std::string& out, const ordered_json& j, unsigned indent) {
  append_value(out, j, indent);
}

void append_json_string(std::string& out, std::string_view s) { append_string(out, s); }

}  // namespace tilefit::report
