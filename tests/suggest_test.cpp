// tilefit suggest: the nearest alternatives that fit, ranked by distance, each one checked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/suggest_report.hpp"

namespace tilefit {
namespace {

model::KernelConfig read_one(const std::string& json) {
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::text("[" + json + "]", "t.json"));
  EXPECT_TRUE(r.errors.empty());
  return r.configs.at(0).config;
}

TEST(Suggest, TheStorysFinalizeTile) {
  const model::KernelConfig cfg = read_one(
      R"({"name": "fin", "arch": "sm120", "tile": "CtaShape128x256x64B", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize"})");
  const model::Limits& lim = model::find_arch(120)->limits;
  const model::Result r = model::evaluate(cfg, lim);
  ASSERT_EQ(r.status, model::Status::DoesNotFit);
  ASSERT_TRUE(analysis::wants_suggestions(r));
  const auto s = analysis::suggest(cfg, lim, r);
  ASSERT_EQ(s.size(), 5u);
  // Fewer stages is the nearest: StageCount<2>, 74752 B, 27648 B saved.
  EXPECT_EQ(report::change_text(s[0].changes), "stages: auto -> 2");
  EXPECT_EQ(s[0].distance, 1);
  EXPECT_EQ(*s[0].result.smem_bytes, 74752);
  EXPECT_EQ(s[0].saved_bytes, 102400 - 74752);
  EXPECT_EQ(s[0].config.name, "fin~1");
  // Ranked by distance; each one fits when read back and checked.
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) {
      EXPECT_LE(s[i - 1].distance, s[i].distance);
    }
    const model::Result back = model::evaluate(read_one(io::config_json(s[i].config)), lim);
    EXPECT_TRUE(back.fits) << io::config_json(s[i].config);
    EXPECT_EQ(back.smem_bytes, s[i].result.smem_bytes);
  }
  bool swap = false;
  for (const auto& x : s) swap = swap || report::change_text(x.changes) == "swap_ab: false -> true";
  EXPECT_TRUE(swap);
}

TEST(Suggest, HalvedTilesAndStagesTogether) {
  // 2.x f16 128x256x64 with 3 stages on an RTX 4090 (sm_89, 101376 B).
  const model::KernelConfig cfg = read_one(
      R"({"name": "r", "arch": "sm89", "tile": [128, 256, 64], "warp": [64, 64, 64], "dtype": "f16", "d": "f16", "stages": 3})");
  const model::Limits& lim = model::find_arch(89)->limits;
  const auto s = analysis::suggest(cfg, lim, model::evaluate(cfg, lim), 10);
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(report::change_text(s[0].changes), "stages: 3 -> 2");
  bool halved_n = false;
  for (const auto& x : s)
    halved_n = halved_n || report::change_text(x.changes) == "tile.n: 256 -> 128";
  EXPECT_TRUE(halved_n);
}

TEST(Suggest, NothingForConfigsThatFitOrAreInvalidForOtherReasons) {
  const model::Limits& lim = model::find_arch(120)->limits;
  const model::KernelConfig fits =
      read_one(R"({"arch": "sm120", "tile": [128,128,128], "dtype": "nvfp4"})");
  EXPECT_FALSE(analysis::wants_suggestions(model::evaluate(fits, lim)));
  const model::KernelConfig bad =
      read_one(R"({"arch": "sm120", "tile": [128,96,128], "dtype": "nvfp4", "layout": "nt"})");
  EXPECT_FALSE(analysis::wants_suggestions(model::evaluate(bad, lim)));
  const model::KernelConfig one =
      read_one(R"({"arch": "sm120", "tile": [128,128,128], "dtype": "nvfp4", "stages": 1})");
  EXPECT_TRUE(analysis::wants_suggestions(model::evaluate(one, lim)));
}

TEST(SuggestCli, JsonCarriesTheSuggestions) {
  const auto r =
      test::run_command("suggest configs/sm120_moe_finalize.json --builtin --format json --max 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "suggest");
  const auto& res = j["results"][2];
  EXPECT_EQ(res["name"], "finalize_128x256x128");
  ASSERT_EQ(res["suggestions"].size(), 2u);
  const auto& first = res["suggestions"][0];
  EXPECT_EQ(first["change"], "stages: auto -> 2");
  EXPECT_EQ(first["smem_bytes"], 74752);
  EXPECT_EQ(first["saved_bytes"], 27648);
  EXPECT_EQ(first["config"]["stages"], 2);
  EXPECT_TRUE(j["results"][0]["suggestions"].empty());
  const auto table = test::run_command("suggest configs/sm120_moe_finalize.json --builtin");
  EXPECT_NE(
      table.out.find("    1. stages: auto -> 2: 74752 B, saves 27648 B, 2 stages (distance 1)"),
      std::string::npos);
}

TEST(SuggestCli, ResultsAreWrittenAsTheyComeInEveryFormat) {
  // suggest held every result and wrote its report at the end (1.5 GB for 100,000 configs in
  // JSON). Now each result and its suggestions leave the writer as they come (in pieces of about
  // 64 KiB; the first kTableLookAhead rows of a table are held for the widths): well before the
  // last of 3,000 configs that do not fit is given, output has been written.
  std::string cfgs = "[";
  for (int i = 0; i < 3000; ++i)
    cfgs +=
        std::string(i ? "," : "") + R"({"name": "c)" + std::to_string(i) +
        R"(", "arch": "sm_89", "tile": [128, 256, 64], "warp": [64, 64, 64], "dtype": "f16", "d": "f16", "stages": 3})";
  cfgs += "]";
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::builtin;
  const analysis::CheckRun run = analysis::check_configs(
      io::load<io::LoadResult>(io::Source::text(cfgs, "many.json")), req, device::system_devices());
  ASSERT_EQ(run.entries.size(), 3000u);
  for (const report::Format format : {report::Format::table, report::Format::json,
                                      report::Format::csv, report::Format::markdown}) {
    std::string text;
    report::SuggestWriter w(format, run, [&](std::string_view t) { text += t; });
    std::size_t written_at_half = 0;
    for (std::size_t i = 0; i < run.entries.size(); ++i) {
      const analysis::Entry& e = run.entries[i];
      ASSERT_TRUE(analysis::wants_suggestions(e.result));
      w.entry(analysis::Entry(e), analysis::suggest(e.config, e.target.limits, e.result, 2));
      if (i + 1 == run.entries.size() / 2) written_at_half = text.size();
    }
    w.finish(analysis::tally(run));
    EXPECT_GT(written_at_half, 0u) << static_cast<int>(format);
    EXPECT_LT(written_at_half, text.size()) << static_cast<int>(format);
    if (format == report::Format::json) {
      const auto j = nlohmann::json::parse(text);
      ASSERT_EQ(j["results"].size(), 3000u);
      EXPECT_EQ(j["results"][2999]["suggestions"].size(), 2u);
      EXPECT_EQ(j["command"], "suggest");
    }
  }
}

}  // namespace
}  // namespace tilefit
