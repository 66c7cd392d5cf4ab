// Issue 18's defects, each as a user met it, run in-process through cli::run (one through the
// real binary, where a closed pipe is the point): errors on stderr in every format,
// paths that are not UTF-8, streamed check output, --arch '', a single config object, and the
// papercuts.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/report/check_report.hpp"

namespace tilefit {
namespace {

using test::run_in_process;

/// A file in the temporary folder holding `text`; removed by the destructor.
struct TempFile {
  explicit TempFile(const std::string& name, const std::string& text)
      : path(std::string(::testing::TempDir()) + name) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

const char* kFinalize =
    R"({"arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})";

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// ---- 1. errors on stderr, one line each, whatever the format --------------------------------

TEST(RoughEdges, JsonModeStillWritesErrorsToStderr) {
  for (const char* cmd : {"check", "sweep", "suggest"}) {
    const auto r = run_in_process({cmd, "nope.json", "--builtin", "--format", "json"});
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_EQ(r.err, "error: nope.json: cannot open: No such file or directory\n")
        << cmd << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);  // and inside the JSON
    ASSERT_EQ(j["errors"].size(), 1u) << cmd;
    EXPECT_EQ(j["errors"][0]["text"], "nope.json: cannot open: No such file or directory");
  }
  const auto csv = run_in_process({"check", "nope.json", "--builtin", "--format", "csv"});
  EXPECT_EQ(csv.err, "error: nope.json: cannot open: No such file or directory\n");
}

// ---- 2. a path that is not UTF-8 -------------------------------------------------------------

TEST(RoughEdges, PathThatIsNotUtf8IsEscapedNeverACrash) {
  const TempFile good("good_cfg.json", std::string("[") + kFinalize + "]");
  const std::string bad = std::string(::testing::TempDir()) + "bad\xff\xfe.json";
  { std::ofstream(bad, std::ios::binary) << "[" << kFinalize << "]"; }
  const auto r = run_in_process({"check", good.path, bad, "--builtin", "--format", "json"});
  std::remove(bad.c_str());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // both analysed: the FINALIZE tile does not fit
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][1]["file"], std::string(::testing::TempDir()) + "bad<0xFF><0xFE>.json");
  EXPECT_NE(
      r.err.find(
          "warning: " + std::string(::testing::TempDir()) +
          "bad<0xFF><0xFE>.json: the path is not printable UTF-8; it is named with <0xXX> escapes"),
      std::string::npos)
      << r.err;
}

// ---- 3. check streams: bounded memory, the same bytes as before -------------------------------

analysis::CheckRun run_of(const std::string& text, const analysis::TargetRequest& req) {
  return analysis::check_configs(io::load<io::LoadResult>(io::Source::text(text, "x.json")), req,
                                 device::system_devices());
}

TEST(RoughEdges, StreamedJsonIsByteForByteTheDocument) {
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::builtin;
  const analysis::CheckRun run =
      run_of(std::string("[") + kFinalize + R"(, {"name": "no_arch", "tile": [128,128,64]},
      {"arch": "sm_90", "dtype": "bf16", "tile": [128, 256, 64]}])",
             req);
  ASSERT_EQ(run.entries.size(), 2u);
  ASSERT_EQ(run.problems.size(), 1u);
  std::string text;
  auto w = report::CheckWriter::make(report::Format::json, false, run,
                                     [&](std::string_view s) { text += s; });
  for (const auto& e : run.entries) w->entry(analysis::Entry(e));
  for (const auto& p : run.problems) w->problem(analysis::Problem(p));
  w->finish(analysis::tally(run));
  EXPECT_EQ(text, report::to_json(run).dump(2) + "\n");

  // No results at all: "results": [].
  const analysis::CheckRun none = run_of("[]", req);
  std::string empty;
  auto w2 = report::CheckWriter::make(report::Format::json, false, none,
                                      [&](std::string_view s) { empty += s; });
  w2->finish(analysis::tally(none));
  EXPECT_EQ(empty, report::to_json(none).dump(2) + "\n");
}

TEST(RoughEdges, TableWidthsComeFromALookAheadThenRowsStream) {
  // kTableLookAhead short names, then a long one: the rows already written keep their widths and
  // the long name widens only its own row.
  std::string cfgs = "[";
  for (std::size_t i = 0; i < report::kTableLookAhead; ++i)
    cfgs += std::string(i ? "," : "") + R"({"name": "c)" + std::to_string(i) +
            R"(", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64]})";
  cfgs +=
      R"(, {"name": "a_much_longer_name_than_any_before", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64]}])";
  const TempFile f("many.json", cfgs);
  const auto r = run_in_process({"check", f.path, "--builtin"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(r.out.substr(at, nl - at));
  ASSERT_GE(lines.size(), report::kTableLookAhead + 2);
  const std::size_t kernel_col = lines[0].find("KERNEL");
  EXPECT_EQ(lines[1].find("sm90_tma_ws"), kernel_col);  // the look-ahead's widths
  bool late_seen = false;
  for (const std::string& line : lines)
    if (line.rfind("a_much_longer_name_than_any_before", 0) == 0) {
      late_seen = true;
      EXPECT_EQ(line.find("  sm90_tma_ws"),
                std::string("a_much_longer_name_than_any_before").size())
          << line;
    }
  EXPECT_TRUE(late_seen);
  const std::string summary = "\n1001 configs: 1001 fit, 0 do not fit, 0 invalid\n";
  EXPECT_EQ(r.out.substr(r.out.size() - summary.size()), summary);
}

// ---- 5. --arch '' ----------------------------------------------------------------------------

TEST(RoughEdges, EmptyArchIsAnErrorNotNoArch) {
  const auto r = run_in_process({"check", "configs/sm120_moe_finalize.json", "--arch", ""});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err.rfind("error: --arch \"\": no architecture given (an unset variable?); allowed: ", 0),
      0u)
      << r.err;
  const auto comma =
      run_in_process({"check", "configs/sm120_moe_finalize.json", "--arch", "sm_120,"});
  EXPECT_EQ(comma.exit_code, 2);
  EXPECT_EQ(comma.err.rfind("error: --arch \"sm_120,\": an empty architecture in the list", 0), 0u)
      << comma.err;
  const auto sweep = run_in_process({"sweep", "configs/sm120_moe_finalize.json", "--arch", ""});
  EXPECT_EQ(sweep.exit_code, 2);
}

// ---- 6. a single config object -----------------------------------------------------------------

TEST(RoughEdges, SingleConfigObjectIsAccepted) {
  const TempFile one("one.json", kFinalize);
  for (const char* cmd : {"check", "sweep", "suggest"}) {
    const auto r = run_in_process({cmd, one.path, "--format", "json"});
    EXPECT_NE(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_EQ(r.err, "") << cmd;
    const auto j = nlohmann::json::parse(r.out);
    if (std::string(cmd) != "sweep") {
      ASSERT_EQ(j["results"].size(), 1u) << cmd;
      EXPECT_EQ(j["results"][0]["smem_bytes"], 102400);
    }
  }
  // What sweep prints as "config" feeds back into check.
  const auto s = run_in_process({"sweep", one.path, "--all", "--format", "json"});
  const auto j = nlohmann::json::parse(s.out);
  ASSERT_FALSE(j["results"].empty());
  const TempFile back("back.json", j["results"][0]["config"].dump());
  const auto r = run_in_process({"check", back.path, "--format", "json"});
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(nlohmann::json::parse(r.out)["results"][0]["smem_bytes"],
            j["results"][0]["smem_bytes"]);
  // A config object that also holds a configs array is one error, not a guess.
  const TempFile both(
      "both.json",
      std::string(R"({"tile": [128,128,64], "arch": "sm_90", "configs": [)") + kFinalize + "]}");
  const auto b = run_in_process({"check", both.path});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("field \"configs\": the file is one config object"), std::string::npos)
      << b.err;
}

// ---- 10. papercuts ---------------------------------------------------------------------------

TEST(RoughEdges, NegativeDeviceIndexIsAUsageErrorInOneLine) {
  for (const char* cmd : {"check", "sweep", "suggest", "probe"}) {
    std::vector<std::string> args{cmd};
    if (std::string(cmd) != "probe") args.push_back("configs/sm120_moe_finalize.json");
    args.insert(args.end(), {"--device", "-1"});
    const auto r = run_in_process(args);
    EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("'-1' is not a GPU index; allowed: a whole number 0, 1, 2, ..."),
              std::string::npos)
        << r.err;
    EXPECT_LT(r.err.size(), 300u) << r.err;  // no 300-digit range
  }
  const auto d = run_in_process({"device", "--device", "-1"});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_EQ(
      d.err,
      "error: --device '-1': not a GPU index; allowed: a whole number 0, 1, 2, ... or 'all'\n");
}

TEST(RoughEdges, DeviceAndProbeErrorsDoNotAdviseAnOptionTheyLack) {
  for (const char* cmd : {"device", "probe"}) {
    const auto r = run_in_process({cmd});
    if (r.exit_code == 0) GTEST_SKIP() << "a GPU is present";
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.err.find("use --arch"), std::string::npos) << r.err;
  }
}

TEST(RoughEdges, SweepTopAndReverseNeedWhatTheyMean) {
  const std::string space = "configs/sm120_moe_finalize.json";
  for (const char* top : {"-1", "0", "x"}) {
    const auto r = run_in_process({"sweep", space, "--sort", "stages", "--top", top});
    EXPECT_EQ(r.exit_code, 2) << top;
    EXPECT_NE(r.err.find("is not a count of candidates; allowed: a whole number 1, 2, 3, ..."),
              std::string::npos)
        << r.err;
  }
  const auto rev = run_in_process({"sweep", space, "--reverse"});
  EXPECT_EQ(rev.exit_code, 2);
  EXPECT_EQ(rev.err.rfind("error: --reverse needs --sort", 0), 0u) << rev.err;
}

TEST(RoughEdges, BreakdownWithAnotherFormatIsAnError) {
  const auto j = run_in_process(
      {"check", "configs/sm120_moe_finalize.json", "--format", "json", "--breakdown"});
  EXPECT_EQ(j.exit_code, 2);
  EXPECT_EQ(
      j.err,
      "error: --breakdown is for --format table; --format json always carries \"breakdown\"\n");
  const auto c = run_in_process(
      {"check", "configs/sm120_moe_finalize.json", "--format", "csv", "--breakdown"});
  EXPECT_EQ(c.exit_code, 2);
}

TEST(RoughEdges, StandardInputTwiceIsAnError) {
  for (const char* cmd : {"check", "sweep", "suggest"}) {
    const auto r = run_in_process({cmd, "-", "-"});
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_EQ(r.err, "error: - (standard input) is given 2 times; it can be read only once\n");
  }
}

TEST(RoughEdges, CsvAndMarkdownCutByAPipeExitQuietly) {
  for (const char* fmt : {"csv", "markdown"}) {
    // End to end, the real binary: the closed pipe and SIGPIPE exist only in a real process.
    const auto r = test::run_binary(std::string("check configs/*.json --builtin --format ") + fmt +
                                    " 2>&1 | head -c 1");
    EXPECT_EQ(r.err, "") << fmt;
    EXPECT_EQ(r.out.find("Broken pipe"), std::string::npos) << fmt << ": " << r.out;
  }
}

TEST(RoughEdges, TunedTableOnStdinWithoutArchIsOneError) {
  const std::string table =
      R"({"1": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "num_warps": 4, "num_stages": 3},
    "2": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "num_warps": 4, "num_stages": 3},
    "4": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "num_warps": 4, "num_stages": 3}})";
  const auto r = test::run_command("check -", test::with_stdin(table));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(count(r.err, "\n"), 1) << r.err;
  EXPECT_NE(r.err.find("<stdin>: configs without \"arch\" cannot be analysed: no GPU can be asked"),
            std::string::npos)
      << r.err;
}

TEST(RoughEdges, NamesAreShownNotObeyed) {
  // A bidi override, a wide character, a backtick and a formula in names (control characters in
  // a name are refused by the reader).
  const TempFile f(
      "names.json",
      R"J([{"name": "evil\u202Egnp.json", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64]},
      {"name": "表表", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64]},
      {"name": "tick`name", "arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"},
      {"name": "=HYPERLINK(1)", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64]}])J");
  const auto t = run_in_process({"check", f.path, "--builtin"});
  EXPECT_EQ(t.out.find("\u202E"), std::string::npos);
  EXPECT_EQ(t.out.find('\x1b'), std::string::npos);
  EXPECT_NE(t.out.find("evil<U+202E>gnp.json"), std::string::npos) << t.out;
  // Columns align by display width: the KERNEL column starts at the same place on every row.
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = t.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(t.out.substr(at, nl - at));
  const auto col = [](const std::string& line, const std::string& word) {
    const std::size_t byte = line.find(word);
    std::size_t w = 0;
    for (std::size_t i = 0; i < byte; ++i) {
      const unsigned char c = static_cast<unsigned char>(line[i]);
      if ((c & 0xC0) == 0x80) continue;
      w += c >= 0xE4 && c <= 0xE9 ? 2 : 1;  // CJK ideographs take two columns
    }
    return w;
  };
  const std::size_t kernel = col(lines[0], "KERNEL");
  EXPECT_EQ(col(lines[3], "sm90_tma_ws"), kernel) << lines[3];  // the 表表 row (after a note line)
  const auto md = run_in_process({"check", f.path, "--builtin", "--format", "markdown"});
  EXPECT_NE(md.out.find("- ``tick`name``: "), std::string::npos) << md.out;
  const auto csv = run_in_process({"check", f.path, "--builtin", "--format", "csv"});
  EXPECT_NE(csv.out.find("\n'=HYPERLINK(1),"), std::string::npos) << csv.out;
}

TEST(RoughEdges, CheckOnASweepSpaceSaysUseSweep) {
  const TempFile f(
      "space.json",
      R"([{"name": "s", "arch": "sm_90", "dtype": "bf16", "tile": [128,128,64], "stages": [2, 3]}])");
  const auto r = run_in_process({"check", f.path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field \"stages\": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(
                "; an array of alternatives makes a sweep space: run `tilefit sweep` on this file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(run_in_process({"sweep", f.path}).exit_code, 0);
}

TEST(RoughEdges, SuggestOnInvalidConfigsSaysWhy) {
  const TempFile f(
      "invalid.json",
      R"([{"name": "nvfp4_on_hopper", "arch": "sm_90", "dtype": "nvfp4", "tile": [128,128,128]}])");
  const auto r = run_in_process({"suggest", f.path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("0 configs to fix, 0 with no alternative that fits; 1 invalid config (no "
                       "kernel is built for "
                       "it: see the reason under it) has nothing to suggest"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace tilefit
