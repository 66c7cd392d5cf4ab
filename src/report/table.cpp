#include "report/table.hpp"

#include <algorithm>

#include "report/text.hpp"
#include "io/text_checks.hpp"

namespace tilefit::report {
namespace {

/// Plain ASCII with no control character: shown as it is, one column a byte.
bool plain(std::string_view s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) return false;
  return true;
}

/// Text under a row: plain but for its line breaks.
bool plain_lines(std::string_view s) {
  for (const char c : s)
    if (c != '\n' &&
        (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F))
      return false;
  return true;
}

}  // namespace

Table::Table(std::vector<Column> columns, bool header)
    : columns_(std::move(columns)), header_(header) {}

void Table::add_row(std::vector<std::string> cells, std::string after) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
  after_.push_back(std::move(after));
}

std::string Table::line(const std::vector<std::string>& cells,
                        const std::vector<std::size_t>& width) const {
  std::string out;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (c) out.append(columns_[c].gap, ' ');
    const bool as_is = plain(cells[c]);
    const std::string shown = as_is ? std::string() : io::detail::printable(cells[c]);
    const std::string& cell = as_is ? cells[c] : shown;
    const std::size_t w = as_is ? cell.size() : display_width(cell);
    const std::size_t pad = width[c] > w ? width[c] - w : 0;
    if (columns_[c].align == Align::right) out.append(pad, ' ');
    out += cell;
    if (columns_[c].align == Align::left) out.append(pad, ' ');
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + "\n";
}

std::string Table::after_text(const std::string& after) {
  return plain_lines(after) ? after : io::detail::printable(after, /*keep_newlines=*/true);
}

std::vector<std::size_t> Table::widths() const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = std::max(columns_[c].min_width, header_ ? columns_[c].head.size() : 0);
    for (const auto& row : rows_)
      width[c] = std::max(
          width[c], plain(row[c]) ? row[c].size() : display_width(io::detail::printable(row[c])));
  }
  return width;
}

std::string Table::render() const {
  if (rows_.empty()) return "";
  const std::vector<std::size_t> width = widths();
  std::string out;
  if (header_) {
    std::vector<std::string> heads;
    for (const Column& c : columns_) heads.push_back(c.head);
    out += line(heads, width);
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    out += line(rows_[i], width);
    out += after_text(after_[i]);
  }
  return out;
}

namespace {

/// A Markdown table cell: `|` escaped, line breaks as spaces, control and bidi characters shown.
std::string md_cell(const std::string& raw) {
  const std::string s = plain(raw) ? raw : io::detail::printable(raw);
  std::string out;
  for (const char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string Table::markdown_head() const {
  std::string out = "|";
  for (const Column& c : columns_) out.append(" ").append(md_cell(c.head)).append(" |");
  out += "\n|";
  for (const Column& c : columns_) out += c.align == Align::right ? "---:|" : "---|";
  return out + "\n";
}

std::string Table::markdown_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& cell : cells) out.append(" ").append(md_cell(cell)).append(" |");
  return out + "\n";
}

std::string Table::render_markdown() const {
  std::string out = markdown_head();
  for (const auto& row : rows_) out += markdown_row(row);
  return out;
}

std::string Table::head_line(const std::vector<std::size_t>& widths) const {
  std::vector<std::string> heads;
  for (const Column& c : columns_) heads.push_back(c.head);
  return line(heads, widths);
}

}  // namespace tilefit::report
