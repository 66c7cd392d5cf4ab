#include "tilefit/io/config_error.hpp"

#include "io/json_value.hpp"

namespace tilefit::io {

std::string format_error(const ConfigError& e) {
  std::string out = e.file + ": ";
  if (e.index >= 0) {
    const std::string idx = std::to_string(e.index);
    out += "config #" + idx;
    if (!e.config_name.empty() && e.config_name != "#" + idx) {
      out += ' ';
      out += detail::quote(e.config_name);
    }
    out += ": ";
  }
  if (!e.field.empty()) out += "field " + detail::quote(e.field, 64) + ": ";
  out += e.message;
  return out;
}

}  // namespace tilefit::io
