// TensorRT-LLM / FlashInfer tile names count K in bytes (CtaShape128x256x64B for fp4 is
// 128x256x128 elements): the reader converts them with A's element width.
#include <gtest/gtest.h>

#include "tilefit/io/load.hpp"

namespace tilefit::io {
namespace {

LoadResult parse(const std::string& cfg) {
  return load<LoadResult>(Source::text("[" + cfg + "]", "t.json"));
}

TEST(TrtllmTileNames, KInBytesBecomesElements) {
  auto r = parse(R"({"arch": "sm120", "tile": "CtaShape128x256x64B", "dtype": "nvfp4"})");
  ASSERT_TRUE(r.errors.empty()) << format_error(r.errors.front());
  EXPECT_EQ(r.configs[0].config.m, 128);
  EXPECT_EQ(r.configs[0].config.n, 256);
  EXPECT_EQ(r.configs[0].config.k, 128);  // 64 B of 4-bit elements

  r = parse(R"({"arch": "sm90", "tile": "128x128x128B", "dtype": "bf16"})");
  ASSERT_TRUE(r.errors.empty());
  EXPECT_EQ(r.configs[0].config.k, 64);  // 128 B of bf16

  r = parse(R"({"arch": "sm90", "tile": "128x128x128", "dtype": "bf16"})");
  EXPECT_EQ(r.configs[0].config.k, 128);  // plain names are elements
}

TEST(TrtllmTileNames, BytesThatAreNotWholeElementsAreAnError) {
  const auto r = parse(R"({"arch": "sm90", "tile": "128x128x3B", "dtype": "bf16"})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(format_error(r.errors[0]),
            "t.json: config #0: field \"tile\": 3 bytes of K is not a whole number of bf16 "
            "elements within 1..65536");
}

}  // namespace
}  // namespace tilefit::io
