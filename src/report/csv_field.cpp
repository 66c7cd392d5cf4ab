#include "tilefit/report/csv_field.hpp"

namespace tilefit::report {

void append_csv_field(std::string& out, std::string_view field) {
  bool quote = false;
  for (const char c : field)
    if (c == ',' || c == '"' || c == '\r' || c == '\n') {
      quote = true;
      break;
    }
  if (!quote) {
    out += field;
    return;
  }
  // One pass into room for the worst case (every character a quote), then trim.
  const std::size_t at = out.size();
  out.resize(at + 2 * field.size() + 2);
  char* p = out.data() + at;
  *p++ = '"';
  for (const char c : field) {
    if (c == '"') *p++ = '"';
    *p++ = c;
  }
  *p++ = '"';
  out.resize(static_cast<std::size_t>(p - out.data()));
}

}  // namespace tilefit::report
