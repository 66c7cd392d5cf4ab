// The CLI's contracts where they lied: --engine that applies to nothing, option values that are
// not UTF-8, Intel XPU tables, usage errors under --format json, the sweep's candidate cap,
// "-0", tuned-table keys read as the engines read them, and the library's device advice.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/tuned_file.hpp"
#include "test_support.hpp"
#include "tilefit/tilefit.h"
#include "tilefit/tilefit.hpp"

namespace tilefit {
namespace {

using test::run_in_process;

constexpr const char* kH100Table =
    "configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128]."
    "json";
constexpr const char* kXpuTable =
    "tests/data/xpu/E=128,N=384,device_name=Intel(R)_Arc(TM)_Pro_B70_Graphics.json";

/// A file in the temporary folder holding `text`; removed by the destructor.
struct ScratchFile {
  ScratchFile(const std::string& name, const std::string& text)
      : path(std::string(::testing::TempDir()) + name) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~ScratchFile() { std::remove(path.c_str()); }
  std::string path;
};

bool has_byte_over_127(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) > 127) return true;
  return false;
}

// ---- --engine that applies to no config ------------------------------------------------------

TEST(CliContracts, AnEngineThatAppliesToNoConfigIsAWarningNamingIt) {
  const std::string warning =
      "warning: --engine \"sglang\" applied to no config: none was launched by sglang (no sglang "
      "tuned table, no config whose \"engine\" is sglang); it changed nothing\n";
  for (const char* cmd : {"check", "sweep", "suggest"}) {
    const auto r = run_in_process(
        {cmd, test::source_path(kH100Table), "--arch", "sm_90", "--engine", "sglang"});
    EXPECT_NE(r.err.find(warning), std::string::npos) << cmd << ": " << r.err;
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    // The table's own engine: no warning.
    const auto v =
        run_in_process({cmd, test::source_path(kH100Table), "--arch", "sm_90", "--engine", "vllm"});
    EXPECT_EQ(v.err.find("warning:"), std::string::npos) << cmd << ": " << v.err;
  }
  // A CUTLASS config file has no engine: both pins are warnings.
  const auto c = run_in_process({"check", test::source_path("configs/sm90_hopper.json"), "--engine",
                                 "vllm", "--engine", "sglang"});
  EXPECT_NE(c.err.find("warning: --engine \"vllm\" applied to no config"), std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("warning: --engine \"sglang\" applied to no config"), std::string::npos)
      << c.err;
}

// ---- option values that are not UTF-8 ---------------------------------------------------------

TEST(CliContracts, ArchAndEngineThatAreNotUtf8AreShownEscaped) {
  const std::string file = test::source_path("configs/sm90_hopper.json");
  const auto a = run_in_process({"check", file, "--arch", "sm_\xff"});
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("error: --arch \"sm_<0xFF>\": unknown architecture"), std::string::npos)
      << a.err;
  EXPECT_FALSE(has_byte_over_127(a.err));
  const auto l = run_in_process({"check", file, "--arch", "sm_90,\xfe"});
  EXPECT_NE(l.err.find("error: --arch \"<0xFE>\": unknown architecture"), std::string::npos)
      << l.err;
  const auto e = run_in_process({"check", file, "--engine", "vllm@\xc3\x28"});
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_NE(e.err.find("error: --engine \"vllm@<0xC3>(\": not a modelled engine release"),
            std::string::npos)
      << e.err;
  EXPECT_FALSE(has_byte_over_127(e.err));
  // The library (the C ABI calls the same reader): its arch is escaped the same way.
  try {
    builtin_limits("gfx\xff");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("arch \"gfx<0xFF>\" is not a known architecture"),
              std::string::npos)
        << err.what();
    EXPECT_FALSE(has_byte_over_127(err.what()));
  }
  tilefit_context* ctx = tilefit_context_new();
  tilefit_target* t = nullptr;
  EXPECT_NE(tilefit_target_builtin(ctx, "sm_\x80", &t), 0);
  EXPECT_NE(std::string(tilefit_error_message(ctx)).find("arch \"sm_<0x80>\""), std::string::npos)
      << tilefit_error_message(ctx);
  tilefit_context_free(ctx);
}

// ---- vLLM's Intel XPU tables ---------------------------------------------------------------

TEST(CliContracts, IntelXpuTablesAreSkippedWithANoteNotInputErrors) {
  const auto r = run_in_process({"check", test::source_path(kXpuTable)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("skipped: a vLLM Intel XPU table (device_name=Intel(R)_Arc(TM)_Pro_B70_"
                       "Graphics: entries with grf_mode"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("1 file skipped"), std::string::npos) << r.out;
  // In a folder: the same note, counted.
  const auto f = run_in_process({"check", test::source_path("tests/data/xpu"), "--format", "json"});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(nlohmann::json::parse(f.out)["summary"]["files_skipped"], 1);
}

// ---- usage errors under --format json --------------------------------------------------------

TEST(CliContracts, AUsageErrorUnderFormatJsonStillWritesJsonWithErrors) {
  const std::string file = test::source_path("configs/sm90_hopper.json");
  for (const char* cmd : {"check", "sweep", "suggest"}) {
    const auto r = run_in_process({cmd, file, "--arch", "nope", "--format", "json"});
    EXPECT_EQ(r.exit_code, 2) << cmd;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["errors"].size(), 1u) << cmd << ": " << r.out;
    EXPECT_NE(std::string(j["errors"][0]["message"]).find("--arch \"nope\": unknown architecture"),
              std::string::npos);
    EXPECT_EQ(j["target"]["mode"], "arch");
    EXPECT_EQ(j["results"].size(), 0u);
    EXPECT_EQ(j["summary"]["errors"], 1);
    EXPECT_NE(r.err.find("error: --arch \"nope\""), std::string::npos) << r.err;  // and stderr
  }
  // A parse error (an unknown option), --format=json spelt with '='.
  const auto p = run_in_process({"check", file, "--bogus", "--format=json"});
  EXPECT_EQ(p.exit_code, 2);
  const auto j = nlohmann::json::parse(p.out);
  ASSERT_EQ(j["errors"].size(), 1u) << p.out;
  EXPECT_NE(std::string(j["errors"][0]["message"]).find("--bogus"), std::string::npos);
  // Other formats: stdout stays empty.
  EXPECT_EQ(run_in_process({"check", file, "--arch", "nope"}).out, "");
}

// ---- the sweep's cap, for the whole command ---------------------------------------------------

/// "1,2,...,n".
std::string one_to(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) {
    if (i > 1) out.push_back(',');
    out.append(std::to_string(i));
  }
  return out;
}

/// A sweep space of m x n tiles x 100 stage counts.
std::string space_of(int m, int n) {
  std::string out = R"({"arch": "sm90", "dtype": "bf16", "tile": {"m": [)";
  out.append(one_to(m)).append(R"(], "n": [)").append(one_to(n));
  out.append(R"(], "k": [64]}, "stages": [)").append(one_to(100)).append("]}");
  return out;
}

TEST(CliContracts, TheSweepCapIsForTheWholeCommandAndARefusalPrintsNoTable) {
  // 750 x 700 x 100 = 52,500,000 candidates a config: under the cap alone; two configs, or one on
  // two architectures, are over it: refused before any is evaluated, nothing on stdout.
  const ScratchFile two("cap_two.json",
                        "{\"configs\": [" + space_of(750, 700) + ", " + space_of(750, 700) + "]}");
  const auto r = run_in_process({"sweep", two.path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(
      r.err.find(
          "error: the sweep has 105000000 candidates in all (2 configs): more than 100000000"),
      std::string::npos)
      << r.err;
  const ScratchFile one("cap_one.json", "{\"configs\": [" + space_of(750, 700) + "]}");
  const auto a = run_in_process({"sweep", one.path, "--arch", "sm_90,sm_120"});
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_EQ(a.out, "");
  EXPECT_NE(a.err.find("error: the sweep has 52500000 candidates x 2 architectures in all (1 "
                       "config): more than 100000000"),
            std::string::npos)
      << a.err;
  // One space over the cap by itself: its error, and no empty table header.
  const ScratchFile big("cap_big.json", "{\"configs\": [" + space_of(1100, 1000) + "]}");
  for (const char* format : {"table", "csv", "markdown"}) {
    const auto b = run_in_process({"sweep", big.path, "--format", format});
    EXPECT_EQ(b.exit_code, 2) << format;
    EXPECT_EQ(b.out, "") << format;
    EXPECT_NE(b.err.find("a space of 110000000 candidates"), std::string::npos) << b.err;
  }
}

// ---- "-0" and tuned-table keys -----------------------------------------------------------------

TEST(CliContracts, MinusZeroIsEchoedAsWritten) {
  const ScratchFile f("minus_zero.json",
                      R"({"configs": [{"arch": "sm90", "dtype": "bf16", "tile": [128, 128, -0]},
      {"arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "stages": -0}]})");
  const auto r = run_in_process({"check", f.path});
  EXPECT_NE(r.err.find("field \"tile\": -0 is not a valid tile extent"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("field \"stages\": -0 is not a valid stage count"), std::string::npos)
      << r.err;
}

TEST(CliContracts, TunedTableKeysAreReadAsPythonIntReadsThem) {
  using io::detail::BatchKey;
  using io::detail::read_batch_size;
  for (const char* ok : {"16", " 16", "16 ", "+16", "-16", "0016", "1_6", "\t16\n",
                         "18446744073709551615", "00000000000000000000000001"})
    EXPECT_EQ(read_batch_size(ok), BatchKey::ok) << ok;
  for (const char* bad : {"", " ", "+", "1__6", "_16", "16_", "0x10", "1.0", "1e3", "16a", "++16"})
    EXPECT_EQ(read_batch_size(bad), BatchKey::not_integer) << bad;
  EXPECT_EQ(read_batch_size("18446744073709551616"), BatchKey::too_large);
  EXPECT_EQ(read_batch_size("-99999999999999999999999"), BatchKey::too_large);

  const std::string entry = R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64})";
  const ScratchFile f("E=8,N=64,device_name=NVIDIA_H100_80GB_HBM3.json",
                      "{\" 16\": " + entry + ", \"+32\": " + entry + ", \"1_024\": " + entry +
                          ", \"18446744073709551616\": " + entry + ", \"0x10\": " + entry + "}");
  const auto r = run_in_process({"check", f.path, "--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 3u) << r.err;
  EXPECT_EQ(j["results"][0]["name"], " 16");
  EXPECT_EQ(j["results"][1]["name"], "+32");
  EXPECT_EQ(j["results"][2]["name"], "1_024");
  EXPECT_NE(r.err.find("config #3 \"18446744073709551616\": batch size beyond 2^64 - 1"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("config #4 \"0x10\": not a batch size"), std::string::npos) << r.err;
}

// ---- the AMD async-copy note ------------------------------------------------------------------

int occurrences(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(CliContracts, TheAmdAsyncCopyNoteIsOncePerTable) {
  const std::string table = test::source_path(
      "tests/data/amd_tables/ok/E=8,N=7168,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8.json");
  const auto r = run_in_process({"check", table});
  EXPECT_EQ(occurrences(r.out, "TRITON_HIP_USE_ASYNC_COPY off on gfx942"), 1) << r.out;
  const auto m = run_in_process({"check", table, "--format", "markdown"});
  EXPECT_EQ(occurrences(m.out, "TRITON_HIP_USE_ASYNC_COPY off on gfx942"), 1) << m.out;
  // Two tables (the same entries under another path): once each.
  const ScratchFile copy("E=8,N=7168,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8.json",
                         test::read_file(table));
  const auto two = run_in_process({"check", table, copy.path});
  EXPECT_EQ(occurrences(two.out, "TRITON_HIP_USE_ASYNC_COPY off on gfx942"), 2) << two.out;
  // JSON keeps it on every result.
  const auto j = nlohmann::json::parse(run_in_process({"check", table, "--format", "json"}).out);
  ASSERT_GE(j["results"].size(), 2u);
  for (const auto& res : j["results"]) {
    bool has = false;
    for (const auto& d : res["diagnostics"]) has = has || d["code"] == "triton_amd_async_copy";
    EXPECT_TRUE(has) << res["name"];
  }
}

// ---- the library's device errors ----------------------------------------------------------

TEST(CliContracts, LibraryDeviceErrorsDoNotAdviseCommandLineOptions) {
  // No GPU on the test machine (or an index past the last): the error names the library's way.
  try {
    device_limits(4095);
    GTEST_SKIP() << "GPU 4095 exists";
  } catch (const DeviceError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find("--arch"), std::string::npos) << m;
    EXPECT_EQ(m.find("--device"), std::string::npos) << m;
    EXPECT_NE(m.find("builtin_limits(arch)"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace tilefit
