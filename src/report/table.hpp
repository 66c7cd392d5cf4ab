// The one table builder of every text report (check, device, probe, archs): a column model
// rendered column-aligned, trailing spaces trimmed. Cells and the text under rows are shown
// printable (report/text.hpp: control and bidi characters escaped) and aligned by the columns a
// terminal gives them, not by bytes. Sample (tilefit check):
//
//   NAME                     KERNEL             ARCH    TILE         STAGES  MAX  SMEM / LIMIT (B)
//   moe_CtaShape128x128x64B  sm120_blockscaled  sm_120  128x128x128  4 auto    4    89088 / 101376
//       - a line placed under its row ("after" text)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tilefit::report {

class Table {
 public:
  enum class Align { left, right };
  struct Column {
    std::string head;
    Align align = Align::left;
    std::size_t min_width = 0;  ///< width even when every cell is narrower
    std::size_t gap = 2;        ///< spaces before the column (ignored for the first)
  };

  /// `header`: print the heads as the first line (only when there is at least one row).
  explicit Table(std::vector<Column> columns, bool header = true);

  /// A row of one cell per column; `after` is printed verbatim under it (lines ending in '\n').
  void add_row(std::vector<std::string> cells, std::string after = "");
  bool empty() const { return rows_.empty(); }
  std::size_t size() const { return rows_.size(); }
  /// Drops the rows (the columns stay).
  void clear() {
    rows_.clear();
    after_.clear();
  }
  /// The widths render() gives the columns of the rows held.
  std::vector<std::size_t> widths() const;

  std::string render() const;
  /// The same table as GitHub Markdown (| a | b |, right-aligned columns as ---:), cells escaped;
  /// `after` texts are not part of it.
  std::string render_markdown() const;

  /// For output that streams (sweep): the head and one row at fixed `widths` (one per column),
  /// without holding rows.
  std::string head_line(const std::vector<std::size_t>& widths) const;
  std::string row_line(const std::vector<std::string>& cells,
                       const std::vector<std::size_t>& widths) const {
    return line(cells, widths);
  }
  /// Text under a row as render() prints it (control and bidi characters shown).
  static std::string after_text(const std::string& after);
  /// One Markdown row.
  static std::string markdown_row(const std::vector<std::string>& cells);
  /// The Markdown head and separator of these columns.
  std::string markdown_head() const;

 private:
  std::string line(const std::vector<std::string>& cells,
                   const std::vector<std::size_t>& width) const;

  std::vector<Column> columns_;
  bool header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> after_;
};

}  // namespace tilefit::report
