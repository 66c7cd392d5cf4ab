// The config reader (io::load, tilefit/io/load.hpp): defaults, every field and its shorthand
// forms, arch spellings, number boundaries, nothing lost in a good/bad mix, every error of a
// config reported, and the input bounds. The error corpus (tests/data/errors/) is run by
// error_corpus_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/suggest.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit::io {
namespace {

using model::DType;
using model::EpilogueVariant;
using model::Mma;
using model::Schedule;

/// Parses `text`; all error lines joined, for failure messages.
std::string all_errors(const LoadResult& r) {
  std::string out;
  for (const ConfigError& e : r.errors) out += format_error(e) + "\n";
  return out;
}

/// The one config of `[ {body} ]`, which must have no error.
LoadedConfig one(const std::string& body) {
  const LoadResult r = load<LoadResult>(Source::text("[{" + body + "}]", "t.json"));
  EXPECT_TRUE(r.errors.empty()) << body << "\n" << all_errors(r);
  EXPECT_EQ(r.configs.size(), 1u) << body;
  return r.configs.empty() ? LoadedConfig{} : r.configs.front();
}

/// The error lines of `[ {body} ]`, which must not yield a config.
std::vector<std::string> errors_of(const std::string& body) {
  const LoadResult r = load<LoadResult>(Source::text("[{" + body + "}]", "t.json"));
  EXPECT_TRUE(r.configs.empty()) << body;
  std::vector<std::string> out;
  for (const ConfigError& e : r.errors) out.push_back(format_error(e));
  return out;
}

std::string one_error(const std::string& body) {
  const std::vector<std::string> e = errors_of(body);
  EXPECT_EQ(e.size(), 1u) << body;
  return e.empty() ? "" : e.front();
}

TEST(ConfigReader, DefaultsOfAMinimalConfig) {
  const LoadedConfig lc = one(R"("tile": [128, 128, 64])");
  const model::KernelConfig& c = lc.config;
  EXPECT_EQ(lc.file, "t.json");
  EXPECT_EQ(lc.index, 0);
  EXPECT_FALSE(lc.arch_given);
  EXPECT_EQ(c.name, "#0");
  EXPECT_EQ(c.arch, 0);
  EXPECT_EQ(c.family, "");
  EXPECT_EQ(c.m, 128);
  EXPECT_EQ(c.n, 128);
  EXPECT_EQ(c.k, 64);
  EXPECT_EQ(c.cluster, (std::array<int, 3>{1, 1, 1}));
  EXPECT_EQ(c.a, (model::Operand{DType::BF16, DType::Void, 0}));
  EXPECT_EQ(c.b, (model::Operand{DType::BF16, DType::Void, 0}));
  EXPECT_EQ(c.d, DType::BF16);
  EXPECT_EQ(c.c, DType::BF16);
  EXPECT_EQ(c.acc, DType::F32);
  EXPECT_TRUE(c.a_k_major);
  EXPECT_TRUE(c.b_k_major);
  EXPECT_TRUE(c.cd_row_major);
  EXPECT_EQ(c.schedule, Schedule::Auto);
  EXPECT_EQ(c.epilogue.variant, EpilogueVariant::Auto);
  EXPECT_FALSE(c.epilogue.tile);
  EXPECT_FALSE(c.epilogue.stages_c);
  EXPECT_FALSE(c.epilogue.stages_d);
  EXPECT_FALSE(c.grouped);
  EXPECT_FALSE(c.stages);
  EXPECT_EQ(c.mma, Mma::Auto);
  EXPECT_FALSE(c.warp);
  EXPECT_FALSE(c.swap_ab);
}

TEST(ConfigReader, EveryField) {
  const LoadedConfig lc = one(R"(
    "name": "moe_128x256", "arch": "sm120", "kernel": "sm120_blockscaled",
    "tile": [128, 256, 128], "cluster": [2, 1, 1], "a": "mxfp8", "b": "mxfp6", "sf_vec": 32,
    "c": "f16", "d": "e2m1", "acc": "f32", "layout": "tnn", "schedule": "pingpong",
    "epilogue": {"variant": "blockscale_out", "tile": [64, 32], "stages_c": 2, "stages_d": 3,
                 "sf_vec": 16, "sf": "ue8m0"},
    "grouped": true, "stages": 3, "mma": "f8f6f4", "warp": [64, 64, 32], "swap_ab": true,
    "comment": "every field", "description": "also allowed")");
  const model::KernelConfig& c = lc.config;
  EXPECT_TRUE(lc.arch_given);
  EXPECT_EQ(c.name, "moe_128x256");
  EXPECT_EQ(c.arch, 120);
  EXPECT_EQ(c.family, "sm120_blockscaled");
  EXPECT_EQ(c.m, 128);
  EXPECT_EQ(c.n, 256);
  EXPECT_EQ(c.k, 128);
  EXPECT_EQ(c.cluster, (std::array<int, 3>{2, 1, 1}));
  EXPECT_EQ(c.a, (model::Operand{DType::E4M3, DType::UE8M0, 32}));
  EXPECT_EQ(c.b, (model::Operand{DType::E3M2, DType::UE8M0, 32}));
  EXPECT_EQ(c.c, DType::F16);
  EXPECT_EQ(c.d, DType::E2M1);
  EXPECT_EQ(c.acc, DType::F32);
  EXPECT_TRUE(c.a_k_major);
  EXPECT_TRUE(c.b_k_major);
  EXPECT_FALSE(c.cd_row_major);
  EXPECT_EQ(c.schedule, Schedule::Pingpong);
  EXPECT_EQ(c.epilogue.variant, EpilogueVariant::BlockScaleOut);
  EXPECT_EQ(c.epilogue.tile, (std::array<long long, 2>{64, 32}));
  EXPECT_EQ(c.epilogue.stages_c, 2);
  EXPECT_EQ(c.epilogue.stages_d, 3);
  EXPECT_EQ(c.epilogue.sf_vec, 16);
  EXPECT_EQ(c.epilogue.sf, DType::UE8M0);
  EXPECT_TRUE(c.grouped);
  EXPECT_EQ(c.stages, 3);
  EXPECT_EQ(c.mma, Mma::F8F6F4);
  EXPECT_EQ(c.warp, (std::array<long long, 3>{64, 64, 32}));
  EXPECT_TRUE(c.swap_ab);
}

TEST(ConfigReader, ShorthandForms) {
  const model::KernelConfig c = one(R"("tile": "128x256x64", "dtype": "nvfp4", "c": null,
                                      "epilogue": "finalize", "stages": "auto",
                                      "cluster": "2x1x1", "warp": "64x64x32")")
                                    .config;
  EXPECT_EQ(c.m, 128);
  EXPECT_EQ(c.n, 256);
  EXPECT_EQ(c.k, 64);
  EXPECT_EQ(c.cluster, (std::array<int, 3>{2, 1, 1}));
  EXPECT_EQ(c.warp, (std::array<long long, 3>{64, 64, 32}));
  EXPECT_EQ(c.a, (model::Operand{DType::E2M1, DType::UE4M3, 16}));
  EXPECT_EQ(c.b, c.a);
  EXPECT_EQ(c.c, DType::Void);
  EXPECT_EQ(c.epilogue.variant, EpilogueVariant::Finalize);
  EXPECT_FALSE(c.stages);
  // "dtype" agreeing with "a" (an alias of the same type) is fine.
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "dtype": "fp8", "a": "e4m3")").config.a.elem, DType::E4M3);
  // One of a/b alone sets both; both differ when given.
  const model::KernelConfig ab = one(R"("tile": [1, 1, 1], "a": "e4m3")").config;
  EXPECT_EQ(ab.b.elem, DType::E4M3);
  const model::KernelConfig mixed = one(R"("tile": [1, 1, 1], "a": "mxfp8", "b": "nvfp4")").config;
  EXPECT_EQ(mixed.a.sf, DType::UE8M0);
  EXPECT_EQ(mixed.b.sf, DType::UE4M3);
  // c defaults to d; "void" is null.
  const model::KernelConfig cd = one(R"("tile": [1, 1, 1], "d": "f32")").config;
  EXPECT_EQ(cd.c, DType::F32);
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "c": "void")").config.c, DType::Void);
  // sf_vec overrides the format's vector size on block-scaled operands only.
  const model::KernelConfig sv =
      one(R"("tile": [1, 1, 1], "a": "nvfp4", "b": "e4m3", "sf_vec": 32)").config;
  EXPECT_EQ(sv.a.sf_vec, 32);
  EXPECT_EQ(sv.b.sf_vec, 0);
  // Values are case-insensitive; keys are not.
  const model::KernelConfig up =
      one(R"("tile": [1, 1, 1], "dtype": "NVFP4", "schedule": "Cooperative",
                                       "kernel": "SM120_Blockscaled", "layout": "TN")")
          .config;
  EXPECT_EQ(up.a.sf, DType::UE4M3);
  EXPECT_EQ(up.schedule, Schedule::Cooperative);
  EXPECT_EQ(up.family, "sm120_blockscaled");
}

TEST(ConfigReader, LayoutLettersAndSwapAb) {
  struct Case {
    const char* body;
    bool a_k, b_k, cd_row, swap;
  };
  const Case cases[] = {
      {R"("layout": "tn")", true, true, true, false},
      {R"("layout": "nt")", false, false, true, false},
      {R"("layout": "tnn")", true, true, false, false},
      {R"("layout": "tnt")", true, true, true, false},
      {R"("swap_ab": true)", true, true, false, true},                  // swap_ab: C/D column-major
      {R"("swap_ab": true, "layout": "tn")", true, true, false, true},  // two letters: still
      {R"("swap_ab": true, "layout": "tnt")", true, true, true, true},  // a third letter wins
      {R"("swap_ab": false)", true, true, true, false},
  };
  for (const Case& c : cases) {
    const model::KernelConfig k = one(std::string(R"("tile": [1, 1, 1], )") + c.body).config;
    EXPECT_EQ(k.a_k_major, c.a_k) << c.body;
    EXPECT_EQ(k.b_k_major, c.b_k) << c.body;
    EXPECT_EQ(k.cd_row_major, c.cd_row) << c.body;
    EXPECT_EQ(k.swap_ab, c.swap) << c.body;
  }
}

TEST(ConfigReader, ArchSpellings) {
  const std::pair<const char*, int> cases[] = {
      {R"("sm90")", 90},  {R"("sm_90a")", 90},  {R"("SM_100f")", 100},   {R"("120")", 120},
      {R"("12.0")", 120}, {R"("sm_121")", 121}, {R"("compute_86")", 86}, {R"(90)", 90},
      {R"(120)", 120},    {R"(12.0)", 120},     {R"(9.0)", 90},          {R"("sm_101")", 110},
  };
  for (const auto& [spelling, sm] : cases) {
    const LoadedConfig lc = one(std::string(R"("tile": [1, 1, 1], "arch": )") + spelling);
    EXPECT_EQ(lc.config.arch, sm) << spelling;
    EXPECT_TRUE(lc.arch_given) << spelling;
  }
  for (const char* bad : {R"("sm_99")", R"(99)", R"("hopper")", R"(1e2)", R"(-90)", R"("")"}) {
    const std::string e = one_error(std::string(R"("tile": [1, 1, 1], "arch": )") + bad);
    EXPECT_NE(e.find("field \"arch\": " + std::string(bad) +
                     " is not a known architecture; allowed: sm_70"),
              std::string::npos)
        << e;
  }
}

TEST(ConfigReader, TileBoundaries) {
  // Accepted: 1 and 65536 (= model::kMaxTileExtent).
  EXPECT_EQ(one(R"("tile": [1, 65536, 1])").config.n, model::kMaxTileExtent);
  EXPECT_EQ(one(R"("tile": "1x65536x1")").config.n, model::kMaxTileExtent);
  const std::string allowed =
      " is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")";
  for (const char* bad :
       {"0", "65537", "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "-1", "-9223372036854775808",
        "-9223372036854775809", "1.5", "1e3", "128.0", "-0.0"}) {
    EXPECT_EQ(one_error(std::string(R"("name": "b", "tile": [128, )") + bad + ", 128]"),
              std::string("t.json: config #0 \"b\": field \"tile\": ") + bad + allowed);
  }
  // Not numbers at all: the whole value is shown.
  for (const char* bad : {R"("128")", "true", "null", "[1]"}) {
    EXPECT_EQ(
        one_error(std::string(R"("name": "b", "tile": [128, )") + bad + ", 128]"),
        std::string("t.json: config #0 \"b\": field \"tile\": expected [M, N, K] or \"MxNxK\" with "
                    "integers 1..65536, got [128, ") +
            bad + ", 128]");
  }
  // The string form: digits only, three extents in range.
  for (const char* bad :
       {"128x128", "128x128x128x1", "0x128x128", "128x65537x1", "128x-1x1", "128 x 128 x 128",
        "x128x128", "128x128x", "1e3x1x1", "", "9999999999x1x1"}) {
    EXPECT_EQ(one_error(std::string(R"("name": "b", "tile": ")") + bad + "\""),
              std::string("t.json: config #0 \"b\": field \"tile\": \"") + bad +
                  "\" is not a valid tile; allowed: \"MxNxK\" or [M, N, K] with integers 1..65536");
  }
}

TEST(ConfigReader, StagesClusterSfVecBoundaries) {
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "stages": 1)").config.stages, 1);
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "stages": 4096)").config.stages, model::kMaxStages);
  for (const char* bad : {"0", "4097", "-1", "2147483648", "9223372036854775808", "1.5", "1e3",
                          "\"3\"", "\"AUTOMATIC\""}) {
    EXPECT_EQ(one_error(std::string(R"("tile": [1, 1, 1], "stages": )") + bad),
              std::string("t.json: config #0: field \"stages\": ") + bad +
                  " is not a valid stage count; allowed: \"auto\" or integers 1..4096");
  }
  EXPECT_EQ(
      one_error(R"("tile": [1, 1, 1], "stages": false)"),
      "t.json: config #0: field \"stages\": expected \"auto\" or an integer, got false; allowed: "
      "\"auto\" or integers 1..4096");
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "cluster": [16, 1, 1])").config.cluster[0], 16);
  for (const char* bad : {"0", "17", "-1", "2147483648", "1.5"}) {
    EXPECT_EQ(one_error(std::string(R"("tile": [1, 1, 1], "cluster": [1, )") + bad + ", 1]"),
              std::string("t.json: config #0: field \"cluster\": ") + bad +
                  " is not a valid cluster extent; allowed: integers 1..16 (or \"XxYxZ\")");
  }
  EXPECT_EQ(one(R"("tile": [1, 1, 1], "dtype": "mxfp4", "sf_vec": 16)").config.a.sf_vec, 16);
  for (const char* bad : {"0", "8", "24", "64", "16.0", "-16", "18446744073709551616"}) {
    EXPECT_EQ(one_error(std::string(R"("tile": [1, 1, 1], "dtype": "nvfp4", "sf_vec": )") + bad),
              std::string("t.json: config #0: field \"sf_vec\": ") + bad +
                  " is not a valid scale-factor vector size; allowed: 16, 32");
  }
  EXPECT_EQ(
      one_error(R"("tile": [1, 1, 1], "epilogue": {"stages_c": 4097})"),
      "t.json: config #0: field \"epilogue.stages_c\": 4097 is not a valid epilogue stage count; "
      "allowed: integers 1..4096");
}

TEST(ConfigReader, GoodAndBadMixLosesNothing) {
  // 300 configs; every third one is bad in a different way. Every good config comes back,
  // in order, with its index; every bad one is an error with its index.
  std::string text = "{\"configs\": [";
  for (int i = 0; i < 300; ++i) {
    if (i) text += ",";
    if (i % 3 == 1) {
      const char* bad[] = {R"({"tile": [0, 1, 1]})", R"({"tile": [1, 1, 1], "tiles": 1})", R"(7)",
                           R"({"tile": [1, 1, 1], "dtype": "nvfp5"})", R"({})"};
      text += bad[(i / 3) % 5];
    } else {
      text += R"({"name": "good)" + std::to_string(i) + R"(", "tile": [128, 128, 128]})";
    }
  }
  text += "]}";
  const LoadResult r = load<LoadResult>(Source::text(text, "mix.json"));
  ASSERT_EQ(r.configs.size(), 200u);
  ASSERT_EQ(r.errors.size(), 100u);
  std::size_t g = 0, b = 0;
  for (int i = 0; i < 300; ++i) {
    if (i % 3 == 1) {
      EXPECT_EQ(r.errors[b].index, i);
      EXPECT_EQ(r.errors[b].file, "mix.json");
      ++b;
    } else {
      EXPECT_EQ(r.configs[g].index, i);
      EXPECT_EQ(r.configs[g].config.name, "good" + std::to_string(i));
      ++g;
    }
  }
}

TEST(ConfigReader, EveryErrorOfAConfigIsReportedInFileOrder) {
  const std::vector<std::string> e = errors_of(
      R"("name": "many", "stages": 0, "tile": [0, 65537, 128], "tilez": 1, "dtype": "nvfp5",
         "grouped": "no", "epilogue": {"variant": "tmaa", "stages_d": -1, "extra": 1},
         "cluster": [1, 1], "layout": "tq", "name": "again")");
  const std::string p = "t.json: config #0 \"many\": field ";
  const std::vector<std::string> want = {
      p + "\"stages\": 0 is not a valid stage count; allowed: \"auto\" or integers 1..4096",
      p + "\"tile\": 0 is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")",
      p + "\"tile\": 65537 is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")",
      p + "\"tilez\": unknown field; did you mean \"tile\"?",
      p + "\"dtype\": \"nvfp5\" is not a valid operand type; allowed: nvfp4, mxfp4, mxfp6, mxfp8, "
          "or an "
          "element type (e2m1, e2m3, e3m2, e4m3, e5m2, bf16, f16, f32, tf32, s8, u8); did you mean "
          "\"nvfp4\"?",
      p + "\"grouped\": expected true or false, got \"no\"",
      p + "\"epilogue.variant\": \"tmaa\" is not a valid epilogue variant; allowed: auto, tma, "
          "nosmem, "
          "blockscale_out, trtllm_default, finalize; did you mean \"tma\"?",
      p + "\"epilogue.stages_d\": -1 is not a valid epilogue stage count; allowed: integers "
          "1..4096",
      p + "\"epilogue.extra\": unknown field; allowed: variant, tile, stages_c, stages_d, sf_vec, "
          "sf",
      p + "\"cluster\": expected 3 extents [x, y, z], got [1, 1]",
      p + "\"layout\": \"tq\" is not a valid layout; allowed: 2 or 3 letters t/n for A, B and "
          "optionally "
          "C/D, e.g. \"tn\", \"tnt\", \"tnn\"",
      p + "\"name\": duplicate field (JSON keeps only one); give it once",
  };
  EXPECT_EQ(e, want);
}

TEST(ConfigReader, TopLevelForms) {
  // Bare array, object with the allowed extra keys, UTF-8 byte-order mark, empty list.
  EXPECT_EQ(load<LoadResult>(Source::text(R"([{"tile": [1, 1, 1]}, {"tile": [2, 2, 2]}])", "f"))
                .configs.size(),
            2u);
  const LoadResult o = load<LoadResult>(Source::text(
      R"({"$schema": "x", "description": "d", "comment": "c", "configs": [{"tile": [1, 1, 1]}]})",
      "f"));
  EXPECT_TRUE(o.errors.empty()) << all_errors(o);
  EXPECT_EQ(o.configs.size(), 1u);
  EXPECT_EQ(
      load<LoadResult>(Source::text("\xEF\xBB\xBF[{\"tile\": [1, 1, 1]}]", "f")).configs.size(),
      1u);
  const LoadResult empty = load<LoadResult>(Source::text(R"({"configs": []})", "f"));
  EXPECT_TRUE(empty.configs.empty());
  EXPECT_TRUE(empty.errors.empty());
  // Unknown top-level keys are errors, but the configs are still read.
  const LoadResult typo =
      load<LoadResult>(Source::text(R"({"configs": [{"tile": [1, 1, 1]}], "comments": "x"})", "f"));
  EXPECT_EQ(typo.configs.size(), 1u);
  ASSERT_EQ(typo.errors.size(), 1u);
  EXPECT_EQ(
      format_error(typo.errors[0]),
      "f: field \"comments\": unknown top-level field; allowed: configs, $schema, description, "
      "comment; did you mean \"comment\"?");
}

TEST(ConfigReader, ErrorStructAndFormat) {
  const LoadResult r = load<LoadResult>(
      Source::text(R"([{"name": "moe_big", "tile": [128, 0, 128]}])", "configs/x.json"));
  ASSERT_EQ(r.errors.size(), 1u);
  const ConfigError& e = r.errors[0];
  EXPECT_EQ(e.file, "configs/x.json");
  EXPECT_EQ(e.index, 0);
  EXPECT_EQ(e.config_name, "moe_big");
  EXPECT_EQ(e.field, "tile");
  EXPECT_EQ(e.message, "0 is not a valid tile extent; allowed: integers 1..65536 (or \"MxNxK\")");
  EXPECT_EQ(format_error({"configs/x.json", 2, "moe_big", "tile", "m"}),
            "configs/x.json: config #2 \"moe_big\": field \"tile\": m");
  EXPECT_EQ(format_error({"x.json", 2, "#2", "tile", "m"}), "x.json: config #2: field \"tile\": m");
  EXPECT_EQ(format_error({"x.json", 2, "#7", "", "m"}), "x.json: config #2 \"#7\": m");
  EXPECT_EQ(format_error({"x.json", -1, "", "", "m"}), "x.json: m");
  EXPECT_EQ(format_error({"x.json", -1, "", "configs", "m"}), "x.json: field \"configs\": m");
  // Names and fields are escaped and cut.
  EXPECT_EQ(format_error({"x", 0, "a\"b", "k\\", "m"}),
            "x: config #0 \"a\\\"b\": field \"k\\\\\": m");
  EXPECT_EQ(format_error({"x", 0, std::string(50, 'n'), "", "m"}),
            "x: config #0 \"" + std::string(40, 'n') + "...\": m");
  // A config without a readable name is "#<index>".
  const LoadResult unnamed = load<LoadResult>(
      Source::text(R"([{"tile": [1, 1, 1]}, {"name": 5, "tile": [0, 1, 1]}])", "f"));
  ASSERT_EQ(unnamed.errors.size(), 2u);
  EXPECT_EQ(unnamed.errors[0].config_name, "#1");
  EXPECT_EQ(unnamed.errors[0].field, "name");
  EXPECT_EQ(unnamed.errors[1].field, "tile");
}

TEST(ConfigReader, LongValuesAreCutInMessages) {
  const std::string e =
      one_error(R"("tile": [1, 1, 1], "schedule": ")" + std::string(1000, 'z') + "\"");
  EXPECT_LT(e.size(), 250u) << e;
  EXPECT_NE(e.find(": \"" + std::string(39, 'z') + "... is not a valid schedule"),
            std::string::npos)
      << e;
  const std::string k = one_error(R"("tile": [1, 1, 1], ")" + std::string(1000, 'q') + R"(": 1)");
  EXPECT_LT(k.size(), 450u) << k;  // the allowed list grows with the fields
}

TEST(ConfigReader, NestingIsBoundedWithoutRecursion) {
  // A million brackets: refused at level 65, with its position, and no stack overflow.
  const std::string deep(1'000'000, '[');
  const LoadResult r = load<LoadResult>(Source::text(deep, "deep.json"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(format_error(r.errors[0]),
            "deep.json: JSON nested deeper than 64 levels at line 1, column 65; a config file "
            "needs at most 5");
  // 64 levels are fine as JSON (the config is then wrong, not the file).
  std::string ok =
      "[{\"tile\": [1, 1, 1], \"comment\": " + std::string(62, '[') + std::string(62, ']') + "}]";
  const LoadResult r64 = load<LoadResult>(Source::text(ok, "f"));
  ASSERT_EQ(r64.errors.size(), 1u);
  EXPECT_EQ(r64.errors[0].field, "comment");
}

TEST(ConfigReader, SizeAndCountLimits) {
  // Over the size limit: refused before parsing.
  const LoadResult big =
      load<LoadResult>(Source::text(std::string(kMaxConfigFileBytes + 1, ' '), "big.json"));
  ASSERT_EQ(big.errors.size(), 1u);
  EXPECT_EQ(
      format_error(big.errors[0]),
      "big.json: file too large: 67108865 bytes; the limit is 67108864 bytes (64 MiB); split the "
      "configs into several files");
  // Exactly at the count limit: every config is read.
  std::string full = "[";
  full.reserve(20 * kMaxConfigsPerFile + 8);
  for (std::size_t i = 0; i < kMaxConfigsPerFile; ++i)
    full += i ? R"(,{"tile":"1x1x1"})" : R"({"tile":"1x1x1"})";
  const LoadResult at_limit = load<LoadResult>(Source::text(full + "]", "full.json"));
  EXPECT_TRUE(at_limit.errors.empty());
  EXPECT_EQ(at_limit.configs.size(), kMaxConfigsPerFile);
  // One config over the limit: the file is refused as a whole.
  const LoadResult r = load<LoadResult>(Source::text(full + R"(,{"tile":"1x1x1"}])", "many.json"));
  EXPECT_TRUE(r.configs.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(format_error(r.errors[0]), "many.json: too many configs: more than " +
                                           std::to_string(kMaxConfigsPerFile) +
                                           " in one file; split them into several files");
}

TEST(ConfigReader, ErrorListIsCappedAndCounted) {
  std::string text = "[";
  const std::size_t n = kMaxErrorsPerFile + 5;
  for (std::size_t i = 0; i < n; ++i) text += std::string(i ? "," : "") + R"({"tile": [0, 1, 1]})";
  text += R"(, {"tile": [1, 1, 1]}])";
  const LoadResult r = load<LoadResult>(Source::text(text, "f"));
  EXPECT_EQ(r.configs.size(), 1u);
  ASSERT_EQ(r.errors.size(), kMaxErrorsPerFile + 1);
  EXPECT_EQ(format_error(r.errors.back()),
            "f: 5 more errors not listed (at most 10000 are listed per file); 10005 configs have "
            "errors in all");
}

TEST(ConfigReader, OversizedConfigIsOneError) {
  std::string text = R"([{"name": "huge", "tile": [1, 1, 1], "comment": [)";
  for (int i = 0; i < 5000; ++i) text += i ? ",[0]" : "[0]";
  text += R"(]}, {"name": "after", "tile": [1, 1, 1]}])";
  const LoadResult r = load<LoadResult>(Source::text(text, "f"));
  ASSERT_EQ(r.configs.size(), 1u);
  EXPECT_EQ(r.configs[0].config.name, "after");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(format_error(r.errors[0]),
            "f: config #0 \"huge\": config too large: more than 1000 JSON values (a config has "
            "about 30); "
            "it was not read");
}

TEST(ConfigReader, Suggestions) {
  using detail::did_you_mean;
  const std::vector<std::string> keys = {"tile", "stages", "sf_vec", "epilogue", "name", "a", "b"};
  EXPECT_EQ(did_you_mean("tiles", keys), "tile");
  EXPECT_EQ(did_you_mean("stage", keys), "stages");
  EXPECT_EQ(did_you_mean("sfvec", keys), "sf_vec");
  EXPECT_EQ(did_you_mean("epilog", keys), "epilogue");
  EXPECT_EQ(did_you_mean("tiel", keys), "tile");  // a transposition counts 1
  EXPECT_EQ(did_you_mean("TILE", keys), "tile");  // case is ignored
  EXPECT_EQ(did_you_mean("threads", keys), std::nullopt);
  EXPECT_EQ(did_you_mean("tile", keys), std::nullopt);
  EXPECT_EQ(did_you_mean("xyz", keys), std::nullopt);  // short words: distance 1 at most
  EXPECT_EQ(detail::edit_distance("kitten", "sitting", 5), 3u);
  EXPECT_EQ(detail::edit_distance("kitten", "sitting", 2), 3u);  // cap + 1
}

}  // namespace
}  // namespace tilefit::io
