#include "io/text_checks.hpp"

#include <algorithm>
#include <cstdio>

#include "tilefit/io/input_limits.hpp"

namespace tilefit::io::detail {
namespace {

std::string hex_byte(unsigned char c, const char* prefix) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "<%s%02X>", prefix, c);
  return buf;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  unsigned min = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, min = 0x10000;
  else
    return 0;
  if (i + n > s.size()) return 0;
  unsigned cp = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// True when the text starts with ASCII characters written as `width`-byte units (UTF-16 or
// UTF-32 without a byte-order mark): in each of the first (up to 16) units, byte `ascii_at` is
// not NUL and every other byte is.
bool units_look_like(std::string_view s, std::size_t width, std::size_t ascii_at) {
  const std::size_t units = std::min<std::size_t>(s.size() / width, 16);
  if (units == 0) return false;
  for (std::size_t u = 0; u < units; ++u)
    for (std::size_t k = 0; k < width; ++k)
      if ((s[u * width + k] == '\0') == (k == ascii_at)) return false;
  return true;
}

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string printable(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7F) {
      out += hex_byte(c, "U+00");
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out += hex_byte(c, "0x");
      ++i;
      continue;
    }
    if (n > 1) {
      unsigned cp = c & (0x7F >> n);
      for (std::size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      // C1 controls and the bidirectional formatting characters (a U+202E in a name reverses
      // what follows it on screen): shown, not obeyed.
      const bool hidden = (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
                          cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
                          (cp >= 0x2066 && cp <= 0x2069);
      if (hidden) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "<U+%04X>", cp);
        out += buf;
        i += n;
        continue;
      }
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

bool is_printable(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    // Rare: decide by the full rule.
    return printable(s.substr(i)) == s.substr(i);
  }
  return true;
}

std::string_view strip_utf8_bom(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

std::optional<std::string> check_text(std::string_view text) {
  if (text.size() > kMaxConfigFileBytes)
    return "file too large: " + std::to_string(text.size()) + " bytes; the limit is " +
           std::to_string(kMaxConfigFileBytes) +
           " bytes (64 MiB); split the configs into several files";
  const auto b = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0x100u;
  };
  // Byte-order marks first, then the NUL pattern of BOM-less UTF-16/32 text (ASCII JSON
  // in UTF-16 has a NUL in every other byte).
  const char* encoding = nullptr;
  if (b(0) == 0xFF && b(1) == 0xFE && b(2) == 0 && b(3) == 0)
    encoding = "UTF-32";
  else if (b(0) == 0 && b(1) == 0 && b(2) == 0xFE && b(3) == 0xFF)
    encoding = "UTF-32";
  else if ((b(0) == 0xFF && b(1) == 0xFE) || (b(0) == 0xFE && b(1) == 0xFF))
    encoding = "UTF-16";
  else if (units_look_like(text, 4, 0))
    encoding = "UTF-32";
  else if (units_look_like(text, 4, 3))
    encoding = "UTF-32";
  else if (units_look_like(text, 2, 0))
    encoding = "UTF-16";
  else if (units_look_like(text, 2, 1))
    encoding = "UTF-16";
  if (encoding)
    return std::string("file is ") + encoding +
           "; tilefit reads UTF-8 JSON (convert it with: iconv -f " + encoding + " -t UTF-8)";
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    return "not JSON: binary data (a NUL byte at offset " + std::to_string(nul) +
           "); tilefit reads UTF-8 JSON text";
  std::string_view body = strip_utf8_bom(text);
  std::size_t i = 0;
  while (i < body.size() && is_json_space(body[i])) ++i;
  if (i == body.size())
    return std::string(text.empty() ? "empty file" : "file holds only white space") +
           "; expected a JSON object {\"configs\": [...]} or an array of configs";
  return std::nullopt;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition p;
  if (offset > text.size()) offset = text.size();
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

std::optional<std::size_t> find_too_deep(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

std::string describe_parse_error(std::string_view text, std::size_t position,
                                 const std::string& parser_message, int parser_error_id) {
  const std::string msg = printable(parser_message);
  if (parser_error_id == 406) {  // "number overflow parsing '1e999'": no position in the text
    std::string number;
    if (const auto q = msg.find('\''); q != std::string::npos)
      number = msg.substr(q + 1, msg.rfind('\'') > q ? msg.rfind('\'') - q - 1 : std::string::npos);
    const TextPosition p = position_of(text, position > 0 ? position - 1 : 0);
    return "number out of range at line " + std::to_string(p.line) + ", column " +
           std::to_string(p.column) + ": " + number + " (beyond a 64-bit float)";
  }
  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
  // parsing object key - invalid literal; last read: '{x'; expected string literal"
  std::string where, detail = msg;
  if (const auto at = msg.find("parse error at "); at != std::string::npos) {
    const auto colon = msg.find(": ", at);
    where = msg.substr(at + 15, colon == std::string::npos ? std::string::npos : colon - at - 15);
    detail = colon == std::string::npos ? "" : msg.substr(colon + 2);
  }
  if (const auto dash = detail.find(" - "); dash != std::string::npos)
    detail = detail.substr(dash + 3);
  // Cut the "last read" excerpt (it can be a whole unterminated string) to its last 40 bytes.
  if (const auto lr = detail.find("last read: '"); lr != std::string::npos) {
    const std::size_t from = lr + 12;
    std::size_t to = detail.find("'; expected", from);
    if (to == std::string::npos) to = detail.size() - (detail.back() == '\'' ? 1 : 0);
    if (to > from && to - from > 40) {
      std::size_t cut = to - 40;
      while (cut < to && (static_cast<unsigned char>(detail[cut]) & 0xC0) == 0x80) ++cut;
      detail = detail.substr(0, from) + "..." + detail.substr(cut);
    }
  }
  std::string out = "syntax error";
  if (!where.empty()) out += " at " + where;
  out += ": " + detail;
  if (detail.find("unexpected end of input") != std::string::npos)
    out += " (is the file truncated?)";
  else if (detail.find("last read: '/'") != std::string::npos)
    out += " (JSON has no comments; use a \"comment\" field)";
  return out;
}

}  // namespace tilefit::io::detail
