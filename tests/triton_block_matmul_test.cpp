// The block-quantised matmul family (triton_block_matmul): vLLM's _w8a8_triton_block_scaled_mm and
// _w8a8_block_int8_matmul, SGLang's _w8a8_block_fp8_matmul and _w8a8_block_int8_matmul, their
// tuned tables' grammar (N=…,K=…,device_name=…,dtype=…,block_shape=[…].json), the int8 tl.dot of
// the shared Triton rules, hand-computed buffers, and the measured rows of
// tests/data/engines-triton-3.6.jsonl read through the real reader.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

#include "tilefit/report/diagnostic_text.hpp"
#include "io/block_table_name.hpp"
#include "io/tuned_file.hpp"
#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"

namespace tilefit {
namespace {

namespace fs = std::filesystem;
using io::detail::parse_tuned_name;

constexpr const char* kEntry =
    R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 32,
        "num_warps": 4, "num_stages": 4})";

io::LoadResult load_table(const std::string& entries, const std::string& name) {
  return io::load<io::LoadResult>(io::Source::text(entries, name));
}

model::KernelConfig block_config(const char* dtype, int arch, long long m, long long n, long long k,
                                 int warps, int stages) {
  model::KernelConfig c = test::make_config("triton_block_matmul", arch, m, n, k,
                                            std::string(dtype) == "int8_w8a8" ? "s8" : "e4m3");
  c.fp8_w8a8 = std::string(dtype) == "fp8_w8a8";
  c.c = c.d = model::DType::BF16;
  c.num_warps = warps;
  c.stages = stages;
  c.block_shape = std::array<long long, 2>{128, 128};
  return c;
}

// ---- the name's grammar ----------------------------------------------------------------------

TEST(BlockTableName, VllmAndSglangSpellings) {
  const auto v = parse_tuned_name(
      "vllm/model_executor/layers/quantization/utils/configs/"
      "N=7168,K=2304,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json");
  EXPECT_TRUE(v.matches);
  EXPECT_TRUE(v.block_matmul);
  EXPECT_EQ(v.n, 7168);
  EXPECT_EQ(v.k, 2304);
  EXPECT_EQ(v.device_name, "NVIDIA_H100_80GB_HBM3");
  EXPECT_EQ(v.dtype, "fp8_w8a8");
  EXPECT_EQ(*v.block_shape, (std::array<long long, 2>{128, 128}));
  EXPECT_EQ(v.engine, model::Launcher::Vllm);

  const auto s = parse_tuned_name(
      "N=576,K=7168,device_name=NVIDIA_H20,dtype=int8_w8a8,block_shape=[128, 64].json");
  EXPECT_TRUE(s.matches);
  EXPECT_EQ(s.dtype, "int8_w8a8");
  EXPECT_EQ(*s.block_shape, (std::array<long long, 2>{128, 64}));
  EXPECT_EQ(s.engine, model::Launcher::Sglang);  // SGLang's list repr, with a space

  // Read, not modelled: SGLang's per-channel tables and vLLM's per-token form.
  const auto ch = parse_tuned_name(
      "N=4096,K=4096,device_name=NVIDIA_L40S,dtype=fp8_w8a8_channelwise,block_shape=[128, "
      "128].json");
  EXPECT_TRUE(ch.matches);
  EXPECT_EQ(ch.dtype, "fp8_w8a8_channelwise");
  const auto pt = parse_tuned_name(
      "N=4096,K=4096,device_name=NVIDIA_H100,dtype=fp8_w8a8_per_token,input_dtype=bf16,out_dtype="
      "bf16.json");
  EXPECT_TRUE(pt.matches);
  EXPECT_EQ(pt.dtype, "fp8_w8a8_per_token,input_dtype=bf16,out_dtype=bf16");
  EXPECT_FALSE(pt.block_shape);
}

// A block table's name is never read as a fused-MoE table, and a part that does not parse is
// one error naming the part and this grammar.
TEST(BlockTableName, APartThatDoesNotParseIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"N=8,K=16,device_name=X,dtype=fp8_w8a8,block_shape=[0,128].json", "block_shape=[0,128]"},
      {"N=8,K=16,device_name=X,dtype=fp8_w8a8,block_shape=[abc].json", "block_shape=[abc]"},
      {"N=8,K=16,device_name=X,dtype=fp8_w8a8,block_shape=[128,128,128].json",
       "block_shape=[128,128,128]"},
      {"N=8,K=16,device_name=X,dtype=fp8_w8a8,foo=bar.json", "foo=bar"},
      {"N=8,K=16,device_name=X,dtype=fp8_w8a8,dtype=int8_w8a8.json", "dtype=int8_w8a8"},
      {"N=8,K=0,device_name=X,dtype=fp8_w8a8.json", "K=0"},
      {"N=8,E=16,device_name=X,dtype=fp8_w8a8.json", "E=16"},
      {"N=8,K=16,device_name=X,block_shape=[128,128].json",
       "N=8,K=16,device_name=X,block_shape=[128,128]"},
  };
  for (const auto& [file, part] : cases) {
    SCOPED_TRACE(file);
    const auto n = parse_tuned_name(file);
    EXPECT_FALSE(n.matches);
    EXPECT_EQ(n.error_part, part);
    const std::string msg = io::detail::tuned_name_error(n);
    EXPECT_NE(msg.find("a block-quantised matmul's tuned table is named N={n},K={k}"),
              std::string::npos)
        << msg;
  }
  const io::LoadResult r = load_table(
      std::string(R"({"1": )") + kEntry + "}",
      "N=7168,K=2304,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128,128,128].json");
  EXPECT_TRUE(r.configs.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(io::format_error(r.errors[0]),
            "N=7168,K=2304,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128,128,128].json: "
            "the file name's part \"block_shape=[128,128,128]\": not a block shape; allowed: "
            "[N,K] or [N, K] with positive whole numbers; a block-quantised matmul's tuned table "
            "is named N={n},K={k},device_name={name},dtype={fp8_w8a8|int8_w8a8|…},"
            "block_shape=[{n},{k}][,input_dtype={t}][,out_dtype={t}].json");
}

// ---- entries -------------------------------------------------------------------------------

TEST(BlockTable, EntriesAreBlockMatmulConfigs) {
  const io::LoadResult r = load_table(
      std::string(R"({"1": )") + kEntry +
          R"(, "4096": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 256}})",
      "vllm/configs/N=7168,K=2304,device_name=NVIDIA_B200,dtype=fp8_w8a8,block_shape=[128,128]"
      ".json");
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 2u);
  const model::KernelConfig& a = r.configs[0].config;
  EXPECT_EQ(a.name, "1");
  EXPECT_EQ(a.family, "triton_block_matmul");
  EXPECT_TRUE(a.fp8_w8a8);
  EXPECT_TRUE(a.unmodelled_dtype.empty());
  EXPECT_EQ(a.d, model::DType::BF16);
  EXPECT_EQ(a.engine, model::EngineRelease::Vllm6adad087);
  EXPECT_EQ(a.tuned_device, "NVIDIA_B200");
  // vLLM passes the entry as **config: no BLOCK_SIZE_K clamp (fused-MoE's launcher clamps).
  const model::KernelConfig& b = r.configs[1].config;
  EXPECT_EQ(b.k, 256);
  EXPECT_EQ(b.tuned_block_k, 0);
  EXPECT_FALSE(b.num_warps);  // Triton's defaults 4 and 3
  EXPECT_FALSE(b.stages);

  const io::LoadResult i =
      load_table(std::string(R"({"8": )") + kEntry + "}",
                 "python/sglang/kernels/ops/quantization/configs/"
                 "N=576,K=7168,device_name=NVIDIA_H20,dtype=int8_w8a8,block_shape=[128, 128].json");
  ASSERT_EQ(i.configs.size(), 1u);
  EXPECT_EQ(i.configs[0].config.a.elem, model::DType::S8);
  EXPECT_FALSE(i.configs[0].config.fp8_w8a8);
  EXPECT_EQ(i.configs[0].config.engine, model::EngineRelease::SglangD6ef6888);
}

TEST(BlockTable, OtherDtypesAreReadAndNotModelled) {
  const io::LoadResult r = load_table(
      std::string(R"({"1": )") + kEntry + "}",
      "N=4096,K=4096,device_name=NVIDIA_L40S,dtype=fp8_w8a8_channelwise,block_shape=[128, "
      "128].json");
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.configs.size(), 1u);
  model::KernelConfig cfg = r.configs[0].config;
  cfg.arch = 89;
  const model::Result res = test::eval(cfg);
  EXPECT_EQ(res.status, model::Status::Invalid);
  ASSERT_TRUE(test::has(res, model::Code::triton_block_unmodelled_dtype));
  const auto notes = test::notes(res);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("dtype fp8_w8a8_channelwise is not modelled"), std::string::npos)
      << notes[0];
}

// SGLang's fp8 reader raises a BLOCK_SIZE_K below block_k that does not divide it to block_k
// (fp8_kernel.py:1266-1273); its int8 reader and vLLM's do not.
TEST(BlockTable, SglangRaisesBlockK) {
  const std::string entry =
      R"({"1": {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "num_warps": 4,
                "num_stages": 3}})";
  const io::LoadResult s =
      load_table(entry,
                 "sglang/N=512,K=7168,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, 96]"
                 ".json");
  ASSERT_EQ(s.configs.size(), 1u);
  EXPECT_EQ(s.configs[0].config.k, 96);
  EXPECT_EQ(s.configs[0].config.tuned_block_k, 64);
  model::KernelConfig cfg = s.configs[0].config;
  cfg.arch = 90;
  const model::Result res = test::eval(cfg);
  EXPECT_TRUE(test::has(res, model::Code::triton_block_k_raised));
  EXPECT_FALSE(test::has(res, model::Code::triton_block_k_clamped));
  EXPECT_EQ(res.status, model::Status::Invalid);  // 96 is not a power of two

  const io::LoadResult d =
      load_table(entry,
                 "sglang/N=512,K=7168,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, 128]"
                 ".json");
  EXPECT_EQ(d.configs[0].config.k, 64);  // 128 % 64 == 0: passed as written
  const io::LoadResult v = load_table(
      entry, "vllm/N=512,K=7168,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128,96].json");
  EXPECT_EQ(v.configs[0].config.k, 64);
}

// ---- the model: hand-computed buffers -------------------------------------------------------

// sm_90 fp8 64x64x128, 4 warps, 3 stages: wgmma (BM % 64 == 0, BK >= 32), num_stages buffers of
// A (64·128 B) and B (128·64 B): 3·8192 + 3·8192 = 49152. The scales have BM = BN = 64 < 32·4
// elements: not expensive, no conversion scratch; the epilogue's 64x64 bf16 conversion (at most
// 8192 B) reuses the pipeline buffers.
TEST(BlockMatmulModel, HopperFp8Wgmma) {
  const model::Result r = test::eval(block_config("fp8_w8a8", 90, 64, 64, 128, 4, 3));
  ASSERT_EQ(r.status, model::Status::Fits);
  EXPECT_EQ(*r.smem_bytes, 49152);
}

// int8 on sm_100: Triton 3.6 does not use tcgen05 for an i8 dot, so mma.sync with num_stages - 1
// cp.async buffers: 64x64x128 w4 s4 = 3·8192 + 3·8192 = 49152 (measured: SGLang
// _w8a8_block_int8_matmul, N=576,K=7168,NVIDIA_H20 key 2048 compiled for sm_100: 49152).
TEST(BlockMatmulModel, Int8OnBlackwellIsMmaSync) {
  const model::Result r = test::eval(block_config("int8_w8a8", 100, 64, 64, 128, 4, 4));
  ASSERT_EQ(r.status, model::Status::Fits);
  EXPECT_EQ(*r.smem_bytes, 49152);
  EXPECT_TRUE(test::has(r, model::Code::triton_mma_fallback));
  // fp8 with the same tile is an asynchronous tcgen05 MMA: 4 buffers each, the 1-deep b_scale
  // buffer (64·4 B) and 2 mbarriers: 32768 + 32768 + 256 + 16 = 65808.
  const model::Result f = test::eval(block_config("fp8_w8a8", 100, 64, 64, 128, 4, 4));
  EXPECT_EQ(*f.smem_bytes, 65808);
}

// sm_100 fp8 128x64x128 w8 s5 (vLLM _w8a8_triton_block_scaled_mm, measured 123152): 5·16384 (A)
// + 5·8192 (B) + 64·4 (b_scale buffer) + 16 (barriers).
TEST(BlockMatmulModel, BlackwellFp8Async) {
  const model::Result r = test::eval(block_config("fp8_w8a8", 100, 128, 64, 128, 8, 5));
  EXPECT_EQ(*r.smem_bytes, 5 * 16384 + 5 * 8192 + 256 + 16);
}

// A's scales, one element per thread (no contiguous [BM] access in their slice), need no
// conversion scratch where fused_moe's token-gathered ones (2 per thread at BM = 256, 4 warps)
// need 1024 B: sm_100 fp8 256x64x128 w4 s3, asynchronous tcgen05 = 3·32768 (A) + 3·8192 (B) +
// 64·4 (b_scale buffer) + 16 (barriers) = 123152, measured (vLLM and SGLang fp8 kernels);
// the fused-MoE kernel with the same tile: 124176.
TEST(BlockMatmulModel, AScalesAreNotVectorised) {
  const model::KernelConfig cfg = block_config("fp8_w8a8", 100, 256, 64, 128, 4, 3);
  EXPECT_EQ(*test::eval(cfg).smem_bytes, 3 * 32768 + 3 * 8192 + 256 + 16);
  model::KernelConfig moe = cfg;
  moe.family = "triton_fused_moe";
  EXPECT_EQ(*test::eval(moe).smem_bytes, 3 * 32768 + 3 * 8192 + 256 + 16 + 1024);
}

// fp8e4nv needs sm_89; int8 runs everywhere from sm_80 and is never promoted to f16.
TEST(BlockMatmulModel, Fp8NeedsSm89Int8DoesNot) {
  const model::Result f = test::eval(block_config("fp8_w8a8", 80, 64, 64, 128, 4, 3));
  EXPECT_EQ(f.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(f, model::Code::triton_fp8_needs_sm89));
  const model::Result i = test::eval(block_config("int8_w8a8", 80, 64, 64, 128, 4, 3));
  EXPECT_EQ(i.status, model::Status::Fits);
  EXPECT_EQ(*i.smem_bytes, 2 * 8192 + 2 * 8192);  // mma.sync: num_stages - 1 buffers
  EXPECT_FALSE(test::has(i, model::Code::triton_fp8_promoted));
}

// tl.dot needs K >= 32 for 8-bit operands, int8 as fp8 (min_dot_size, backend/compiler.py).
TEST(BlockMatmulModel, Int8DotNeedsK32) {
  const model::Result r = test::eval(block_config("int8_w8a8", 89, 64, 64, 16, 4, 3));
  EXPECT_EQ(r.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(r, model::Code::triton_dot_k_min));
}

TEST(BlockMatmulModel, OtherOperandTypesAreRefused) {
  const model::Result r =
      test::eval(test::make_config("triton_block_matmul", 90, 64, 64, 64, "bf16"));
  EXPECT_EQ(r.status, model::Status::Invalid);
  EXPECT_TRUE(test::has(r, model::Code::triton_dtype));
}

// A config names the kernel and the quantisation; C's type is `d` (bf16 by default). Measured
// (Triton 3.6 compiles of _w8a8_triton_block_scaled_mm / _w8a8_block_int8_matmul with a f16 or
// f32 C, 64x128x128 w4 s3): 74240 B on sm_90 and 49664 B on sm_120 for every C type — the
// epilogue's conversion stays below the K loop's buffers there.
TEST(BlockMatmulConfig, ConfigsNameTheKernelAndTheQuantisation) {
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::text(
      R"({"configs": [
        {"name": "fp8_f32", "kernel": "triton_block_matmul", "dtype": "fp8_w8a8", "d": "f32",
         "tile": [64, 128, 128], "num_warps": 4, "stages": 3, "block_shape": [128, 128]},
        {"name": "fp8_f16", "kernel": "triton_block_matmul", "dtype": "fp8_w8a8", "d": "f16",
         "tile": [64, 128, 128], "num_warps": 4, "stages": 3},
        {"name": "int8_f32", "kernel": "triton_block_matmul", "dtype": "int8_w8a8", "d": "f32",
         "tile": [64, 128, 128], "num_warps": 4, "stages": 3},
        {"name": "int8_default_c", "kernel": "triton_block_matmul", "dtype": "int8_w8a8",
         "tile": [64, 128, 128], "num_warps": 4, "stages": 3}]})",
      "block.json"));
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 4u);
  EXPECT_EQ(r.configs[0].config.d, model::DType::F32);
  EXPECT_TRUE(r.configs[0].config.fp8_w8a8);
  EXPECT_EQ(r.configs[2].config.a.elem, model::DType::S8);
  EXPECT_EQ(r.configs[3].config.d, model::DType::BF16);
  for (const auto& [arch, bytes] : {std::pair{90, 74240}, std::pair{120, 49664}}) {
    for (const io::LoadedConfig& c : r.configs) {
      SCOPED_TRACE(c.config.name + " sm_" + std::to_string(arch));
      model::KernelConfig cfg = c.config;
      cfg.arch = arch;
      const model::Result res = test::eval(cfg);
      ASSERT_EQ(res.status, model::Status::Fits);
      EXPECT_EQ(*res.smem_bytes, bytes);
    }
  }
  // int8_w8a8 is the block matmuls' name; other kernels take s8 or are refused.
  const io::LoadResult bad = io::load<io::LoadResult>(io::Source::text(
      R"({"configs": [{"kernel": "triton_matmul", "dtype": "int8_w8a8", "tile": [64, 64, 64]}]})",
      "bad.json"));
  EXPECT_TRUE(bad.configs.empty());
  EXPECT_FALSE(bad.errors.empty());
}

// ---- ground truth: the measured rows through the real reader -------------------------------

struct EngineRow {
  std::string id;
  nlohmann::json row;
};
void PrintTo(const EngineRow& r, std::ostream* os) { *os << r.id; }

/// The block-matmul rows of the engines' measured file (test::engine_rows_path()).
std::vector<EngineRow> block_rows() {
  const std::string path = test::engine_rows_path();
  std::vector<EngineRow> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    const std::string kernel = j.value("kernel", "");
    if (kernel.find("w8a8") == std::string::npos || kernel.find("moe") != std::string::npos)
      continue;
    out.push_back({j["id"].get<std::string>(), std::move(j)});
  }
  return out;
}

class BlockMatmulGroundTruth : public ::testing::TestWithParam<EngineRow> {};

// Writes the row's entry, under its key, to a temporary table named and placed as the row's
// table (the engine's folder decides whose launcher applies), loads it with io::load, checks it
// for the row's architecture and compares the status and smem_bytes.
TEST_P(BlockMatmulGroundTruth, MatchesMeasured) {
  const nlohmann::json& row = GetParam().row;
  const std::string engine_dir = row["engine"] == "sglang" ? "sglang" : "vllm";
  const fs::path dir = fs::temp_directory_path() /
                       ("tilefit-blockmm-" + std::to_string(::getpid())) / engine_dir /
                       fs::path(row["table"].get<std::string>()).parent_path();
  fs::create_directories(dir);
  const fs::path file = dir / row["table_name"].get<std::string>();
  {
    // The AMD tables' ROCm-only keys (waves_per_eu, matrix_instr_nonkdim, kpack) are not
    // Triton CUDA options; the measurement compiled the entry without them, and so is it read
    // here (how the reader reports them is the tuned-table decoder's rule, tested there).
    nlohmann::json entry = row["entry"];
    for (const char* amd : {"waves_per_eu", "matrix_instr_nonkdim", "kpack"}) entry.erase(amd);
    nlohmann::json table;
    table[row["key"].get<std::string>()] = entry;
    std::ofstream(file) << table.dump();
  }
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::file(file.string()));
  fs::remove(file);
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 1u);
  model::KernelConfig cfg = r.configs[0].config;
  EXPECT_EQ(cfg.family, "triton_block_matmul");
  const std::string arch = row["arch"].get<std::string>();
  cfg.arch = std::stoi(arch.substr(3));
  const model::Result res = test::eval(cfg);
  std::string notes;
  for (const auto& n : test::notes(res)) notes += "\n  note: " + n;
  notes += "\n  kernel: " + report::kernel_description(res.kernel);
  const nlohmann::json& expect = row["expect"];
  EXPECT_EQ(std::string(model::status_name(res.status)), expect["status"].get<std::string>())
      << notes;
  if (expect.contains("smem_bytes")) {
    ASSERT_TRUE(res.smem_bytes.has_value()) << notes;
    EXPECT_EQ(*res.smem_bytes, expect["smem_bytes"].get<model::Bytes>()) << notes;
  }
}

std::string engine_row_name(const ::testing::TestParamInfo<EngineRow>& info) {
  std::string s = info.param.id;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// The measured file holds block-matmul rows of every kernel (the suite above would be empty
// without it).
TEST(BlockMatmulGroundTruthRows, EveryKernelIsMeasured) {
  const std::vector<EngineRow> rows = block_rows();
  EXPECT_GT(rows.size(), 3000u) << test::engine_rows_path();
  std::set<std::string> kernels;
  for (const EngineRow& r : rows)
    kernels.insert(r.row["engine"].get<std::string>() + " " + r.row["kernel"].get<std::string>());
  EXPECT_EQ(kernels, (std::set<std::string>{
                         "sglang _w8a8_block_fp8_matmul", "sglang _w8a8_block_int8_matmul",
                         "vllm _w8a8_block_int8_matmul", "vllm _w8a8_triton_block_scaled_mm"}));
}

INSTANTIATE_TEST_SUITE_P(Engines, BlockMatmulGroundTruth, ::testing::ValuesIn(block_rows()),
                         engine_row_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BlockMatmulGroundTruth);

}  // namespace
}  // namespace tilefit
