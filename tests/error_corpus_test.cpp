// The error corpus (tests/data/errors/, see tests/data/README.md): every `<name>.json` has a
// `<name>.expected` with the exact error lines. Each file is checked three ways:
//   * in process: load<LoadResult>(Source::file()) + format_error(), line for line;
//   * `tilefit check <file> --arch sm120`: exit code 2 and every expected line on stderr;
//   * `--format json`: the `errors` array carries the same lines in `text`.
// Inputs that are unreliable as committed files (binary, UTF-16/32, a directory, an unreadable
// or missing file, a file over the size limit) are generated at run time below.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tilefit/io/load.hpp"

namespace tilefit::io {
namespace {

namespace fs = std::filesystem;

/// Where the corpus lives, and how its files are named in expected lines (the path from the
/// source directory, as `tilefit check tests/data/errors/x.json` run there prints it).
const std::string kCorpusDir = test::data_path("errors");
const std::string kCorpusLabel = "tests/data/errors/";

std::vector<std::string> corpus_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kCorpusDir))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// The errors of `path` as formatted lines, with the absolute corpus directory replaced by
/// its label (errors name the file exactly as it was given).
std::vector<std::string> formatted_errors(const LoadResult& r, const std::string& from,
                                          const std::string& to) {
  std::vector<std::string> out;
  for (const ConfigError& e : r.errors) {
    std::string line = format_error(e);
    if (line.compare(0, from.size(), from) == 0) line = to + line.substr(from.size());
    out.push_back(line);
  }
  return out;
}

class ErrorCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(ErrorCorpus, InProcess) {
  const std::string name = GetParam();
  const std::string path = kCorpusDir + "/" + name + ".json";
  const std::vector<std::string> want =
      lines_of(test::read_file(kCorpusDir + "/" + name + ".expected"));
  ASSERT_FALSE(want.empty()) << name << ".expected is missing or empty";
  const LoadResult r = load<LoadResult>(Source::file(path));
  EXPECT_EQ(formatted_errors(r, kCorpusDir + "/", kCorpusLabel), want);
  // Nothing lost: when the file is valid JSON with a configs array, every config is either
  // returned or named by an error.
  const std::string text = test::read_file(path);
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  const nlohmann::json* arr = doc.is_array()                               ? &doc
                              : doc.is_object() && doc.contains("configs") ? &doc["configs"]
                                                                           : nullptr;
  if (arr && arr->is_array()) {
    std::set<int> seen;
    for (const LoadedConfig& c : r.configs) seen.insert(c.index);
    for (const ConfigError& e : r.errors)
      if (e.index >= 0) seen.insert(e.index);
    const bool whole_file_refused =
        !r.errors.empty() && r.errors.front().index < 0 && r.configs.empty() && seen.empty();
    if (!whole_file_refused) {
      EXPECT_EQ(seen.size(), arr->size()) << name;
    }
  }
}

TEST_P(ErrorCorpus, CliTableAndJson) {
  const std::string name = GetParam();
  const std::string rel = kCorpusLabel + name + ".json";
  const std::vector<std::string> want =
      lines_of(test::read_file(kCorpusDir + "/" + name + ".expected"));
  const test::CliRun table = test::run_command("check '" + rel + "' --arch sm120");
  EXPECT_EQ(table.exit_code, 2) << table.err;
  for (const std::string& line : want)
    EXPECT_NE(table.err.find(line + "\n"), std::string::npos)
        << "missing on stderr: " << line << "\n"
        << table.err;

  const test::CliRun json = test::run_command("check '" + rel + "' --arch sm120 --format json");
  EXPECT_EQ(json.exit_code, 2) << json.err;
  const nlohmann::json doc = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(doc.is_object() && doc.contains("errors")) << json.out;
  std::vector<std::string> got;
  for (const auto& e : doc["errors"]) got.push_back(e.value("text", ""));
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(Files, ErrorCorpus, ::testing::ValuesIn(corpus_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(ErrorCorpusFiles, AtLeastFortyAndEachHasItsExpectation) {
  const std::vector<std::string> names = corpus_names();
  EXPECT_GE(names.size(), 40u);
  for (const auto& entry : fs::directory_iterator(kCorpusDir)) {
    const fs::path p = entry.path();
    if (p.extension() == ".json")
      EXPECT_TRUE(fs::exists(fs::path(p).replace_extension(".expected"))) << p;
    else if (p.extension() == ".expected")
      EXPECT_TRUE(fs::exists(fs::path(p).replace_extension(".json"))) << p;
    else
      ADD_FAILURE() << "unexpected file in the corpus: " << p;
  }
}

/// A scratch directory for the generated inputs, removed afterwards.
class GeneratedInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilefit_errors_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_ / "unreadable.json", fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  /// The single error line of `path`, or every line joined when there is not exactly one.
  static std::string error_of(const std::string& path) {
    const LoadResult r = load<LoadResult>(Source::file(path));
    EXPECT_TRUE(r.configs.empty()) << path;
    std::string out;
    for (const ConfigError& e : r.errors) {
      if (!out.empty()) out += '\n';
      out += format_error(e);
    }
    return out;
  }
  fs::path dir_;
};

/// `text` as UTF-16 (ASCII only) in the given byte order, optionally with a byte-order mark.
std::string utf16(const std::string& text, bool little, bool bom) {
  std::string out = bom ? (little ? std::string("\xFF\xFE", 2) : std::string("\xFE\xFF", 2)) : "";
  for (char c : text) {
    out += little ? std::string{c, '\0'} : std::string{'\0', c};
  }
  return out;
}

TEST_F(GeneratedInputs, Binary) {
  const std::string p = write("binary.json", std::string("\x7F"
                                                         "ELF\x02\x01\x01\x00\x00\x00",
                                                         10));
  EXPECT_EQ(error_of(p),
            p + ": not JSON: binary data (a NUL byte at offset 7); tilefit reads UTF-8 JSON text");
  const std::string png = write("image.json", "\x89PNG\r\n\x1A\n");
  EXPECT_EQ(
      error_of(png),
      png + ": not JSON: syntax error at line 1, column 1: invalid literal; last read: '<0x89>'");
}

TEST_F(GeneratedInputs, Utf16And32) {
  const std::string doc = "{\"configs\": [{\"tile\": [128, 128, 128]}]}\n";
  const std::string msg =
      ": file is UTF-16; tilefit reads UTF-8 JSON (convert it with: iconv -f UTF-16 -t UTF-8)";
  for (bool little : {true, false}) {
    for (bool bom : {true, false}) {
      const std::string p = write("utf16.json", utf16(doc, little, bom));
      EXPECT_EQ(error_of(p), p + msg) << little << bom;
    }
  }
  std::string u32 = std::string("\xFF\xFE\0\0", 4);
  for (char c : doc) u32 += std::string{c, '\0', '\0', '\0'};
  const std::string p = write("utf32.json", u32);
  EXPECT_EQ(
      error_of(p),
      p + ": file is UTF-32; tilefit reads UTF-8 JSON (convert it with: iconv -f UTF-32 -t UTF-8)");
  // A UTF-8 byte-order mark is fine.
  const LoadResult ok = load<LoadResult>(Source::file(write("bom.json", "\xEF\xBB\xBF" + doc)));
  EXPECT_TRUE(ok.errors.empty());
  EXPECT_EQ(ok.configs.size(), 1u);
}

TEST_F(GeneratedInputs, Directory) {
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": is a directory, not a config file");
}

TEST_F(GeneratedInputs, Missing) {
  const std::string missing = (dir_ / "missing.json").string();
  EXPECT_EQ(error_of(missing), missing + ": cannot open: No such file or directory");
}

TEST_F(GeneratedInputs, Unreadable) {
  const std::string locked = write("unreadable.json", "[]");
  fs::permissions(locked, fs::perms::none);
  // Root reads through permissions (checked by hand as uid 65534 with setpriv: same message).
  if (::access(locked.c_str(), R_OK) == 0)
    GTEST_SKIP() << "running as root: permissions do not stop reading";
  EXPECT_EQ(error_of(locked), locked + ": cannot open: Permission denied");
}

TEST_F(GeneratedInputs, OverTheSizeLimitIsRefusedUnread) {
  // A sparse file one byte over the limit: refused from its size, never read.
  const std::string p = write("huge.json", "");
  fs::resize_file(p, kMaxConfigFileBytes + 1);
  EXPECT_EQ(error_of(p),
            p + ": file too large: 67108865 bytes; the limit is 67108864 bytes (64 MiB); "
                "split the configs into several files");
  fs::resize_file(p, 0);
}

TEST_F(GeneratedInputs, CliExitCodeForUnreadableInputs) {
  write("README", "not a table");
  const std::string missing = (dir_ / "missing.json").string();
  const test::CliRun r =
      test::run_command("check '" + missing + "' '" + dir_.string() + "' --arch sm120");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(missing + ": cannot open: No such file or directory"), std::string::npos)
      << r.err;
  // check reads a folder (the JSON files under it; here a README, counted in a note); the
  // commands without folders still refuse a directory as a file.
  EXPECT_NE(r.err.find("note: " + dir_.string() + ": skipped 1 file that is not JSON"),
            std::string::npos)
      << r.err;
  const test::CliRun s = test::run_command("sweep '" + dir_.string() + "' --arch sm120");
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find(dir_.string() + ": is a directory, not a config file"), std::string::npos)
      << s.err;
}

}  // namespace
}  // namespace tilefit::io
