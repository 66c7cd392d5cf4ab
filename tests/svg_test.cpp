// The pictures: the SVG writer (escaping, determinism), the budget bars of `check --format svg`,
// the map of `sweep --format svg` (structure, the colour of known cells, bounds) and the one-line
// terminal bar of `check --breakdown` (only when stdout is a terminal).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <regex>

#include "cli/cli_context.hpp"
#include "report/budget_bar.hpp"
#include "report/svg.hpp"
#include "report/svg_style.hpp"
#include "test_support.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/sweep.hpp"
#include "tilefit/io/space.hpp"
#include "tilefit/report/budget_svg.hpp"
#include "tilefit/report/sweep_map_svg.hpp"

namespace tilefit {
namespace {

using test::run_command;

std::size_t occurrences(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

/// The fill of the <rect> whose <title> starts with `title`; "" when there is none.
std::string fill_of(const std::string& svg, const std::string& title) {
  const std::size_t t = svg.find("<title>" + title);
  if (t == std::string::npos) return "";
  const std::size_t r = svg.rfind("<rect ", t);
  const std::size_t f = svg.find("fill=\"", r);
  if (r == std::string::npos || f == std::string::npos || f > t) return "";
  return svg.substr(f + 6, svg.find('"', f + 6) - f - 6);
}

/// What every picture must be: one SVG 1.1 root with a viewBox and a generic font, nothing
/// external, no script, balanced elements.
void expect_self_contained(const std::string& svg) {
  ASSERT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
                      "xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"",
                      0),
            0u);
  EXPECT_NE(svg.find("viewBox=\"0 0 "), std::string::npos);
  EXPECT_NE(svg.find("font-family=\"sans-serif\""), std::string::npos);
  for (const char* bad :
       {"<script", "href=", "@import", "url(http", "<image", "<foreignObject", "<style"})
    EXPECT_EQ(svg.find(bad), std::string::npos) << bad;
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(occurrences(svg, "<g"), occurrences(svg, "</g>"));
  EXPECT_EQ(occurrences(svg, "<title>"), occurrences(svg, "</title>"));
  EXPECT_EQ(occurrences(svg, "<text"), occurrences(svg, "</text>"));
  // Every url(#id) names a pattern of the file.
  const std::regex ref("url\\(#([a-z]+)\\)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), ref); it != std::sregex_iterator();
       ++it)
    EXPECT_NE(svg.find("<pattern id=\"" + (*it)[1].str() + "\""), std::string::npos)
        << (*it)[1].str();
}

TEST(Svg, EscapesNamesAndReplacesWhatXmlCannotHold) {
  EXPECT_EQ(report::svg::escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(report::svg::escape(std::string("x\x01y\x7fz", 5)), "x\xEF\xBF\xBDy\x7fz");
  EXPECT_EQ(report::svg::escape("\xC3\x97 ok"), "\xC3\x97 ok");  // UTF-8 kept
  EXPECT_EQ(report::svg::escape("\xC3("), "\xEF\xBF\xBD(");      // a broken sequence
  EXPECT_EQ(report::svg::escape("\xED\xA0\x80"),
            "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(report::svg::escape("tab\tnl\n"), "tab\tnl\n");
  EXPECT_EQ(report::svg::ellipsize("abcdef", 6), "abcdef");
  EXPECT_EQ(report::svg::ellipsize("abcdefg", 6), "abcde\xE2\x80\xA6");
  EXPECT_EQ(report::svg::ellipsize("\xC3\x97\xC3\x97\xC3\x97", 2), "\xC3\x97\xE2\x80\xA6");
  EXPECT_EQ(report::svg::num(12.0), "12");
  EXPECT_EQ(report::svg::num(219.66), "219.7");
}

analysis::CheckRun finalize_run() {
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::builtin;
  return analysis::check_files({test::source_path("configs/sm120_moe_finalize.json")}, req,
                               test::FakeDevices::none());
}

TEST(BudgetSvg, OneBarPerConfigWithItsNumbers) {
  const analysis::CheckRun run = finalize_run();
  ASSERT_EQ(run.entries.size(), 6u);
  const std::string svg = report::render_budget_svg(run);
  expect_self_contained(svg);
  // The story's tile: every number in the bar's title, the part over the limit marked.
  EXPECT_NE(
      svg.find(
          "<g><title>finalize_128x256x128 (sm_120, 128x256x128): 102400 B at 3 stages (auto), over "
          "the limit 101376 B by 1024 B; at most 2 stages fit (74752 B) = A 24576, B 49152, SFA "
          "3072, "
          "SFB 6144, mainloop_barriers 48, epilogue_C 8192, epilogue_D 8192, fusion 512, "
          "epilogue_barriers 32, kernel_barriers 16, scheduler 256, tensormaps 896, padding "
          "1312</title>"),
      std::string::npos);
  EXPECT_EQ(occurrences(svg, "<title>over the limit by 1024 B</title>"), 2u);
  EXPECT_EQ(occurrences(svg, ">3 stages (auto) · max 2 · over by 1024 B</text>"), 2u);
  EXPECT_EQ(occurrences(svg, ">4 stages (auto) · max 4 · 8192 B spare</text>"), 1u);
  EXPECT_NE(
      svg.find(
          "6 configs: 4 fit, 2 do not fit, 0 invalid · sm_120, opt-in limit 101376 B per block"),
      std::string::npos);
  // Every segment carries its bytes, in its component's colour.
  EXPECT_EQ(fill_of(svg, "A: 24576 B"), report::style::component_fill(model::Component::A));
  EXPECT_EQ(fill_of(svg, "tensormaps: 896 B"),
            report::style::component_fill(model::Component::Tensormaps));
  EXPECT_EQ(occurrences(svg, "<title>A: "), 6u);
  // The same input gives the same bytes.
  EXPECT_EQ(svg, report::render_budget_svg(finalize_run()));
}

TEST(BudgetSvg, ConfigsThatCannotBeBuiltSayWhyAndSeveralArchitecturesNameTheirs) {
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::arch;
  req.archs = {90, 120};
  const analysis::CheckRun run = analysis::check_files(
      {test::source_path("configs/sm90_hopper.json")}, req, test::FakeDevices::none());
  const std::string svg = report::render_budget_svg(run);
  expect_self_contained(svg);
  // The builder's automatic count is 1 on sm_120: it does not fit (static_assert), no size.
  EXPECT_NE(svg.find("<g><title>fp8_coop_128x256x128 (sm_120, 128x256x128): does not fit, cannot "
                     "be built: the "
                     "builder&apos;s automatic stage count is 1"),
            std::string::npos);
  EXPECT_NE(svg.find(">1 stage (auto) · DOES NOT FIT</text>"), std::string::npos);
  EXPECT_NE(svg.find(">fp8_coop_128x256x128 (sm_90)</text>"),
            std::string::npos);  // labels name the arch
}

TEST(BudgetSvg, EscapesNamesAndDrawsInvalidConfigsWithTheirReason) {
  report::BudgetChart chart;
  report::BudgetRecord r;
  r.name = "<moe & \"co\">\x01";
  r.arch = 120;
  r.tile = "128x0x128";
  r.limit = 101376;
  r.status = model::Status::Invalid;
  r.note = "tile N < 16 & more";
  chart.add(r);
  const std::string svg = chart.render(1);
  expect_self_contained(svg);
  EXPECT_EQ(svg.find("<moe"), std::string::npos);
  EXPECT_NE(svg.find("&lt;moe &amp; &quot;co&quot;&gt;\xEF\xBF\xBD (sm_120, 128x0x128): invalid: "
                     "tile N &lt; 16 &amp; more"),
            std::string::npos);
  EXPECT_NE(svg.find("1 config: 0 fit, 0 do not fit, 1 invalid; 1 error"), std::string::npos);
}

TEST(BudgetSvg, BoundedBeyondTheBarLimit) {
  report::BudgetChart chart;
  const analysis::CheckRun run = finalize_run();
  const std::size_t n = report::kMaxBudgetBars + 44;
  for (std::size_t i = 0; i < n; ++i) chart.add(report::budget_record(run.entries[i % 6]));
  const std::string svg = chart.render();
  EXPECT_EQ(occurrences(svg, "<title>A: "), report::kMaxBudgetBars);
  // 44 more: entries 256 % 6 = 4 onwards, 2 of every 6 do not fit.
  EXPECT_NE(svg.find("… 44 more configs not drawn (a picture holds at most 256 bars): 30 fit, 14 "
                     "do not fit, 0 invalid"),
            std::string::npos);
  EXPECT_NE(svg.find("300 configs: 200 fit, 100 do not fit, 0 invalid"), std::string::npos);
}

/// The README's MoE space mapped on sm_90 and sm_120, through the library.
std::string moe_map(bool two_archs, analysis::SweepTally* tally = nullptr) {
  const io::SpaceLoad l =
      io::load<io::SpaceLoad>(io::Source::file(test::source_path("docs/pictures/moe_space.json")));
  EXPECT_TRUE(l.errors.empty());
  analysis::SweepOptions o;
  o.request.mode = analysis::TargetRequest::Mode::arch;
  o.request.archs = two_archs ? std::vector<int>{90, 120} : std::vector<int>{120};
  o.all = true;
  o.detail = model::Detail::full;
  EXPECT_FALSE(report::sweep_map_refusal(l.spaces, o.request));
  std::string out;
  auto writer = report::SweepWriter::make(report::Format::svg, l.spaces, o.request,
                                          [&out](std::string_view t) { out += t; });
  std::vector<analysis::Problem> problems;
  const analysis::SweepTally t =
      analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), *writer, problems);
  EXPECT_EQ(out, "");  // written at finish()
  writer->finish(t, problems);
  if (tally) *tally = t;
  return out;
}

TEST(SweepMapSvg, ColoursKnownCells) {
  analysis::SweepTally t;
  const std::string svg = moe_map(true, &t);
  expect_self_contained(svg);
  EXPECT_EQ(t.candidates, 288u);
  // One cell per candidate per architecture, each with a title; 48 panels of 2 x 3.
  EXPECT_EQ(occurrences(svg, "<title>moe@"), 288u);
  EXPECT_EQ(occurrences(svg, "<g transform=\"translate("), 48u);
  // 128x64x128, trtllm_default, auto: 6 stages fit on sm_120 (101376 B exactly); no nvfp4 on sm_90.
  EXPECT_EQ(
      fill_of(svg, "moe@0 sm_120 128x64x128: fits at 6 auto, max 6 (101376 B); 101376 / 101376 B"),
      report::style::stage_fill(6));
  EXPECT_EQ(report::style::stage_fill(6), "#225ea8");
  EXPECT_EQ(fill_of(svg, "moe@0 sm_90 128x64x128: INVALID [1]"), "url(#invalid)");
  // The story: FINALIZE 128x256x128 with the builder's 3 stages does not fit; 2 would.
  EXPECT_EQ(
      fill_of(
          svg,
          "moe@54 sm_120 128x256x128: DOES NOT FIT at 3 auto, max 2 (74752 B); 102400 / 101376 B, "
          "over by 1024 B"),
      "url(#nofit)");
  EXPECT_NE(svg.find("288 cells: 80 fit, 64 do not fit, 144 invalid"), std::string::npos);
  EXPECT_NE(svg.find(">tile.k=128 · epilogue=finalize · swap_ab=false</text>"), std::string::npos);
  EXPECT_NE(svg.find(">sm_120</text>\n<text x=\"66\" y=\"25\">stages=auto</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("[1] no modelled CUTLASS kernel family builds nvfp4 x nvfp4 for sm_90"),
            std::string::npos);
  EXPECT_EQ(svg, moe_map(true));
}

TEST(SweepMapSvg, RowsAndColumnsInIncreasingOrderAndEmptyCells) {
  // A list of tiles, in no order: tile K is the panel axis, M and N sorted, a missing pair blank.
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "t", "arch": "sm90", "dtype": "bf16", "tile": [[256, 128, 64], [64, 64, 64], [128, 256, 64], [64, 64, 128]]}])",
      "t.json"));
  ASSERT_TRUE(l.errors.empty());
  analysis::SweepOptions o;
  o.request.mode = analysis::TargetRequest::Mode::builtin;
  o.all = true;
  std::string svg;
  auto writer = report::SweepWriter::make(report::Format::svg, l.spaces, o.request,
                                          [&svg](std::string_view t) { svg += t; });
  std::vector<analysis::Problem> problems;
  writer->finish(analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), *writer, problems),
                 problems);
  expect_self_contained(svg);
  EXPECT_EQ(occurrences(svg, "<g transform=\"translate("), 2u);  // tile.k 64 and 128
  EXPECT_NE(svg.find(">tile.k=64</text>"),
            std::string::npos);  // K joins the architecture in the columns
  const std::size_t m64 = svg.find(">64</text>"), m128 = svg.find(">128</text>"),
                    m256 = svg.find(">256</text>");
  EXPECT_LT(m64, m128);
  EXPECT_LT(m128, m256);
  // Panel tile.k=64: 3 x 3 grid, 3 candidates; tile.k=128: 1 candidate; the rest blank.
  EXPECT_EQ(occurrences(svg, "<title>no candidate: "), 9u - 3u + 9u - 1u);
  EXPECT_NE(svg.find("<title>t@0 sm_90 256x128x64: fits at "), std::string::npos);
}

TEST(SweepMapSvg, TwoSpellingsOfOneTileShareACell) {
  const io::SpaceLoad l = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"name": "s", "arch": "sm120", "dtype": "nvfp4", "tile": ["CtaShape128x128x64B", [128, 128, 128]]}])",
      "s.json"));
  ASSERT_TRUE(l.errors.empty());
  analysis::SweepOptions o;
  o.request.mode = analysis::TargetRequest::Mode::builtin;
  o.all = true;
  std::string svg;
  auto writer = report::SweepWriter::make(report::Format::svg, l.spaces, o.request,
                                          [&svg](std::string_view t) { svg += t; });
  std::vector<analysis::Problem> problems;
  writer->finish(analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), *writer, problems),
                 problems);
  EXPECT_EQ(occurrences(svg, "<title>s@"), 1u);
  EXPECT_NE(svg.find("<title>s@0 sm_120 128x128x128: fits at "), std::string::npos);
  EXPECT_NE(svg.find(" (and 1 more candidate of this tile, not drawn)</title>"), std::string::npos);
}

TEST(SweepMapSvg, RefusesMapsTooLargeNamingTheCount) {
  const io::SpaceLoad big = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"arch": "sm90", "dtype": "bf16", "tile": {"m": [64, 128, 192, 256], "n": [64, 128, 192, 256], "k": [32, 64]},
           "stages": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                      28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
                      52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65]}])",
      "b.json"));
  ASSERT_TRUE(big.errors.empty());
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::builtin;
  // 16 x 2 x 64 = 2048 candidates, 128 panels: drawn; on two architectures 256 panels: refused.
  EXPECT_FALSE(report::sweep_map_refusal(big.spaces, req));
  req.mode = analysis::TargetRequest::Mode::arch;
  req.archs = {90, 100};
  EXPECT_EQ(report::sweep_map_refusal(big.spaces, req).value_or(""),
            "--format svg: the map would have 256 panels (one per architecture and combination of "
            "the varying "
            "fields other than tile M and N): more than 128; narrow those alternatives, or use "
            "--format table, "
            "json or csv");
  const io::SpaceLoad cells = io::load<io::SpaceLoad>(io::Source::text(
      R"([{"arch": "sm90", "dtype": "bf16", "tile": {"m": [64, 128, 192, 256, 320], "n": [64, 128, 192, 256, 320], "k": [32, 64]},
           "cluster": [[1,1,1], [2,1,1]], "stages": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                      28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
                      52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75,
                      76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
                      100, 101]}])",
      "c.json"));
  ASSERT_TRUE(cells.errors.empty());
  EXPECT_EQ(report::sweep_map_refusal(cells.spaces, req).value_or(""),
            "--format svg: the map would have 20000 cells (10000 candidates x 2 architectures): "
            "more than 10000; "
            "narrow the alternatives, or use --format table, json or csv");
}

TEST(SweepMapSvg, TenThousandCellsUnderTwoMegabytes) {
  // 25 x 25 tiles x 16 values of K on sm_90: 10^4 cells, the most a map holds.
  std::string ms;
  for (int i = 1; i <= 25; ++i) ms.append(i > 1 ? "," : "").append(std::to_string(16 * i));
  std::string ks;
  for (int i = 1; i <= 16; ++i) ks.append(i > 1 ? "," : "").append(std::to_string(16 * i));
  const io::SpaceLoad l = io::load<io::SpaceLoad>(
      io::Source::text(R"([{"name": "big", "arch": "sm90", "dtype": "bf16", "tile": {"m": [)" + ms +
                           R"(], "n": [)" + ms + R"(], "k": [)" + ks + "]}}]",
                       "big.json"));
  ASSERT_TRUE(l.errors.empty());
  analysis::SweepOptions o;
  o.request.mode = analysis::TargetRequest::Mode::builtin;
  o.all = true;
  o.detail = model::Detail::full;
  ASSERT_FALSE(report::sweep_map_refusal(l.spaces, o.request));
  std::string svg;
  auto writer = report::SweepWriter::make(report::Format::svg, l.spaces, o.request,
                                          [&svg](std::string_view t) { svg += t; });
  std::vector<analysis::Problem> problems;
  const analysis::SweepTally t =
      analysis::run_sweep(l.spaces, o, test::FakeDevices::none(), *writer, problems);
  writer->finish(t, problems);
  EXPECT_EQ(t.candidates, 10000u);
  EXPECT_EQ(occurrences(svg, "<title>big@"), 10000u);
  EXPECT_LT(svg.size(), 2u * 1024 * 1024);
}

TEST(SweepMapSvg, CliRefusesInOneLineAndExits2) {
  const auto r = run_command(
      "sweep - --arch sm_90,sm_120 --format svg",
      test::with_stdin(
          R"({"configs": [{"arch": "sm90", "dtype": "bf16", "tile": {"m": [64, 128], "n": [64, 128],
                              "k": [16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 272, 288,
                                    304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496, 512, 528, 544,
                                    560, 576, 592, 608, 624, 640, 656, 672, 688, 704, 720, 736, 752, 768, 784, 800,
                                    816, 832, 848, 864, 880, 896, 912, 928, 944, 960, 976, 992, 1008, 1024, 1040]}}]})"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(
      r.err,
      "error: --format svg: the map would have 130 panels (one per architecture and combination of "
      "the "
      "varying fields other than tile M and N): more than 128; narrow those alternatives, or use "
      "--format table, json or csv\n");
}

TEST(SweepMapSvg, CliWritesTheMapOfTheReadmeSpace) {
  const auto r = run_command("sweep docs/pictures/moe_space.json --arch sm_90,sm_120 --format svg");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  expect_self_contained(r.out);
  EXPECT_EQ(occurrences(r.out, "<title>moe@"), 288u);
  const auto c = run_command("check configs/sm120_moe_finalize.json --builtin --format svg");
  EXPECT_EQ(c.exit_code, 1);
  expect_self_contained(c.out);
  // A write error of the picture is an error (exit 4), as for every format.
  std::FILE* full = std::fopen("/dev/full", "w");
  ASSERT_NE(full, nullptr);
  test::RunOptions o;
  o.stdout_file = full;
  EXPECT_EQ(test::run_command("check configs/sm120_moe_finalize.json --builtin --format svg", o)
                .exit_code,
            4);
  std::fclose(full);
}

TEST(BudgetBar, OneLineOfBlocksWithTheLimitMarked) {
  const analysis::CheckRun run = finalize_run();
  const std::string fits = report::budget_bar(run.entries[0].result);
  EXPECT_EQ(fits,
            "budget: ████████████████▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▒▒▒▒░░░░░░░░░▌····│  93184 / 101376 B, 8192 B "
            "spare");
  const std::string over = report::budget_bar(run.entries[2].result);
  EXPECT_EQ(over,
            "budget: ████████████▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▒▒▒▒▌░░░░░░░░│▌  102400 / 101376 B, over "
            "by 1024 B");
  model::Result invalid;
  EXPECT_EQ(report::budget_bar(invalid), "");
}

/// cli::run in-process with stdout in a temporary file that says it is (or is not) a terminal.
std::string check_breakdown(bool terminal) {
  const test::CliRun r = test::run_in_process(
      {"check", "configs/sm120_moe_finalize.json", "--builtin", "--breakdown"}, terminal);
  EXPECT_EQ(r.exit_code, 1);
  return r.out;
}

TEST(BudgetBar, OnlyWhenStdoutIsATerminal) {
  const std::string tty = check_breakdown(true);
  EXPECT_EQ(occurrences(tty, "    budget: "), 6u);
  EXPECT_EQ(occurrences(tty, "budget bars: █ A  ▓ B  ▒ scale factors  ░ epilogue"), 1u);
  const std::string file = check_breakdown(false);  // a temporary file is no terminal
  EXPECT_EQ(occurrences(file, "budget: "), 0u);
  EXPECT_EQ(occurrences(file, "budget bars"), 0u);
  // Without the bar lines, the terminal's output is the file's.
  std::string stripped;
  for (std::size_t p = 0; p < tty.size();) {
    const std::size_t e = tty.find('\n', p);
    const std::string line = tty.substr(p, e - p + 1);
    if (line.rfind("    budget: ", 0) != 0 && line.rfind("budget bars: ", 0) != 0) stripped += line;
    p = e + 1;
  }
  EXPECT_EQ(stripped, file);
  // The binary, its stdout a file: no bars.
  EXPECT_EQ(
      occurrences(run_command("check configs/sm120_moe_finalize.json --builtin --breakdown").out,
                  "budget: "),
      0u);
}

TEST(Pictures, TheDocsShowWhatTheToolDraws) {
  // The README and the guide pages that show the pictures and the bars.
  std::string readme;
  for (const char* page :
       {"README.md", "docs/guide/check.md", "docs/guide/sweeps.md", "docs/guide/tuned-tables.md"})
    readme += test::read_file(test::source_path(page));
  const analysis::CheckRun run = finalize_run();
  EXPECT_NE(readme.find("    " + report::budget_bar(run.entries[2].result) + "\n"),
            std::string::npos);
  EXPECT_NE(readme.find(report::budget_bar_legend() + "\n"), std::string::npos);
  for (const char* picture :
       {"finalize_budget.svg", "moe_map.svg", "fp8_port_map.svg", "h100_table_on_sm120.svg"}) {
    EXPECT_NE(readme.find(std::string("pictures/") + picture + ")"), std::string::npos) << picture;
    EXPECT_FALSE(
        test::read_file(test::source_path(std::string("docs/pictures/") + picture)).empty())
        << picture;
  }
  EXPECT_NE(readme.find("at most 10,000 cells"), std::string::npos);
  EXPECT_EQ(report::kMaxMapCells, 10'000u);
  EXPECT_EQ(report::kMaxMapPanels, 128u);
  EXPECT_EQ(report::kMaxBudgetBars, 256u);
}

}  // namespace
}  // namespace tilefit
