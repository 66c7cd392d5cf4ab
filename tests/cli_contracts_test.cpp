// The CLI's contracts where they lied: --engine that applies to nothing, option values that are
// not UTF-8, Intel XPU tables, usage errors under --format json.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace tilefit
