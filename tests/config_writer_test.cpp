// io::config_json writes a config the reader reads back to the same KernelConfig: what sweep and
// suggest print is ready to feed back into check.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/config_writer.hpp"

namespace tilefit::io {
namespace {

model::KernelConfig read_back(const std::string& json) {
  const LoadResult r = load<LoadResult>(Source::text("[" + json + "]", "w.json"));
  EXPECT_TRUE(r.errors.empty()) << json << "\n"
                                << (r.errors.empty() ? "" : format_error(r.errors[0]));
  return r.configs.empty() ? model::KernelConfig{} : r.configs[0].config;
}

TEST(ConfigWriter, EveryMeasuredAndShippedConfigRoundTrips) {
  int n = 0;
  std::vector<model::KernelConfig> configs;
  for (const char* f :
       {"cutlass-4.7.jsonl", "measured-sm80.jsonl", "measured-sm100.jsonl",
        "measured-sm120-sm90.jsonl", "fp8-engines-cutlass-4.7.jsonl", "measured-fp8-engines.jsonl",
        "triton-3.6.jsonl", "measured-triton-3.6.jsonl", "measured-triton-3.6-grid.jsonl"})
    for (const auto& row : test::load_rows(f))
      if (auto c = test::row_config(row)) configs.push_back(*c);
  // Every shipped config file.
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs")))
    if (entry.path().extension() == ".json")
      for (auto& lc : load<LoadResult>(Source::file(entry.path().string())).configs)
        if (lc.config.tuned_device.empty()) configs.push_back(lc.config);  // tuned tables: below
  for (const model::KernelConfig& c : configs) {
    const std::string json = config_json(c);
    EXPECT_EQ(read_back(json), c) << json;
    ++n;
  }
  EXPECT_GT(n, 2500);
}

// A tuned table's entry is written as the config it was analysed as: the same result, without
// what only the file name says (the device it was tuned on).
TEST(ConfigWriter, TunedEntriesWriteTheConfigTheyWereAnalysedAs) {
  const LoadResult r = load<LoadResult>(Source::file(test::source_path(
      "configs/"
      "E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json")));
  ASSERT_FALSE(r.configs.empty());
  for (const LoadedConfig& lc : r.configs) {
    model::KernelConfig c = lc.config;
    c.arch = 120;
    model::KernelConfig back = read_back(config_json(c));
    EXPECT_TRUE(back.tuned_device.empty());
    back.tuned_device = c.tuned_device;
    back.tuned_block_k = c.tuned_block_k;
    back.tuned = c.tuned;  // what only the table says (its quantisation name, USE_TMA, AMD keys)
    EXPECT_EQ(back, c) << config_json(c);
  }
}

TEST(ConfigWriter, WritesTheCanonicalForm) {
  const LoadResult r = load<LoadResult>(Source::text(
      R"([{"name": "moe", "arch": "120", "tile": "CtaShape128x256x64B", "dtype": "nvfp4",
           "grouped": true, "epilogue": "finalize", "swap_ab": true, "stages": 2}])",
      "w.json"));
  ASSERT_EQ(r.configs.size(), 1u);
  EXPECT_EQ(
      config_json(r.configs[0].config),
      R"({"name":"moe","arch":"sm_120","tile":[128,256,128],"a":"nvfp4","b":"nvfp4","d":"bf16",)"
      R"("layout":"tnn","epilogue":"finalize","grouped":true,"stages":2,"swap_ab":true})");
}

TEST(ConfigWriter, OddOperandsAndEpilogueObjects) {
  model::KernelConfig c = read_back(
      R"({"name": "x\"y", "arch": "sm_100", "tile": [256,128,128], "a": "nvfp4", "b": "nvfp4",
          "sf_vec": 32, "c": null, "d": "e2m1", "acc": "f32", "layout": "nnt", "schedule": "2sm",
          "cluster": [2,1,1], "epilogue": {"variant": "blockscale_out", "sf_vec": 16, "sf": "ue4m3",
          "tile": [128, 64], "stages_c": 2, "stages_d": 1}, "mma": "nvf4"})");
  EXPECT_EQ(read_back(config_json(c)), c) << config_json(c);
}

}  // namespace
}  // namespace tilefit::io
