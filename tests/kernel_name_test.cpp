// CUTLASS library kernel names read as configs (io::config_from_kernel_name): the JSON a name
// gives, that this JSON and a hand-written explicit config give the same result through the
// reader and the model, names of measured kernels give the measured bytes, every row of the
// generator-derived corpus (tests/data/kernel-names.jsonl), and the exact errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/report/diagnostic_text.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/kernel_name.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/evaluate.hpp"

namespace tilefit::io {
namespace {

using nlohmann::json;

/// The config JSON text of `name`; a test failure (and "") when it cannot be read.
std::string config_text(const std::string& name) {
  auto r = kernel_name_json(name);
  if (const auto* e = std::get_if<KernelNameError>(&r)) {
    ADD_FAILURE() << name << ": " << format_kernel_name_error(*e);
    return {};
  }
  return std::get<std::string>(r);
}

/// The error of `name`; a test failure when it reads.
KernelNameError error_of(const std::string& name) {
  auto r = kernel_name_json(name);
  if (const auto* s = std::get_if<std::string>(&r)) {
    ADD_FAILURE() << name << " reads as " << *s;
    return {};
  }
  return std::get<KernelNameError>(r);
}

/// The one config of `config_json` as the real reader reads it.
std::optional<model::KernelConfig> read_one(const std::string& config_json) {
  LoadResult r = load<LoadResult>(Source::text("[" + config_json + "]", "t.json"));
  if (!r.errors.empty()) {
    ADD_FAILURE() << format_error(r.errors.front()) << "\n  in " << config_json;
    return std::nullopt;
  }
  EXPECT_EQ(r.configs.size(), 1u);
  return r.configs.front().config;
}

/// evaluate() with the built-in table row of the config's own arch.
model::Result evaluate_builtin(const model::KernelConfig& cfg) {
  const model::ArchInfo* arch = model::find_arch(cfg.arch);
  EXPECT_NE(arch, nullptr);
  return model::evaluate(cfg, arch->limits);
}

std::vector<std::string> codes(const model::Result& r) {
  std::vector<std::string> out;
  for (const model::Diagnostic& d : r.diagnostics) out.emplace_back(model::code_name(d.code));
  return out;
}

/// One name: the JSON it must give (without the leading "name" member), and an explicit config,
/// written by hand as a user would, that must give the same result.
struct Case {
  std::string name;
  std::string json;  ///< the rest of the object after {"name":"<name>",
  std::string explicit_config;
};

void check_case(const Case& c) {
  SCOPED_TRACE(c.name);
  const std::string text = config_text(c.name);
  EXPECT_EQ(text, "{\"name\":\"" + c.name + "\"," + c.json + "}");
  const auto from_name = read_one(text);
  const auto by_hand = read_one(c.explicit_config);
  ASSERT_TRUE(from_name && by_hand);
  EXPECT_EQ(from_name->name, c.name);
  const model::Result a = evaluate_builtin(*from_name);
  const model::Result b = evaluate_builtin(*by_hand);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(report::kernel_description(a.kernel), report::kernel_description(b.kernel));
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.stages, b.stages);
  EXPECT_EQ(a.auto_stages, b.auto_stages);
  EXPECT_EQ(a.max_stages, b.max_stages);
  EXPECT_EQ(a.max_stages_smem, b.max_stages_smem);
  EXPECT_EQ(a.smem_bytes, b.smem_bytes);
  EXPECT_EQ(a.limit_bytes, b.limit_bytes);
  EXPECT_EQ(a.ctas_per_sm, b.ctas_per_sm);
  EXPECT_EQ(a.epilogue_smem, b.epilogue_smem);
  EXPECT_EQ(a.mainloop_smem, b.mainloop_smem);
  EXPECT_EQ(codes(a), codes(b));
  EXPECT_EQ(a.status, model::Status::Fits) << "every case is a library kernel that fits";
}

// ---- SM90: sm90_tma_ws ----------------------------------------------------------------------

TEST(KernelName, Sm90) {
  const Case cases[] = {
      {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_"
       "warpspecialized_cooperative_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,256,64],"cluster":[1,1,1],"a":"bf16",)"
       R"("b":"bf16","c":"bf16","d":"bf16","acc":"f32","layout":"tnn","schedule":"cooperative",)"
       R"("epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": "128x256x64", "dtype": "bf16", "layout": "tnn",
           "schedule": "cooperative", "epilogue": "tma"})"},
      {"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_nnn_align8_"
       "warpspecialized_pingpong_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,64],"cluster":[1,2,1],"a":"f16",)"
       R"("b":"f16","c":"f16","d":"f16","acc":"f32","layout":"nnn","schedule":"pingpong",)"
       R"("epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": 90, "tile": [128, 128, 64], "cluster": [1, 2, 1], "dtype": "f16", "d": "f16",
           "layout": "nnn", "schedule": "pingpong", "epilogue": "tma"})"},
      // No-smem epilogue.
      {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x2x1_0_nnn_align8_"
       "warpspecialized_cooperative_epi_nosmem",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,64],"cluster":[1,2,1],"a":"bf16",)"
       R"("b":"bf16","c":"bf16","d":"bf16","acc":"f32","layout":"nnn","schedule":"cooperative",)"
       R"("epilogue":"nosmem","grouped":false,"stages":"auto")",
       R"({"arch": "sm_90", "tile": [128, 128, 64], "cluster": [1, 2, 1], "dtype": "bf16",
           "layout": "nnn", "schedule": "cooperative", "epilogue": "nosmem"})"},
      // ScheduleAuto kernel and epilogue: no suffixes after the alignment.
      {"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,64],"cluster":[1,2,1],"a":"f16",)"
       R"("b":"f16","c":"f16","d":"f16","acc":"f32","layout":"tnn","schedule":"auto",)"
       R"("epilogue":"auto","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 64], "cluster": [1, 2, 1], "dtype": "f16",
           "d": "f16", "layout": "tnn"})"},
      // Grouped (ptr-array) kind.
      {"cutlass3x_sm90_tensorop_gemm_grouped_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_nnn_align8_"
       "warpspecialized_cooperative_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,64],"cluster":[1,2,1],"a":"f16",)"
       R"("b":"f16","c":"f16","d":"f16","acc":"f32","layout":"nnn","schedule":"cooperative",)"
       R"("epilogue":"tma","grouped":true,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 64], "cluster": [1, 2, 1], "dtype": "f16",
           "d": "f16", "layout": "nnn", "schedule": "cooperative", "epilogue": "tma",
           "grouped": true})"},
      // FP8 with fast accumulation, void C.
      {"cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_void_e4m3_128x128x128_1x2x1_0_tnn_align16_"
       "warpspecialized_cooperative_fp8_fastaccum_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,128],"cluster":[1,2,1],)"
       R"("a":"e4m3","b":"e4m3","c":null,"d":"e4m3","acc":"f32","layout":"tnn",)"
       R"("schedule":"cooperative","epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 128], "cluster": [1, 2, 1], "dtype": "fp8",
           "c": null, "d": "e4m3", "layout": "tnn", "schedule": "cooperative",
           "epilogue": "tma"})"},
      // tf32gemm: f32 operands the MMA reads as tf32.
      {"cutlass3x_sm90_tensorop_tf32gemm_f32_f32_f32_f32_f32_128x128x32_1x2x1_0_tnn_align4_"
       "warpspecialized_cooperative_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,32],"cluster":[1,2,1],"a":"f32",)"
       R"("b":"f32","c":"f32","d":"f32","acc":"f32","layout":"tnn","schedule":"cooperative",)"
       R"("epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 32], "cluster": [1, 2, 1], "dtype": "f32",
           "d": "f32", "layout": "tnn", "schedule": "cooperative", "epilogue": "tma"})"},
      {"cutlass3x_sm90_tensorop_gemm_tf32_tf32_f32_f32_f32_128x128x32_1x2x1_0_tnn_align4_"
       "warpspecialized_pingpong_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,32],"cluster":[1,2,1],)"
       R"("a":"tf32","b":"tf32","c":"f32","d":"f32","acc":"f32","layout":"tnn",)"
       R"("schedule":"pingpong","epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 32], "cluster": [1, 2, 1], "dtype": "tf32",
           "d": "f32", "layout": "tnn", "schedule": "pingpong", "epilogue": "tma"})"},
      {"cutlass3x_sm90_tensorop_gemm_s8_s8_s32_s8_s8_128x128x128_1x2x1_0_tnn_align16_"
       "warpspecialized_cooperative_epi_tma",
       R"("arch":"sm_90","kernel":"sm90_tma_ws","tile":[128,128,128],"cluster":[1,2,1],"a":"s8",)"
       R"("b":"s8","c":"s8","d":"s8","acc":"s32","layout":"tnn","schedule":"cooperative",)"
       R"("epilogue":"tma","grouped":false,"stages":"auto")",
       R"({"arch": "sm90", "tile": [128, 128, 128], "cluster": [1, 2, 1], "dtype": "s8",
           "d": "s8", "acc": "s32", "layout": "tnn", "schedule": "cooperative",
           "epilogue": "tma"})"},
  };
  for (const Case& c : cases) check_case(c);
}

// ---- SM100: sm100_umma ----------------------------------------------------------------------

TEST(KernelName, Sm100Dense) {
  const std::string dyn1 =
      R"(,"comment":"read from a CUTLASS kernel name: cluster 0x0x1 (chosen at run time) is read )"
      R"(as 1x1x1: nothing in the model of a 1SM kernel depends on the cluster")";
  const std::string dyn2 =
      R"(,"comment":"read from a CUTLASS kernel name: cluster 0x0x1 (chosen at run time) is read )"
      R"(as 2x1x1: the 2SM schedule needs an even cluster M, and nothing else in the model )"
      R"(depends on the cluster")";
  const Case cases[] = {
      // "_1sm" with no epilogue suffix: TmaWarpSpecialized1Sm (its suffix is empty).
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_0x0x1_0_tnt_align8_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,128,64],"cluster":[1,1,1],)"
       R"("a":"bf16","b":"bf16","c":"bf16","d":"bf16","acc":"f32","layout":"tnt",)"
       R"("schedule":"1sm","epilogue":"tma","grouped":false,"stages":"auto")" +
           dyn1,
       R"({"arch": "sm100", "tile": [128, 128, 64], "dtype": "bf16", "layout": "tnt",
           "schedule": "1sm", "epilogue": "tma"})"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_0x0x1_0_tnt_align8_2sm_"
       "epi_tma",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,256,64],"cluster":[2,1,1],)"
       R"("a":"bf16","b":"bf16","c":"bf16","d":"bf16","acc":"f32","layout":"tnt",)"
       R"("schedule":"2sm","epilogue":"tma","grouped":false,"stages":"auto")" +
           dyn2,
       R"({"arch": "sm_100a", "tile": [128, 256, 64], "cluster": [2, 1, 1], "dtype": "bf16",
           "layout": "tnt", "schedule": "2sm", "epilogue": "tma"})"},
      // "_2sm" with no epilogue suffix and a static cluster: EpilogueScheduleAuto.
      {"cutlass3x_sm100_tensorop_gemm_s8_s8_s32_s32_s32_256x128x128_2x1x1_0_tnn_align16_2sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[256,128,128],"cluster":[2,1,1],"a":"s8",)"
       R"("b":"s8","c":"s32","d":"s32","acc":"s32","layout":"tnn","schedule":"2sm",)"
       R"("epilogue":"auto","grouped":false,"stages":"auto")",
       R"({"arch": "sm100", "tile": [256, 128, 128], "cluster": [2, 1, 1], "dtype": "s8",
           "d": "s32", "acc": "s32", "layout": "tnn", "schedule": "2sm"})"},
      {"cutlass3x_sm100_tensorop_gemm_grouped_bf16_bf16_f32_void_bf16_128x128x64_0x0x1_0_tnt_"
       "align8_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,128,64],"cluster":[1,1,1],)"
       R"("a":"bf16","b":"bf16","c":null,"d":"bf16","acc":"f32","layout":"tnt",)"
       R"("schedule":"1sm","epilogue":"tma","grouped":true,"stages":"auto")" +
           dyn1,
       R"({"arch": "sm100", "tile": [128, 128, 64], "dtype": "bf16", "c": null, "layout": "tnt",
           "schedule": "1sm", "epilogue": "tma", "grouped": true})"},
  };
  for (const Case& c : cases) check_case(c);
}

TEST(KernelName, Sm100BlockScaled) {
  const Case cases[] = {
      // NVF4 with N = 256: the emitter's 128x64 epilogue tile and explicit TMA epilogue.
      {"cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_128x256x256_0x0x1_0_"
       "tnn_align32_o_vs16_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,256,256],"cluster":[1,1,1],)"
       R"("a":"nvfp4","b":"nvfp4","sf_vec":16,"c":"bf16","d":"bf16","acc":"f32","layout":"tnn",)"
       R"("schedule":"1sm","epilogue":{"variant":"tma","tile":[128,64]},"grouped":false,)"
       R"("mma":"nvf4","stages":"auto","comment":"read from a CUTLASS kernel name: cluster 0x0x1 )"
       R"((chosen at run time) is read as 1x1x1: nothing in the model of a 1SM kernel depends on )"
       R"(the cluster; epilogue tile 128x64: the library's emitter fixes it for NVF4 kernels with )"
       R"j(N = 256 (gemm_operation.py:1000-1007)")j",
       R"({"arch": "sm100", "tile": [128, 256, 256], "dtype": "nvfp4", "layout": "tnn",
           "schedule": "1sm", "mma": "nvf4",
           "epilogue": {"variant": "tma", "tile": [128, 64]}})"},
      // MXF8F6F4 2SM with a block-scaled output (epiVs32t -> blockscale_out).
      {"cutlass3x_sm100_bstensorop_gemm_ue8m0xe4m3_ue8m0xe4m3_f32_f16_ue8m0xe3m2_256x128x128_"
       "2x1x1_0_ntt_align16_q_2sm_epiVs32t",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[256,128,128],"cluster":[2,1,1],)"
       R"("a":"mxfp8","b":"mxfp8","sf_vec":32,"c":"f16","d":"e3m2","acc":"f32","layout":"ntt",)"
       R"("schedule":"2sm","epilogue":{"variant":"blockscale_out","sf_vec":32,"sf":"ue8m0"},)"
       R"("grouped":false,"mma":"f8f6f4","stages":"auto")",
       R"({"arch": "sm100", "tile": [256, 128, 128], "cluster": [2, 1, 1], "dtype": "mxfp8",
           "c": "f16", "d": "e3m2", "layout": "ntt", "schedule": "2sm", "mma": "f8f6f4",
           "epilogue": {"variant": "blockscale_out", "sf_vec": 32, "sf": "ue8m0"}})"},
      // Grouped "_o_vs32_": align128 fp4 is PtrArrayMxf8f6f4 (unpacked), align32 PtrArrayMxf4.
      {"cutlass3x_sm100_bstensorop_gemm_grouped_ue8m0xe2m1_ue8m0xe2m1_f32_f16_e3m2_128x128x128_"
       "0x0x1_0_ntt_align128_o_vs32_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"mxfp4","b":"mxfp4","sf_vec":32,"c":"f16","d":"e3m2","acc":"f32","layout":"ntt",)"
       R"("schedule":"1sm","epilogue":"tma","grouped":true,"mma":"f8f6f4","stages":"auto",)"
       R"("comment":"read from a CUTLASS kernel name: cluster 0x0x1 (chosen at run time) is read )"
       R"(as 1x1x1: nothing in the model of a 1SM kernel depends on the cluster")",
       R"({"arch": "sm100", "tile": [128, 128, 128], "dtype": "mxfp4", "c": "f16", "d": "e3m2",
           "layout": "ntt", "schedule": "1sm", "mma": "f8f6f4", "epilogue": "tma",
           "grouped": true})"},
      {"cutlass3x_sm100_bstensorop_gemm_grouped_ue8m0xe2m1_ue8m0xe2m1_f32_bf16_bf16_128x128x256_"
       "0x0x1_0_tnn_align32_o_vs32_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,128,256],"cluster":[1,1,1],)"
       R"("a":"mxfp4","b":"mxfp4","sf_vec":32,"c":"bf16","d":"bf16","acc":"f32","layout":"tnn",)"
       R"("schedule":"1sm","epilogue":"tma","grouped":true,"mma":"nvf4","stages":"auto",)"
       R"("comment":"read from a CUTLASS kernel name: cluster 0x0x1 (chosen at run time) is read )"
       R"(as 1x1x1: nothing in the model of a 1SM kernel depends on the cluster")",
       R"({"arch": "sm100", "tile": [128, 128, 256], "dtype": "mxfp4", "layout": "tnn",
           "schedule": "1sm", "mma": "nvf4", "epilogue": "tma", "grouped": true})"},
      // e5m2 / e2m3 block-scaled operands are written as mxfp8 / mxfp6 (same widths).
      {"cutlass3x_sm100_bstensorop_gemm_ue8m0xe5m2_ue8m0xe2m3_f32_f16_e3m2_128x128x128_0x0x1_0_"
       "tnn_align128_q_1sm",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"mxfp8","b":"mxfp6","sf_vec":32,"c":"f16","d":"e3m2","acc":"f32","layout":"tnn",)"
       R"("schedule":"1sm","epilogue":"tma","grouped":false,"mma":"f8f6f4","stages":"auto",)"
       R"("comment":"read from a CUTLASS kernel name: ue8m0xe5m2 is written as mxfp8 (e4m3): )"
       R"(same 8-bit width; ue8m0xe2m3 is written as mxfp6 (e3m2): same 6-bit width; cluster )"
       R"(0x0x1 (chosen at run time) is read as 1x1x1: nothing in the model of a 1SM kernel )"
       R"(depends on the cluster")",
       R"({"arch": "sm100", "tile": [128, 128, 128], "a": "mxfp8", "b": "mxfp6", "c": "f16",
           "d": "e3m2", "layout": "tnn", "schedule": "1sm", "mma": "f8f6f4",
           "epilogue": "tma"})"},
      // NVF4 schedule with ue8m0 scale factors (vector 16) and a no-smem epilogue.
      {"cutlass3x_sm100_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_bf16_bf16_256x128x256_0x0x1_0_"
       "tnn_align32_o_vs16_2sm_epi_nosmem",
       R"("arch":"sm_100","kernel":"sm100_umma","tile":[256,128,256],"cluster":[2,1,1],)"
       R"("a":"mxfp4","b":"mxfp4","sf_vec":16,"c":"bf16","d":"bf16","acc":"f32","layout":"tnn",)"
       R"("schedule":"2sm","epilogue":"nosmem","grouped":false,"mma":"nvf4","stages":"auto",)"
       R"("comment":"read from a CUTLASS kernel name: cluster 0x0x1 (chosen at run time) is read )"
       R"(as 2x1x1: the 2SM schedule needs an even cluster M, and nothing else in the model )"
       R"(depends on the cluster")",
       R"({"arch": "sm100", "tile": [256, 128, 256], "cluster": [2, 1, 1], "dtype": "mxfp4",
           "sf_vec": 16, "layout": "tnn", "schedule": "2sm", "mma": "nvf4",
           "epilogue": "nosmem"})"},
  };
  for (const Case& c : cases) check_case(c);
}

// ---- SM120: sm120_blockscaled, sm120_dense -----------------------------------------------------

TEST(KernelName, Sm120) {
  const Case cases[] = {
      {"cutlass3x_sm120_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_f16_ue8m0xe2m1_128x128x128_"
       "1x1x1_0_tnt_align32_cooperative_o_vs16_epiVs16t",
       R"("arch":"sm_120","kernel":"sm120_blockscaled","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"nvfp4","b":"nvfp4","sf_vec":16,"c":"f16","d":"e2m1","acc":"f32","layout":"tnt",)"
       R"("schedule":"cooperative","epilogue":{"variant":"blockscale_out","sf_vec":16,)"
       R"("sf":"ue8m0"},"grouped":false,"mma":"nvf4","stages":"auto")",
       R"({"arch": "sm120", "tile": [128, 128, 128], "dtype": "nvfp4", "c": "f16", "d": "e2m1",
           "layout": "tnt", "schedule": "cooperative", "mma": "nvf4",
           "epilogue": {"variant": "blockscale_out", "sf_vec": 16, "sf": "ue8m0"}})"},
      {"cutlass3x_sm120_bstensorop_gemm_ue8m0xe4m3_ue8m0xe4m3_f32_void_e5m2_128x128x128_1x1x1_0_"
       "tnt_align128_pingpong_q",
       R"("arch":"sm_120","kernel":"sm120_blockscaled","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"mxfp8","b":"mxfp8","sf_vec":32,"c":null,"d":"e5m2","acc":"f32","layout":"tnt",)"
       R"("schedule":"pingpong","epilogue":"auto","grouped":false,"mma":"f8f6f4",)"
       R"("stages":"auto")",
       R"({"arch": "sm120", "tile": [128, 128, 128], "dtype": "mxfp8", "c": null, "d": "e5m2",
           "layout": "tnt", "schedule": "pingpong", "mma": "f8f6f4"})"},
      // Grouped: the ptr-array cooperative schedule, instruction chosen by the builder.
      {"cutlass3x_sm120_bstensorop_gemm_grouped_ue8m0xe2m1_ue8m0xe2m1_f32_f16_e5m2_128x128x128_"
       "1x1x1_0_tnt_align32_warpspecialized_cooperative",
       R"("arch":"sm_120","kernel":"sm120_blockscaled","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"mxfp4","b":"mxfp4","sf_vec":32,"c":"f16","d":"e5m2","acc":"f32","layout":"tnt",)"
       R"("schedule":"cooperative","epilogue":"auto","grouped":true,"mma":"auto",)"
       R"("stages":"auto")",
       R"({"arch": "sm120", "tile": [128, 128, 128], "dtype": "mxfp4", "c": "f16", "d": "e5m2",
           "layout": "tnt", "schedule": "cooperative", "grouped": true})"},
      // Dense (the 4.7 generator makes none; the grammar is the same).
      {"cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnt_align16_"
       "warpspecialized_cooperative",
       R"("arch":"sm_120","kernel":"sm120_dense","tile":[128,128,128],"cluster":[1,1,1],)"
       R"("a":"e4m3","b":"e4m3","c":"bf16","d":"bf16","acc":"f32","layout":"tnt",)"
       R"("schedule":"cooperative","epilogue":"auto","grouped":false,"stages":"auto")",
       R"({"arch": "sm120", "tile": [128, 128, 128], "dtype": "e4m3", "layout": "tnt",
           "schedule": "cooperative"})"},
  };
  for (const Case& c : cases) check_case(c);
}

// ---- CUTLASS 2.x: sm80_multistage ---------------------------------------------------------------

TEST(KernelName, Cutlass2x) {
  const Case cases[] = {
      // No C prefix: C is the accumulator type (f32); warp 256/4 x 128/2 x 32/1.
      {"cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align8",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[256,128,32],"warp":[64,64,32],)"
       R"("a":"f16","b":"f16","c":"f32","d":"f32","acc":"f32","layout":"nnn","stages":3)",
       R"({"arch": "sm80", "tile": [256, 128, 32], "warp": [64, 64, 32], "dtype": "f16",
           "d": "f32", "layout": "nnn", "stages": 3})"},
      {"cutlass_tensorop_bf16_s16816gemm_bf16_128x128_32x4_tn_align8",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[128,128,32],"warp":[64,64,32],)"
       R"("a":"bf16","b":"bf16","c":"bf16","d":"bf16","acc":"f32","layout":"tnn","stages":4)",
       R"({"arch": "sm_80", "tile": "128x128x32", "warp": "64x64x32", "dtype": "bf16",
           "layout": "tnn", "stages": 4})"},
      // f16 accumulator: A is not written (it equals the accumulator type).
      {"cutlass_tensorop_h16816gemm_64x64_64x5_tt_align8",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[64,64,64],"warp":[32,32,64],)"
       R"("a":"f16","b":"f16","c":"f16","d":"f16","acc":"f16","layout":"ttn","stages":5)",
       R"({"arch": "sm80", "tile": [64, 64, 64], "warp": [32, 32, 64], "dtype": "f16",
           "d": "f16", "acc": "f16", "layout": "ttn", "stages": 5})"},
      {"cutlass_tensorop_s1688gemm_tf32_128x128_16x3_tn_align4",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[128,128,16],"warp":[64,64,16],)"
       R"("a":"tf32","b":"tf32","c":"f32","d":"f32","acc":"f32","layout":"tnn","stages":3)",
       R"({"arch": "sm80", "tile": [128, 128, 16], "warp": [64, 64, 16], "dtype": "tf32",
           "d": "f32", "layout": "tnn", "stages": 3})"},
      // tf32 intermediate: f32 operands run as tf32.
      {"cutlass_tensorop_s1688tf32gemm_256x128_16x3_nt_align4",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[256,128,16],"warp":[64,64,16],)"
       R"("a":"f32","b":"f32","c":"f32","d":"f32","acc":"f32","layout":"ntn","stages":3)",
       R"({"arch": "sm80", "tile": [256, 128, 16], "warp": [64, 64, 16], "dtype": "f32",
           "d": "f32", "layout": "ntn", "stages": 3})"},
      {"cutlass_tensorop_i16832gemm_s8_128x256_64x3_tn_align16",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[128,256,64],"warp":[64,64,64],)"
       R"("a":"s8","b":"s8","c":"s32","d":"s32","acc":"s32","layout":"tnn","stages":3)",
       R"({"arch": "sm80", "tile": [128, 256, 64], "warp": [64, 64, 64], "dtype": "s8",
           "d": "s32", "acc": "s32", "layout": "tnn", "stages": 3})"},
      {"cutlass_tensorop_s8_i16832gemm_s8_128x256_128x3_tn_align16",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[128,256,128],"warp":[64,64,128],)"
       R"("a":"s8","b":"s8","c":"s8","d":"s8","acc":"s32","layout":"tnn","stages":3)",
       R"({"arch": "sm80", "tile": [128, 256, 128], "warp": [64, 64, 128], "dtype": "s8",
           "d": "s8", "acc": "s32", "layout": "tnn", "stages": 3})"},
      // Mixed input (s8 A upcast to bf16): A and B both written.
      {"cutlass_tensorop_s16816gemm_s8_bf16_128x64_64x4_tn_align16",
       R"("arch":"sm_80","kernel":"sm80_multistage","tile":[128,64,64],"warp":[64,32,64],)"
       R"("a":"s8","b":"bf16","c":"f32","d":"f32","acc":"f32","layout":"tnn","stages":4)",
       R"({"arch": "sm80", "tile": [128, 64, 64], "warp": [64, 32, 64], "a": "s8", "b": "bf16",
           "d": "f32", "layout": "tnn", "stages": 4})"},
  };
  for (const Case& c : cases) check_case(c);
}

// ---- names of measured kernels give the measured bytes ------------------------------------------

TEST(KernelName, NamesOfMeasuredKernelsGiveTheMeasuredBytes) {
  // Library names whose config is that of a row measured by compiling CUTLASS 4.7
  // (tests/data/README.md).
  const struct {
    const char* name;
    const char* file;
    const char* id;
  } pairs[] = {
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_0x0x1_0_tnt_align8_1sm",
       "cutlass-4.7.jsonl", "sm100_bf16_bf16_bf16_128x128x64_c1x1x1_1sm_tma"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_64x128x64_0x0x1_0_tnt_align8_1sm",
       "cutlass-4.7.jsonl", "sm100_bf16_bf16_bf16_64x128x64_c1x1x1_1sm_tma"},
      {"cutlass3x_sm100_tensorop_gemm_grouped_bf16_bf16_f32_bf16_bf16_128x128x64_0x0x1_0_tnt_"
       "align8_1sm",
       "cutlass-4.7.jsonl", "sm100_bf16_bf16_bf16_128x128x64_c1x1x1_1sm_tma_grouped"},
      {"cutlass3x_sm100_tensorop_gemm_grouped_bf16_bf16_f32_bf16_bf16_256x256x64_0x0x1_0_tnt_"
       "align8_2sm_epi_tma",
       "cutlass-4.7.jsonl", "sm100_bf16_bf16_bf16_256x256x64_c2x1x1_2sm_tma_grouped"},
      {"cutlass3x_sm100_bstensorop_gemm_grouped_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_128x128x256_"
       "0x0x1_0_tnt_align32_o_vs16_1sm",
       "cutlass-4.7.jsonl", "sm100_nvfp4_bf16_bf16_128x128x256_c1x1x1_1sm_tma_grouped"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_0x0x1_0_tnn_align8_1sm",
       "measured-sm100.jsonl", "m_bf16_128x128x64_1sm_tma_colmajor_cd"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_0x0x1_0_tnt_align8_2sm_"
       "epi_tma",
       "measured-sm100.jsonl", "m_bf16_128x256x64_c2x1x1_2sm_tma"},
      {"cutlass3x_sm100_tensorop_gemm_e4m3_e4m3_f32_void_bf16_128x128x128_1x1x1_0_tnt_align16_1sm",
       "measured-sm100.jsonl", "m_e4m3_void_bf16_128x128x128_1sm_tma"},
      {"cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_128x128x256_0x0x1_0_"
       "tnt_align32_o_vs16_1sm_epi_nosmem",
       "measured-sm100.jsonl", "m_nvfp4_128x128x256_1sm_nosmem"},
      {"cutlass3x_sm100_tensorop_gemm_grouped_bf16_bf16_f32_void_bf16_128x128x64_0x0x1_0_tnt_"
       "align8_1sm",
       "measured-sm100.jsonl", "m_bf16_128x128x64_1sm_tma_grouped_voidc"},
      // CUTLASS 2.x: the library's column-major C.
      {"cutlass_tensorop_f16_s16816gemm_f16_128x128_32x3_tn_align8", "measured-sm80.jsonl",
       "sm80_f16_128x128x32_w64x64x32_S3_f16out_colC"},
  };
  for (const auto& p : pairs) {
    SCOPED_TRACE(p.name);
    const std::vector<test::GroundTruthRow> rows = test::load_rows(p.file);
    const test::GroundTruthRow* row = nullptr;
    for (const test::GroundTruthRow& r : rows)
      if (r.id == p.id) row = &r;
    ASSERT_NE(row, nullptr) << p.id;
    const auto cfg = read_one(config_text(p.name));
    ASSERT_TRUE(cfg);
    const model::Result r = evaluate_builtin(*cfg);
    EXPECT_EQ(model::status_name(r.status), row->expect.at("status").get<std::string>());
    EXPECT_EQ(r.stages, row->expect.at("stages").get<int>());
    ASSERT_TRUE(r.smem_bytes);
    EXPECT_EQ(*r.smem_bytes, row->expect.at("smem_bytes").get<long long>());
    EXPECT_EQ(*r.epilogue_smem, row->expect.at("epilogue_smem").get<long long>());
    EXPECT_EQ(*r.mainloop_smem, row->expect.at("mainloop_smem").get<long long>());
  }
}

// ---- every row of the generator-derived corpus
// ---------------------------------------------------

/// tests/data/kernel-names.jsonl (written by tools/kernel_names_corpus.py from the CUTLASS 4.7
/// generator's operation objects, not from the names): each name reads as exactly the config the
/// generator's schedules, tiles and tensors give, or is refused. TILEFIT_KERNEL_NAMES names a
/// fuller file (every kernel of the generator: tools/kernel_names_corpus.py --per-group 0).
TEST(KernelName, GeneratorCorpus) {
  const char* env = std::getenv("TILEFIT_KERNEL_NAMES");
  const std::string path = env && *env ? env : test::data_path("kernel-names.jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  int accepted = 0, refused = 0, failures = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json row = json::parse(line);
    const std::string name = row.at("name");
    const json& expect = row.at("expect");
    auto r = kernel_name_json(name);
    if (expect == "reject") {
      ++refused;
      if (std::holds_alternative<std::string>(r) && ++failures <= 20)
        ADD_FAILURE() << name << " should be refused; reads as " << std::get<std::string>(r);
      continue;
    }
    ++accepted;
    if (const auto* e = std::get_if<KernelNameError>(&r)) {
      if (++failures <= 20) ADD_FAILURE() << name << ": " << format_kernel_name_error(*e);
      continue;
    }
    json got = json::parse(std::get<std::string>(r));
    EXPECT_EQ(got.at("name"), name);
    got.erase("name");
    got.erase("comment");
    if (got != expect && ++failures <= 20)
      ADD_FAILURE() << name << "\n  got    " << got.dump() << "\n  expect " << expect.dump();
    // The reader takes it, and the model evaluates it without throwing.
    if (failures == 0) {
      const auto cfg = read_one(std::get<std::string>(r));
      if (cfg) (void)evaluate_builtin(*cfg);
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(accepted, 500);
  EXPECT_GT(refused, 200);
}

// ---- errors: the part, where it starts, and what was expected ----------------------------------

struct BadName {
  std::string name;
  std::size_t offset;
  std::string part;
  std::string message;
};

TEST(KernelName, Errors) {
  const std::string sm90 = "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_";
  const BadName bad[] = {
      {"", 0, "",
       "empty name; expected a CUTLASS library kernel name such as cutlass3x_sm90_tensorop_gemm_"
       "bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
       "tma"},
      {"Cutlass3x_sm90", 0, "Cutlass3x",
       "expected cutlass3x (a CUTLASS 3.x/4.x library kernel) or cutlass (a CUTLASS 2.x one) at "
       "the start"},
      {sm90 + "128x256x64_1x1x1_0_tnn_align8_stream_k_warpspecialized_cooperative_epi_tma", 83,
       "stream_k",
       "the stream-K tile scheduler is not modelled; tilefit models the default persistent "
       "scheduler"},
      {sm90 + "128x256_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma", 53, "128x256",
       "expected the tile MxNxK, e.g. 128x256x64"},
      {sm90 + "128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperatve_epi_tma", 83,
       "warpspecialized_cooperatve",
       "expected a kernel schedule suffix of sm90 kernels (KernelScheduleSuffixes): none, "
       "warpspecialized_cooperative, warpspecialized_pingpong, warpspecialized_cooperative_fp8_"
       "fastaccum, warpspecialized_pingpong_fp8_fastaccum; then an epilogue suffix _epi_tma or "
       "_epi_nosmem"},
      {sm90 + "128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tmx", 111, "epi_tmx",
       "expected an epilogue schedule suffix (EpilogueScheduleSuffixes): none, epi_tma or "
       "epi_nosmem"},
      {sm90 + "128x256x64_1x1x1_0_tnx_align8", 72, "tnx",
       "expected three layout letters t/n for A, B and C (t = row-major, n = column-major), e.g. "
       "tnn"},
      {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16", 47, "",
       "the name ends here; expected the D element type"},
      {sm90 + "128x256x64_1x1x1_0_tnn_align8_", 82, "_", "a '_' at the end of the name"},
      {"cutlass3x_sm90_tensorop_gemm_bf16__bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8", 33,
       "_", "an empty part (two '_' in a row, or a '_' at either end); expected an element type"},
      {"cutlass3x_sm90_sptensorop_spgemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align16_"
       "warpspecialized_cooperative_epi_tma",
       15, "sptensorop", "sparse (2:4 structured) GEMMs are not modelled"},
      {"cutlass3x_sm90_tensorop_gemm_e4m3_bf16_f32_bf16_bf16_cvt_128x128x64_1x2x1_0_tnn_align16_"
       "warpspecialized_cooperative_epi_tma",
       53, "cvt", "mixed-input GEMMs (narrow operand converted in the mainloop) are not modelled"},
      {"cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_ntn_align16_"
       "warpspecialized_cooperative_epi_tma",
       73, "ntn",
       "with e4m3 operands that are not both K-major (A t, B n) CUTLASS builds the "
       "register-sourced (RS) mainloop, which is not modelled"},
      {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_align2_"
       "cpasync_warpspecialized_cooperative_epi_nosmem",
       83, "cpasync_warpspecialized_cooperative",
       "cp.async (non-TMA) mainloops are not modelled; tilefit models the TMA warp-specialized "
       "kernels"},
      {"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align2", 72,
       "align2",
       "A and B are not 16-byte aligned (2 x f16), so CUTLASS's automatic schedule builds the "
       "cp.async kernel (KernelCpAsyncWarpSpecialized), which is not modelled"},
      {"cutlass3x_sm90_tensorop_gemm_grouped_128x128f32xe4m3_128x128f32xe4m3_f32_bf16_bf16_"
       "128x128x128_1x2x1_0_tnn_align16_warpspecialized_cooperative_epi_nosmem",
       37, "128x128f32xe4m3",
       "blockwise-scaled operands (per-block f32 scale tensors, BlockwiseUniversal3x) are not "
       "modelled"},
      {"cutlass3x_sm89_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8", 10,
       "sm89",
       "no modelled CUTLASS 3.x kernel family for sm_89; tilefit models sm90 (sm90_tma_ws), "
       "sm100/sm103 (sm100_umma) and sm120/sm121 (sm120_dense, sm120_blockscaled)"},
      {"cutlass3x_sm100_tensorop_gemm_f8_f8_f32_void_e5m2_128x128x128_4x4x1_0_ntn_align16_1sm", 30,
       "f8",
       "the A element type \"f8\" is a run-time type (type_erased_dynamic_float8_t, its format "
       "chosen at launch), which is not modelled; tilefit needs a fixed type such as e4m3 or "
       "e5m2"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_256x256x64_0x0x1_0_tnt_align8_2sm",
       65, "0x0x1",
       "with a cluster chosen at run time CUTLASS's automatic epilogue is the 1SM one "
       "(sm100_builder.inl:1698-1714) under this 2SM kernel, a pairing the config format cannot "
       "express"},
      {"cutlass3x_sm100_tensorop_gemm_f16_f16_f16_f16_f16_64x128x64_1x1x1_0_tnn_align4_cpasync_"
       "1sm_epi_nosmem",
       79, "cpasync_1sm",
       "cp.async (non-TMA) mainloops are not modelled; tilefit models the TMA warp-specialized "
       "kernels"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnt_align2_1sm",
       77, "align2", "the TMA kernels need 16-byte-aligned A and B (2 x bf16 is not)"},
      {"cutlass3x_sm100_tensorop_moe_gemm_e4m3_e4m3_f32_f16_f16_128x128x128_1x1x1_0_tnn_align16_"
       "mixed_cpasync_1sm",
       25, "moe_gemm", "the MoE grouped GEMM (MoeGroupedUniversal3x) is not modelled"},
      {"cutlass3x_sm100_bstensorop_gemm_ue8m0xe4m3_ue8m0xe4m3_f32_f16_ue8m0xe4m3_256x256x128_"
       "2x1x1_0_tnt_align16_q_2sm_epi_tma_epiVs64t",
       119, "epiVs64t",
       "an output scale-factor vector of 64 is not modelled; tilefit's blockscale_out epilogue "
       "takes 16 or 32"},
      {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_align8_q_1sm",
       84, "q_1sm",
       "\"q_1sm\" is a block-scaled kernel schedule (Mxf8f6f4TmaWarpSpecialized1SmSm100); this is "
       "a tensorop name"},
      {"cutlass3x_sm120_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_f16_ue8m0xe2m1_128x128x128_"
       "1x1x1_0_tnt_align32_cooperative_o_vs32_epiVs32n",
       124, "epiVs32n",
       "an output scale-factor layout (n) other than D's (t) is not modelled on sm120"},
      {"cutlass3x_sm120_bstensorop_gemm_ue4m3xe4m3_ue4m3xe4m3_f32_f16_f16_128x128x128_1x1x1_0_tnt_"
       "align16_cooperative_q",
       32, "ue4m3xe4m3",
       "ue4m3 scale factors with e4m3 elements: tilefit's ue4m3 format is nvfp4 (e2m1), and "
       "CUTLASS's MXF8F6F4 instruction takes ue8m0 scale factors only"},
      {"cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align4", 48, "align4",
       "A and B are read in 64-bit accesses (4 x f16); tilefit's sm80_multistage models 128-bit "
       "accesses (align8)"},
      {"cutlass_tensorop_s16816gemm_f16_256x256_32x3_nn_align8", 32, "256x256_32x3",
       "256x256x32 is not a tile of the CUTLASS library's 16816 (f16/bf16) list "
       "(generator.py:2428-2451), so its warp count, and with it the warp tile, is unknown"},
      {"cutlass_tensorop_h1688gemm_256x128_32x2_nn_align8", 17, "h1688gemm",
       "the instruction 1688 with f16 operands is not one of the SM80 library kernels tilefit "
       "models (16816: f16, bf16, and f16/bf16 x s8/u8; 1688: tf32, and f32 as tf32gemm; 16832: "
       "s8, u8)"},
      {"cutlass_tensorop_i8816gemm_s8_256x128_64x2_tn_align16", 18, "8816",
       "the instruction 8816 is not modelled; tilefit's sm80_multistage takes the SM80 "
       "instructions 16816 (f16, bf16 and their s8/u8 mixed input), 1688 (tf32) and 16832 (s8, "
       "u8)"},
      {"cutlass_tensorop_s16816gemm_grouped_f16_256x128_32x3_nn_align8_scheduleDevice", 17,
       "s16816gemm_grouped", "the CUTLASS 2.x grouped GEMM (GemmKind.Grouped) is not modelled"},
      {"cutlass_tensorop_s1688gemm_128x128_16x4_nn_align4", 17, "s1688gemm",
       "f32 operands with the 3xTF32 fast-f32 math (multiply_add_fast_f32) are not modelled"},
      {"cutlass_tensorop_s8_i16832gemm_s8_128x64_64x6_tn_align16", 34, "128x64_64x6",
       "the library builds this kernel's epilogue with 8-element (64-bit) vectors of s8 (C "
       "alignment for this tile); tilefit's sm80_multistage models 128-bit epilogue vectors"},
      {"cutlass_simt_sgemm_128x128_8x2_nn_align1", 8, "simt",
       "SIMT (CUDA-core) kernels are not modelled"},
      {"cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align8 ", 54, " ",
       "unexpected character; CUTLASS kernel names hold letters, digits and '_'"},
  };
  for (const BadName& b : bad) {
    SCOPED_TRACE(b.name);
    const KernelNameError e = error_of(b.name);
    EXPECT_EQ(e.offset, b.offset);
    EXPECT_EQ(e.part, b.part);
    EXPECT_EQ(e.message, b.message);
    // The part is where the offset says (but for the end of the name and the empty part).
    if (!b.part.empty() && b.part != "_") {
      EXPECT_EQ(b.name.substr(b.offset, b.part.size()), b.part);
    }
  }
}

TEST(KernelName, FormattedError) {
  const KernelNameError e = error_of(
      "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_"
      "stream_k_warpspecialized_cooperative_epi_tma");
  EXPECT_EQ(format_kernel_name_error(e),
            "\"stream_k\" (offset 83): the stream-K tile scheduler is not modelled; tilefit "
            "models the default persistent scheduler");
}

TEST(KernelName, TooLongAndControlCharacters) {
  const std::string long_name(300, 'a');
  KernelNameError e = error_of(long_name);
  EXPECT_EQ(e.offset, 0u);
  EXPECT_EQ(e.message, "the name is 300 bytes long; a config name is at most 256 bytes");
  e = error_of(std::string("cutlass_\x01"));
  EXPECT_EQ(e.offset, 8u);
  EXPECT_EQ(e.part, "\\x01");
}

}  // namespace
}  // namespace tilefit::io

namespace tilefit::io {
namespace {

// The reader takes a kernel name wherever a config object may stand, and --name on the CLI.
TEST(KernelNameReader, StringsInTheConfigsArrayAndNameOnTheCli) {
  const std::string name =
      "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_"
      "warpspecialized_cooperative_epi_tma";
  const LoadResult by_name = load<LoadResult>(Source::text("[\"" + name + "\"]", "n.json"));
  ASSERT_TRUE(by_name.errors.empty());
  const auto json = std::get<std::string>(kernel_name_json(name));
  const LoadResult explicit_json = load<LoadResult>(Source::text("[" + json + "]", "n.json"));
  ASSERT_EQ(by_name.configs.size(), 1u);
  EXPECT_EQ(by_name.configs[0].config, explicit_json.configs[0].config);
  EXPECT_TRUE(by_name.configs[0].arch_given);

  const auto r = test::run_command("check --builtin --format json --name " + name);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["results"][0]["name"], name);
  EXPECT_EQ(j["results"][0]["smem_bytes"], 231424);
  EXPECT_EQ(j["results"][0]["file"], "--name");

  const auto bad = test::run_command("check --builtin --name cutlass3x_sm90_sptensorop_gemm_x");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("error: --name: config #0 \"cutlass3x_sm90_sptensorop_gemm_x\": not a "
                         "CUTLASS kernel name tilefit reads: \"sptensorop\" (offset 15)"),
            std::string::npos)
      << bad.err;

  const auto sweep = test::run_command("sweep --builtin --format csv --name " + name);
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.out.find(",231424,"), std::string::npos);
}

}  // namespace
}  // namespace tilefit::io

namespace tilefit::io {
namespace {

// A name goes straight into its typed config (no JSON text read back): the same config as the
// JSON it stands for, read by the reader.
TEST(KernelNameTyped, TheTypedConfigIsTheConfigOfItsJson) {
  for (const std::string name : {"cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_"
                                 "1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma",
                                 "cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align8"}) {
    const auto typed = config_from_kernel_name(name);
    ASSERT_TRUE(std::holds_alternative<NamedConfig>(typed)) << name;
    const NamedConfig& n = std::get<NamedConfig>(typed);
    ASSERT_TRUE(n.config.has_value()) << name;
    EXPECT_TRUE(n.errors.empty());
    EXPECT_TRUE(n.arch_given);
    const std::optional<model::KernelConfig> from_json = read_one(config_text(name));
    ASSERT_TRUE(from_json.has_value());
    EXPECT_EQ(*n.config, *from_json) << name;
    EXPECT_EQ(n.config->name, name);
    Provenance p;
    p.given = n.given;
    EXPECT_TRUE(p.gave("tile"));
    EXPECT_TRUE(p.gave("arch"));
    EXPECT_FALSE(p.gave("launcher"));
  }
  const auto bad = config_from_kernel_name("cutlass3x_sm90_sptensorop_gemm_x");
  ASSERT_TRUE(std::holds_alternative<KernelNameError>(bad));
  EXPECT_EQ(std::get<KernelNameError>(bad).part, "sptensorop");
}

}  // namespace
}  // namespace tilefit::io
