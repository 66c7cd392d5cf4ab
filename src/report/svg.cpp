#include "report/svg.hpp"

#include "report/svg_style.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tilefit::report::svg {
namespace {

/// Length of the UTF-8 sequence starting at s[i] when it is well formed (and not a surrogate or
/// an overlong form), else 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  unsigned cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  if (cp == 0xFFFE || cp == 0xFFFF) return 0;  // not XML characters
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string ellipsize(std::string_view s, std::size_t max_chars) {
  std::size_t chars = 0, i = 0;
  while (i < s.size()) {
    const std::size_t n = std::max<std::size_t>(1, utf8_length(s, i));
    if (chars + 1 > max_chars) break;
    ++chars;
    i += n;
  }
  if (i >= s.size()) return std::string(s);
  // Room for the ellipsis: drop one more character.
  std::size_t keep = 0, k = 0, j = 0;
  while (j < i && k + 1 < max_chars) {
    const std::size_t n = std::max<std::size_t>(1, utf8_length(s, j));
    j += n;
    ++k;
    keep = j;
  }
  return std::string(s.substr(0, keep)) + "\xE2\x80\xA6";
}

double text_width(std::string_view s, double size) {
  double em = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : std::max<std::size_t>(1, utf8_length(s, i));
    if (c >= 'A' && c <= 'Z')
      em += 0.68;
    else if (c >= '0' && c <= '9')
      em += 0.62;
    else if (c == ' ' || c == '.' || c == ',' || c == ':' || c == 'i' || c == 'l' || c == '|' ||
             c == '\'')
      em += 0.32;
    else if (c == 'm' || c == 'w' || c == 'W' || c == 'M')
      em += 0.9;
    else
      em += 0.58;
    i += n;
  }
  return em * size;
}

std::string num(double v) {
  const double r = std::round(v * 10.0) / 10.0;
  if (r == std::floor(r)) return fmt::format("{}", static_cast<long long>(r));
  return fmt::format("{:.1f}", r);
}

void Writer::rect(double x, double y, double w, double h, std::string_view fill,
                  std::string_view title, std::string_view extra) {
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"", num(x),
                       num(y), num(w), num(h), fill);
  if (!extra.empty()) {
    body_ += ' ';
    body_ += extra;
  }
  if (title.empty()) {
    body_ += "/>\n";
    return;
  }
  body_ += "><title>";
  body_ += escape(title);
  body_ += "</title></rect>\n";
}

void Writer::text(double x, double y, std::string_view content, std::string_view extra) {
  body_ += fmt::format("<text x=\"{}\" y=\"{}\"", num(x), num(y));
  if (!extra.empty()) {
    body_ += ' ';
    body_ += extra;
  }
  body_ += '>';
  body_ += escape(content);
  body_ += "</text>\n";
}

void Writer::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
                  std::string_view extra) {
  body_ +=
      fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"",
                  num(x1), num(y1), num(x2), num(y2), stroke, num(width));
  if (!extra.empty()) {
    body_ += ' ';
    body_ += extra;
  }
  body_ += "/>\n";
}

void Writer::path(std::string_view d, std::string_view fill, std::string_view extra) {
  body_ += fmt::format("<path d=\"{}\" fill=\"{}\"", d, fill);
  if (!extra.empty()) {
    body_ += ' ';
    body_ += extra;
  }
  body_ += "/>\n";
}

void Writer::begin_group(std::string_view title, std::string_view attrs) {
  body_ += "<g";
  if (!attrs.empty()) {
    body_ += ' ';
    body_ += attrs;
  }
  body_ += '>';
  if (!title.empty()) {
    body_ += "<title>";
    body_ += escape(title);
    body_ += "</title>";
  }
  body_ += '\n';
}

std::string Writer::document(int width, int height, std::string_view title, std::string_view desc,
                             std::string_view defs) const {
  std::string out;
  out.reserve(body_.size() + defs.size() + 512);
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\" fill=\"{2}\">\n",
      width, height, style::kInk);
  out += "<title>" + escape(title) + "</title>\n";
  if (!desc.empty()) out += "<desc>" + escape(desc) + "</desc>\n";
  if (!defs.empty()) {
    out += "<defs>\n";
    out += defs;
    out += "</defs>\n";
  }
  // An opaque background: the picture reads the same on GitHub's light and dark themes.
  out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", width,
                     height, style::kPaper);
  out += body_;
  out += "</svg>\n";
  return out;
}

}  // namespace tilefit::report::svg
