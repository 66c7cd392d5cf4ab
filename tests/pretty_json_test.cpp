// report::append_pretty_json writes exactly what nlohmann's dump(2, ' ', false, replace) writes:
// hand-picked values that take every path (plain strings, escapes, non-ASCII and bytes that are not
// UTF-8, numbers at their limits, floats, empty and nested containers, indentation), and the JSON
// document of `check` over every measured row, built as a tree and streamed.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/report/pretty_json.hpp"

namespace tilefit {
namespace {

using nlohmann::ordered_json;

std::string nlohmann_text(const ordered_json& j) {
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace);
}

std::string ours(const ordered_json& j, unsigned indent = 0) {
  std::string out;
  report::append_pretty_json(out, j, indent);
  return out;
}

/// dump(2)'s text with every line after the first indented by `by` (what an element inside an
/// enclosing document looks like).
std::string reindented(const std::string& text, unsigned by) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(by, ' ');
  }
  return out;
}

TEST(PrettyJson, EveryKindOfValueAsNlohmannWritesIt) {
  ordered_json j;
  j["plain"] = "CtaShape128x256x64B";
  j[""] = "empty key";
  j["quote \" and backslash \\"] = "a \"quoted\" \\ value";
  j["controls"] =
      std::string("tab\t nl\n cr\r bell\x07 nul") + std::string(1, '\0') + " esc\x1b del\x7f";
  j["utf8"] = "déjà vu — ×  U+202E:\u202e";
  j["not utf8"] = std::string("bad \xff\xfe byte \xc3");
  // One special byte per string: a string is written by hand only when all of it is plain.
  j["one each"] = ordered_json::array();
  for (int c = 0; c < 256; ++c)
    j["one each"].push_back(std::string("x") + static_cast<char>(c) + "y");
  j["ints"] = {0, -1, 1, std::numeric_limits<std::int64_t>::min(),
               std::numeric_limits<std::int64_t>::max()};
  j["unsigned"] = std::numeric_limits<std::uint64_t>::max();
  j["floats"] = {0.5, -0.0, 1e300, 3.0, 0.1, 123456789.125};
  j["bools"] = {true, false};
  j["null"] = nullptr;
  j["empty object"] = ordered_json::object();
  j["empty array"] = ordered_json::array();
  j["nested"] = {
      {"a", ordered_json::array({ordered_json::object(), ordered_json::array(), {{"b", {1, 2}}}})}};
  EXPECT_EQ(ours(j), nlohmann_text(j));
  for (unsigned by : {2u, 4u, 7u}) EXPECT_EQ(ours(j, by), reindented(nlohmann_text(j), by)) << by;
  for (const ordered_json& scalar :
       {ordered_json("x"), ordered_json(1), ordered_json(2.5), ordered_json(nullptr),
        ordered_json::array(), ordered_json::object()})
    EXPECT_EQ(ours(scalar, 4), nlohmann_text(scalar));
}

TEST(PrettyJson, TheCheckDocumentOfEveryMeasuredRow) {
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::builtin;
  std::size_t results = 0;
  for (const char* f :
       {"cutlass-4.7.jsonl", "measured-sm80.jsonl", "measured-sm100.jsonl",
        "measured-sm120-sm90.jsonl", "fp8-engines-cutlass-4.7.jsonl", "measured-fp8-engines.jsonl",
        "triton-3.6.jsonl", "measured-triton-3.6.jsonl"}) {
    nlohmann::json configs = nlohmann::json::array();
    for (const auto& row : test::load_rows(f)) configs.push_back(row.config);
    const analysis::CheckRun run =
        analysis::check_configs(io::load<io::LoadResult>(io::Source::text(configs.dump(), f)), req,
                                device::system_devices());
    const ordered_json doc = report::to_json(run);
    EXPECT_EQ(ours(doc), nlohmann_text(doc)) << f;
    // The streamed writer (one result at a time) gives the same bytes as the tree.
    std::string streamed;
    auto w = report::CheckWriter::make(report::Format::json, false, run,
                                       [&](std::string_view s) { streamed += s; });
    for (const auto& e : run.entries) w->entry(analysis::Entry(e));
    for (const auto& p : run.problems) w->problem(analysis::Problem(p));
    w->finish(analysis::tally(run));
    EXPECT_EQ(streamed, nlohmann_text(doc) + "\n") << f;
    results += run.entries.size();
  }
  EXPECT_GT(results, 2500u);
}

}  // namespace
}  // namespace tilefit

namespace tilefit::report {
namespace {

// The streamed strings are nlohmann's dump() of them, byte for byte: every ASCII byte at every
// position of an 8-byte word (the scan takes eight at a time), and UTF-8.
TEST(PrettyJsonStrings, EveryByteAsNlohmannWritesIt) {
  for (int c = 1; c < 0x80; ++c) {
    for (std::size_t at = 0; at < 19; ++at) {
      std::string s(19, 'a');
      s[at] = static_cast<char>(c);
      std::string out;
      append_json_string(out, s);
      EXPECT_EQ(out, nlohmann::ordered_json(s).dump()) << c << " at " << at;
    }
  }
  for (const std::string s : {"", "≥ 128", "a\"b\\c\n\x01\x7f", "tab\there", "\xC3\xA9t\xC3\xA9"}) {
    std::string out;
    append_json_string(out, s);
    EXPECT_EQ(out, nlohmann::ordered_json(s).dump()) << s;
  }
}

}  // namespace
}  // namespace tilefit::report
