#include "tilefit/report/csv.hpp"

#include <string>
#include <vector>

#include "report/result_columns.hpp"
#include "tilefit/io/config_writer.hpp"

namespace tilefit::report {

std::string_view csv_header() {
  static const std::string header = [] {
    std::string h;
    for (const std::string_view k : kCsvKeys) {
      if (!h.empty()) h += ',';
      h += find_column(result_columns(), k)->csv;
    }
    return h + "\n";
  }();
  return header;
}

void append_csv_row(std::string& out, const analysis::Entry& e) {
  append_csv_row(out, e, io::config_json_csv(e.config), /*quoted=*/true);
}

void append_csv_row(std::string& out, const analysis::Entry& e, std::string_view config,
                    bool quoted) {
  // The columns, looked up once.
  static const std::vector<const ResultColumn*> columns = [] {
    std::vector<const ResultColumn*> cols;
    for (const std::string_view k : kCsvKeys) cols.push_back(find_column(result_columns(), k));
    return cols;
  }();
  CsvCell<analysis::Entry> cell{out, e, config, quoted};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) out += ',';
    columns[c]->csv_field(cell);
  }
  out += '\n';
}

}  // namespace tilefit::report
