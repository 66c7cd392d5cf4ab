#include "tilefit/report/sweep_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/buffered.hpp"
#include "report/result_columns.hpp"
#include "report/table.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/json.hpp"
#include "tilefit/report/sweep_map_svg.hpp"

namespace tilefit::report {
namespace {

using analysis::Entry;

/// The varying fields across all spaces, in first-seen order.
std::vector<std::string> axis_fields(const std::vector<io::ConfigSpace>& spaces) {
  std::vector<std::string> out;
  for (const io::ConfigSpace& s : spaces)
    for (const io::ConfigSpace::Axis& a : s.axes())
      if (std::find(out.begin(), out.end(), a.field) == out.end()) out.push_back(a.field);
  return out;
}

/// The value each varying field takes in candidate `i` of `s` ("-" when `s` does not vary it).
std::vector<std::string> axis_cells(const std::vector<std::string>& fields,
                                    const io::ConfigSpace& s, std::uint64_t i) {
  std::vector<std::string> out(fields.size(), "-");
  const std::vector<std::size_t> choice = s.choice(i);
  for (std::size_t a = 0; a < s.axes().size(); ++a) {
    const auto it = std::find(fields.begin(), fields.end(), s.axes()[a].field);
    const std::string& v = s.axes()[a].shown[choice[a]];
    // A JSON string shows without its quotes ("auto" -> auto); everything else as written.
    out[static_cast<std::size_t>(it - fields.begin())] =
        v.size() >= 2 && v.front() == '"' && v.find('"', 1) == v.size() - 1
            ? v.substr(1, v.size() - 2)
            : v;
  }
  return out;
}

/// Table and Markdown: one row per listed candidate (one per candidate per architecture when there
/// is one target; one column per architecture when there are several).
class TextWriter final : public SweepWriter {
 public:
  TextWriter(bool markdown, const std::vector<io::ConfigSpace>& spaces,
             const analysis::TargetRequest& req, Emit emit)
      : markdown_(markdown),
        out_(std::move(emit)),
        fields_(axis_fields(spaces)),
        matrix_(req.mode == analysis::TargetRequest::Mode::arch && req.archs.size() > 1),
        table_(columns(req)) {
    // Widths that hold every value these spaces can produce.
    widths_.assign(cols_, 0);
    std::size_t name_w = 4;
    for (const io::ConfigSpace& s : spaces) {
      const std::size_t digits = s.size() > 1 ? std::to_string(s.size() - 1).size() + 1 : 0;
      name_w = std::max(name_w, s.name.size() + digits);
      for (const io::ConfigSpace::Axis& a : s.axes()) {
        const auto it = std::find(fields_.begin(), fields_.end(), a.field);
        std::size_t& w = widths_[1 + static_cast<std::size_t>(it - fields_.begin())];
        for (const std::string& v : a.shown) w = std::max(w, v.size());
      }
    }
    widths_[0] = name_w;
    for (std::size_t c = 1; c <= fields_.size(); ++c)
      widths_[c] = std::max(widths_[c], fields_[c - 1].size());
    if (matrix_) {
      for (std::size_t c = 1 + fields_.size(); c < cols_; ++c)
        widths_[c] = std::string("DOES NOT FIT (4096)").size();
    } else {
      // kSweepTableKeys: ARCH, KERNEL, STAGES, MAX, SMEM / LIMIT (B), HEADROOM, CTAs/SM, VERDICT
      const std::size_t fixed[] = {6, 17, 9, 4, 17, 8, 7, 12};
      static_assert(std::size(fixed) == std::size(kSweepTableKeys));
      for (std::size_t j = 0; j < std::size(fixed); ++j) widths_[1 + fields_.size() + j] = fixed[j];
    }
    out_.buf() += markdown_ ? table_.markdown_head() : table_.head_line(widths_);
  }

  void result(const io::ConfigSpace& space, std::uint64_t i,
              std::span<const Entry> entries) override {
    if (matrix_) {
      std::vector<std::string> row{entries.front().result.name};
      for (std::string& v : axis_cells(fields_, space, i)) row.push_back(std::move(v));
      for (const Entry& e : entries) row.push_back(matrix_cell(e));
      write(row);
      return;
    }
    for (const Entry& e : entries) {
      std::vector<std::string> row{e.result.name};
      for (std::string& v : axis_cells(fields_, space, i)) row.push_back(std::move(v));
      for (std::string& v : result_cells(e, kSweepTableKeys)) row.push_back(std::move(v));
      write(row);
    }
  }

  void finish(const analysis::SweepTally& t,
              const std::vector<analysis::Problem>& problems) override {
    out_.buf() += "\n";
    out_.buf() += sweep_summary(t, problems.size());
    out_.flush();
  }

 private:
  std::vector<Table::Column> columns(const analysis::TargetRequest& req) {
    using A = Table::Align;
    std::vector<Table::Column> c{{markdown_ ? "name" : "NAME", A::left}};
    // The varying fields keep their config spelling (lower case); the result columns are upper case.
    for (const std::string& f : fields_) c.push_back({f, A::left});
    if (matrix_) {
      for (int sm : req.archs) c.push_back({model::arch_name(sm), A::left});
    } else {
      for (Table::Column& rc : table_columns(result_columns(), kSweepTableKeys, markdown_))
        c.push_back(std::move(rc));
    }
    cols_ = c.size();
    return c;
  }

  void write(const std::vector<std::string>& row) {
    out_.buf() += markdown_ ? Table::markdown_row(row) : table_.row_line(row, widths_);
    out_.maybe_flush();
  }

  bool markdown_;
  Buffered out_;
  std::vector<std::string> fields_;
  bool matrix_;
  std::size_t cols_ = 0;
  Table table_;
  std::vector<std::size_t> widths_;
};

class CsvWriter final : public SweepWriter {
 public:
  explicit CsvWriter(Emit emit) : out_(std::move(emit)) { out_.buf() += csv_header(); }
  void result(const io::ConfigSpace&, std::uint64_t, std::span<const Entry> entries) override {
    for (const Entry& e : entries) append_csv_row(out_.buf(), e);
    out_.maybe_flush();
  }
  void finish(const analysis::SweepTally&, const std::vector<analysis::Problem>&) override {
    out_.flush();
  }

 private:
  Buffered out_;
};

class JsonWriter final : public SweepWriter {
 public:
  JsonWriter(const analysis::TargetRequest& req, Emit emit) : out_(std::move(emit)) {
    nlohmann::ordered_json target;
    target["mode"] = std::string(analysis::mode_name(req.mode));
    if (req.mode == analysis::TargetRequest::Mode::arch) {
      nlohmann::ordered_json archs = nlohmann::ordered_json::array();
      for (int sm : req.archs) archs.push_back(model::arch_name(sm));
      target["archs"] = std::move(archs);
    }
    out_.buf() += fmt::format(
        "{{\"schema_version\": {}, \"tool\": \"tilefit\", \"command\": \"sweep\", "
        "\"target\": {}, \"results\": [",
        kSchemaVersion, target.dump());
  }

  void result(const io::ConfigSpace& space, std::uint64_t i,
              std::span<const Entry> entries) override {
    const std::vector<std::size_t> choice = space.choice(i);
    for (const Entry& e : entries) {
      // A check result's columns, then the sweep's (alternatives, config), as dump() writes them.
      std::string obj;
      emit::JsonText o(obj, 0, /*pretty=*/false);
      o.begin_object();
      write_members(o, result_columns(), e);
      write_members(o, sweep_columns(), SweepRow{e, space, choice});
      o.end();
      out_.buf() += first_ ? "\n  " : ",\n  ";
      first_ = false;
      out_.buf() += obj;
    }
    out_.maybe_flush();
  }

  void finish(const analysis::SweepTally& t,
              const std::vector<analysis::Problem>& problems) override {
    nlohmann::ordered_json errors = nlohmann::ordered_json::array();
    for (const analysis::Problem& p : problems) errors.push_back(problem_json(p));
    nlohmann::ordered_json summary{
        {"candidates", t.candidates}, {"fits", t.fits},     {"does_not_fit", t.does_not_fit},
        {"invalid", t.invalid},       {"listed", t.listed}, {"errors", problems.size()}};
    out_.buf() +=
        fmt::format("\n], \"errors\": {}, \"summary\": {}}}\n", errors.dump(), summary.dump());
    out_.flush();
  }

 private:
  Buffered out_;
  bool first_ = true;
};

}  // namespace

std::string sweep_summary(const analysis::SweepTally& t, std::size_t errors) {
  std::string out =
      fmt::format("{} candidate{}: {} fit, {} do not fit, {} invalid; {} listed", t.candidates,
                  t.candidates == 1 ? "" : "s", t.fits, t.does_not_fit, t.invalid, t.listed);
  if (errors) out += fmt::format("; {} error{}", errors, errors == 1 ? "" : "s");
  return out + "\n";
}

std::unique_ptr<SweepWriter> SweepWriter::make(Format format,
                                               const std::vector<io::ConfigSpace>& spaces,
                                               const analysis::TargetRequest& request, Emit emit) {
  switch (format) {
    case Format::csv:
      return std::make_unique<CsvWriter>(std::move(emit));
    case Format::json:
      return std::make_unique<JsonWriter>(request, std::move(emit));
    case Format::svg:
      return make_sweep_map_writer(spaces, request, std::move(emit));
    case Format::markdown:
      return std::make_unique<TextWriter>(true, spaces, request, std::move(emit));
    case Format::table:
      break;
  }
  return std::make_unique<TextWriter>(false, spaces, request, std::move(emit));
}

}  // namespace tilefit::report
