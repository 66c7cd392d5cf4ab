#include "report/text.hpp"

#include "io/text_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace tilefit::report {
namespace {

/// The code point starting at s[i] and its length in bytes; length 0 for a byte that does not
/// start a valid UTF-8 sequence.
std::pair<std::uint32_t, std::size_t> decode(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return {c, 1};
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0)
    len = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0)
    len = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0)
    len = 4, cp = c & 0x07;
  else
    return {0, 0};
  if (i + len > s.size()) return {0, 0};
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  const bool overlong =
      (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, len};
}

bool wide(std::uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
         (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

bool combining(std::uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xFE20 && cp <= 0xFE2F) || cp == 0x200B || cp == 0x200C || cp == 0x200D ||
         cp == 0xFEFF;
}

}  // namespace

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto [cp, len] = decode(s, i);
    if (len == 0) {  // not UTF-8 (callers measure printable text, which has none)
      w += 1;
      ++i;
      continue;
    }
    w += combining(cp) ? 0 : wide(cp) ? 2 : 1;
    i += len;
  }
  return w;
}

std::string markdown_code(std::string_view s) {
  std::size_t longest = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t run = 0;
    while (i + run < s.size() && s[i + run] == '`') ++run;
    longest = std::max(longest, run);
    i += run ? run : 1;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  std::string body = io::detail::printable(s);
  for (char& c : body)
    if (c == '\t') c = ' ';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string csv_text(std::string_view s) {
  if (!s.empty() && (s.front() == '=' || s.front() == '+' || s.front() == '-' || s.front() == '@' ||
                     s.front() == '\t' || s.front() == '\r'))
    return std::string("'").append(s);
  return std::string(s);
}

}  // namespace tilefit::report
