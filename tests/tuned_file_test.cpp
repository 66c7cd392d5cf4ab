// vLLM's and SGLang's tuned fused-MoE files read as they are: the file-name grammar, detection by
// name and by content, entries as configs, the launcher's BLOCK_SIZE_K clamp, triton_version,
// the device_name -> architecture table and target rules, and golden CLI output on files written
// for these tests in both engines' formats (tests/data/tuned/, configs/).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#include "io/tuned_file.hpp"
#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/analysis/target.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/products.hpp"

namespace tilefit {
namespace {

using io::detail::parse_tuned_name;

constexpr const char* kH100 =
    "configs/"
    "E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json";

// ---- file names ------------------------------------------------------------------------------

TEST(TunedName, VllmAndSglangSpellings) {
  const auto v = parse_tuned_name(
      "x/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json");
  EXPECT_TRUE(v.matches);
  EXPECT_EQ(v.device_name, "NVIDIA_H100_80GB_HBM3");
  EXPECT_EQ(v.dtype, "fp8_w8a8");
  ASSERT_TRUE(v.block_shape);
  EXPECT_EQ(*v.block_shape, (std::array<long long, 2>{128, 128}));
  EXPECT_EQ(v.triton_version, "");

  const auto s = parse_tuned_name(
      "configs/triton_3_4_0/E=256,N=128,device_name=NVIDIA_B200,dtype=fp8_w8a8,block_shape=[128, "
      "64]_down.json");
  EXPECT_TRUE(s.matches);
  EXPECT_EQ(s.device_name, "NVIDIA_B200");
  EXPECT_EQ(*s.block_shape, (std::array<long long, 2>{128, 64}));
  EXPECT_EQ(s.triton_version, "3.4.0");

  const auto plain = parse_tuned_name("E=64,N=1280,device_name=NVIDIA_A100-SXM4-80GB.json");
  EXPECT_TRUE(plain.matches);
  EXPECT_EQ(plain.dtype, "");
  EXPECT_FALSE(plain.block_shape);

  const auto pcq = parse_tuned_name(
      "E=8,N=7168,device_name=NVIDIA_H20,dtype=fp8_w8a8,per_channel_quant=True.json");
  EXPECT_TRUE(pcq.matches);
  EXPECT_TRUE(pcq.per_channel_quant);

  EXPECT_FALSE(parse_tuned_name("configs/sm120_gemm.json").matches);
  EXPECT_TRUE(
      parse_tuned_name("configs/sm120_gemm.json").error.empty());  // not a tuned name at all
}

// A name that begins like a tuned table's but has a part that does not parse names that part
// (issue 18: it used to be read as another kernel, 98304 B "fits" where 99328 B are needed).
TEST(TunedName, APartThatDoesNotParseIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"E=8,N=7168,device_name=X,block_shape=[0,128].json", "block_shape=[0,128]"},
      {"E=8,N=7168,device_name=X,block_shape=[0,0].json", "block_shape=[0,0]"},
      {"E=8,N=7168,device_name=X,block_shape=[abc].json", "block_shape=[abc]"},
      {"E=8,N=7168,device_name=X,block_shape=[-1,128].json", "block_shape=[-1,128]"},
      {"E=8,N=7168,device_name=X,block_shape=[128,128,128].json", "block_shape=[128,128,128]"},
      {"E=8,N=7168,device_name=X,block_shape=(128,128).json", "block_shape=(128,128)"},
      {"E=8,N=7168,device_name=X,block_shape=[128].json", "block_shape=[128]"},
      {"E=8,N=7168,device_name=X,foo=bar.json", "foo=bar"},
      {"E=8,N=7168,device_name=X,dtype=fp8_w8a8,dtype=int8_w8a16.json", "dtype=int8_w8a16"},
      {"E=8,N=7168,device_name=X,per_channel_quant=yes.json", "per_channel_quant=yes"},
      {"E=8,N=0,device_name=X.json", "N=0"},
      {"E=x,N=8,device_name=X.json", "E=x"},
      {"E=8,device_name=X,N=8.json", "device_name=X"},
      {"E=8,N=7168.json", "E=8,N=7168"},  // incomplete: the whole name
  };
  for (const auto& [file, part] : cases) {
    const auto n = parse_tuned_name(file);
    EXPECT_FALSE(n.matches) << file;
    EXPECT_EQ(n.error_part, part) << file;
    const std::string msg = io::detail::tuned_name_error(n);
    EXPECT_NE(msg.find(std::string("the file name's part \"") + part + "\""), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("E={experts},N={n},device_name={name}"), std::string::npos) << msg;
  }
  // Through the reader: one file-level error, nothing analysed.
  const io::LoadResult r = io::load<io::LoadResult>(
      io::Source::text(R"({"1": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128,
      "GROUP_SIZE_M": 1, "num_warps": 4, "num_stages": 3}})",
                       "E=8,N=7168,device_name=NVIDIA_H100_80GB_HBM3,block_shape=[0,128].json"));
  EXPECT_TRUE(r.configs.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(
      io::format_error(r.errors[0]),
      "E=8,N=7168,device_name=NVIDIA_H100_80GB_HBM3,block_shape=[0,128].json: the file name's part "
      "\"block_shape=[0,128]\": not a block shape; allowed: [N,K] or [N, K] with positive whole "
      "numbers "
      "(vLLM and SGLang leave the part out when there is none); a tuned fused-MoE table is named "
      "E={experts},N={n},device_name={name}[,dtype={dtype}][,block_shape=[{n},{k}]]"
      "[,per_channel_quant=True|False][_down].json");
}

// ---- entries -------------------------------------------------------------------------------

TEST(TunedFile, EveryBatchSizeIsAConfigNamedByItsKey) {
  const auto r = io::load<io::LoadResult>(io::Source::text(
      R"({"1": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 256, "GROUP_SIZE_M": 1,
                "num_warps": 4, "num_stages": 3},
          "4096": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64},
          "triton_version": "3.4.0"})",
      "t/E=8,N=512,device_name=NVIDIA_GeForce_RTX_5090,dtype=fp8_w8a8,block_shape=[128,"
      "128].json"));
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 2u);
  const auto& a = r.configs[0];
  EXPECT_EQ(a.config.name, "1");
  EXPECT_EQ(a.index, 0);
  EXPECT_FALSE(a.arch_given);
  EXPECT_EQ(a.config.family, "triton_fused_moe");
  EXPECT_TRUE(a.config.fp8_w8a8);
  EXPECT_EQ(a.config.k, 128);  // clamped to min(block_shape)
  EXPECT_EQ(a.config.tuned_block_k, 256);
  EXPECT_EQ(a.config.tuned_device, "NVIDIA_GeForce_RTX_5090");
  EXPECT_EQ(a.config.triton_version, "3.4.0");  // the key applies to every entry, even last
  const auto& b = r.configs[1];
  EXPECT_EQ(b.config.name, "4096");
  EXPECT_EQ(b.index, 1);
  EXPECT_FALSE(b.config.stages);     // Triton's default
  EXPECT_FALSE(b.config.num_warps);  // Triton's default
  EXPECT_EQ(b.config.tuned_block_k, 0);

  // The clamp is reported, with the values.
  model::KernelConfig cfg = a.config;
  cfg.arch = 120;
  const auto res = test::eval(cfg);
  EXPECT_TRUE(test::has(res, model::Code::triton_block_k_clamped));
  EXPECT_TRUE(test::has(res, model::Code::triton_version_differs));
}

TEST(TunedFile, DetectedByContentWhateverTheName) {
  const auto r = io::load<io::LoadResult>(io::Source::text(
      R"({"16": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 64}})", "table.json"));
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.configs.size(), 1u);
  EXPECT_EQ(r.configs[0].config.family, "triton_fused_moe");
  EXPECT_TRUE(r.configs[0].config.tuned_device.empty());
  EXPECT_FALSE(r.configs[0].config.fp8_w8a8);
}

TEST(TunedFile, ConfigsFilesWithATunedNameStayConfigsFiles) {
  const auto r = io::load<io::LoadResult>(io::Source::text(
      R"({"configs": [{"arch": "sm90", "tile": [128, 128, 64], "dtype": "bf16"}]})",
      "E=8,N=512,device_name=NVIDIA_H100.json"));
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.configs.size(), 1u);
  EXPECT_EQ(r.configs[0].config.family, "");
}

TEST(TunedFile, AnEmptyTableSaysSo) {
  const auto r =
      io::load<io::LoadResult>(io::Source::text("{}", "E=8,N=512,device_name=NVIDIA_H100.json"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("no batch-size entries"), std::string::npos);
}

TEST(TunedFile, OtherQuantisationsAreReadAndNotModelled) {
  const auto r = io::load<io::LoadResult>(
      io::Source::text(R"({"1": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64}})",
                       "E=8,N=512,device_name=NVIDIA_H200,dtype=int4_w4a16.json"));
  ASSERT_EQ(r.configs.size(), 1u);
  model::KernelConfig cfg = r.configs[0].config;
  cfg.arch = 90;
  const auto res = test::eval(cfg);
  EXPECT_EQ(res.status, model::Status::Invalid);
  // vLLM 6adad087 (the newest) runs fused_moe_kernel_gptq_awq, which an entry without SPLIT_K
  // cannot launch; 000d1458 keeps the old reason.
  EXPECT_TRUE(test::has(res, model::Code::triton_moe_gptq_split_k));
  cfg.engine = model::EngineRelease::Vllm000d1458;
  const auto old = test::eval(cfg);
  EXPECT_EQ(old.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(old, model::Code::triton_unmodelled_dtype));
}

// ---- products ------------------------------------------------------------------------------

TEST(Products, ExactNamesThenModelTokens) {
  EXPECT_EQ(model::find_product("NVIDIA_H100_80GB_HBM3").sm, 90);
  EXPECT_TRUE(model::find_product("NVIDIA_H100_80GB_HBM3").exact);
  EXPECT_EQ(model::find_product("NVIDIA H100 80GB HBM3").sm, 90);  // spaces as reported
  EXPECT_EQ(model::find_product("NVIDIA_GeForce_RTX_5090").sm, 120);
  EXPECT_EQ(model::find_product("NVIDIA_RTX_PRO_6000_Blackwell_Server_Edition").sm, 120);
  EXPECT_EQ(model::find_product("NVIDIA_GB10").sm, 121);
  EXPECT_EQ(model::find_product("NVIDIA_L40S").sm, 89);
  EXPECT_EQ(model::find_product("NVIDIA_L4").sm, 89);
  EXPECT_EQ(model::find_product("NVIDIA_A100-SXM4-80GB").sm, 80);
  EXPECT_EQ(model::find_product("NVIDIA_GeForce_RTX_4090").sm, 89);
  EXPECT_EQ(model::find_product("NVIDIA_B200").sm, 100);
  EXPECT_EQ(model::find_product("NVIDIA_GB200").sm, 100);
  EXPECT_EQ(model::find_product("NVIDIA_H20").sm, 90);
  // By token: vLLM maps any H200 name to NVIDIA_H200; other spellings of known models.
  const auto h200 = model::find_product("NVIDIA_H200_141GB_HBM3e");
  EXPECT_EQ(h200.sm, 90);
  EXPECT_FALSE(h200.exact);
  EXPECT_EQ(model::find_product("NVIDIA_GeForce_RTX_5060_Ti").sm, 120);
  EXPECT_EQ(model::find_product("NVIDIA_RTX_6000_Ada_Generation").sm, 89);
  // Unknown: not NVIDIA, or not a model tilefit knows.
  EXPECT_EQ(model::find_product("NVIDIA_M403").sm, 0);
  // AMD Instinct names map to gfx942 / gfx950 (issue 20, tests/amd_targets_test.cpp).
  EXPECT_EQ(model::find_product("AMD_Instinct_MI300X").sm, model::kGfx942);
  EXPECT_EQ(model::find_product("Intel(R)_Arc(TM)_Pro_B60_Graphics").sm, 0);
}

// ---- targets -------------------------------------------------------------------------------

class OneRtx5090 final : public device::DeviceSource {
 public:
  OneRtx5090() {
    gpu.index = 0;
    gpu.name = "NVIDIA GeForce RTX 5090";
    gpu.cc_major = 12;
    gpu.cc_minor = 0;
    gpu.limits = model::find_arch(120)->limits;
  }
  device::DeviceList all() const override { return std::vector<device::DeviceInfo>{gpu}; }
  device::DeviceResult one(int index) const override {
    if (index == 0) return gpu;
    return device::DeviceError{"", "out of range"};
  }
  device::DeviceInfo gpu;
};

model::KernelConfig tuned_entry(const std::string& device) {
  model::KernelConfig c;
  c.name = "64";
  c.family = "triton_fused_moe";
  c.m = 64;
  c.n = 128;
  c.k = 128;
  c.a = c.b = *model::parse_operand("e4m3");
  c.fp8_w8a8 = true;
  c.tuned_device = device;
  return c;
}

TEST(TunedTarget, DeviceNamePicksTheArchWithoutArchOrDevice) {
  using Mode = analysis::TargetRequest::Mode;
  const test::FakeDevices none = test::FakeDevices::none();
  for (Mode m : {Mode::per_config, Mode::builtin}) {
    analysis::TargetResolver r({m, {}, -1}, none);
    const auto res = r.resolve(tuned_entry("NVIDIA_H100_80GB_HBM3"), false);
    ASSERT_EQ(res.kind, analysis::Resolution::Kind::analyse);
    EXPECT_EQ(res.config.arch, 90);
    EXPECT_EQ(res.target.limits.optin_per_block, 232448);
    ASSERT_EQ(res.before.size(), 1u);
    EXPECT_EQ(res.before[0].code, model::Code::tuned_device_arch);
  }
  analysis::TargetResolver r({Mode::per_config, {}, -1}, none);
  const auto unknown = r.resolve(tuned_entry("NVIDIA_M403"), false);
  EXPECT_EQ(unknown.kind, analysis::Resolution::Kind::input_error);
  EXPECT_TRUE(unknown.file_level);
  EXPECT_NE(unknown.message.find("--arch"), std::string::npos);
}

TEST(TunedTarget, ArchAndDeviceSayWhereTheTableWasTuned) {
  using Mode = analysis::TargetRequest::Mode;
  OneRtx5090 gpu;
  analysis::TargetResolver on_device({Mode::device, {}, 0}, gpu);
  const auto d = on_device.resolve(tuned_entry("NVIDIA_H100_80GB_HBM3"), false);
  ASSERT_EQ(d.kind, analysis::Resolution::Kind::analyse);  // not an arch mismatch
  EXPECT_EQ(d.config.arch, 120);
  ASSERT_EQ(d.before.size(), 1u);
  EXPECT_EQ(d.before[0].code, model::Code::tuned_device_other_target);
  EXPECT_EQ(d.before[0].number("tuned_arch"), 90);

  analysis::TargetResolver by_arch({Mode::arch, {121}, -1}, gpu);
  const auto a = by_arch.resolve(tuned_entry("NVIDIA_M403"), false);  // unknown is fine here
  ASSERT_EQ(a.kind, analysis::Resolution::Kind::analyse);
  EXPECT_EQ(a.config.arch, 121);
  EXPECT_EQ(a.before[0].number("tuned_arch"), 0);
}

// ---- the CLI (the exact outputs: tests/data/golden/check_tuned_*.case) ------------------------

// The README's worked example: an H100 table checked for an RTX 5090.
TEST(TunedCli, H100TableOnRtx5090) {
  const auto r = test::run_command(std::string("check '") + kH100 + "' --arch sm_120");
  EXPECT_EQ(r.exit_code, 1) << r.err;  // two entries do not fit
  EXPECT_EQ(r.err, "");
  const auto j =
      test::run_command(std::string("check '") + kH100 + "' --arch sm_120 --format json");
  const auto doc = nlohmann::json::parse(j.out);
  for (const auto& res : doc["results"]) {
    EXPECT_EQ(res["kernel"], "triton_fused_moe");
    EXPECT_EQ(res["arch"], "sm_120");
    long long sum = 0;
    for (const auto& [k, v] : res["breakdown"].items()) sum += v.get<long long>();
    EXPECT_EQ(sum, res["smem_bytes"].get<long long>());
    if (res["name"] == "2048") {
      EXPECT_EQ(res["status"], "does_not_fit");
      EXPECT_EQ(res["smem_bytes"], 148480);
      EXPECT_EQ(res["max_stages"], 3);
      EXPECT_EQ(res["max_stages_smem_bytes"], 99328);
    }
  }
}

// Without --arch the file name's device picks the H100's limits: everything fits there.
TEST(TunedCli, H100TableOnItsOwnArch) {
  const auto r = test::run_command(std::string("check '") + kH100 + "' --builtin --breakdown");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// SGLang's layout: a per-Triton-version folder, "[128, 128]" with a space, a triton_version key.
TEST(TunedCli, SglangTableOnB200) {
  const auto r = test::run_command(
      "check "
      "'tests/data/tuned/sglang/triton_3_4_0/"
      "E=256,N=256,device_name=NVIDIA_B200,dtype=fp8_w8a8,block_shape=[128, 128].json' --format "
      "json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 4u);
  bool clamped = false, warned = false;
  for (const auto& res : doc["results"]) {
    EXPECT_EQ(res["arch"], "sm_100");
    for (const auto& d : res["diagnostics"]) {
      // SGLang d6ef6888 passes BLOCK_SIZE_K unclamped (vLLM clamps it).
      if (d["code"] == "triton_moe_block_k_unclamped") clamped = true;
      if (d["code"] == "triton_version_differs") {
        warned = true;
        EXPECT_EQ(d["severity"], "warning");
        EXPECT_EQ(d["version"], "3.4.0");
      }
    }
  }
  EXPECT_TRUE(clamped);
  EXPECT_TRUE(warned);
}

TEST(TunedCli, VllmTablesOfOtherKindsAndDevices) {
  const auto r = test::run_command("check tests/data/tuned/vllm/*.json");
  EXPECT_EQ(r.exit_code, 2);  // the unknown device is an input error
  EXPECT_NE(r.err.find("device_name \"NVIDIA_M403\" is not in tilefit's table"), std::string::npos)
      << r.err;
  // One error for the file, not one per entry.
  EXPECT_EQ(r.err.find("error:"), r.err.rfind("error:")) << r.err;
  // With --arch the same table is checked.
  const auto a = test::run_command(
      "check 'tests/data/tuned/vllm/E=16,N=1024,device_name=NVIDIA_M403.json' --arch sm_89");
  EXPECT_EQ(a.exit_code, 0) << a.err;
}

}  // namespace
}  // namespace tilefit
