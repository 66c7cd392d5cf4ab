// Every colour, mark and size of the pictures, as data in one place (sweep_map_svg.cpp,
// budget_svg.cpp, budget_bar.cpp read them; tests/render_svg_test.py checks a few in pixels).
//
// The stage scale is sequential (ColorBrewer YlGnBu, light = few stages, dark = many), monotonic
// in lightness so it also reads in grey scale; "does not fit" is red hatching on white and
// "invalid" a dark cross on mid grey: textures, not hues, so they read without colour too.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "tilefit/model/layout.hpp"

namespace tilefit::report::style {

/// Colour of a cell whose largest fitting stage count is 1, 2, …, 7, and 8 or more.
inline constexpr std::array<std::string_view, 8> kStageFill = {
    "#edf8b1", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#253494", "#081d58"};
/// Text on those cells: dark on the light half, white on the dark half.
inline constexpr std::array<std::string_view, 8> kStageText = {
    "#222222", "#222222", "#222222", "#222222",
    "#ffffff", "#ffffff", "#ffffff", "#ffffff"};  // kInk, kPaper

inline std::string_view stage_fill(int max_stages) {
  return kStageFill[static_cast<std::size_t>(max_stages < 1   ? 0
                                             : max_stages > 8 ? 7
                                                              : max_stages - 1)];
}
inline std::string_view stage_text(int max_stages) {
  return kStageText[static_cast<std::size_t>(max_stages < 1   ? 0
                                             : max_stages > 8 ? 7
                                                              : max_stages - 1)];
}

inline constexpr std::string_view kInk = "#222222";              ///< text (the root's fill)
inline constexpr std::string_view kPaper = "#ffffff";            ///< the background, empty cells
inline constexpr std::string_view kNoFitBackground = "#ffffff";  ///< under the hatching
inline constexpr std::string_view kNoFitHatch = "#d62728";       ///< the hatching's stripes
inline constexpr std::string_view kInvalidFill = "#9e9e9e";      ///< under the cross
inline constexpr std::string_view kInvalidCross = "#3a3a3a";
inline constexpr std::string_view kEmptyStroke = "#d0d0d0";  ///< a grid cell no candidate maps to
inline constexpr std::string_view kLimitLine = "#111111";    ///< the limit in the budget bars
inline constexpr std::string_view kOverText = "#b2182b";     ///< "over by …"
inline constexpr std::string_view kMutedText = "#666666";
inline constexpr std::string_view kAxisLine = "#e6e6e6";  ///< the budget bars' tick lines

/// <defs> of both pictures: the "does not fit" hatching `nofit` (red stripes on white) and
/// `over`, the same stripes without a background, over a budget bar's own colours.
inline std::string defs() {
  const std::string hatch(kNoFitHatch), paper(kNoFitBackground);
  return "<pattern id=\"nofit\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
         "patternTransform=\"rotate(45)\"><rect x=\"0\" y=\"0\" width=\"6\" height=\"6\" fill=\"" +
         paper +
         "\"/>"
         "<rect x=\"0\" y=\"0\" width=\"2\" height=\"6\" fill=\"" +
         hatch +
         "\"/></pattern>\n"
         "<pattern id=\"over\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
         "patternTransform=\"rotate(45)\"><rect x=\"0\" y=\"0\" width=\"2.5\" height=\"6\" "
         "fill=\"" +
         hatch +
         "\"/>"
         "</pattern>\n";
}

/// Colour of each breakdown component in a budget bar (model::Component order). Mainloop operands
/// blues, scale factors purples, epilogue oranges/browns, bookkeeping greens and greys.
inline constexpr std::array<std::string_view, model::kComponentCount> kComponentFill = {
    "#4e79a7",  // A
    "#a0cbe8",  // B
    "#8c6bb1",  // SFA
    "#c2a5cf",  // SFB
    "#59a14f",  // mainloop_barriers
    "#f28e2b",  // epilogue_C
    "#ffbe7d",  // epilogue_D
    "#e8a33d",  // epilogue_C_D_shared
    "#9c755f",  // fusion
    "#d4a6c8",  // scale_row
    "#b07aa1",  // bias_row
    "#8cd17d",  // epilogue_barriers
    "#2e7d32",  // kernel_barriers
    "#edc948",  // scheduler
    "#17becf",  // tensormaps
    "#86bcb6",  // tmem_pointer
    "#ff9da7",  // scale_buffers
    "#e15759",  // layout_conversion
    "#bab0ac",  // padding
};

inline std::string_view component_fill(model::Component c) {
  return kComponentFill[static_cast<std::size_t>(c)];
}

/// The one-line terminal bar (budget_bar.cpp): one glyph per component group.
inline constexpr std::string_view kBarOperands = "\xE2\x96\x88";  // █ A
inline constexpr std::string_view kBarOperandB = "\xE2\x96\x93";  // ▓ B
inline constexpr std::string_view kBarScales = "\xE2\x96\x92";    // ▒ scale factors / buffers
inline constexpr std::string_view kBarEpilogue = "\xE2\x96\x91";  // ░ epilogue
inline constexpr std::string_view kBarOther =
    "\xE2\x96\x8C";  // ▌ barriers, scheduler, tensormaps, padding …
inline constexpr std::string_view kBarSpare = "\xC2\xB7";      // · spare up to the limit
inline constexpr std::string_view kBarLimit = "\xE2\x94\x82";  // │ the limit
inline constexpr int kBarWidth = 50;                           ///< glyphs for max(smem, limit)

}  // namespace tilefit::report::style
