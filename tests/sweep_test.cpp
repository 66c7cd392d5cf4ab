// tilefit sweep: spaces of configs (alternatives, tile products, lists of tiles), their errors,
// and every listed result equal to `check` on the config it prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/sweep.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/io/space.hpp"

namespace tilefit {
namespace {

std::vector<std::string> error_lines(const std::vector<io::ConfigError>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(io::format_error(e));
  return out;
}

TEST(Space, ProductOfAlternativesInFieldOrder) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "moe", "arch": "sm120", "dtype": "nvfp4", "grouped": true,
           "tile": {"m": [128, 256], "n": [64, 128, 256], "k": 128},
           "epilogue": ["trtllm_default", "finalize"], "stages": ["auto", 2]}])",
      "s.json"));
  ASSERT_TRUE(l.errors.empty()) << error_lines(l.errors).front();
  ASSERT_EQ(l.spaces.size(), 1u);
  const io::ConfigSpace& s = l.spaces[0];
  EXPECT_EQ(s.size(), 2u * 3u * 2u * 2u);
  ASSERT_EQ(s.axes().size(), 4u);  // tile.m, tile.n, epilogue, stages (k is fixed)
  EXPECT_EQ(s.axes()[0].field, "tile.m");
  EXPECT_EQ(s.axes()[1].field, "tile.n");
  EXPECT_EQ(s.axes()[1].shown[2], "256");
  model::KernelConfig c;
  s.candidate(0, c);
  EXPECT_EQ(c.name, "moe@0");
  EXPECT_EQ(c.m, 128);
  EXPECT_EQ(c.n, 64);
  EXPECT_FALSE(c.stages);
  s.candidate(23, c);  // the last: tile [256, 256, 128], finalize, stages 2
  EXPECT_EQ(c.name, "moe@23");
  EXPECT_EQ(c.m, 256);
  EXPECT_EQ(c.n, 256);
  EXPECT_EQ(c.epilogue.variant, model::EpilogueVariant::Finalize);
  EXPECT_EQ(c.stages, 2);
  s.candidate(1, c);  // the last field varies fastest
  EXPECT_EQ(c.stages, 2);
  EXPECT_EQ(c.epilogue.variant, model::EpilogueVariant::TrtllmDefault);
  EXPECT_EQ((s.choice(13)), (std::vector<std::size_t>{1, 0, 0, 1}));
}

TEST(Space, ListsOfTilesAndCoupledFields) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"arch": "sm120", "tile": ["CtaShape128x128x64B", [128, 64, 128]], "dtype": ["nvfp4", "mxfp8"]},
          {"name": "plain", "arch": 90, "tile": [128, 128, 64], "dtype": "bf16"}])",
      "s.json"));
  ASSERT_TRUE(l.errors.empty()) << error_lines(l.errors).front();
  ASSERT_EQ(l.spaces.size(), 2u);
  model::KernelConfig c;
  // K in bytes depends on A's type: 64 B of nvfp4 = 128 elements, of mxfp8 = 64.
  l.spaces[0].candidate(0, c);
  EXPECT_EQ(c.k, 128);
  l.spaces[0].candidate(1, c);
  EXPECT_EQ(c.k, 64);
  EXPECT_EQ(c.a.sf_vec, 32);
  // A config without alternatives is a space of one, named as it is.
  EXPECT_EQ(l.spaces[1].size(), 1u);
  l.spaces[1].candidate(0, c);
  EXPECT_EQ(c.name, "plain");
}

TEST(Space, BadAlternativesAreOneLineErrorsAndTheRestIsKept) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "a", "arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "stages": []},
          {"name": "b", "arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "stages": [2, 3, 2]},
          {"name": "c", "arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "schedule": ["pingpong", 3]},
          {"name": "d", "arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "stages": [2, 0]},
          {"name": "e", "arch": "sm90", "dtype": "bf16", "tile": {"m": [64, 0], "n": 128, "k": 64}},
          {"name": "ok", "arch": "sm90", "dtype": "bf16", "tile": [128, 128, 64], "stages": ["auto", 2]}])",
      "s.json"));
  EXPECT_EQ(error_lines(l.errors),
            (std::vector<std::string>{
                "s.json: config #0 \"a\": field \"stages\": an empty array of alternatives; give "
                "at least one value",
                "s.json: config #1 \"b\": field \"stages\": duplicate alternative 2; give each "
                "value once",
                "s.json: config #2 \"c\": field \"schedule\": alternatives of mixed types (string "
                "\"pingpong\" and number 3); give values of one type",
                "s.json: config #3 \"d\": field \"stages[1]\": 0 is not a valid stage count; "
                "allowed: \"auto\" or integers 1..4096",
                "s.json: config #4 \"e\": field \"tile.m\": 0 is not a valid tile extent; allowed: "
                "integers 1..65536"}));
  ASSERT_EQ(l.spaces.size(), 1u);
  EXPECT_EQ(l.spaces[0].name, "ok");
  EXPECT_EQ(l.spaces[0].size(), 2u);
}

TEST(Space, TooLargeIsRefusedBeforeAnyWorkWithTheCount) {
  std::string list = "[";
  for (int i = 1; i <= 1000; ++i) list.append(i > 1 ? "," : "").append(std::to_string(i));
  list += "]";
  const io::SpaceLoad l = io::load<io::SpaceLoad>(
      io::Source::text(R"([{"name": "huge", "arch": "sm90", "dtype": "bf16", "tile": {"m": )" +
                           list + R"(, "n": )" + list + R"(, "k": )" + list +
                           R"(}}, {"name": "ok", "arch": "sm90", "tile": [128,128,64]}])",
                       "s.json"));
  ASSERT_EQ(l.errors.size(), 1u);
  EXPECT_EQ(io::format_error(l.errors[0]),
            "s.json: config #0 \"huge\": a space of 1000000000 candidates (1000 x 1000 x 1000): "
            "more than "
            "100000000; narrow the alternatives or split the config");
  EXPECT_EQ(l.spaces.size(), 1u);
}

/// Every listed result of a sweep is what `check` gives on the config the sweep prints.
class Collect final : public analysis::SweepSink {
 public:
  void result(const io::ConfigSpace&, std::uint64_t, std::span<const analysis::Entry> e) override {
    for (const analysis::Entry& x : e) entries.push_back(x);
  }
  std::vector<analysis::Entry> entries;
};

TEST(Sweep, EveryResultEqualsCheckOnItsConfig) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "moe", "arch": "sm120", "dtype": ["nvfp4", "mxfp8"], "grouped": [false, true],
           "tile": {"m": [64, 128, 256], "n": [64, 128, 256], "k": [128, 256]},
           "schedule": ["auto", "pingpong"], "epilogue": ["auto", "trtllm_default", "finalize"],
           "swap_ab": [false, true], "stages": ["auto", 2, 3]},
          {"name": "h", "arch": "sm90", "dtype": ["bf16", "e4m3"], "tile": {"m": [64, 128, 256], "n": [64, 128, 256], "k": [64, 128]},
           "schedule": ["cooperative", "pingpong"], "epilogue": ["auto", "tma"], "stages": ["auto", 3, 5]},
          {"name": "b", "arch": "sm100", "dtype": ["bf16", "nvfp4"], "tile": {"m": [128, 256], "n": [64, 128, 256], "k": [64, 256]},
           "schedule": ["1sm", "2sm"], "cluster": [[1,1,1], [2,1,1]], "stages": ["auto", 4]},
          {"name": "a", "arch": "sm80", "dtype": ["f16", "bf16"], "tile": {"m": [64, 128, 256], "n": [64, 128, 256], "k": [32, 64]},
           "warp": [[64, 64, 32], [32, 32, 32]], "stages": [2, 3, 4, 5]}])",
      "s.json"));
  ASSERT_TRUE(l.errors.empty()) << error_lines(l.errors).front();
  for (bool all : {false, true}) {
    analysis::SweepOptions o;
    o.request.mode = analysis::TargetRequest::Mode::builtin;
    o.all = all;
    Collect sink;
    std::vector<analysis::Problem> problems;
    const analysis::SweepTally t =
        analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), sink, problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(t.candidates, 2u * 2 * 18 * 2 * 3 * 2 * 3 + 2u * 18 * 2 * 2 * 3 +
                                2u * 12 * 2 * 2 * 2 + 2u * 18 * 2 * 4);
    EXPECT_EQ(sink.entries.size(), all ? t.candidates : t.fits);
    ASSERT_GT(t.fits, 100u);
    ASSERT_GT(t.does_not_fit + t.invalid, 100u);
    for (const analysis::Entry& e : sink.entries) {
      const io::LoadResult back = io::load<io::LoadResult>(
          io::Source::text("[" + io::config_json(e.config) + "]", "back.json"));
      ASSERT_TRUE(back.errors.empty()) << io::config_json(e.config);
      const model::Result c = model::evaluate(back.configs[0].config, e.target.limits);
      const model::Result& s = e.result;
      ASSERT_EQ(c.name, s.name);
      EXPECT_EQ(c.status, s.status) << c.name;
      EXPECT_EQ(c.stages, s.stages) << c.name;
      EXPECT_EQ(c.max_stages, s.max_stages) << c.name;
      EXPECT_EQ(c.smem_bytes, s.smem_bytes) << c.name;
      EXPECT_EQ(c.ctas_per_sm, s.ctas_per_sm) << c.name;
      EXPECT_EQ(c.family, s.family) << c.name;
    }
  }
}

TEST(Sweep, SortAndTop) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "h", "arch": "sm90", "dtype": "bf16", "tile": {"m": [64, 128], "n": [64, 128, 256], "k": 64},
           "schedule": ["pingpong"], "epilogue": "tma"}])",
      "s.json"));
  analysis::SweepOptions o;
  o.request.mode = analysis::TargetRequest::Mode::builtin;
  o.sort = analysis::SortKey::bytes;
  o.top = 2;
  Collect sink;
  std::vector<analysis::Problem> problems;
  const analysis::SweepTally t =
      analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), sink, problems);
  EXPECT_EQ(t.listed, 2u);
  ASSERT_EQ(sink.entries.size(), 2u);
  EXPECT_LE(*sink.entries[0].result.smem_bytes, *sink.entries[1].result.smem_bytes);
  o.top = 0;
  o.sort = analysis::SortKey::tile;
  Collect all;
  analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), all, problems);
  ASSERT_EQ(all.entries.size(), 6u);
  EXPECT_EQ(all.entries[0].config.m * all.entries[0].config.n, 128 * 256);
}

TEST(SweepCli, ExitCodesAndFormats) {
  const std::string space =
      R"({"configs": [{"name": "m", "arch": "sm120", "dtype": "nvfp4", "grouped": true,
          "tile": {"m": 128, "n": [128, 256], "k": 128}, "epilogue": "finalize"}]})";
  const auto table = test::run_command("sweep -", test::with_stdin(space));
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("m@0"), std::string::npos);
  EXPECT_EQ(table.out.find("m@1"), std::string::npos);  // 128x256x128 finalize does not fit
  EXPECT_NE(table.out.find("2 candidates: 1 fit, 1 do not fit, 0 invalid; 1 listed"),
            std::string::npos);
  const auto all = test::run_command("sweep - --all --format json", test::with_stdin(space));
  const auto j = nlohmann::json::parse(all.out);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][1]["smem_bytes"], 102400);
  EXPECT_EQ(j["results"][1]["config"]["tile"], nlohmann::json::parse("[128, 256, 128]"));
  EXPECT_EQ(j["results"][1]["alternatives"]["tile.n"], 256);
  EXPECT_FALSE(j["results"][1]["diagnostics"].empty());
  EXPECT_EQ(j["summary"]["candidates"], 2);
  // Nothing fits: exit 1; an input error: exit 2.
  const auto none = test::run_command("sweep - --arch sm_90", test::with_stdin(space));
  EXPECT_EQ(none.exit_code, 1);
  const auto bad = test::run_command(
      "sweep -", test::with_stdin(R"([{"arch": "sm90", "tile": [128,128,64], "stages": []}])"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "error: <stdin>: config #0: field \"stages\": an empty array of alternatives; give at "
            "least one value\n");
  const auto csv = test::run_command("sweep - --format csv", test::with_stdin(space));
  EXPECT_EQ(csv.out.rfind("name,file,index,arch,kernel,tile,", 0), 0u);
  const auto md =
      test::run_command("sweep - --format markdown --arch sm_120,sm_100", test::with_stdin(space));
  EXPECT_NE(md.out.find("| name | tile.n | sm_120 | sm_100 |"), std::string::npos) << md.out;
}

}  // namespace
}  // namespace tilefit
