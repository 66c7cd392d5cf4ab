#include "phrasing.hpp"

namespace tilefit::model::phrasing {

std::string placeholder(std::string_view key, std::string_view format) {
  std::string out;
  out.reserve(key.size() + format.size() + 2);
  out += '{';
  out += key;
  out += format;
  out += '}';
  return out;
}

std::string literal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}

}  // namespace tilefit::model::phrasing
