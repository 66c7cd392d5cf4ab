// The config front door: the model's name tables drive every list of names (the "allowed:"
// texts, did-you-mean, the schema); the field table drives the decoder and the schema; one
// Source and one load() read files, texts and kernel names into configs or sweep spaces.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tilefit/io/load.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/report/schema.hpp"

namespace tilefit::io {
namespace {

// ---- enum tables -------------------------------------------------------------------------------

TEST(EnumTables, ChoicesAreTheTablesJoinedByteForByte) {
  // The texts every "allowed:" of the reader has always printed (the error corpus holds them).
  EXPECT_EQ(model::schedule_choices(), "auto, cooperative, pingpong, 1sm, 2sm, multistage, ws");
  EXPECT_EQ(model::epilogue_choices(),
            "auto, tma, nosmem, blockscale_out, trtllm_default, finalize");
  EXPECT_EQ(model::mma_choices(), "auto, f8f6f4, nvf4");
  EXPECT_EQ(model::launcher_choices(), "vllm, sglang");
  EXPECT_EQ(model::engine_op_choices(), "scaled_mm, blockwise_fp8");
  EXPECT_EQ(model::bias_choices(), "none, row, column");
  EXPECT_EQ(model::dtype_choices(),
            "e2m1 (fp4), e2m3, e3m2 (fp6), e4m3 (fp8), e5m2, ue4m3, ue8m0, bf16, f16, f32, tf32, "
            "s8, u8, s32");
  EXPECT_EQ(
      model::operand_choices(),
      "nvfp4, mxfp4, mxfp6, mxfp8, or an element type (e2m1, e2m3, e3m2, e4m3, e5m2, bf16, f16, "
      "f32, tf32, s8, u8)");
}

template <class E>
void expect_round_trip(std::span<const model::EnumName<E>> table, std::string_view (*name)(E),
                       std::optional<E> (*parse)(std::string_view)) {
  std::set<std::string_view> seen;
  for (const model::EnumName<E>& e : table) {
    EXPECT_TRUE(seen.insert(e.name).second) << e.name;
    EXPECT_EQ(name(e.value), e.name);
    EXPECT_EQ(parse(e.name), e.value) << e.name;
    EXPECT_FALSE(e.mirrors.empty()) << e.name;
  }
}

TEST(EnumTables, NameAndParseReadTheSameRows) {
  expect_round_trip(model::schedule_names(), model::schedule_name, model::parse_schedule);
  expect_round_trip(model::epilogue_names(), model::epilogue_name, model::parse_epilogue);
  expect_round_trip(model::mma_names(), model::mma_name, model::parse_mma);
  expect_round_trip(model::launcher_names(), model::launcher_name, model::parse_launcher);
  expect_round_trip(model::engine_op_names(), model::engine_op_name, model::parse_engine_op);
  expect_round_trip(model::bias_names(), model::bias_name, model::parse_bias);
  EXPECT_EQ(model::launcher_name(model::Launcher::None), "none");
  EXPECT_FALSE(model::parse_launcher("none").has_value());  // the absence of a launcher
}

TEST(EnumTables, DTypeRowsDriveNamesParsingAndAliases) {
  ASSERT_EQ(model::dtype_names().size(), static_cast<std::size_t>(model::DType::S32) + 1);
  for (std::size_t i = 0; i < model::dtype_names().size(); ++i) {
    const model::DTypeName& d = model::dtype_names()[i];
    EXPECT_EQ(static_cast<std::size_t>(d.value), i) << d.name;  // enum order
    EXPECT_EQ(model::dtype_name(d.value), d.name);
    EXPECT_EQ(model::parse_dtype(d.name), d.value);
    if (!d.alias.empty()) {
      EXPECT_EQ(model::parse_dtype(d.alias), d.value) << d.alias;
    }
  }
  for (const model::DTypeAlias& a : model::dtype_aliases())
    EXPECT_EQ(model::parse_dtype(a.name), a.value);
  EXPECT_EQ(model::parse_dtype("half"), model::DType::F16);
  EXPECT_EQ(model::parse_dtype("int32"), model::DType::S32);
  for (const model::OperandFormat& f : model::operand_formats()) {
    EXPECT_EQ(model::parse_operand(f.name), f.operand) << f.name;
    EXPECT_EQ(model::operand_name(f.operand), f.name);
  }
}

TEST(EnumTables, AllowedNamesAreTheTableRowsInOrder) {
  EXPECT_EQ(allowed_names(FieldKind::mma), (std::vector<std::string>{"auto", "f8f6f4", "nvf4"}));
  EXPECT_EQ(allowed_names(FieldKind::scale_type), (std::vector<std::string>{"ue4m3", "ue8m0"}));
  EXPECT_EQ(allowed_names(FieldKind::bias), (std::vector<std::string>{"none", "row", "column"}));
  const std::vector<std::string> el = allowed_names(FieldKind::element);
  ASSERT_GE(el.size(), 4u);
  EXPECT_EQ(
      (std::vector<std::string>(el.begin(), el.begin() + 4)),
      (std::vector<std::string>{"e2m1", "fp4", "e2m3", "e3m2"}));  // a listed alias after its type
  const std::vector<std::string> op = allowed_names(FieldKind::operand);
  EXPECT_EQ(op.front(), "nvfp4");
  EXPECT_EQ(op.back(), "u8");
  EXPECT_EQ(std::count(op.begin(), op.end(), "ue8m0"),
            0);  // a scale type is not listed as an operand
}

TEST(EnumTables, DidYouMeanSuggestsTableNames) {
  const LoadResult r = load<LoadResult>(Source::text(
      R"([{"tile": [128,128,128], "schedule": "pinpong", "a": "nvfp5", "epilogue": {"variant": "blockscale_out", "sf": "ue8m1"}, "launcher": "vlm"}])",
      "d.json"));
  ASSERT_EQ(r.errors.size(), 4u);
  EXPECT_EQ(format_error(r.errors[0]),
            "d.json: config #0: field \"schedule\": \"pinpong\" is not a valid schedule; allowed: "
            "auto, cooperative, "
            "pingpong, 1sm, 2sm, multistage, ws; did you mean \"pingpong\"?");
  EXPECT_EQ(format_error(r.errors[1]),
            "d.json: config #0: field \"a\": \"nvfp5\" is not a valid operand type; allowed: "
            "nvfp4, mxfp4, mxfp6, "
            "mxfp8, or an element type (e2m1, e2m3, e3m2, e4m3, e5m2, bf16, f16, f32, tf32, s8, "
            "u8); did you mean "
            "\"nvfp4\"?");
  EXPECT_EQ(format_error(r.errors[2]),
            "d.json: config #0: field \"epilogue.sf\": \"ue8m1\" is not a valid scale-factor type; "
            "allowed: ue4m3, "
            "ue8m0; did you mean \"ue8m0\"?");
  EXPECT_EQ(format_error(r.errors[3]),
            "d.json: config #0: field \"launcher\": \"vlm\" is not a valid launcher; allowed: "
            "vllm, sglang; did you "
            "mean \"vllm\"?");
}

// ---- the field table, the decoder and the schema ------------------------------------------------

/// The property names of one object schema, in order.
std::vector<std::string> properties(const nlohmann::ordered_json& object_schema) {
  std::vector<std::string> out;
  for (auto it = object_schema.at("properties").begin(); it != object_schema.at("properties").end();
       ++it)
    out.push_back(it.key());
  return out;
}

TEST(FieldTable, SchemaHasExactlyTheTableFields) {
  const nlohmann::ordered_json s = report::config_schema();
  const auto& defs = s.at("$defs");
  EXPECT_EQ(properties(defs.at("config")), field_names(config_fields()));
  EXPECT_EQ(properties(defs.at("epilogue")), field_names(epilogue_fields()));
  EXPECT_EQ(properties(defs.at("tuned_entry")), field_names(tuned_entry_fields()));
  // Every enum field's schema lists exactly the table's names.
  for (const FieldSpec& f : config_fields()) {
    const std::vector<std::string> names = allowed_names(f.kind);
    if (names.empty() || f.name == "dtype") continue;  // dtype adds fp8_w8a8 (checked below)
    const std::string dump = defs.at("config").at("properties").at(std::string(f.name)).dump();
    for (const std::string& n : names)
      EXPECT_NE(dump.find("\"" + n + "\""), std::string::npos) << f.name << ": " << n;
  }
  EXPECT_NE(defs.at("config").at("properties").at("dtype").dump().find("\"fp8_w8a8\""),
            std::string::npos);
}

/// The fields of the errors of a config `{"tile": ..., field: value}`.
std::vector<std::string> error_fields(const std::string& field, const std::string& value) {
  const std::string tile = field == "tile" ? "" : R"("tile": [128, 128, 128], )";
  const LoadResult r =
      load<LoadResult>(Source::text("[{" + tile + "\"" + field + "\": " + value + "}]", "p.json"));
  std::vector<std::string> out;
  for (const ConfigError& e : r.errors) out.push_back(e.field + ": " + e.message);
  return out;
}

TEST(FieldTable, TheDecoderReadsEveryFieldOfTheTable) {
  // A field the table lists but the decoder does not read would be accepted with any value; a
  // field the decoder reads must be in the table (its known keys are the table's names), or it is
  // "unknown field". Here every table field, given an object, is read and refused under its name.
  for (const std::vector<FieldSpec>& fields :
       {std::vector<FieldSpec>(config_fields().begin(), config_fields().end())}) {
    for (const FieldSpec& f : fields) {
      const std::vector<std::string> errs = error_fields(std::string(f.name), R"({"zz": [1]})");
      bool under_field = false;
      for (const std::string& e : errs) {
        const std::string name(f.name);
        under_field =
            under_field || ((e.rfind(name + ": ", 0) == 0 || e.rfind(name + ".", 0) == 0) &&
                            e.find("unknown field; did you mean") == std::string::npos);
      }
      EXPECT_TRUE(under_field) << f.name
                               << " is in the field table but the decoder does not read it";
    }
  }
  for (const FieldSpec& f : epilogue_fields()) {
    const std::vector<std::string> errs =
        error_fields("epilogue", "{\"" + std::string(f.name) + "\": {\"zz\": [1]}}");
    ASSERT_FALSE(errs.empty()) << f.name;
    EXPECT_EQ(errs.front().rfind("epilogue." + std::string(f.name) + ": ", 0), 0u) << errs.front();
  }
  EXPECT_EQ(error_fields("zz_not_a_field", "1").front().rfind("zz_not_a_field: unknown field", 0),
            0u);
}

// ---- one loader ------------------------------------------------------------------------------------

std::string write_file(const std::string& name, const std::string& text) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("tilefit_front_door_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

constexpr const char* kName =
    "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_"
    "warpspecialized_cooperative_epi_tma";

TEST(Load, EverySourceReadsTheSameConfigs) {
  const std::string doc =
      std::string(
          R"([{"name": "x", "arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4"}, ")") +
      kName + "\"]";
  const std::string path = write_file("same.json", doc);
  const LoadResult from_text = load<LoadResult>(Source::text(doc, path));
  const LoadResult from_file = load<LoadResult>(Source::file(path));
  ASSERT_EQ(from_text.configs.size(), 2u);
  ASSERT_EQ(from_file.configs.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(from_text.configs[i].config, from_file.configs[i].config);
    EXPECT_EQ(from_file.configs[i].file, path);
  }
  const LoadResult from_name = load<LoadResult>(Source::kernel_names({kName}));
  ASSERT_EQ(from_name.configs.size(), 1u);
  EXPECT_EQ(from_name.configs[0].file, "--name");
  EXPECT_EQ(from_name.configs[0].config, from_file.configs[1].config);

  std::vector<LoadedConfig> streamed;
  EXPECT_TRUE(stream(Source::file(path), [&](LoadedConfig&& c) {
                streamed.push_back(std::move(c));
              }).empty());
  ASSERT_EQ(streamed.size(), 2u);
  EXPECT_EQ(streamed[1].config, from_file.configs[1].config);
  std::remove(path.c_str());
}

TEST(Load, ConfigsAndSpacesComeThroughTheSameDoor) {
  const std::string doc =
      R"([{"name": "s", "arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4", "stages": [2, 3]}])";
  const SpaceLoad spaces = load<SpaceLoad>(Source::text(doc, "s.json"));
  ASSERT_EQ(spaces.spaces.size(), 1u);
  EXPECT_EQ(spaces.spaces[0].size(), 2u);
  const LoadResult configs = load<LoadResult>(Source::text(doc, "s.json"));
  ASSERT_EQ(configs.errors.size(), 1u);  // check refuses alternatives and says to sweep them
  EXPECT_NE(configs.errors[0].message.find("run `tilefit sweep` on this file"), std::string::npos);

  const SpaceLoad named = load<SpaceLoad>(Source::kernel_names({kName}));
  ASSERT_EQ(named.spaces.size(), 1u);
  EXPECT_EQ(named.spaces[0].size(), 1u);
  EXPECT_EQ(named.spaces[0].file, "--name");
}

TEST(Load, AMissingFileIsTheSameErrorForConfigsAndSpaces) {
  const LoadResult c = load<LoadResult>(Source::file("/nonexistent/tilefit.json"));
  const SpaceLoad s = load<SpaceLoad>(Source::file("/nonexistent/tilefit.json"));
  ASSERT_EQ(c.errors.size(), 1u);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(format_error(c.errors[0]), format_error(s.errors[0]));
  EXPECT_EQ(c.errors[0].file, "/nonexistent/tilefit.json");
  EXPECT_EQ(c.errors[0].index, -1);
  const std::vector<ConfigError> streamed =
      stream(Source::file("/nonexistent/tilefit.json"), [](LoadedConfig&&) {});
  ASSERT_EQ(streamed.size(), 1u);
  EXPECT_EQ(format_error(streamed[0]), format_error(c.errors[0]));
}

}  // namespace
}  // namespace tilefit::io

namespace tilefit::io {
namespace {

TEST(FieldTable, DialectsAreTheFieldsEachKindRefuses) {
  std::vector<std::string> cutlass, engine, triton;
  for (const FieldSpec& f : config_fields()) {
    EXPECT_TRUE(f.kind == FieldKind::text || !f.mirrors.empty())
        << f.name << ": say what it mirrors";
    if (f.dialect == Dialect::cutlass) cutlass.emplace_back(f.name);
    if (f.dialect == Dialect::engine_cutlass) engine.emplace_back(f.name);
    if (f.dialect == Dialect::triton) triton.emplace_back(f.name);
  }
  EXPECT_EQ(cutlass, (std::vector<std::string>{"cluster", "a", "b", "sf_vec", "c", "acc", "layout",
                                               "schedule", "epilogue", "grouped", "mma", "warp",
                                               "swap_ab"}));
  EXPECT_EQ(engine, (std::vector<std::string>{"launcher", "op", "bias", "scale_block"}));
  EXPECT_EQ(triton,
            (std::vector<std::string>{"num_warps", "group_m", "block_shape", "mul_routed_weight",
                                      "triton", "engine", "tuned", "hip_async_copy"}));
  EXPECT_EQ(dialect_name(Dialect::engine_cutlass), "engine CUTLASS");

  // A CUTLASS field with a Triton kernel.
  for (const std::string& f : cutlass) {
    const std::vector<std::string> errs = error_fields(
        "kernel", "\"triton_matmul\", \"arch\": \"sm_90\", \"dtype\": \"f16\", \"" + f + "\": " +
                      (f == "epilogue" || f == "schedule" || f == "mma" ? "\"auto\""
                       : f == "a" || f == "b" || f == "c" || f == "acc" ? "\"f16\""
                       : f == "layout"                                  ? "\"tn\""
                       : f == "sf_vec"                                  ? "16"
                       : f == "grouped" || f == "swap_ab"               ? "false"
                                                                        : "[1, 1, 1]"));
    bool refused = false;
    for (const std::string& e : errs)
      refused = refused || e.rfind(f + ": applies only to CUTLASS kernels", 0) == 0;
    EXPECT_TRUE(refused) << f;
  }
  // A Triton field with a CUTLASS kernel, an engine field without a launcher.
  for (const std::string& f :
       {std::string("num_warps"), std::string("group_m"), std::string("triton")}) {
    const auto errs = error_fields(
        "kernel", "\"sm90_tma_ws\", \"" + f + "\": " + (f == "triton" ? "\"3.6.0\"" : "4"));
    ASSERT_EQ(errs.size(), 1u) << f;
    EXPECT_EQ(errs[0], f + ": applies only to Triton kernels; give \"kernel\": \"triton_matmul\" "
                           "or \"triton_fused_moe\"");
  }
  for (const std::string& f : {std::string("op"), std::string("bias")}) {
    const auto errs = error_fields(f, f == "op" ? "\"scaled_mm\"" : "\"row\"");
    ASSERT_EQ(errs.size(), 1u) << f;
    EXPECT_EQ(errs[0],
              f + ": applies only to engine-built kernels; give \"launcher\" (vllm, sglang)");
  }
}

}  // namespace
}  // namespace tilefit::io

// ---- provenance --------------------------------------------------------------------------------

namespace tilefit::io {
namespace {

TEST(Provenance, AConfigFileSaysFileIndexAndTheFieldsItGave) {
  const LoadResult r = load<LoadResult>(Source::text(
      R"([{"tile": [1, 1, 1]}, {"name": "b", "arch": "sm_90", "tile": [128, 128, 64], "stages": 3}, {"name": "bad", "tile": [0, 1, 1]}])",
      "p.json"));
  ASSERT_EQ(r.configs.size(), 2u);
  const Provenance& p = r.configs[1].from;
  EXPECT_EQ(p.origin, Provenance::Origin::file);
  EXPECT_EQ(p.file, "p.json");
  EXPECT_EQ(p.index, 1);
  for (const char* f : {"name", "arch", "tile", "stages"}) EXPECT_TRUE(p.gave(f)) << f;
  for (const char* f : {"cluster", "schedule", "d", "epilogue"}) EXPECT_FALSE(p.gave(f)) << f;
  EXPECT_FALSE(r.configs[0].from.gave("arch"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(format_error(r.errors[0]),
            "p.json: config #2 \"bad\": field \"tile\": 0 is not a valid tile extent; allowed: "
            "integers 1..65536 (or \"MxNxK\")");
}

TEST(Provenance, ATunedTableEntrySaysItsKey) {
  const std::string path = write_file(
      "E=8,N=512,device_name=NVIDIA_H100_80GB_HBM3.json",
      R"({"16": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "num_warps": 4},
                                          "32": {"BLOCK_SIZE_M": 0, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128}})");
  const LoadResult r = load<LoadResult>(Source::file(path));
  ASSERT_EQ(r.configs.size(), 1u);
  const Provenance& p = r.configs[0].from;
  EXPECT_EQ(p.origin, Provenance::Origin::tuned_entry);
  EXPECT_EQ(origin_name(p.origin), "tuned_entry");
  EXPECT_EQ(p.key, "16");
  EXPECT_EQ(p.file, path);
  EXPECT_TRUE(p.gave("tile"));
  EXPECT_TRUE(p.gave("num_warps"));
  EXPECT_FALSE(p.gave("stages"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, path);
  EXPECT_EQ(r.errors[0].index, 1);
  EXPECT_EQ(r.errors[0].config_name, "32");
  EXPECT_EQ(r.errors[0].field, "BLOCK_SIZE_M");
  std::remove(path.c_str());
}

TEST(Provenance, AKernelNameSaysTheName) {
  const LoadResult r =
      load<LoadResult>(Source::kernel_names({kName, "cutlass3x_sm90_tensorop_gemm_nope"}));
  ASSERT_EQ(r.configs.size(), 1u);
  const Provenance& p = r.configs[0].from;
  EXPECT_EQ(p.origin, Provenance::Origin::kernel_name);
  EXPECT_EQ(p.key, kName);
  EXPECT_EQ(p.file, "--name");
  EXPECT_EQ(p.index, 0);
  EXPECT_TRUE(p.gave("tile"));
  EXPECT_TRUE(p.gave("schedule"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, "--name");
  EXPECT_EQ(r.errors[0].index, 1);
  EXPECT_EQ(r.errors[0].config_name, "cutlass3x_sm90_tensorop_gemm_nope");
}

TEST(Provenance, ASweepCandidateIsASweepAlternative) {
  const SpaceLoad l = load<SpaceLoad>(Source::text(
      R"([{"name": "s", "arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4", "stages": [2, 3]},
          {"name": "t", "tile": [128, 128, 128], "cluster": [[1, 1, 1], [0, 1, 1]]}])",
      "s.json"));
  ASSERT_EQ(l.spaces.size(), 1u);
  const Provenance p = l.spaces[0].provenance(1);
  EXPECT_EQ(p.origin, Provenance::Origin::sweep_alternative);
  EXPECT_EQ(p.key, "s@1");
  EXPECT_EQ(p.file, "s.json");
  EXPECT_TRUE(p.gave("stages"));
  EXPECT_TRUE(p.varies("stages"));  // its value is one of the file's alternatives
  EXPECT_TRUE(p.gave("dtype"));
  EXPECT_FALSE(p.varies("dtype"));  // the config object's own
  EXPECT_FALSE(p.gave("cluster"));
  ASSERT_FALSE(l.errors.empty());
  EXPECT_EQ(l.errors[0].file, "s.json");
  EXPECT_EQ(l.errors[0].index, 1);
  EXPECT_EQ(l.errors[0].config_name, "t");
  EXPECT_EQ(l.errors[0].field, "cluster[1]");  // the alternative at fault
}

}  // namespace
}  // namespace tilefit::io
