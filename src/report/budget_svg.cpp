#include "tilefit/report/budget_svg.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/svg.hpp"
#include "report/svg_style.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/report/summary_line.hpp"
#include "tilefit/report/tile_text.hpp"

namespace tilefit::report {
namespace {

using model::Bytes;
using model::Status;

// Layout (px).
constexpr double kMargin = 16;
constexpr double kBarArea = 360;  ///< width of the longest bar (max of smem and limit)
constexpr double kRowHeight = 26;
constexpr double kBarHeight = 16;
constexpr double kFont = 12;
constexpr std::size_t kNameChars = 40;

std::string stages_text(const BudgetRecord& r) {
  return fmt::format("{} stage{}{}", r.stages, r.stages == 1 ? "" : "s",
                     r.auto_stages ? " (auto)" : "");
}

/// A config without a size (it cannot be built): "INVALID", or "DOES NOT FIT" when no stage count
/// the builder accepts fits (e.g. its automatic count below the minimum).
std::string unbuilt_verdict(const BudgetRecord& r) {
  return r.status == Status::Invalid ? "INVALID" : fmt::format("{} · DOES NOT FIT", stages_text(r));
}

/// Beside the bar: "3 stages (auto) · max 2 · over by 1024 B" or "… · 8192 B spare".
std::string side_text(const BudgetRecord& r) {
  std::string side = fmt::format("{} · max {} · ", stages_text(r), r.max_stages);
  if (!r.smem) return unbuilt_verdict(r);
  if (*r.smem > r.limit) return side + fmt::format("over by {} B", *r.smem - r.limit);
  side += fmt::format("{} B spare", r.limit - *r.smem);
  if (r.status == Status::Invalid) side += " · INVALID";
  return side;
}

/// The bar's <title>: every number.
std::string bar_title(const BudgetRecord& r) {
  std::string t = fmt::format("{} ({}, {}): ", r.name, model::arch_name(r.arch), r.tile);
  if (!r.smem) {
    t += r.status == Status::Invalid ? "invalid" : "does not fit, cannot be built";
    if (!r.note.empty()) t += ": " + r.note;
    return t;
  }
  t += fmt::format("{} B at {} stage{}{}", *r.smem, r.stages, r.stages == 1 ? "" : "s",
                   r.auto_stages ? " (auto)" : "");
  if (*r.smem > r.limit)
    t += fmt::format(", over the limit {} B by {} B", r.limit, *r.smem - r.limit);
  else
    t += fmt::format(", limit {} B, {} B spare", r.limit, r.limit - *r.smem);
  if (r.max_stages > 0 && r.max_stages_smem)
    t += fmt::format("; at most {} stage{} fit ({} B)", r.max_stages, r.max_stages == 1 ? "" : "s",
                     *r.max_stages_smem);
  else
    t += "; no stage count fits";
  if (r.status == Status::Invalid && !r.note.empty()) t += "; invalid: " + r.note;
  t += " = ";
  for (std::size_t i = 0; i < r.parts.size(); ++i)
    t += fmt::format("{}{} {}", i ? ", " : "", model::component_key(r.parts[i].first),
                     r.parts[i].second);
  return t;
}

/// A round step for the axis ticks: at most 8 ticks over `max_bytes`.
Bytes tick_step(Bytes max_bytes) {
  for (Bytes step : {Bytes{4096}, Bytes{8192}, Bytes{16384}, Bytes{32768}, Bytes{65536},
                     Bytes{131072}, Bytes{262144}, Bytes{524288}, Bytes{1048576}})
    if (max_bytes / step <= 8) return step;
  return std::max<Bytes>(1048576, max_bytes / 8);
}

std::string kib(Bytes b) {
  return b % 1024 == 0 ? fmt::format("{} KiB", b / 1024) : fmt::format("{} B", b);
}

void count(analysis::Tally& t, Status s) {
  ++t.configs;
  if (s == Status::Fits)
    ++t.fits;
  else if (s == Status::DoesNotFit)
    ++t.does_not_fit;
  else
    ++t.invalid;
}

}  // namespace

BudgetRecord budget_record(const analysis::Entry& e) {
  const model::Result& r = e.result;
  BudgetRecord b;
  b.name = r.name;
  b.arch = r.arch;
  b.tile = tile_text(e.config.m, e.config.n, e.config.k);
  if (r.breakdown)
    for (int c = 0; c < model::kComponentCount; ++c)
      if (r.breakdown->parts[c] != 0)
        b.parts.emplace_back(static_cast<model::Component>(c), r.breakdown->parts[c]);
  b.smem = r.smem_bytes;
  b.limit = r.limit_bytes;
  b.stages = r.stages;
  b.auto_stages = r.auto_stages && !r.family.empty();
  b.max_stages = r.max_stages;
  b.max_stages_smem = r.max_stages_smem;
  b.status = r.status;
  for (const model::Diagnostic& d : r.diagnostics)
    if (d.severity == model::Severity::error) {
      b.note = message(d);
      break;
    }
  return b;
}

void BudgetChart::add(BudgetRecord r) {
  count(all_, r.status);
  if (bars_.size() >= kMaxBudgetBars) {
    count(dropped_, r.status);
    return;
  }
  bars_.push_back(std::move(r));
}

std::string BudgetChart::render(std::size_t errors) const {
  svg::Writer w;
  // One architecture for every bar: say it once; otherwise each label names its own.
  const bool one_arch = std::all_of(bars_.begin(), bars_.end(), [&](const BudgetRecord& r) {
    return r.arch == bars_.front().arch;
  });
  const bool one_limit = std::all_of(bars_.begin(), bars_.end(), [&](const BudgetRecord& r) {
    return r.limit == bars_.front().limit;
  });
  auto label_of = [&](const BudgetRecord& r) {
    std::string s = svg::ellipsize(r.name, kNameChars);
    if (!one_arch) s += " (" + model::arch_name(r.arch) + ")";
    return s;
  };
  double label_w = 80;
  for (const BudgetRecord& r : bars_)
    label_w = std::max(label_w, svg::text_width(label_of(r), kFont));
  label_w = std::min(label_w, 300.0);
  Bytes max_bytes = 1;
  for (const BudgetRecord& r : bars_)
    max_bytes = std::max({max_bytes, r.limit, r.smem.value_or(0)});
  const double x0 = kMargin + label_w + 10;
  const double scale = kBarArea / static_cast<double>(max_bytes);
  const double text_x = x0 + kBarArea + 10;
  const auto X = [&](Bytes b) { return x0 + static_cast<double>(b) * scale; };

  // Title and summary.
  analysis::Tally n = all_;
  n.errors = errors;
  std::string subtitle = summary_line(n);
  subtitle.pop_back();  // its '\n'
  if (!bars_.empty() && one_arch)
    subtitle += fmt::format(
        " · {}{}", model::arch_name(bars_.front().arch),
        one_limit ? fmt::format(", opt-in limit {} B per block", bars_.front().limit) : "");
  w.text(kMargin, 26, "Shared memory per config", "font-size=\"16\" font-weight=\"bold\"");
  w.text(kMargin, 44, subtitle, fmt::format("fill=\"{}\"", style::kMutedText));

  const double top = 76;     // axis labels
  const double rows_y = 86;  // first bar row
  const std::size_t rows = bars_.size() + (dropped_.configs ? 1 : 0);
  const double rows_end = rows_y + kRowHeight * static_cast<double>(rows);

  // Axis: round ticks with faint grid lines behind the bars.
  const Bytes step = tick_step(max_bytes);
  for (Bytes b = 0; b <= max_bytes; b += step) {
    w.line(X(b), rows_y - 4, X(b), rows_end - 6, style::kAxisLine, 1);
    w.text(X(b), top, kib(b),
           fmt::format("font-size=\"10\" text-anchor=\"middle\" fill=\"{}\"", style::kMutedText));
  }
  if (one_limit && !bars_.empty())
    w.text(X(bars_.front().limit), top - 14, fmt::format("limit {} B", bars_.front().limit),
           "font-size=\"10\" text-anchor=\"middle\" font-weight=\"bold\"");

  double y = rows_y;
  for (const BudgetRecord& r : bars_) {
    const double by = y + (kRowHeight - kBarHeight) / 2;
    w.text(x0 - 8, by + 12, label_of(r), "text-anchor=\"end\"");
    const std::string title = bar_title(r);
    if (!r.smem) {
      w.begin_group(title);
      w.rect(x0, by, kBarArea, kBarHeight, style::kInvalidFill, {}, "fill-opacity=\"0.25\"");
      const bool invalid = r.status == Status::Invalid;
      const std::string what = invalid ? "invalid" : "cannot be built";
      const std::string why = r.note.empty() ? what : what + ": " + r.note;
      w.text(x0 + 4, by + 12, svg::ellipsize(why, static_cast<std::size_t>(kBarArea / 6.2)),
             "font-size=\"11\"");
      w.end_group();
      w.text(text_x, by + 12, unbuilt_verdict(r),
             fmt::format("fill=\"{}\" font-weight=\"bold\"",
                         invalid ? style::kMutedText : style::kOverText));
      y += kRowHeight;
      continue;
    }
    w.begin_group(title);
    Bytes at = 0;
    for (const auto& [c, bytes] : r.parts) {
      w.rect(X(at), by, static_cast<double>(bytes) * scale, kBarHeight, style::component_fill(c),
             fmt::format("{}: {} B", model::component_key(c), bytes));
      at += bytes;
    }
    if (*r.smem > r.limit)
      w.rect(X(r.limit), by, X(*r.smem) - X(r.limit), kBarHeight, "url(#over)",
             fmt::format("over the limit by {} B", *r.smem - r.limit),
             fmt::format("stroke=\"{}\" stroke-width=\"1.5\"", style::kNoFitHatch));
    w.end_group();
    w.line(X(r.limit), by - 3, X(r.limit), by + kBarHeight + 3, style::kLimitLine, 2);
    // Beside the bar: the stage count built, the most that fit, the headroom.
    if (*r.smem > r.limit)
      w.text(text_x, by + 12, side_text(r),
             fmt::format("fill=\"{}\" font-weight=\"bold\"", style::kOverText));
    else
      w.text(text_x, by + 12, side_text(r));
    y += kRowHeight;
  }
  if (dropped_.configs) {
    w.text(kMargin, y + 17,
           fmt::format("… {} more config{} not drawn (a picture holds at most {} bars): {} fit, {} "
                       "do not fit, "
                       "{} invalid",
                       dropped_.configs, dropped_.configs == 1 ? "" : "s", kMaxBudgetBars,
                       dropped_.fits, dropped_.does_not_fit, dropped_.invalid),
           fmt::format("fill=\"{}\"", style::kMutedText));
    y += kRowHeight;
  }

  // Legend: the components present, the limit, the part over it.
  std::vector<bool> present(model::kComponentCount, false);
  for (const BudgetRecord& r : bars_)
    for (const auto& p : r.parts) present[static_cast<std::size_t>(p.first)] = true;
  // As wide as the longest text beside a bar (bold ones a little wider), and room for the legend.
  double side_w = 240;
  for (const BudgetRecord& r : bars_)
    side_w = std::max(side_w, svg::text_width(side_text(r), kFont) * 1.08);
  const double right = text_x + side_w;
  double lx = kMargin, ly = y + 14;
  auto legend_item = [&](double swatch_w, const std::string& label, auto&& draw) {
    const double item_w = swatch_w + 6 + svg::text_width(label, 11) + 16;
    if (lx + item_w > right && lx > kMargin) {
      lx = kMargin;
      ly += 20;
    }
    draw(lx, ly);
    w.text(lx + swatch_w + 5, ly + 10, label, "font-size=\"11\"");
    lx += item_w;
  };
  for (int c = 0; c < model::kComponentCount; ++c) {
    if (!present[static_cast<std::size_t>(c)]) continue;
    const auto comp = static_cast<model::Component>(c);
    legend_item(12, std::string(model::component_key(comp)),
                [&](double x, double yy) { w.rect(x, yy, 12, 12, style::component_fill(comp)); });
  }
  legend_item(10, "limit (opt-in bytes per block)", [&](double x, double yy) {
    w.line(x + 5, yy - 1, x + 5, yy + 13, style::kLimitLine, 2);
  });
  legend_item(16, "over the limit", [&](double x, double yy) {
    w.rect(x, yy, 16, 12, "url(#nofit)", {},
           fmt::format("stroke=\"{}\" stroke-width=\"1\"", style::kNoFitHatch));
  });
  const int width = static_cast<int>(right + kMargin);
  const int height = static_cast<int>(ly + 12 + kMargin);
  return w.document(width, height, "tilefit check: shared memory per config", subtitle,
                    style::defs());
}

std::string render_budget_svg(const analysis::CheckRun& run) {
  BudgetChart chart;
  for (const analysis::Entry& e : run.entries) chart.add(budget_record(e));
  return chart.render(run.problems.size());
}

}  // namespace tilefit::report
