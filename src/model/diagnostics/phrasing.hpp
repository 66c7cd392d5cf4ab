// The few diagnostic messages whose wording depends on the values: each is a small pure
// function, std::string name(const Diagnostic&) in namespace tilefit::model::phrasing, defined
// next to its code (the messages.cpp of the folder whose diagnostics.def names it). It returns
// the message *template* for that diagnostic (include/tilefit/model/diagnostic_codes.def says
// how templates are written); the report layer renders it as it renders every other template.
//
//   more_stages_fit {max_stages 5, builder_pick 1, ...}
//   -> "up to {max_stages} stages fit; the builder picks {stages} (an explicit
//       {max_stages:stages} needs {smem_bytes:B})"
//
// The functions never put a value's text into the template except through literal(), so a
// brace in a name cannot become a placeholder. No fmt, no I/O: the model builds the strings.
#pragma once

#include <string>
#include <string_view>

#include "tilefit/model/diagnostic.hpp"

namespace tilefit::model::phrasing {

/// "{" key format "}".
std::string placeholder(std::string_view key, std::string_view format);

/// Reads a diagnostic's values (to choose a phrasing) and writes placeholders for them.
class Phrase {
 public:
  explicit Phrase(const Diagnostic& d) : d_(d) {}
  /// "{key}": the value as text.
  static std::string v(std::string_view key) { return placeholder(key, ""); }
  /// "{key:B}": the value in bytes ("102400 B").
  static std::string B(std::string_view key) { return placeholder(key, ":B"); }
  /// "{key:stages}": a stage count as its family spells it ("StageCount<3>").
  static std::string spelled(std::string_view key) { return placeholder(key, ":stages"); }
  /// The number of `key` (0 when absent).
  long long n(std::string_view key) const { return d_.number(key); }
  bool on(std::string_view key) const { return d_.number(key) != 0; }
  /// The text of a name value (empty when absent).
  std::string_view t(std::string_view key) const { return d_.text(key); }

 private:
  const Diagnostic& d_;
};

/// `text` as template text that renders as itself (braces doubled).
std::string literal(std::string_view text);

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

}  // namespace tilefit::model::phrasing
