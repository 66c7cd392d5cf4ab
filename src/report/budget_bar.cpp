#include "report/budget_bar.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/svg_style.hpp"

namespace tilefit::report {

using model::Bytes;
using model::Component;

std::string_view bar_glyph(Component c) {
  switch (c) {
    case Component::A:
      return style::kBarOperands;
    case Component::B:
      return style::kBarOperandB;
    case Component::SFA:
    case Component::SFB:
    case Component::ScaleBuffers:
      return style::kBarScales;
    case Component::EpilogueC:
    case Component::EpilogueD:
    case Component::EpilogueCD:
    case Component::Fusion:
    case Component::ScaleRow:
    case Component::BiasRow:
    case Component::EpilogueBarriers:
    case Component::LayoutConversion:
      return style::kBarEpilogue;
    default:
      return style::kBarOther;
  }
}

std::string budget_bar(const model::Result& r) {
  if (!r.breakdown || !r.smem_bytes) return {};
  const Bytes smem = *r.smem_bytes, limit = r.limit_bytes;
  const Bytes total = std::max<Bytes>({smem, limit, Bytes{1}});
  const int W = style::kBarWidth;
  // Where the limit mark goes: after this many glyphs.
  // Over the limit, at least one glyph goes after the mark, however few bytes are over.
  const int limit_at = smem > limit ? std::min(static_cast<int>(limit * W / total), W - 1)
                                    : static_cast<int>((limit * W + total / 2) / total);
  std::string out = "budget: ";
  int c = 0;
  Bytes end = r.breakdown->parts[0];
  for (int i = 0; i < W; ++i) {
    if (i == limit_at) out += style::kBarLimit;
    // The glyph of whatever holds the middle byte of this glyph's span.
    const Bytes mid = (2 * static_cast<Bytes>(i) + 1) * total / (2 * W);
    if (mid >= smem) {
      out += i < limit_at ? style::kBarSpare : " ";
      continue;
    }
    while (c + 1 < model::kComponentCount && mid >= end) end += r.breakdown->parts[++c];
    out += bar_glyph(static_cast<Component>(c));
  }
  if (limit_at >= W) out += style::kBarLimit;
  out += fmt::format("  {} / {} B", smem, limit);
  out += smem > limit ? fmt::format(", over by {} B", smem - limit)
                      : fmt::format(", {} B spare", limit - smem);
  return out;
}

std::string budget_bar_legend() {
  return fmt::format(
      "budget bars: {} A  {} B  {} scale factors  {} epilogue  {} barriers, scheduler, tensormaps, "
      "padding  {} spare  {} limit",
      style::kBarOperands, style::kBarOperandB, style::kBarScales, style::kBarEpilogue,
      style::kBarOther, style::kBarSpare, style::kBarLimit);
}

}  // namespace tilefit::report
