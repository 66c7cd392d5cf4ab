// The modelled engine releases (model/engine_release.hpp) and how a tuned table's path picks one.
#include <gtest/gtest.h>

#include "io/tuned_file.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit::model {
namespace {

TEST(EngineRelease, ParsesNamesAndCommitPrefixes) {
  EXPECT_EQ(parse_engine_release("vllm"), EngineRelease::Vllm6adad087);
  EXPECT_EQ(parse_engine_release("sglang"), EngineRelease::SglangD6ef6888);
  EXPECT_EQ(parse_engine_release("vllm@000d1458"), EngineRelease::Vllm000d1458);
  EXPECT_EQ(parse_engine_release("vllm@6ADAD08767583F52"), EngineRelease::Vllm6adad087);
  EXPECT_EQ(parse_engine_release("sglang@d6ef68881e263812d4901f632786015005c4d050"),
            EngineRelease::SglangD6ef6888);
  EXPECT_EQ(parse_engine_release("vllm@6adad08"), std::nullopt);   // 7 digits: too short
  EXPECT_EQ(parse_engine_release("vllm@d6ef6888"), std::nullopt);  // SGLang's commit
  EXPECT_EQ(parse_engine_release("vllm@6adad08g"), std::nullopt);  // not hex
  EXPECT_EQ(parse_engine_release("none"), std::nullopt);
  EXPECT_EQ(parse_engine_release("trtllm@6adad087"), std::nullopt);
}

TEST(EngineRelease, TextRoundTrips) {
  for (const EngineReleaseInfo& r : engine_releases()) {
    EXPECT_EQ(parse_engine_release(engine_release_text(r.release)), r.release);
    EXPECT_EQ(r.commit.size(), 40u);
  }
  EXPECT_EQ(engine_release_text(EngineRelease::Vllm000d1458), "vllm@000d1458");
  EXPECT_EQ(engine_release_text(EngineRelease::None), "");
  EXPECT_EQ(newest_release(Launcher::Vllm), EngineRelease::Vllm6adad087);
  EXPECT_EQ(newest_release(Launcher::None), EngineRelease::None);
}

TEST(EngineRelease, TunedTablePathNamesTheEngine) {
  using io::detail::parse_tuned_name;
  EXPECT_EQ(parse_tuned_name("E=8,N=64,device_name=NVIDIA_H100.json").engine, Launcher::Vllm);
  EXPECT_EQ(parse_tuned_name("configs/triton_3_4_0/E=8,N=64,device_name=NVIDIA_H100.json").engine,
            Launcher::Sglang);
  EXPECT_EQ(parse_tuned_name("x/sglang/y/E=8,N=64,device_name=NVIDIA_H100.json").engine,
            Launcher::Sglang);
  EXPECT_EQ(parse_tuned_name(
                "E=8,N=64,device_name=NVIDIA_H100,dtype=fp8_w8a8,block_shape=[128, 128].json")
                .engine,
            Launcher::Sglang);
  EXPECT_EQ(
      parse_tuned_name("E=8,N=64,device_name=NVIDIA_H100,dtype=fp8_w8a8,block_shape=[128,128].json")
          .engine,
      Launcher::Vllm);
}

}  // namespace
}  // namespace tilefit::model
