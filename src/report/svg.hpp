// The one SVG writer of the pictures (sweep_map_svg.cpp, budget_svg.cpp): self-contained SVG 1.1
// — no script, no external font, image or stylesheet — with a viewBox, a generic font family and
// every text XML-escaped. Deterministic: coordinates are integers or written with one decimal by
// fmt, attributes in a fixed order, so the same input gives the same bytes. Sample:
//
//   <?xml version="1.0" encoding="UTF-8"?>
//   <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="420" height="96" viewBox="0 0 420 96"
//        font-family="sans-serif" font-size="12">
//   <title>tilefit check: 1 config</title>
//   <rect x="10" y="20" width="30" height="18" fill="#4e79a7"><title>A: 32768 B</title></rect>
//   <text x="10" y="14">finalize_128x256x128</text>
//   </svg>
#pragma once

#include <string>
#include <string_view>

namespace tilefit::report::svg {

/// `s` as XML character data or attribute value: & < > " ' escaped; characters XML 1.0 does not
/// allow (controls other than tab, line feed, carriage return) and bytes that are not UTF-8
/// become U+FFFD.
std::string escape(std::string_view s);

/// `s` cut to at most `max_chars` characters (UTF-8 code points), with "…" when cut.
std::string ellipsize(std::string_view s, std::size_t max_chars);

/// Width in px of `s` at font size `size`, estimated for a sans-serif font (about 0.6 em per
/// character, wider for digits and capitals: the layout leaves room, it does not measure).
double text_width(std::string_view s, double size);

/// "12" or "12.5": integers without a decimal point, others with one decimal.
std::string num(double v);

/// Appends SVG elements to a string; document() wraps them in the <svg> root once the size is
/// known (a layout is computed before anything is drawn, but a writer may also grow the height).
class Writer {
 public:
  /// <rect x y width height fill [extra]>, with a <title> child when `title` is not empty.
  /// `extra` is raw attributes (e.g. `stroke="#000"`), written as given.
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view title = {}, std::string_view extra = {});
  /// <text x y [extra]>escaped text</text>.
  void text(double x, double y, std::string_view content, std::string_view extra = {});
  /// <line x1 y1 x2 y2 stroke stroke-width [extra]/>.
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            std::string_view extra = {});
  /// <path d fill [extra]/>.
  void path(std::string_view d, std::string_view fill, std::string_view extra = {});
  /// Raw markup (a <defs> block, an opening or closing <g>).
  void raw(std::string_view markup) { body_ += markup; }
  /// <g [attrs]><title>…</title> … — close with end_group().
  void begin_group(std::string_view title = {}, std::string_view attrs = {});
  void end_group() { body_ += "</g>\n"; }

  std::size_t size() const { return body_.size(); }

  /// The whole file: XML declaration, <svg> root with `width`×`height` and its viewBox, the
  /// document <title> and <desc>, `defs` (raw), the body.
  std::string document(int width, int height, std::string_view title, std::string_view desc,
                       std::string_view defs) const;

 private:
  std::string body_;
};

}  // namespace tilefit::report::svg
