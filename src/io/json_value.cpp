#include "io/json_value.hpp"

namespace tilefit::io::detail {
namespace {

// Appends the escaped content of `s` (no quotes), stopping once `out` reaches `limit` bytes.
// Returns false when it stopped early.
bool append_escaped(std::string& out, std::string_view s, std::size_t limit) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= limit) {
      // Never cut inside a UTF-8 sequence: drop continuation bytes already written.
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
        out.pop_back();
      if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
      return false;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return true;
}

// Renders `v` into `out`; returns false once `out` passed `limit` (the caller adds "...").
bool render_into(std::string& out, const Value& v, std::size_t limit) {
  if (out.size() > limit) return false;
  switch (v.kind) {
    case Value::Kind::Null:
      out += "null";
      break;
    case Value::Kind::Bool:
      out += v.boolean ? "true" : "false";
      break;
    case Value::Kind::Integer:
    case Value::Kind::Unsigned:
    case Value::Kind::Float:
      out += v.text;
      break;
    case Value::Kind::String:
      out += '"';
      if (!append_escaped(out, v.text, limit)) return false;
      out += '"';
      break;
    case Value::Kind::Array:
    case Value::Kind::Object: {
      const bool obj = v.kind == Value::Kind::Object;
      out += obj ? '{' : '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        if (obj) {
          out += '"';
          if (!append_escaped(out, v.keys[i], limit)) return false;
          out += "\": ";
        }
        if (!render_into(out, v.items[i], limit)) return false;
      }
      if (v.truncated) return false;
      out += obj ? '}' : ']';
      break;
    }
  }
  return out.size() <= limit;
}

}  // namespace

std::string render(const Value& v, std::size_t max_bytes) {
  std::string out;
  if (!render_into(out, v, max_bytes)) {
    out = truncate_utf8(out, max_bytes);
    if (out.size() < 3 || out.compare(out.size() - 3, 3, "...") != 0) out += "...";
  }
  return out;
}

std::string quote(std::string_view s, std::size_t max_bytes) {
  std::string out = "\"";
  if (!append_escaped(out, s, max_bytes + 1)) out += "...";
  out += '"';
  return out;
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "...";
}

}  // namespace tilefit::io::detail
