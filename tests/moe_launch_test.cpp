// triton_fused_moe as vLLM 6adad087 and SGLang d6ef6888 launch a tuned-table entry: the new entry
// keys (USE_TMA, num_ctas, the AMD keys) through the real reader with their errors, and
// hand-computed sizes of SWAP_AB, SGLang's unclamped BLOCK_SIZE_K, int8_w8a16 and TMA.
#include <gtest/gtest.h>

#include <string>

#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit {
namespace {

io::LoadResult read_moe_table(const std::string& entry, const std::string& path) {
  return io::load<io::LoadResult>(io::Source::text("{\"1\": " + entry + "}", path));
}

model::KernelConfig moe_entry(const std::string& entry, const std::string& path, int arch) {
  const io::LoadResult r = read_moe_table(entry, path);
  EXPECT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  EXPECT_EQ(r.configs.size(), 1u);
  model::KernelConfig cfg = r.configs.at(0).config;
  cfg.arch = arch;
  return cfg;
}

constexpr const char* kVllmFp8 =
    "vllm/E=8,N=512,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json";
constexpr const char* kSglangBlock =
    "sglang/triton_3_4_0/E=8,N=512,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, "
    "128].json";

TEST(MoeLaunch, AmdKeysAreReadAndWarnedAboutOnNvidia) {
  const auto cfg = moe_entry(
      R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "num_warps": 4,
          "num_stages": 2, "waves_per_eu": 0, "matrix_instr_nonkdim": 16, "kpack": 2})",
      "E=8,N=512,device_name=NVIDIA_H100_80GB_HBM3.json", 90);
  EXPECT_EQ(cfg.tuned.waves_per_eu, 0);
  EXPECT_EQ(cfg.tuned.matrix_instr_nonkdim, 16);
  EXPECT_EQ(cfg.tuned.kpack, 2);
  const auto res = test::eval(cfg);
  EXPECT_NE(res.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(res, model::Code::triton_amd_keys_ignored));
}

TEST(MoeLaunch, BadEntryKeysAreInputErrorsNamingFieldValueAndAllowed) {
  const std::string path = "E=8,N=512,device_name=NVIDIA_H100_80GB_HBM3.json";
  const auto kpack = read_moe_table(
      R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "kpack": 3})", path);
  ASSERT_EQ(kpack.errors.size(), 1u);
  EXPECT_EQ(io::format_error(kpack.errors[0]),
            path + ": config #0 \"1\": field \"kpack\": 3 is not a valid kpack; allowed: 1 or 2");
  const auto waves = read_moe_table(
      R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "waves_per_eu": -1})", path);
  ASSERT_EQ(waves.errors.size(), 1u);
  EXPECT_EQ(io::format_error(waves.errors[0]),
            path +
                ": config #0 \"1\": field \"waves_per_eu\": -1 is not a valid waves_per_eu; "
                "allowed: non-negative integers");
  const auto tma = read_moe_table(
      R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "USE_TMA": "yes"})", path);
  ASSERT_EQ(tma.errors.size(), 1u);
  EXPECT_EQ(io::format_error(tma.errors[0]),
            path +
                ": config #0 \"1\": field \"USE_TMA\": expected true or false, got \"yes\"; "
                "allowed: true, false");
  const auto ctas = read_moe_table(
      R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "num_ctas": 0})", path);
  ASSERT_EQ(ctas.errors.size(), 1u);
  EXPECT_EQ(io::format_error(ctas.errors[0]),
            path +
                ": config #0 \"1\": field \"num_ctas\": 0 is not a valid num_ctas; allowed: "
                "integers 1..16");
}

TEST(MoeLaunch, NumCtasOneIsTheDefaultMoreIsNotModelled) {
  const std::string e = R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, )";
  const auto one =
      test::eval(moe_entry(e + R"("num_ctas": 1})", "E=8,N=3584,device_name=NVIDIA_L40S.json", 89));
  EXPECT_NE(one.status, model::Status::Invalid);
  const auto two =
      test::eval(moe_entry(e + R"("num_ctas": 2})", "E=8,N=3584,device_name=NVIDIA_L40S.json", 89));
  EXPECT_EQ(two.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(two, model::Code::triton_moe_num_ctas));
}

// fp8 16x64x128, 4 warps, 3 stages on sm_90. vLLM 000d1458: mma v2 (BLOCK_SIZE_M 16), 2 buffers
// of A (16·128 B) and B (128·64 B) = 2 · 10240. vLLM 6adad087: SWAP_AB, the dot is 64x16x128 —
// wgmma (64 % 64 == 0, 16 % 16 == 0, K 128 >= 32) with 3 buffers of each = 30720.
TEST(MoeLaunch, SwapAbOnSm90MakesTheSmallTileAWgmmaDot) {
  const std::string e = R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128,
                            "num_warps": 4, "num_stages": 3})";
  model::KernelConfig cfg = moe_entry(e, kVllmFp8, 90);
  EXPECT_EQ(cfg.engine, model::EngineRelease::Vllm6adad087);
  const auto now = test::eval(cfg);
  ASSERT_TRUE(now.smem_bytes.has_value());
  EXPECT_EQ(*now.smem_bytes, 30720);
  EXPECT_TRUE(test::has(now, model::Code::triton_moe_swap_ab));
  ASSERT_TRUE(now.breakdown.has_value());
  EXPECT_EQ(now.breakdown->parts[static_cast<int>(model::Component::A)], 3 * 2048);
  EXPECT_EQ(now.breakdown->parts[static_cast<int>(model::Component::B)], 3 * 8192);
  cfg.engine = model::EngineRelease::Vllm000d1458;
  const auto before = test::eval(cfg);
  ASSERT_TRUE(before.smem_bytes.has_value());
  EXPECT_EQ(*before.smem_bytes, 20480);
  EXPECT_FALSE(test::has(before, model::Code::triton_moe_swap_ab));
  // Not on another GPU: the rule follows the target, not the table's H100.
  cfg.engine = model::EngineRelease::Vllm6adad087;
  cfg.arch = 100;
  EXPECT_FALSE(test::has(test::eval(cfg), model::Code::triton_moe_swap_ab));
}

// SGLang keeps BLOCK_SIZE_K 256 with block_shape [128, 128]; vLLM clamps it to 128.
TEST(MoeLaunch, SglangPassesBlockSizeKUnclamped) {
  const std::string e = R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 256,
                            "num_warps": 4, "num_stages": 3})";
  const auto sg = moe_entry(e, kSglangBlock, 90);
  EXPECT_EQ(sg.engine, model::EngineRelease::SglangD6ef6888);
  EXPECT_EQ(sg.k, 256);
  EXPECT_TRUE(test::has(test::eval(sg), model::Code::triton_moe_block_k_unclamped));
  const auto vl = moe_entry(
      e, "vllm/E=8,N=512,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128,128].json", 90);
  EXPECT_EQ(vl.k, 128);
  EXPECT_EQ(vl.tuned_block_k, 256);
}

// int8_w8a16 64x64x64, 4 warps, 3 stages on sm_90 (wgmma): A bf16 64·64·2 = 8192 in 3 buffers,
// B int8 64·64 = 4096 in 2 buffers, the converted bf16 B (8192) once = 24576 + 8192 + 8192.
TEST(MoeLaunch, Int8W8a16StoresTheConvertedBForWgmma) {
  const auto cfg = moe_entry(R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64,
                                 "num_warps": 4, "num_stages": 3})",
                             "E=8,N=512,device_name=NVIDIA_H200,dtype=int8_w8a16.json", 90);
  const auto res = test::eval(cfg);
  ASSERT_TRUE(res.smem_bytes.has_value());
  EXPECT_EQ(*res.smem_bytes, 40960);
  EXPECT_TRUE(test::has(res, model::Code::triton_moe_quant_ambiguous));
}

// SGLang bf16 _down table with USE_TMA on sm_120 (mma v2): 2 buffers of A (16·64·2) and B
// (64·64·2) = 20480, and 2 mbarriers of 8 B = 20496 (measured).
TEST(MoeLaunch, TmaCopiesHaveOneBarrierPerBuffer) {
  const std::string e = R"({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64,
                            "num_warps": 4, "num_stages": 3, "USE_TMA": true})";
  const std::string path =
      "sglang/triton_3_6_0/E=256,N=512,device_name=NVIDIA_RTX_PRO_6000_Blackwell_Server_Edition_"
      "down.json";
  const auto res = test::eval(moe_entry(e, path, 120));
  ASSERT_TRUE(res.smem_bytes.has_value());
  EXPECT_EQ(*res.smem_bytes, 20496);
  // Below sm_90 the descriptor loads are rewritten to pointer loads, not pipelined: A's one
  // [16, 64] copy (2048) and B's [1, 64, 64] -> dot operand conversion scratch (2048), live
  // together; the same at every num_stages (measured: engines row A_sglang_fused_moe_kernel_
  // sm_80_01264, this entry on sm_80: 4096).
  const auto ampere = test::eval(moe_entry(e, path, 80));
  EXPECT_EQ(ampere.status, model::Status::Fits);
  ASSERT_TRUE(ampere.smem_bytes.has_value());
  EXPECT_EQ(*ampere.smem_bytes, 4096);
  EXPECT_FALSE(test::has(ampere, model::Code::triton_moe_tma_unmodelled));
}

// SPLIT_K > 1 (issue: "fused_moe_kernel has no split-K" was an input error): vLLM 6adad087
// copies the entry and sets SPLIT_K = 1 before it launches fused_moe_kernel (fused_moe.py:842-843),
// so the entry runs as with SPLIT_K 1; SGLang passes **config to kernels without a SPLIT_K
// parameter (Triton refuses the keyword); vLLM 000d1458's rule stays (1 only).
TEST(MoeLaunch, SplitKFollowsEachLauncher) {
  const std::string tile = R"("BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128,
                              "num_warps": 4, "num_stages": 3)";
  const auto one = test::eval(moe_entry("{" + tile + R"(, "SPLIT_K": 1})", kVllmFp8, 90));
  const auto four = test::eval(moe_entry("{" + tile + R"(, "SPLIT_K": 4})", kVllmFp8, 90));
  EXPECT_EQ(four.status, one.status);
  ASSERT_TRUE(four.smem_bytes.has_value());
  EXPECT_EQ(*four.smem_bytes, *one.smem_bytes);
  EXPECT_TRUE(test::has(four, model::Code::triton_moe_split_k_reset));
  EXPECT_FALSE(test::has(one, model::Code::triton_moe_split_k_reset));

  const auto sglang = test::eval(moe_entry("{" + tile + R"(, "SPLIT_K": 1})", kSglangBlock, 90));
  EXPECT_EQ(sglang.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(sglang, model::Code::triton_moe_split_k_unknown));

  model::KernelConfig old = moe_entry("{" + tile + R"(, "SPLIT_K": 4})", kVllmFp8, 90);
  old.engine = model::EngineRelease::Vllm000d1458;
  const auto pinned = test::eval(old);
  EXPECT_EQ(pinned.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(pinned, model::Code::triton_moe_split_k));
}

}  // namespace
}  // namespace tilefit
