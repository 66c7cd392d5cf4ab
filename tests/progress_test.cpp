// The progress line of long runs (cli/progress.hpp): its format, and when `tilefit sweep` draws
// it — in-process, with standard error's terminal decision and the clock injected.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/progress.hpp"
#include "test_support.hpp"

namespace tilefit {
namespace {

using cli::Progress;

TEST(Progress, LineFormat) {
  EXPECT_EQ(Progress::line("sweep", 3000000, 10000000, 2.0),
            "sweep: 3000000/10000000 candidates (30%), 1.5M/s, 5 s left");
  EXPECT_EQ(Progress::line("sweep", 1000, 100000, 1.0),
            "sweep: 1000/100000 candidates (1%), 1.0k/s, 1 min 39 s left");
  EXPECT_EQ(Progress::line("sweep", 25, 100, 1.0),
            "sweep: 25/100 candidates (25%), 25/s, 3 s left");
  EXPECT_EQ(Progress::line("sweep", 100, 100, 4.0),
            "sweep: 100/100 candidates (100%), 25/s, 0 s left");
  EXPECT_EQ(Progress::line("sweep", 0, 100, 0.0), "sweep: 0/100 candidates (0%), 0/s, ? left");
}

using SweepRun = test::CliRun;

/// A sweep of 16 x 16 x 8 x 8 = 16384 candidates (4 progress calls of 4096, and the end).
std::string space_file() {
  std::string path =
      testing::TempDir() + "tilefit_progress_space_" + std::to_string(::getpid()) + ".json";
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(R"({"configs": [{"arch": "sm_90", "a": "bf16", "b": "bf16", "schedule": "pingpong",
    "tile": {"m": [64,128,192,256,320,384,448,512,576,640,704,768,832,896,960,1024],
             "n": [16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256],
             "k": [16,32,48,64,80,96,112,128]},
    "stages": [2,3,4,5,6,7,8,9]}]})",
             f);
  std::fclose(f);
  return path;
}

/// `tilefit sweep SPACE <extra>`, stderr a terminal or not, the clock advancing `step` seconds
/// each time it is read.
SweepRun sweep(bool terminal, double step, std::vector<const char*> extra) {
  std::vector<std::string> args{"sweep", space_file(), "--builtin"};
  args.insert(args.end(), extra.begin(), extra.end());
  test::RunOptions o;
  o.stderr_terminal = terminal;
  o.clock = [t = 0.0, step]() mutable { return t += step; };
  return test::run_in_process(args, o);
}

TEST(Progress, ForcedOnDrawsInPlaceAndClearsAtTheEnd) {
  const SweepRun r = sweep(false, 1.0, {"--progress"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Read at the start (t=1), then at each 4096 candidates: t=2, 3, 4, 5 (and the end).
  EXPECT_NE(r.err.find("\rsweep: 4096/16384 candidates (25%), 4.1k/s, 3 s left"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\rsweep: 12288/16384 candidates (75%), 4.1k/s, 1 s left"),
            std::string::npos)
      << r.err;
  // One line, rewritten with '\r', never a newline; erased at the end.
  EXPECT_EQ(r.err.find('\n'), std::string::npos) << r.err;
  ASSERT_GE(r.err.size(), 2u);
  EXPECT_EQ(r.err.back(), '\r');
  const std::size_t erase = r.err.rfind('\r', r.err.size() - 2);
  EXPECT_EQ(r.err.substr(erase + 1, r.err.size() - erase - 2).find_first_not_of(' '),
            std::string::npos);
  // Standard output is the same as without the line.
  EXPECT_EQ(r.out, sweep(false, 1.0, {"--no-progress"}).out);
}

TEST(Progress, OnByDefaultOnlyOnATerminal) {
  EXPECT_NE(sweep(true, 1.0, {}).err.find("candidates ("), std::string::npos);
  EXPECT_EQ(sweep(false, 1.0, {}).err, "");  // a pipe, a file, CI
}

TEST(Progress, NoProgressSilences) { EXPECT_EQ(sweep(true, 1.0, {"--no-progress"}).err, ""); }

TEST(Progress, NotForRunsUnderASecond) {
  EXPECT_EQ(sweep(true, 0.0001, {}).err, "");
  EXPECT_EQ(sweep(false, 0.0001, {"--progress"}).err, "");
}

TEST(Progress, BothFlagsAreAUsageError) {
  const SweepRun r = sweep(true, 1.0, {"--progress", "--no-progress"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("excludes"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tilefit
