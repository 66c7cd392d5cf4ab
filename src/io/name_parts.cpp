#include "io/name_parts.hpp"

namespace tilefit::io::detail {

std::vector<std::string_view> name_parts(std::string_view base) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (base[i] == '[' || base[i] == '(') ++depth;
    if (base[i] == ']' || base[i] == ')') --depth;
    if (base[i] == ',' && depth == 0) {
      parts.push_back(base.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(base.substr(start));
  return parts;
}

}  // namespace tilefit::io::detail
