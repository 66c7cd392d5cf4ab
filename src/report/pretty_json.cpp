#include "tilefit/report/pretty_json.hpp"

#include <array>
#include <charconv>

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

bool plain(std::string_view s) {
  for (const char c : s)
    if (!kPlainByte[static_cast<unsigned char>(c)]) return false;
  return true;
}

void append_string(std::string& out, std::string_view s) {
  if (!plain(s)) {
    append_nlohmann(out, ordered_json(std::string(s)), 0);
    return;
  }
  out += '"';
  out += s;
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
