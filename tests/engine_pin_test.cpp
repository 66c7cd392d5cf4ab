// `--engine` (whose launch rules apply), the results' "engine", `tilefit check DIR` and the
// engines' tuned-table lint (model/engine_tables.hpp), through the CLI in process.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/io/folder.hpp"
#include "tilefit/model/engine_tables.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr const char* kH100Table =
    "configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128]."
    "json";
constexpr const char* kEntry =
    R"({"16": {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "num_warps": 4,
    "num_stages": 3}, "64": {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64}})";

ordered_json json_of(const test::CliRun& r) {
  return ordered_json::parse(r.out.empty() ? std::string("null") : r.out);
}

/// A fresh folder under the temporary directory, removed at the end.
class EngineScratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tilefit_engine_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string put(const std::string& rel, const std::string& text) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

// ---- --engine and "engine" -----------------------------------------------------------------

TEST(EnginePin, ATunedTableNamesTheNewestReleaseOfItsEngine) {
  const test::CliRun r = test::run_in_process({"check", kH100Table, "--format", "json"});
  const ordered_json doc = json_of(r);
  ASSERT_EQ(doc["results"].size(), 13u) << r.err;
  for (const ordered_json& res : doc["results"])
    EXPECT_EQ(
        res["engine"],
        ordered_json({{"name", "vllm"}, {"commit", "6adad08767583f52eb4d2122111af0bf638ed5e6"}}));
}

TEST(EnginePin, EnginePicksTheReleaseOfThatEngineOnly) {
  const test::CliRun r = test::run_in_process(
      {"check", kH100Table, "--engine", "vllm@000D1458", "--engine", "sglang", "--format", "json"});
  const ordered_json doc = json_of(r);
  ASSERT_EQ(doc["results"].size(), 13u) << r.err;
  EXPECT_EQ(doc["results"][0]["engine"]["commit"], "000d1458098ebf47491dad470d164d443ab18a9c");
  // The name alone: the newest; a pin of another engine leaves this vLLM table alone.
  const ordered_json newest =
      json_of(test::run_in_process({"check", kH100Table, "--engine", "vllm", "--engine",
                                    "sglang@d6ef6888", "--format", "json"}));
  EXPECT_EQ(newest["results"][0]["engine"]["commit"], "6adad08767583f52eb4d2122111af0bf638ed5e6");
  const ordered_json other = json_of(test::run_in_process(
      {"check", kH100Table, "--engine", "sglang@d6ef68881e26", "--format", "json"}));
  EXPECT_EQ(other["results"][0]["engine"]["name"], "vllm");
}

TEST(EnginePin, AnUnknownCommitOrTwoForOneEngineIsAUsageError) {
  test::CliRun r = test::run_in_process({"check", kH100Table, "--engine", "vllm@12345678"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "error: --engine \"vllm@12345678\": not a modelled engine release; allowed: "
            "vllm@000d1458, vllm@6adad087, sglang@d6ef6888 (a commit prefix of 8 to 40 hex "
            "digits; the engine's name alone: its newest)\n");
  r = test::run_in_process({"check", kH100Table, "--engine", "vllm@000d14"});  // 6 digits
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--engine \"vllm@000d14\": not a modelled engine release"),
            std::string::npos);
  r = test::run_in_process({"sweep", kH100Table, "--engine", "trtllm"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--engine \"trtllm\": not a modelled engine release"), std::string::npos);
  r = test::run_in_process(
      {"suggest", kH100Table, "--engine", "vllm", "--engine", "vllm@000d1458"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "error: --engine \"vllm@000d1458\": vllm is already pinned by --engine \"vllm\"; give "
            "at most one --engine per engine\n");
}

TEST_F(EngineScratch, EngineOverridesAConfigsOwnEngineAndPlainConfigsHaveNone) {
  const std::string f =
      put("plain.json",
          R"({"configs": [{"name": "pinned", "kernel": "triton_fused_moe", "arch": "sm_90",
      "tile": [64, 64, 64], "engine": "vllm@6adad087"},
      {"name": "plain", "kernel": "triton_fused_moe", "arch": "sm_90", "tile": [64, 64, 64]}]})");
  ordered_json doc = json_of(test::run_in_process({"check", f, "--builtin", "--format", "json"}));
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["engine"]["commit"], "6adad08767583f52eb4d2122111af0bf638ed5e6");
  EXPECT_FALSE(doc["results"][1].contains("engine"));
  // Like --arch, --engine is a what-if over every config of its engine.
  doc = json_of(test::run_in_process(
      {"check", f, "--builtin", "--engine", "vllm@000d1458", "--format", "json"}));
  EXPECT_EQ(doc["results"][0]["engine"]["commit"], "000d1458098ebf47491dad470d164d443ab18a9c");
  EXPECT_FALSE(doc["results"][1].contains("engine"));
  // The concrete config a sweep prints names the release it used.
  const test::CliRun s = test::run_in_process(
      {"sweep", f, "--builtin", "--engine", "vllm@000d1458", "--format", "json"});
  EXPECT_NE(s.out.find("\"engine\":{\"name\":\"vllm\",\"commit\":\"000d1458"), std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("\"engine\":\"vllm@000d1458\"}"), std::string::npos) << s.out;
}

TEST(EnginePin, TheBreakdownAndMarkdownNameTheEngine) {
  const test::CliRun t = test::run_in_process(
      {"check", kH100Table, "--builtin", "--breakdown", "--engine", "vllm@000d1458"});
  EXPECT_NE(
      t.out.find("    engine: vllm@000d1458 (commit 000d1458098ebf47491dad470d164d443ab18a9c, "
                 "2026-04)\n"),
      std::string::npos)
      << t.out;
  const test::CliRun m =
      test::run_in_process({"check", kH100Table, "--builtin", "--format", "markdown"});
  const std::string line = std::string("- `") + kH100Table +
                           "`: launched as vllm@6adad087 (commit "
                           "6adad08767583f52eb4d2122111af0bf638ed5e6, 2026-08-14)\n";
  const std::size_t at = m.out.find(line);
  ASSERT_NE(at, std::string::npos) << m.out;
  EXPECT_EQ(m.out.find(line, at + 1), std::string::npos) << "once per file";
  // Plain configs: no engine line.
  const test::CliRun p = test::run_in_process(
      {"check", "configs/sm120_moe_finalize.json", "--builtin", "--breakdown"});
  EXPECT_EQ(p.out.find("engine:"), std::string::npos);
}

// ---- tilefit check DIR ---------------------------------------------------------------------

TEST_F(EngineScratch, AFolderIsEveryJsonFileUnderItSortedTheRestCounted) {
  put("b/E=8,N=64,device_name=NVIDIA_H100_80GB_HBM3.json", kEntry);
  put("a/E=8,N=32,device_name=NVIDIA_H100_80GB_HBM3.json", kEntry);
  put("a/README.md", "# tables");
  put("a/tune.sh", "python benchmark_moe.py");
  put("E=4,N=16,device_name=NVIDIA_A100-SXM4-80GB,dtype=fp8_w8a8.json", kEntry);
  const test::CliRun r =
      test::run_in_process({"check", dir_.string() + "/", "--arch", "sm_90", "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "note: " + dir_.string() + "/: skipped 2 files that are not JSON (no .json name)\n");
  const ordered_json doc = json_of(r);
  std::vector<std::string> files;
  for (const ordered_json& res : doc["results"]) {
    const std::string f = res["file"];
    if (files.empty() || files.back() != f) files.push_back(f);
  }
  const std::string d = dir_.string();
  EXPECT_EQ(files, (std::vector<std::string>{
                       d + "/E=4,N=16,device_name=NVIDIA_A100-SXM4-80GB,dtype=fp8_w8a8.json",
                       d + "/a/E=8,N=32,device_name=NVIDIA_H100_80GB_HBM3.json",
                       d + "/b/E=8,N=64,device_name=NVIDIA_H100_80GB_HBM3.json"}));
  EXPECT_EQ(doc["summary"]["configs"], 6);
  EXPECT_EQ(doc["summary"]["files_skipped"], 2);
  const test::CliRun t = test::run_in_process({"check", d, "--arch", "sm_90"});
  EXPECT_NE(t.out.find("6 configs: 6 fit, 0 do not fit, 0 invalid; 2 files skipped\n"),
            std::string::npos)
      << t.out;
  // A file given by name is read whatever its name; no folder, no "files_skipped".
  const ordered_json one = json_of(
      test::run_in_process({"check", d + "/a/E=8,N=32,device_name=NVIDIA_H100_80GB_HBM3.json",
                            "--arch", "sm_90", "--format", "json"}));
  EXPECT_FALSE(one["summary"].contains("files_skipped"));
}

TEST_F(EngineScratch, LinkLoopsAndBrokenLinksAreErrorsTheRestGoesOn) {
  put("t/E=8,N=32,device_name=NVIDIA_H100_80GB_HBM3.json", kEntry);
  fs::create_directory_symlink(dir_ / "t", dir_ / "t" / "loop");
  fs::create_symlink(dir_ / "missing.json", dir_ / "t" / "E=1,N=1,device_name=X.json");
  // Not a loop, the same folder: read once, under the first path in sorted order ("same").
  fs::create_directory_symlink(dir_ / "t", dir_ / "same");
  const test::CliRun r = test::run_in_process({"check", dir_.string(), "--arch", "sm_90"});
  EXPECT_EQ(r.exit_code, 2);
  const std::string d = dir_.string();
  EXPECT_NE(r.err.find("error: " + d +
                       "/same/loop: symbolic link loop: it leads back to a "
                       "folder that contains it\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("error: " + d +
                       "/same/E=1,N=1,device_name=X.json: broken symbolic link: No such file or "
                       "directory\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(
      r.err.find("note: " + d + ": skipped 1 path that leads to a file or folder read already"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("/t/"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("2 configs: 2 fit, 0 do not fit, 0 invalid; 2 errors; 1 file skipped\n"),
            std::string::npos)
      << r.out;
}

TEST(FolderNames, TablesAreNamedByEitherGrammar) {
  EXPECT_TRUE(io::is_tuned_table_name("x/E=8,N=64,device_name=A.json"));
  EXPECT_TRUE(io::is_tuned_table_name("N=7168,K=2304,device_name=A,dtype=fp8_w8a8.json"));
  EXPECT_TRUE(io::is_tuned_table_name("E=,bad.json"));  // the reader names what is wrong
  EXPECT_FALSE(io::is_tuned_table_name("x/README"));
  EXPECT_FALSE(io::is_tuned_table_name("E=8.md"));
  EXPECT_FALSE(io::is_tuned_table_name("x/E=8/causal_conv1d_fwd_sm_90.json"));
  EXPECT_FALSE(io::is_tuned_table_name(".json"));
}

// ---- the lint ------------------------------------------------------------------------------

std::string lint(const std::string& name, model::EngineRelease r) {
  const auto d = model::lint_table_name(name, r);
  return d ? std::string(model::code_name(d->code)) + ": " + report::message(*d) : "";
}

TEST(TableLint, NamesTheirEngineNeverBuilds) {
  using R = model::EngineRelease;
  const R v = R::Vllm6adad087, s = R::SglangD6ef6888;
  EXPECT_EQ(lint("E=8,N=64,device_name=NVIDIA_H100,dtype=int8_w8a8.json", v),
            "table_dtype_never_built: vllm@6adad087 never loads this table: its name's "
            "dtype=int8_w8a8 is not a string the engine builds for such a table's name "
            "(fp8_w8a8, fp8_w8a16, int8_w8a16, int4_w4a16, float32, or none)");
  EXPECT_EQ(lint("E=8,N=64,device_name=NVIDIA_H100,dtype=int8_w8a8.json", s), "");
  EXPECT_EQ(lint("a/E=8,N=64,device_name=NVIDIA_H100,dtype=bf16.json", s).substr(0, 23),
            "table_dtype_never_built");
  EXPECT_EQ(lint("E=8,N=64,device_name=NVIDIA_H100,dtype=float8.json", v).substr(0, 23),
            "table_dtype_never_built");
  EXPECT_EQ(lint("E=8,N=64,device_name=NVIDIA_H100,dtype=fp8_w8a16.json", s).substr(0, 23),
            "table_dtype_never_built");  // vLLM's, not SGLang's
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=int8_w8a16,block_shape=[128, 128].json", s)
                .substr(0, 23),
            "table_dtype_never_built");
  // The block shape as each loader spells it.
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=int8_w8a8,block_shape=[128,128].json", v),
            "table_block_shape_spelling: vllm@6adad087 never loads this table: it looks for "
            "block_shape=[128, 128], the name has block_shape=[128,128]");
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=int8_w8a8,block_shape=[128, 128].json", v),
            "");
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=fp8_w8a8,block_shape=[128,128].json", v),
            "");
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=fp8_w8a8,block_shape=[128, 128].json", v),
            "table_block_shape_spelling: vllm@6adad087 never loads this table: it looks for "
            "block_shape=[128,128], the name has block_shape=[128, 128]");
  EXPECT_EQ(lint("N=1536,K=1536,device_name=A100,dtype=fp8_w8a8,block_shape=[128,128].json", s)
                .substr(0, 26),
            "table_block_shape_spelling");
  EXPECT_EQ(
      lint("E=8,N=64,device_name=H100,dtype=fp8_w8a8,block_shape=[128, 128].json", v).substr(0, 26),
      "table_block_shape_spelling");
  EXPECT_EQ(
      lint("E=8,N=64,device_name=H100,dtype=fp8_w8a8,block_shape=[128,128].json", s).substr(0, 26),
      "table_block_shape_spelling");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=fp8_w8a8,block_shape=[128, 128]_down.json", s),
            "");
  // Parts: SGLang's _down and per_channel_quant=True; vLLM has neither.
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=fp8_w8a8_down.json", v),
            "table_part_never_built: vllm@6adad087 never loads this table: the engine never "
            "writes _down into a table's name");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=int8_w8a8,per_channel_quant=True.json", s), "");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=int8_w8a8,per_channel_quant=False.json", s),
            "table_part_never_built: sglang@d6ef6888 never loads this table: the engine never "
            "writes per_channel_quant=False into a table's name");
  EXPECT_EQ(
      lint("E=8,N=64,device_name=H100,dtype=fp8_w8a8,per_channel_quant=True.json", v).substr(0, 22),
      "table_part_never_built");
  // An empty device_name comes first.
  EXPECT_EQ(lint("E=384,N=128,device_name=,dtype=bf16_down.json", s),
            "table_device_name_empty: sglang@d6ef6888 never loads this table: its name's "
            "device_name is empty, and the engine names a table after the GPU's name "
            "(torch.cuda.get_device_name())");
  // What is loaded, not a table, and a release whose loaders were not read: nothing.
  EXPECT_EQ(lint("E=8,N=64,device_name=H100.json", v), "");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=int4_w4a16.json", s), "");
  EXPECT_EQ(lint("moe_sum_reduce_t8.json", v), "");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=int8_w8a8.json", R::Vllm000d1458), "");
  EXPECT_EQ(lint("E=8,N=64,device_name=H100,dtype=int8_w8a8.json", R::None), "");
}

TEST_F(EngineScratch, TheLintIsOnEachResultOfTheTable) {
  const std::string never =
      put("vllm/E=8,N=64,device_name=NVIDIA_H100_80GB_HBM3,dtype=bf16.json", kEntry);
  const std::string empty = put("sglang/triton_3_6_0/E=8,N=64,device_name=.json", kEntry);
  const ordered_json doc = json_of(
      test::run_in_process({"check", never, empty, "--arch", "sm_90,sm_120", "--format", "json"}));
  ASSERT_EQ(doc["results"].size(), 8u);
  for (const ordered_json& res : doc["results"]) {
    const ordered_json& last = res["diagnostics"].back();
    EXPECT_EQ(last["severity"], "warning");
    EXPECT_EQ(last["code"],
              res["file"] == never ? "table_dtype_never_built" : "table_device_name_empty");
    EXPECT_EQ(last["engine"], res["file"] == never ? "vllm@6adad087" : "sglang@d6ef6888");
  }
  // The empty device_name is read; it names no GPU, so --builtin asks for --arch.
  const test::CliRun r = test::run_in_process({"check", empty, "--builtin"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("config #0 \"16\": field \"arch\": missing: --builtin takes the limits "
                       "of each config's own arch; give the config an \"arch\" or use --arch"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace tilefit
