// `tilefit check --breakdown` in a terminal: each config's budget as a one-line bar of Unicode
// block characters, one glyph per group of components, the spare bytes dotted up to the limit
// mark. Written only when standard output is a terminal (cmd_check.cpp asks Output::terminal()).
// Sample (50 glyphs for max(smem, limit)):
//
//     budget: ████████████▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▒▒▒░░░░░░░░▌│  102400 / 101376 B, over by 1024 B
//   budget bars: █ A  ▓ B  ▒ scale factors  ░ epilogue  ▌ barriers, scheduler, tensormaps, padding  · spare  │ limit
#pragma once

#include <string>
#include <string_view>

#include "tilefit/model/layout.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::report {

/// The glyph of a component's group (tilefit/report/svg_style.hpp holds them).
std::string_view bar_glyph(model::Component c);

/// "budget: ███▓▓…│  89088 / 101376 B, 12288 B spare" (no indent, no newline); empty when the
/// result has no breakdown or cannot be built.
std::string budget_bar(const model::Result& r);

/// The legend of the glyphs, one line without a newline.
std::string budget_bar_legend();

}  // namespace tilefit::report
