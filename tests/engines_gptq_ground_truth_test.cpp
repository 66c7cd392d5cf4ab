// fused_moe_kernel_gptq_awq (vLLM 6adad087, SGLang d6ef6888) against Triton 3.6 compiles of it
// with each launcher's transformations applied to real tuned tables (the measure task's rows,
// its kernel's rows of tests/data/engines-triton-3.6.tar.xz).
//
// int4_w4a16 rows go through the real tuned-table reader: the row's entry under its key, in a
// table named as the row's table_name (SGLang's in its triton_X_Y_Z folder), evaluated for the
// row's arch; status and smem_bytes must be equal. SGLang's int4 tables are named with an empty
// device_name ("E=384,N=128,device_name=,dtype=int4_w4a16.json"), which the reader rejects as an
// input error of the name (a table no engine loads on a named device): the test names them with
// a device, which the model does not read.
//
// int8_w8a16 rows measure the same kernel with use_int8_w8a16 (group 128, the variant the file
// name cannot tell): tilefit routes int8_w8a16 tables to fused_moe_kernel, so these rows are read
// through the reader and then given to gptq_awq_plan directly.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/families/triton_fused_moe/gptq_awq.hpp"
#include "model/triton_gemm.hpp"
#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/result.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

std::vector<nlohmann::json> gptq_rows() {
  std::vector<nlohmann::json> rows;
  std::ifstream in(test::engine_rows_path());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    // Only this kernel's rows (the file can be swapped for the whole engines-triton-3.6.jsonl).
    nlohmann::json row = nlohmann::json::parse(line);
    if (row.value("kernel", "") == "fused_moe_kernel_gptq_awq") rows.push_back(std::move(row));
  }
  return rows;
}

std::string gptq_table_path(const nlohmann::json& row) {
  const std::string table = row["table"].get<std::string>();
  std::string name = row["table_name"].get<std::string>();
  const std::size_t empty = name.find("device_name=,");
  if (empty != std::string::npos) name.insert(empty + 12, "NVIDIA_H100_80GB_HBM3");
  if (row["engine"] == "sglang") {
    const std::string base = row["table_name"].get<std::string>();
    const std::string dir = table.substr(0, table.size() - base.size() - 1);
    return "sglang/" + dir.substr(dir.find_last_of('/') + 1) + "/" + name;
  }
  return "vllm/" + name;
}

model::KernelConfig gptq_row_config(const nlohmann::json& row) {
  nlohmann::json table;
  table[row["key"].get<std::string>()] = row["entry"];
  const auto r = io::load<io::LoadResult>(io::Source::text(table.dump(), gptq_table_path(row)));
  EXPECT_TRUE(r.errors.empty()) << row["id"] << ": " << io::format_error(r.errors[0]);
  EXPECT_EQ(r.configs.size(), 1u) << row["id"];
  model::KernelConfig cfg = r.configs.at(0).config;
  cfg.arch = std::stoi(row["arch"].get<std::string>().substr(3));
  return cfg;
}

TEST(EnginesGptqGroundTruth, Int4RowsThroughTheRealReader) {
  int checked = 0, fits = 0;
  for (const auto& row : gptq_rows()) {
    if (row["context"]["quant"] != "int4_w4a16") continue;
    const model::KernelConfig cfg = gptq_row_config(row);
    const model::ArchInfo* arch = model::find_arch(cfg.arch);
    ASSERT_NE(arch, nullptr);
    const model::Result res = model::evaluate(cfg, arch->limits);
    const std::string want = row["expect"]["status"].get<std::string>();
    EXPECT_EQ(std::string(model::status_name(res.status)), want) << row["id"];
    if (want != "invalid") {
      ASSERT_TRUE(res.smem_bytes.has_value()) << row["id"];
      EXPECT_EQ(*res.smem_bytes, row["expect"]["smem_bytes"].get<model::Bytes>()) << row["id"];
      ++fits;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 192);  // SGLang 160, vLLM 32 (AMD tables: the entries carry SPLIT_K)
  EXPECT_EQ(fits, 192);
}

TEST(EnginesGptqGroundTruth, Int8GroupRowsThroughTheKernelRules) {
  int exact = 0, invalid = 0;
  for (const auto& row : gptq_rows()) {
    if (row["context"]["quant"] != "int8_w8a16") continue;
    const model::KernelConfig cfg = gptq_row_config(row);
    const model::Plan p =
        model::triton_fused_moe::gptq_awq_plan(cfg, 8, true, model::Findings(true));
    const std::string want = row["expect"]["status"].get<std::string>();
    if (want == "invalid") {
      // vLLM: every int8_w8a16 entry lacks SPLIT_K.
      EXPECT_TRUE(p.invalid) << row["id"];
      ASSERT_FALSE(p.reasons.empty()) << row["id"];
      EXPECT_EQ(p.reasons[0].code, model::Code::triton_moe_gptq_split_k) << row["id"];
      ++invalid;
      continue;
    }
    ASSERT_FALSE(p.invalid) << row["id"];
    const model::Bytes smem = model::triton::triton_storage<model::Extent>(
                                  p.state.get<model::triton::Decisions>(), p.stages)
                                  .kernel.size;
    EXPECT_EQ(smem, row["expect"]["smem_bytes"].get<model::Bytes>()) << row["id"];
    EXPECT_EQ(smem <= row["expect"]["limit_bytes"].get<model::Bytes>() ? "fits" : "does_not_fit",
              want)
        << row["id"];
    ++exact;
  }
  EXPECT_EQ(exact, 792);
  EXPECT_EQ(invalid, 884);
}

/// One entry read from a table at `path` (the reader sets the engine from it), for `arch`.
model::KernelConfig gptq_entry(const std::string& entry, const std::string& path, int arch) {
  const auto r = io::load<io::LoadResult>(io::Source::text("{\"64\": " + entry + "}", path));
  EXPECT_TRUE(r.errors.empty()) << path;
  model::KernelConfig cfg = r.configs.at(0).config;
  cfg.arch = arch;
  return cfg;
}

// SGLang int4 on sm_80, BM 64, BN 128, BK 32, num_warps 2: mma.sync. A [64, 32] bf16 is 2048
// elements over 64 threads, 8 contiguous per thread (16 B): pipelined, num_stages - 1 buffers of
// 4096 B. The packed weight is one byte per thread: in registers. The dequantised B [32, 128]
// bf16: 8192 B once. num_stages 2: 4096 + 8192; num_stages 3: 2 x 4096 + 8192.
TEST(GptqAwqModel, SglangInt4OnSm80ByHand) {
  const std::string path =
      "sglang/triton_3_4_0/E=384,N=128,device_name=NVIDIA_A100-SXM4-80GB,dtype=int4_w4a16.json";
  for (const auto& [stages, want] : {std::pair{2, 12288}, std::pair{3, 16384}}) {
    const model::KernelConfig cfg = gptq_entry(
        R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 1,
            "num_warps": 2, "num_stages": )" +
            std::to_string(stages) + "}",
        path, 80);
    EXPECT_EQ(cfg.engine, model::EngineRelease::SglangD6ef6888);
    const model::Result res = test::eval(cfg);
    EXPECT_EQ(res.status, model::Status::Fits) << stages;
    ASSERT_TRUE(res.smem_bytes.has_value());
    EXPECT_EQ(*res.smem_bytes, want) << stages;
    EXPECT_TRUE(test::has(res, model::Code::triton_moe_gptq_awq));
    EXPECT_FALSE(test::has(res, model::Code::triton_moe_wna16_cuda));  // vLLM's only
  }
}

// int8 weights (use_int8_w8a16) on sm_90, BM = BN = BK = 64, num_warps 4, num_stages 3: wgmma.
// A [64, 64] bf16 is pipelined with num_stages buffers (wgmma reads it): 3 x 8192. The int8
// weight [64, 64] is 16 bytes per thread, pipelined, read by the dequantisation, not the MMA:
// 2 x 4096. The dequantised B: 8192. 24576 + 8192 + 8192 = 40960.
TEST(GptqAwqModel, Int8WeightsOnSm90ByHand) {
  const model::KernelConfig cfg = gptq_entry(
      R"({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1,
          "num_warps": 4, "num_stages": 3, "SPLIT_K": 1})",
      "vllm/E=8,N=4096,device_name=NVIDIA_H100_80GB_HBM3,dtype=int8_w8a16.json", 90);
  const model::Plan p = model::triton_fused_moe::gptq_awq_plan(cfg, 8, true, model::Findings(true));
  ASSERT_FALSE(p.invalid);
  const auto& d = p.state.get<model::triton::Decisions>();
  EXPECT_EQ(d.version, 3);
  EXPECT_TRUE(d.a_can_pipeline);
  EXPECT_TRUE(d.b_can_pipeline);
  EXPECT_EQ(d.b_load_bits, 128);
  EXPECT_EQ(model::triton::triton_storage<model::Extent>(d, 3).kernel.size, 40960);
  EXPECT_EQ(model::triton::triton_storage<model::Extent>(d, 1).kernel.size, 16384);
}

// vLLM passes the entry as **config; without SPLIT_K the launch fails (measured).
TEST(GptqAwqModel, VllmEntryWithoutSplitKIsInvalidWithTheReason) {
  const std::string path =
      "vllm/E=8,N=4096,device_name=NVIDIA_H100_80GB_HBM3,dtype=int4_w4a16.json";
  const std::string tile =
      R"("BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "num_warps": 4, "num_stages": 2)";
  const model::Result bad = test::eval(gptq_entry("{" + tile + "}", path, 90));
  EXPECT_EQ(bad.status, model::Status::Invalid);
  bool said = false;
  for (const model::Diagnostic& d : bad.diagnostics)
    if (d.code == model::Code::triton_moe_gptq_split_k) {
      said = true;
      const std::string m = report::message(d);
      EXPECT_NE(m.find("vllm@6adad087"), std::string::npos) << m;
      EXPECT_NE(m.find("TypeError: dynamic_func() missing 1 required positional argument: "
                       "'SPLIT_K'"),
                std::string::npos)
          << m;
      EXPECT_NE(m.find("allowed: an entry with \"SPLIT_K\" (any value"), std::string::npos) << m;
    }
  EXPECT_TRUE(said);
  // With SPLIT_K 1 it compiles: A [16, 64] 2 KiB (1 buffer, mma.sync: BM < 64), B [64, 64] 8 KiB.
  const model::Result good = test::eval(gptq_entry("{" + tile + R"(, "SPLIT_K": 1})", path, 90));
  EXPECT_EQ(good.status, model::Status::Fits);
  ASSERT_TRUE(good.smem_bytes.has_value());
  EXPECT_EQ(*good.smem_bytes, 2048 + 8192);
  EXPECT_TRUE(test::has(good, model::Code::triton_moe_wna16_cuda));
  // The kernel declares SPLIT_K (fused_moe.py:105) and never reads it: any value compiles alike.
  const model::Result four = test::eval(gptq_entry("{" + tile + R"(, "SPLIT_K": 4})", path, 90));
  EXPECT_EQ(four.status, model::Status::Fits);
  ASSERT_TRUE(four.smem_bytes.has_value());
  EXPECT_EQ(*four.smem_bytes, *good.smem_bytes);
  EXPECT_TRUE(test::has(four, model::Code::triton_moe_split_k_unread));
}

}  // namespace
}  // namespace tilefit
