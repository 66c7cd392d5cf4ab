#include "tilefit/report/sweep_map_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/svg.hpp"
#include "report/svg_style.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::report {
namespace {

using model::Bytes;
using model::Status;

// Geometry (px). The grid of every panel starts at (kGridX, kGridY) of the panel, so one pattern
// tile (the cross of "invalid") lines up with the cells of every panel.
constexpr int kCellW = 30, kCellH = 24;
constexpr int kGridX = 42, kGridY = 48;  ///< under two caption lines and the N labels
constexpr int kPanelGap = 12;
constexpr int kMargin = 16;
constexpr std::size_t kMapRowWidth = 1000;  ///< the most a row of panels joined by a field may span
constexpr int kMinWidth = 640;
constexpr std::size_t kMaxFootnotes = 10;

/// A JSON string shows without its quotes ("auto" -> auto); everything else as written.
std::string unquote(const std::string& v) {
  return v.size() >= 2 && v.front() == '"' && v.find('"', 1) == v.size() - 1
             ? v.substr(1, v.size() - 2)
             : v;
}

/// Where each candidate of a space goes: the panels' rows and columns, the grid's M and N.
struct SpaceLayout {
  std::vector<long long> ms, ns;        ///< increasing
  std::vector<std::string> rows;        ///< label of each row of panels ("" when one)
  std::string col_field;                ///< the field that joins the architectures ("" none)
  std::vector<std::string> col_values;  ///< its values (one "" when none)
  struct Place {
    std::uint32_t row = 0, col = 0, mi = 0, ni = 0;
    std::int32_t m = 0, n = 0, k = 0;
  };
  std::vector<Place> place;  ///< per candidate
  std::size_t panels(std::size_t archs) const { return rows.size() * col_values.size() * archs; }
};

SpaceLayout layout_of(const io::ConfigSpace& s, std::size_t archs) {
  SpaceLayout L;
  const auto& axes = s.axes();
  // The panel axes: every varying field but tile M and N (a list of tiles gives tile K).
  std::vector<std::size_t> panel_axes;
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (axes[a].field != "tile.m" && axes[a].field != "tile.n") panel_axes.push_back(a);
  const auto label = [&](std::size_t a) {
    return axes[a].field == "tile" ? std::string("tile.k") : axes[a].field;
  };

  struct Raw {
    std::vector<std::string> key;  ///< one value per panel axis
    std::int32_t m, n, k;
  };
  std::vector<Raw> raw(s.size());
  model::KernelConfig cfg;
  for (std::uint64_t i = 0; i < s.size(); ++i) {
    s.candidate(i, cfg);
    const std::vector<std::size_t> choice = s.choice(i);
    Raw& r = raw[i];
    r.m = static_cast<std::int32_t>(cfg.m), r.n = static_cast<std::int32_t>(cfg.n),
    r.k = static_cast<std::int32_t>(cfg.k);
    for (std::size_t a : panel_axes)
      r.key.push_back(axes[a].field == "tile" ? std::to_string(cfg.k)
                                              : unquote(axes[a].shown[choice[a]]));
    L.ms.push_back(r.m);
    L.ns.push_back(r.n);
  }
  for (auto* v : {&L.ms, &L.ns}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  // The last panel axis joins the architectures across the columns when they fit kMapColumns.
  std::vector<std::string> col_values;
  bool use_col = false;
  if (!panel_axes.empty()) {
    for (const Raw& r : raw)
      if (std::find(col_values.begin(), col_values.end(), r.key.back()) == col_values.end())
        col_values.push_back(r.key.back());
    // … and the row of panels stays within about a page's width.
    const std::size_t grid_w = static_cast<std::size_t>(kGridX + kPanelGap) + L.ns.size() * kCellW;
    use_col = col_values.size() * archs <= kMapColumns &&
              col_values.size() * archs * grid_w <= kMapRowWidth;
  }
  if (use_col) {
    L.col_field = label(panel_axes.back());
    L.col_values = col_values;
  } else {
    L.col_values = {""};
  }
  const std::size_t row_axes = panel_axes.size() - (use_col ? 1 : 0);
  std::map<std::string, std::uint32_t> row_index;
  L.place.resize(s.size());
  for (std::uint64_t i = 0; i < s.size(); ++i) {
    const Raw& r = raw[i];
    std::string row;
    for (std::size_t j = 0; j < row_axes; ++j)
      row += fmt::format("{}{}={}", j ? " · " : "", label(panel_axes[j]), r.key[j]);
    auto [it, fresh] = row_index.emplace(row, static_cast<std::uint32_t>(L.rows.size()));
    if (fresh) L.rows.push_back(row);
    SpaceLayout::Place& p = L.place[i];
    p.row = it->second;
    p.col = use_col ? static_cast<std::uint32_t>(
                          std::find(L.col_values.begin(), L.col_values.end(), r.key.back()) -
                          L.col_values.begin())
                    : 0;
    p.mi =
        static_cast<std::uint32_t>(std::lower_bound(L.ms.begin(), L.ms.end(), r.m) - L.ms.begin());
    p.ni =
        static_cast<std::uint32_t>(std::lower_bound(L.ns.begin(), L.ns.end(), r.n) - L.ns.begin());
    p.m = r.m, p.n = r.n, p.k = r.k;
  }
  return L;
}

std::size_t arch_count(const analysis::TargetRequest& req) {
  return req.mode == analysis::TargetRequest::Mode::arch && !req.archs.empty() ? req.archs.size()
                                                                               : 1;
}

/// One candidate on one architecture, as the map needs it.
struct Cell {
  std::uint8_t state = 0;  ///< 0: not listed; 1 + Status
  bool auto_stages = false;
  std::int16_t stages = 0, max_stages = 0;
  std::int16_t arch = 0;
  std::uint16_t reason = 0;  ///< invalid: 1 + index of its first error's sentence
  Bytes smem = -1, limit = 0, max_smem = -1;
};

/// Width of a panel: its grid, or its caption (the architecture, then the column field's value)
/// when that is wider.
int panel_width(const SpaceLayout& L, const std::vector<std::string>& arch_names) {
  int w = kGridX + static_cast<int>(L.ns.size()) * kCellW;
  for (const std::string& a : arch_names)
    w = std::max(w, static_cast<int>(svg::text_width(a, 11) * 1.1) + 8);
  if (!L.col_field.empty())
    for (const std::string& v : L.col_values)
      w = std::max(w, static_cast<int>(svg::text_width(L.col_field + "=" + v, 11)) + 8);
  return w;
}

class MapWriter final : public SweepWriter {
 public:
  MapWriter(const std::vector<io::ConfigSpace>& spaces, const analysis::TargetRequest& req,
            Emit emit)
      : spaces_(spaces), archs_(arch_count(req)), emit_(std::move(emit)) {
    if (req.mode == analysis::TargetRequest::Mode::arch) arch_ids_ = req.archs;
    for (const io::ConfigSpace& s : spaces) {
      layouts_.push_back(layout_of(s, archs_));
      cells_.emplace_back(s.size() * archs_);
    }
  }

  void result(const io::ConfigSpace& space, std::uint64_t i,
              std::span<const analysis::Entry> entries) override {
    std::size_t si = 0;
    while (si < spaces_.size() && &spaces_[si] != &space) ++si;
    if (si == spaces_.size()) {  // not the same objects: find it by file and index
      si = 0;
      while (si < spaces_.size() &&
             !(spaces_[si].file == space.file && spaces_[si].index == space.index))
        ++si;
      if (si == spaces_.size()) return;
    }
    for (std::size_t a = 0; a < entries.size() && a < archs_; ++a) {
      const model::Result& r = entries[a].result;
      Cell& c = cells_[si][i * archs_ + a];
      c.state = static_cast<std::uint8_t>(1 + static_cast<int>(r.status));
      c.auto_stages = r.auto_stages && !r.family.empty();
      c.stages = static_cast<std::int16_t>(r.stages);
      c.max_stages = static_cast<std::int16_t>(r.max_stages);
      c.arch = static_cast<std::int16_t>(r.arch);
      c.smem = r.smem_bytes.value_or(-1);
      c.limit = r.limit_bytes;
      c.max_smem = r.max_stages_smem.value_or(-1);
      if (r.status == Status::Invalid)
        for (const model::Diagnostic& d : r.diagnostics)
          if (d.severity == model::Severity::error) {
            std::string text = message(d);
            auto [it, fresh] = reason_index_.emplace(text, reasons_.size());
            if (fresh) reasons_.push_back(std::move(text));
            c.reason = static_cast<std::uint16_t>(std::min<std::size_t>(it->second + 1, 65535));
            break;
          }
    }
  }

  void finish(const analysis::SweepTally& t,
              const std::vector<analysis::Problem>& problems) override {
    emit_(render(t, problems.size()));
  }

 private:
  std::string arch_label(std::size_t si, std::size_t a, std::uint32_t row,
                         std::uint32_t col) const {
    if (!arch_ids_.empty()) return model::arch_name(arch_ids_[a]);
    // One target per config: the architecture its results came with.
    const SpaceLayout& L = layouts_[si];
    for (std::size_t i = 0; i < L.place.size(); ++i)
      if (L.place[i].row == row && L.place[i].col == col && cells_[si][i * archs_ + a].state)
        return model::arch_name(cells_[si][i * archs_ + a].arch);
    return "-";
  }

  std::string cell_title(const io::ConfigSpace& s, std::uint64_t i, const SpaceLayout::Place& p,
                         const Cell& c) const {
    std::string t = s.size() > 1 ? fmt::format("{}@{}", s.name, i) : s.name;
    t += fmt::format(" {} {}x{}x{}: ", model::arch_name(c.arch), p.m, p.n, p.k);
    const Status st = static_cast<Status>(c.state - 1);
    if (st == Status::Invalid) {
      t += "INVALID";
      // Its reason: a footnote under the map, or (beyond the footnotes drawn) here.
      if (c.reason && c.reason <= kMaxFootnotes)
        t += fmt::format(" [{}]", c.reason);
      else if (c.reason)
        t += ": " + svg::ellipsize(reasons_[c.reason - 1], 160);
      return t;
    }
    t += fmt::format("{} at {}{}, max {}", st == Status::Fits ? "fits" : "DOES NOT FIT", c.stages,
                     c.auto_stages ? " auto" : "", c.max_stages);
    if (c.max_smem >= 0) t += fmt::format(" ({} B)", c.max_smem);
    if (c.smem >= 0) t += fmt::format("; {} / {} B", c.smem, c.limit);
    if (c.smem > c.limit) t += fmt::format(", over by {} B", c.smem - c.limit);
    return t;
  }

  std::string render(const analysis::SweepTally& t, std::size_t errors) const {
    svg::Writer w;
    // Width of the widest block of panels.
    int width = kMinWidth;
    std::vector<std::string> arch_names;
    for (std::size_t a = 0; a < archs_; ++a)
      arch_names.push_back(arch_ids_.empty() ? "sm_000" : model::arch_name(arch_ids_[a]));
    for (const SpaceLayout& L : layouts_) {
      const int cols = static_cast<int>(L.col_values.size() * archs_);
      const int pw = panel_width(L, arch_names);
      width = std::max(width, 2 * kMargin + cols * pw + (cols - 1) * kPanelGap);
    }

    w.text(kMargin, 26, "Largest stage count that fits, by tile M \xC3\x97 N",
           "font-size=\"16\" font-weight=\"bold\"");
    std::string subtitle =
        fmt::format("{} cell{}: {} fit, {} do not fit, {} invalid", t.candidates,
                    t.candidates == 1 ? "" : "s", t.fits, t.does_not_fit, t.invalid);
    if (errors) subtitle += fmt::format("; {} error{}", errors, errors == 1 ? "" : "s");
    w.text(kMargin, 44, subtitle, fmt::format("fill=\"{}\"", style::kMutedText));

    // Legend: the scale, then the marks.
    int y = 56;
    w.text(kMargin, y + 12, "most stages that fit:", "font-size=\"11\"");
    for (int s = 1; s <= 8; ++s) {
      const int x = kMargin + 124 + (s - 1) * 26;
      w.rect(x, y, 24, 17, style::stage_fill(s),
             fmt::format("{}{} stage{} fit", s, s == 8 ? " or more" : "", s == 1 ? "" : "s"));
      w.text(
          x + 12, y + 13, s == 8 ? "8+" : std::to_string(s),
          fmt::format("font-size=\"11\" text-anchor=\"middle\" fill=\"{}\"", style::stage_text(s)));
    }
    y += 24;
    int lx = kMargin;
    auto mark = [&](std::string_view fill, std::string_view extra, const std::string& label) {
      w.rect(lx, y, 24, 17, fill, label, extra);
      w.text(lx + 30, y + 13, label, "font-size=\"11\"");
      lx += 30 + static_cast<int>(svg::text_width(label, 11)) + 18;
    };
    mark("url(#nofit)", {}, "does not fit as configured (the number: the most stages that would)");
    // (the cross is drawn here: the pattern lines up with the panels' grids, not with the legend)
    w.path(fmt::format("M{0} {1}h24v17h-24z", lx, y), style::kInvalidFill);
    w.path(fmt::format("M{0} {1}L{2} {3}M{0} {3}L{2} {1}", lx + 6, y + 3, lx + 18, y + 14), "none",
           fmt::format("stroke=\"{}\" stroke-width=\"2\"", style::kInvalidCross));
    mark("none", "", "invalid");
    mark(style::kPaper, fmt::format("stroke=\"{}\"", style::kEmptyStroke), "no candidate");
    width = std::max(width, lx + kMargin);
    y += 30;

    for (std::size_t si = 0; si < spaces_.size(); ++si) {
      const io::ConfigSpace& s = spaces_[si];
      const SpaceLayout& L = layouts_[si];
      // The space: its name, where it comes from, its size (cut to the picture's width; the whole
      // line in the <title>).
      const std::string head =
          fmt::format("{} ({} #{}): {} candidate{}{}", s.name, s.file, s.index, s.size(),
                      s.size() == 1 ? "" : "s",
                      archs_ > 1 ? fmt::format(" \xC3\x97 {} architectures", archs_) : "");
      w.begin_group(head);
      w.text(kMargin, y + 14,
             svg::ellipsize(head, static_cast<std::size_t>((width - 2 * kMargin) / 8.2)),
             "font-size=\"13\" font-weight=\"bold\"");
      w.end_group();
      y += 22;
      const int pw = panel_width(L, arch_names);
      const int ph = kGridY + static_cast<int>(L.ms.size()) * kCellH;
      // Candidates of each panel.
      const std::size_t ncols = L.col_values.size() * archs_;
      std::vector<std::vector<std::uint64_t>> in_panel(L.rows.size() * ncols);
      for (std::uint64_t i = 0; i < L.place.size(); ++i)
        for (std::size_t a = 0; a < archs_; ++a)
          in_panel[L.place[i].row * ncols + L.place[i].col * archs_ + a].push_back(i * archs_ + a);
      for (std::uint32_t row = 0; row < L.rows.size(); ++row) {
        if (!L.rows[row].empty()) {
          w.text(kMargin, y + 13, L.rows[row], "font-size=\"12\"");
          y += 18;
        }
        for (std::uint32_t col = 0; col < L.col_values.size(); ++col)
          for (std::size_t a = 0; a < archs_; ++a) {
            const std::size_t pc = col * archs_ + a;
            const int px = kMargin + static_cast<int>(pc) * (pw + kPanelGap);
            w.raw(fmt::format(
                "<g transform=\"translate({},{})\" font-size=\"11\" text-anchor=\"middle\">\n", px,
                y));
            w.text(pw / 2.0, 12, arch_label(si, a, row, col), "font-weight=\"bold\"");
            if (!L.col_field.empty())
              w.text(pw / 2.0, 25, fmt::format("{}={}", L.col_field, L.col_values[col]));
            w.text(kGridX / 2.0 - 2, kGridY - 6, "M\\N",
                   fmt::format("fill=\"{}\"", style::kMutedText));
            for (std::size_t ni = 0; ni < L.ns.size(); ++ni)
              w.text(kGridX + static_cast<int>(ni) * kCellW + kCellW / 2.0, kGridY - 6,
                     std::to_string(L.ns[ni]));
            for (std::size_t mi = 0; mi < L.ms.size(); ++mi)
              w.text(kGridX - 6, kGridY + static_cast<int>(mi) * kCellH + kCellH / 2.0 + 4,
                     std::to_string(L.ms[mi]), "text-anchor=\"end\"");
            std::vector<bool> filled(L.ms.size() * L.ns.size(), false);
            // Two alternatives that spell one tile ("CtaShape128x128x64B" and [128,128,128]) map
            // to one cell: the first is drawn, its title counts the others.
            std::vector<std::uint32_t> more(L.ms.size() * L.ns.size(), 0);
            for (std::uint64_t ci : in_panel[row * ncols + pc]) {
              const SpaceLayout::Place& p = L.place[ci / archs_];
              if (cells_[si][ci].state) ++more[p.mi * L.ns.size() + p.ni];
            }
            for (std::uint64_t ci : in_panel[row * ncols + pc]) {
              const std::uint64_t i = ci / archs_;
              const SpaceLayout::Place& p = L.place[i];
              const Cell& c = cells_[si][ci];
              if (!c.state || filled[p.mi * L.ns.size() + p.ni]) continue;
              filled[p.mi * L.ns.size() + p.ni] = true;
              const int x = kGridX + static_cast<int>(p.ni) * kCellW,
                        yy = kGridY + static_cast<int>(p.mi) * kCellH;
              const Status st = static_cast<Status>(c.state - 1);
              std::string title = cell_title(s, i, p, c);
              if (const std::uint32_t others = more[p.mi * L.ns.size() + p.ni] - 1)
                title += fmt::format(" (and {} more candidate{} of this tile, not drawn)", others,
                                     others == 1 ? "" : "s");
              if (st == Status::Invalid) {
                w.rect(x + 1, yy + 1, kCellW - 2, kCellH - 2, "url(#invalid)", title);
                continue;
              }
              const bool fits = st == Status::Fits;
              w.rect(x + 1, yy + 1, kCellW - 2, kCellH - 2,
                     fits ? style::stage_fill(c.max_stages) : "url(#nofit)", title);
              // On the hatching the number sits on a white plate, readable over the stripes.
              if (!fits)
                w.rect(x + kCellW / 2.0 - 8, yy + 5, 16, kCellH - 10, style::kNoFitBackground);
              const std::string_view ink = fits ? style::stage_text(c.max_stages) : style::kInk;
              std::string attrs = ink == style::kInk
                                      ? std::string(fits ? "" : "font-weight=\"bold\"")
                                      : fmt::format("fill=\"{}\"", ink);
              if (c.max_stages >= 100)
                attrs += std::string(attrs.empty() ? "" : " ") + "font-size=\"9\"";
              w.text(x + kCellW / 2.0, yy + kCellH / 2.0 + 4, std::to_string(c.max_stages), attrs);
            }
            for (std::size_t mi = 0; mi < L.ms.size(); ++mi)
              for (std::size_t ni = 0; ni < L.ns.size(); ++ni)
                if (!filled[mi * L.ns.size() + ni])
                  w.rect(kGridX + static_cast<int>(ni) * kCellW + 1,
                         kGridY + static_cast<int>(mi) * kCellH + 1, kCellW - 2, kCellH - 2,
                         style::kPaper,
                         fmt::format("no candidate: tile M {}, N {}", L.ms[mi], L.ns[ni]),
                         fmt::format("stroke=\"{}\"", style::kEmptyStroke));
            w.end_group();
          }
        y += ph + 12;
      }
      y += 8;
    }

    // The reasons of the invalid cells, once each.
    if (!reasons_.empty()) {
      w.text(kMargin, y + 12, "invalid because:", "font-size=\"12\" font-weight=\"bold\"");
      y += 18;
      const std::size_t chars = static_cast<std::size_t>((width - 2 * kMargin - 30) / 6.0);
      for (std::size_t r = 0; r < reasons_.size() && r < kMaxFootnotes; ++r) {
        w.begin_group(reasons_[r]);
        w.text(kMargin, y + 12, fmt::format("[{}] {}", r + 1, svg::ellipsize(reasons_[r], chars)),
               "font-size=\"11\"");
        w.end_group();
        y += 16;
      }
      if (reasons_.size() > kMaxFootnotes) {
        w.text(kMargin, y + 12,
               fmt::format("… and {} other reasons (in the cells' titles)",
                           reasons_.size() - kMaxFootnotes),
               fmt::format("font-size=\"11\" fill=\"{}\"", style::kMutedText));
        y += 16;
      }
    }
    const std::string defs =
        style::defs() +
        fmt::format(
            "<pattern id=\"invalid\" patternUnits=\"userSpaceOnUse\" x=\"{0}\" y=\"{1}\" "
            "width=\"{2}\" "
            "height=\"{3}\"><rect x=\"0\" y=\"0\" width=\"{2}\" height=\"{3}\" fill=\"{4}\"/>"
            "<path d=\"M{5} 5L{6} {7}M{5} {7}L{6} 5\" stroke=\"{8}\" "
            "stroke-width=\"2\"/></pattern>\n",
            kGridX, kGridY, kCellW, kCellH, style::kInvalidFill, kCellW / 2 - 8, kCellW / 2 + 8,
            kCellH - 5, style::kInvalidCross);
    return w.document(width, y + kMargin,
                      "tilefit sweep: largest stage count that fits, by tile M x N", subtitle,
                      defs);
  }

  const std::vector<io::ConfigSpace>& spaces_;
  std::size_t archs_;
  std::vector<int> arch_ids_;
  Emit emit_;
  std::vector<SpaceLayout> layouts_;
  std::vector<std::vector<Cell>> cells_;
  std::vector<std::string> reasons_;
  std::map<std::string, std::size_t> reason_index_;
};

}  // namespace

std::optional<std::string> sweep_map_refusal(const std::vector<io::ConfigSpace>& spaces,
                                             const analysis::TargetRequest& request) {
  const std::size_t archs = arch_count(request);
  std::uint64_t candidates = 0;
  for (const io::ConfigSpace& s : spaces) candidates += s.size();
  const std::uint64_t cells = candidates * archs;
  if (cells > kMaxMapCells)
    return fmt::format(
        "--format svg: the map would have {} cells ({} candidates x {} architecture{}): more than "
        "{}; "
        "narrow the alternatives, or use --format table, json or csv",
        cells, candidates, archs, archs == 1 ? "" : "s", kMaxMapCells);
  std::size_t panels = 0;
  for (const io::ConfigSpace& s : spaces) panels += layout_of(s, archs).panels(archs);
  if (panels > kMaxMapPanels)
    return fmt::format(
        "--format svg: the map would have {} panels (one per architecture and combination of the "
        "varying fields other than tile M and N): more than {}; narrow those alternatives, or use "
        "--format table, json or csv",
        panels, kMaxMapPanels);
  return std::nullopt;
}

std::unique_ptr<SweepWriter> make_sweep_map_writer(const std::vector<io::ConfigSpace>& spaces,
                                                   const analysis::TargetRequest& request,
                                                   SweepWriter::Emit emit) {
  return std::make_unique<MapWriter>(spaces, request, std::move(emit));
}

}  // namespace tilefit::report
