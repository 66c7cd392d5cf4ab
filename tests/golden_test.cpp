// The golden cases: every tests/data/golden/*.case file is one run of the CLI, in-process on fake
// GPUs, that carries its own arguments, input, expected exit code, stdout and (when checked)
// stderr. The format and the update mode are in tests/data/README.md ("Golden cases").
//
// JSON output is compared structurally (both sides parsed; a failure names the first differing
// JSON pointer), everything else as text (a failure names the first differing line).
// TILEFIT_UPDATE_GOLDEN=1 rewrites the expected parts of every case from what the CLI does now and
// prints, per case, what changed.
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace tilefit {
namespace {

namespace fs = std::filesystem;

/// One case file, parsed. Sections are "## <name>" lines; `stdout` is always the last one and
/// runs to the end of the file byte for byte (so it may hold anything, "## " lines included).
struct GoldenCase {
  std::string path;
  std::string comment;  ///< the lines before the first section
  std::string args;     ///< one line, split as /bin/sh would (quotes, globs)
  std::string devices =
      "none";  ///< none, driver_error, or GPUs: h200, rtx5090, gb10 (comma-separated)
  std::optional<std::string> stdin_text;
  int exit_code = 0;
  std::optional<std::string> stderr_text;  ///< absent: stderr is not checked
  std::string stdout_text;
};

constexpr const char* kSections[] = {"args", "devices", "stdin", "exit", "stderr", "stdout"};

GoldenCase parse_case(const std::string& path) {
  GoldenCase c;
  c.path = path;
  const std::string text = test::read_file(path);
  std::string section;  // "" before the first header
  std::string body;
  auto close = [&] {
    if (section == "args") {
      c.args = body.substr(0, body.find('\n'));
    } else if (section == "devices") {
      c.devices = body.substr(0, body.find('\n'));
    } else if (section == "stdin") {
      c.stdin_text = body;
    } else if (section == "exit") {
      c.exit_code = std::stoi(body);
    } else if (section == "stderr") {
      c.stderr_text = body;
    } else if (section.empty()) {
      c.comment = body;
    }
    body.clear();
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::size_t next = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(at, next - at);
    std::string header;
    if (line.rfind("## ", 0) == 0) {
      const std::string name = line.substr(3, line.find_last_not_of("\r\n") - 2);
      if (std::find(std::begin(kSections), std::end(kSections), name) != std::end(kSections))
        header = name;
    }
    if (!header.empty()) {
      close();
      section = header;
      if (section == "stdout") {
        c.stdout_text = text.substr(next);
        return c;
      }
    } else {
      body += line;
    }
    at = next;
  }
  close();
  ADD_FAILURE() << path << ": no \"## stdout\" section";
  return c;
}

std::string render_case(const GoldenCase& c) {
  std::string s = c.comment;
  s += "## args\n" + c.args + "\n";
  if (c.devices != "none") s += "## devices\n" + c.devices + "\n";
  if (c.stdin_text) s += "## stdin\n" + *c.stdin_text;
  s += "## exit\n" + std::to_string(c.exit_code) + "\n";
  if (c.stderr_text) s += "## stderr\n" + *c.stderr_text;
  s += "## stdout\n" + c.stdout_text;
  return s;
}

/// The fake GPUs a case names.
std::unique_ptr<test::FakeDevices> devices_named(const std::string& spec) {
  if (spec == "none") return std::make_unique<test::FakeDevices>(test::FakeDevices::none());
  if (spec == "driver_error")
    return std::make_unique<test::FakeDevices>(test::FakeDevices::driver_error());
  std::vector<device::DeviceInfo> gpus;
  std::stringstream in(spec);
  std::string name;
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (name == "h200")
      gpus.push_back(test::fake_h200());
    else if (name == "rtx5090")
      gpus.push_back(test::fake_rtx5090());
    else if (name == "gb10")
      gpus.push_back(test::fake_gb10());
    else
      ADD_FAILURE() << "unknown fake GPU \"" << name
                    << "\" (h200, rtx5090, gb10, none, driver_error)";
  }
  return std::make_unique<test::FakeDevices>(std::move(gpus));
}

// ---- comparing -----------------------------------------------------------------------------------

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char ch : key)
    out += ch == '~' ? std::string("~0") : ch == '/' ? std::string("~1") : std::string(1, ch);
  return out;
}

/// Every JSON pointer at which `want` and `got` differ (a value, a type, a missing member or
/// element), in document order; at most `limit`.
void json_differences(const nlohmann::json& want, const nlohmann::json& got, const std::string& at,
                      std::vector<std::string>& out, std::size_t limit) {
  if (out.size() >= limit) return;
  if (want.type() != got.type()) {
    out.push_back((at.empty() ? "/" : at) + ": expected " + want.dump() + ", got " + got.dump());
    return;
  }
  if (want.is_object()) {
    for (const auto& [k, v] : want.items()) {
      if (!got.contains(k))
        out.push_back(at + "/" + pointer_token(k) + ": missing (expected " + v.dump() + ")");
      else
        json_differences(v, got.at(k), at + "/" + pointer_token(k), out, limit);
      if (out.size() >= limit) return;
    }
    for (const auto& [k, v] : got.items())
      if (!want.contains(k) && out.size() < limit)
        out.push_back(at + "/" + pointer_token(k) + ": unexpected (got " + v.dump() + ")");
    return;
  }
  if (want.is_array()) {
    const std::size_t n = std::min(want.size(), got.size());
    for (std::size_t i = 0; i < n && out.size() < limit; ++i)
      json_differences(want[i], got[i], at + "/" + std::to_string(i), out, limit);
    if (want.size() != got.size() && out.size() < limit)
      out.push_back(at + "/" + std::to_string(n) + ": " + std::to_string(want.size()) +
                    " elements expected, " + std::to_string(got.size()) + " got");
    return;
  }
  if (want != got)
    out.push_back((at.empty() ? "/" : at) + ": expected " + want.dump() + ", got " + got.dump());
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t end = s.find('\n', at);
    out.push_back(s.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end == std::string::npos ? s.size() : end + 1;
  }
  return out;
}

/// A unified-ish diff: the lines between the common head and the common tail, "-" expected,
/// "+" got, with the line number where they start; empty when equal.
std::string text_diff(const std::string& want, const std::string& got) {
  if (want == got) return "";
  const auto a = lines_of(want), b = lines_of(got);
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  std::size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  std::string out = "@@ line " + std::to_string(head + 1) + " @@\n";
  for (std::size_t i = head; i < a.size() - tail; ++i) out += "-" + a[i] + "\n";
  for (std::size_t i = head; i < b.size() - tail; ++i) out += "+" + b[i] + "\n";
  if (a == b) out += "(the same lines; the final newline differs)\n";
  return out;
}

/// JSON when the expected output parses as JSON (an object or an array).
std::optional<nlohmann::json> as_json(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

/// What differs between the expected and the actual stdout: JSON pointers for JSON, a diff
/// otherwise; empty when they agree.
std::string stdout_difference(const std::string& want, const std::string& got, std::size_t limit) {
  if (const auto w = as_json(want)) {
    const nlohmann::json g = nlohmann::json::parse(got, nullptr, false);
    if (g.is_discarded()) return "stdout is not JSON any more:\n" + text_diff(want, got);
    std::vector<std::string> diffs;
    json_differences(*w, g, "", diffs, limit);
    std::string out;
    for (const std::string& d : diffs) out += "  " + d + "\n";
    return out;
  }
  return text_diff(want, got);
}

// ---- the driver ----------------------------------------------------------------------------------

std::vector<std::string> case_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(test::data_path("golden")))
    if (e.path().extension() == ".case") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

test::CliRun run_case(const GoldenCase& c) {
  const auto gpus = devices_named(c.devices);
  test::RunOptions o;
  o.devices = gpus.get();
  if (c.stdin_text) o.stdin_text = *c.stdin_text;
  return test::run_command(c.args, o);
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, Case) {
  GoldenCase c = parse_case(GetParam());
  const test::CliRun r = run_case(c);
  const std::string name = fs::path(c.path).filename().string();

  if (std::getenv("TILEFIT_UPDATE_GOLDEN") != nullptr) {
    std::string changed;
    if (r.exit_code != c.exit_code)
      changed +=
          "exit: " + std::to_string(c.exit_code) + " -> " + std::to_string(r.exit_code) + "\n";
    if (c.stderr_text && *c.stderr_text != r.err)
      changed += "stderr:\n" + text_diff(*c.stderr_text, r.err);
    if (const std::string d = stdout_difference(c.stdout_text, r.out, 1000);
        !d.empty() || c.stdout_text != r.out)
      changed +=
          "stdout:\n" + (d.empty() ? std::string("  (the same JSON; the text differs)\n") : d);
    if (changed.empty()) return;
    c.exit_code = r.exit_code;
    if (c.stderr_text) c.stderr_text = r.err;
    c.stdout_text = r.out;
    std::ofstream(c.path, std::ios::binary) << render_case(c);
    std::cout << "golden " << name << " updated:\n" << changed;
    return;
  }

  EXPECT_EQ(r.exit_code, c.exit_code) << name << " (tilefit " << c.args << "); stderr: " << r.err;
  if (c.stderr_text) {
    EXPECT_EQ(r.err, *c.stderr_text) << name << ": stderr differs:\n"
                                     << text_diff(*c.stderr_text, r.err);
  }
  const std::string d = stdout_difference(c.stdout_text, r.out, 1);
  EXPECT_TRUE(d.empty())
      << name << " (tilefit " << c.args << "): stdout differs "
      << (as_json(c.stdout_text) ? "at the first differing JSON pointer" : "")
      << " (TILEFIT_UPDATE_GOLDEN=1 rewrites the case and prints what changed):\n"
      << d;
}

std::string case_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = fs::path(info.param).stem().string();
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(case_files()), case_name);

// ---- the driver's own parts ------------------------------------------------------------------------

TEST(GoldenFormat, SectionsRoundTrip) {
  const std::string path =
      ::testing::TempDir() + "tilefit_roundtrip_" + std::to_string(::getpid()) + ".case";
  const std::string text =
      "# a comment\n## args\ncheck - --arch sm_90\n## devices\nh200,rtx5090\n## stdin\n[1,\n2]\n## "
      "exit\n1\n"
      "## stderr\nerror: x\n## stdout\n## not a section inside stdout\nlast line without newline";
  std::ofstream(path, std::ios::binary) << text;
  const GoldenCase c = parse_case(path);
  EXPECT_EQ(c.comment, "# a comment\n");
  EXPECT_EQ(c.args, "check - --arch sm_90");
  EXPECT_EQ(c.devices, "h200,rtx5090");
  EXPECT_EQ(c.stdin_text, "[1,\n2]\n");
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(c.stderr_text, "error: x\n");
  EXPECT_EQ(c.stdout_text, "## not a section inside stdout\nlast line without newline");
  EXPECT_EQ(render_case(c), text);
  std::remove(path.c_str());
}

TEST(GoldenFormat, JsonIsComparedStructurallyAndNamesThePointer) {
  // Key order and layout do not matter; a value does, and the first pointer is named.
  EXPECT_EQ(stdout_difference("{\"a\": 1, \"b\": [1, 2]}\n", "{\"b\":[1,2],\"a\":1}", 1), "");
  EXPECT_EQ(stdout_difference("{\"a\": 1, \"b\": [1, 2]}", "{\"a\": 1, \"b\": [1, 3]}", 1),
            "  /b/1: expected 2, got 3\n");
  EXPECT_EQ(stdout_difference("{\"a/b\": {\"c\": 1}}", "{\"a/b\": {}}", 1),
            "  /a~1b/c: missing (expected 1)\n");
  EXPECT_EQ(stdout_difference("[1]", "[1, 2]", 1), "  /1: 1 elements expected, 2 got\n");
  EXPECT_EQ(stdout_difference("{\"a\": 1}", "{\"a\": \"1\"}", 1), "  /a: expected 1, got \"1\"\n");
}

TEST(GoldenFormat, TextDiffShowsTheChangedLines) {
  EXPECT_EQ(text_diff("a\nb\nc\n", "a\nB\nc\n"), "@@ line 2 @@\n-b\n+B\n");
  EXPECT_EQ(text_diff("a\n", "a\n"), "");
  EXPECT_EQ(text_diff("a\nb\n", "a\n"), "@@ line 2 @@\n-b\n");
}

TEST(GoldenFormat, ArgumentsSplitAsTheShellDoes) {
  EXPECT_EQ(test::split_command_line("check 'a b.json' \"c\\\"d\" e\\ f --arch sm_90"),
            (std::vector<std::string>{"check", "a b.json", "c\"d", "e f", "--arch", "sm_90"}));
  const auto globbed = test::split_command_line("check configs/sm120_moe_*.json");
  EXPECT_EQ(globbed, (std::vector<std::string>{"check", "configs/sm120_moe_finalize.json",
                                               "configs/sm120_moe_fp4.json"}));
  EXPECT_EQ(test::split_command_line("check 'configs/*.json'"),
            (std::vector<std::string>{"check", "configs/*.json"}));
}

TEST(GoldenFormat, EveryCaseIsFound) { EXPECT_GE(case_files().size(), 10u); }

}  // namespace
}  // namespace tilefit
