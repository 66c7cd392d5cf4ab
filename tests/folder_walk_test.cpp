// `tilefit check DIR`: every JSON file under the folder is read as what it is (a config file, a
// tuned table, a list of CUTLASS kernel names), the rest is one counted note, the exit code follows
// what was read; each real file and folder is read once and the walk is bounded
// (tilefit/io/folder.hpp), on trees built here.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/io/folder.hpp"

namespace tilefit {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr const char* kWalkTable =
    R"({"16": {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "num_warps": 4,
    "num_stages": 3}})";
constexpr const char* kWalkTableName = "E=8,N=32,device_name=NVIDIA_H100_80GB_HBM3.json";

class FolderWalk : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tilefit_walk_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void put(const std::string& rel, const std::string& text) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  ordered_json json_check(const std::vector<std::string>& extra, test::CliRun* run = nullptr) {
    std::vector<std::string> args{"check", dir_.string(), "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const test::CliRun r = test::run_in_process(args);
    if (run) *run = r;
    return ordered_json::parse(r.out.empty() ? std::string("null") : r.out);
  }
  fs::path dir_;
};

std::vector<std::string> files_of(const ordered_json& doc) {
  std::vector<std::string> files;
  for (const ordered_json& res : doc["results"]) {
    const std::string f = res["file"];
    if (files.empty() || files.back() != f) files.push_back(f);
  }
  return files;
}

// ---- every JSON file, as what it is ---------------------------------------------------------

TEST(FolderWalkShipped, TheConfigsFolderIsCheckedConfigFilesIncluded) {
  // The shipped folder: its config files are read (sm120_moe_finalize.json has two tiles that do
  // not fit), so the exit code is 1, not 0.
  const test::CliRun r = test::run_in_process(
      {"check", test::source_path("configs"), "--format", "json", "--arch", "sm_120"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("not a tuned table"), std::string::npos) << r.err;
  const ordered_json doc = ordered_json::parse(r.out);
  const std::vector<std::string> files = files_of(doc);
  bool finalize = false;
  for (const std::string& f : files) finalize = finalize || f.ends_with("/sm120_moe_finalize.json");
  EXPECT_TRUE(finalize) << doc["summary"].dump();
  std::size_t no_fit = 0;
  for (const ordered_json& res : doc["results"])
    if (std::string(res["file"]).ends_with("/sm120_moe_finalize.json") &&
        res["status"] == "does_not_fit")
      ++no_fit;
  EXPECT_EQ(no_fit, 2u);
  EXPECT_FALSE(doc["summary"].contains("files_skipped")) << doc["summary"].dump();
}

TEST_F(FolderWalk, EveryJsonFileIsReadTheRestIsOneCountedNote) {
  put("a/" + std::string(kWalkTableName), kWalkTable);
  put("a/README.md", "# tables");
  put("a/tune.py", "print(1)");
  put("b/ok.json", R"({"configs": [{"name": "small", "arch": "sm90", "tile": [64, 64, 64],
      "dtype": "bf16", "schedule": "cooperative", "epilogue": "tma"}]})");
  put("b/one.json", R"({"arch": "sm120", "tile": "128x256x128", "dtype": "nvfp4",
      "grouped": true, "epilogue": "finalize"})");
  put("c/names.json",
      R"(["cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"])");
  put("c/notes.txt", "x");
  test::CliRun r;
  const ordered_json doc = json_check({}, &r);
  const std::string d = dir_.string();
  EXPECT_EQ(files_of(doc), (std::vector<std::string>{d + "/a/" + kWalkTableName, d + "/b/ok.json",
                                                     d + "/b/one.json", d + "/c/names.json"}));
  // One note for the folder, not one line per file.
  EXPECT_EQ(r.err, "note: " + d + ": skipped 3 files that are not JSON (no .json name)\n");
  EXPECT_EQ(doc["summary"]["files_skipped"], 3);
  // b/one.json (the FINALIZE tile without swap_ab) does not fit: the exit code says so.
  EXPECT_EQ(r.exit_code, 1);
  // A JSON file that is neither is an input error naming it, and the rest is still checked.
  put("d/broken.json", "{\"configs\": [");
  const ordered_json bad = json_check({}, &r);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: " + d + "/d/broken.json: not JSON"), std::string::npos) << r.err;
  EXPECT_EQ(files_of(bad).size(), 4u);
  // Only fitting configs: exit 0; the table text summary counts the skipped files.
  fs::remove_all(dir_ / "b");
  fs::remove_all(dir_ / "d");
  const test::CliRun ok = test::run_in_process({"check", d});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("; 3 files skipped\n"), std::string::npos) << ok.out;
}

// ---- each real file once, bounded ------------------------------------------------------------

TEST_F(FolderWalk, ADiamondOfLinksReadsEachTableOnce) {
  // d0 holds the table and two links to d1, d1 two links to d2, …: 2^18 paths to the last
  // folder's table. Each real folder and file is read once.
  constexpr int kDepth = 18;
  for (int i = 0; i <= kDepth; ++i) fs::create_directories(dir_ / ("d" + std::to_string(i)));
  put("d" + std::to_string(kDepth) + "/" + kWalkTableName, kWalkTable);
  for (int i = 0; i < kDepth; ++i) {
    const fs::path next = dir_ / ("d" + std::to_string(i + 1));
    fs::create_directory_symlink(next, dir_ / ("d" + std::to_string(i)) / "left");
    fs::create_directory_symlink(next, dir_ / ("d" + std::to_string(i)) / "right");
  }
  std::vector<io::FolderEntry> seen;
  const io::FolderCounts n =
      io::walk_folder((dir_ / "d0").string(), [&](io::FolderEntry&& f) { seen.push_back(f); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, io::FolderEntry::Kind::json);
  std::string first = (dir_ / "d0").string();  // the first path in sorted order
  for (int i = 0; i < kDepth; ++i) first += "/left";
  EXPECT_EQ(seen[0].path, first + "/" + kWalkTableName);
  EXPECT_EQ(n.seen_before, static_cast<std::size_t>(kDepth));  // each "right" link
  const test::CliRun r =
      test::run_in_process({"check", (dir_ / "d0").string(), "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const ordered_json doc = ordered_json::parse(r.out);
  EXPECT_EQ(doc["results"].size(), 1u);
  EXPECT_EQ(r.err, "note: " + (dir_ / "d0").string() +
                       ": skipped 18 paths that lead to a file or folder read already\n");
}

TEST_F(FolderWalk, ALinkToTheRootStopsAtTheNameLimitWithAnError) {
  put(kWalkTableName, kWalkTable);
  fs::create_directory_symlink("/", dir_ / "root");
  io::FolderLimits limits;
  limits.max_names = 500;
  std::vector<io::FolderEntry> errors;
  std::size_t json = 0;
  const io::FolderCounts n = io::walk_folder(
      dir_.string(),
      [&](io::FolderEntry&& f) {
        if (f.kind == io::FolderEntry::Kind::error) errors.push_back(f);
        if (f.kind == io::FolderEntry::Kind::json) ++json;
      },
      limits);
  EXPECT_TRUE(n.stopped);
  EXPECT_EQ(json, 1u);  // the table sorts before "root"
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors.back().path, dir_.string());
  EXPECT_EQ(errors.back().message.substr(0, 40), "the walk stopped after 500 names (the mo")
      << errors.back().message;
}

TEST_F(FolderWalk, AFolderPastTheDepthLimitIsOneErrorTheRestIsRead) {
  put("a/b/c/d/" + std::string(kWalkTableName), kWalkTable);
  put("a/" + std::string(kWalkTableName), kWalkTable);
  io::FolderLimits limits;
  limits.max_depth = 2;
  const std::vector<io::FolderEntry> got = io::list_folder(dir_.string(), limits);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].kind, io::FolderEntry::Kind::json);  // "E=…" sorts before "b"
  EXPECT_EQ(got[0].path, dir_.string() + "/a/" + kWalkTableName);
  EXPECT_EQ(got[1].kind, io::FolderEntry::Kind::error);
  EXPECT_EQ(got[1].path, dir_.string() + "/a/b/c");
  EXPECT_EQ(got[1].message, "not walked: more than 2 folders deep (the most one folder walk goes)");
}

TEST_F(FolderWalk, ErrorsPastTheLimitAreCountedInOneLine) {
  for (int i = 0; i < 5; ++i)
    fs::create_symlink(dir_ / "missing.json", dir_ / ("broken" + std::to_string(i) + ".json"));
  io::FolderLimits limits;
  limits.max_errors = 2;
  const std::vector<io::FolderEntry> got = io::list_folder(dir_.string(), limits);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].path, dir_.string());
  EXPECT_EQ(got[2].message, "3 more paths could not be walked (at most 2 are listed per folder)");
}

}  // namespace
}  // namespace tilefit
