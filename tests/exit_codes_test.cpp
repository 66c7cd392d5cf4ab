// The one place that prints errors and picks the exit code (cli::run): output that cannot be
// written, closed pipes under JSON, usage errors, internal errors. In-process, except the two
// that are about the real process (a shell redirection to /dev/full, a pipe closed by `head`).
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/cli_context.hpp"
#include "test_support.hpp"

namespace tilefit {
namespace {

/// Runs `bash -c script` from the source directory; the exit code and stderr.
struct Shell {
  int exit_code = -1;
  std::string err;
};
Shell shell(const std::string& script) {
  const std::string err_file = "/tmp/tilefit_exit_err_" + std::to_string(::getpid());
  const std::string cmd = "cd '" + std::string(TILEFIT_SOURCE_DIR) + "' && bash -c '" + script +
                          "' 2>'" + err_file + "'";
  const int status = std::system(cmd.c_str());
  Shell s;
  s.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  s.err = test::read_file(err_file);
  std::remove(err_file.c_str());
  return s;
}

const std::string kBin = TILEFIT_BINARY;

TEST(ExitCodes, FullDiskIsAnErrorNotASuccess) {
  auto to_full = [](const std::vector<std::string>& args) {
    std::FILE* full = std::fopen("/dev/full", "w");
    test::RunOptions o;
    o.stdout_file = full;
    const test::CliRun r = test::run_in_process(args, o);
    std::fclose(full);
    return r;
  };
  for (const char* format : {"table", "json"}) {
    const test::CliRun s =
        to_full({"check", "configs/sm90_hopper.json", "--builtin", "--format", format});
    EXPECT_EQ(s.exit_code, 4) << format << ": " << s.err;
    EXPECT_EQ(s.err, "error: cannot write the output: No space left on device\n") << format;
  }
  EXPECT_EQ(to_full({"archs"}).exit_code, 4);
  EXPECT_EQ(to_full({"--help"}).exit_code, 4);
  // The same through the real binary, end to end: the shell's redirection, the process's exit code.
  const Shell s = shell(kBin + " check configs/sm90_hopper.json --builtin >/dev/full");
  EXPECT_EQ(s.exit_code, 4) << s.err;
  EXPECT_EQ(s.err, "error: cannot write the output: No space left on device\n");
}

// End to end, the real binary: a closed pipe (EPIPE instead of SIGPIPE) exists only between processes.
TEST(ExitCodes, ClosedPipeUnderJsonIsAnError) {
  // Enough output to fill any pipe buffer: 2,000 configs.
  std::string cfgs = "[";
  for (int i = 0; i < 2000; ++i)
    cfgs += std::string(i ? "," : "") + "{\"tile\":[128,128,128],\"dtype\":\"nvfp4\"}";
  cfgs += "]";
  const std::string file = "/tmp/tilefit_pipe_" + std::to_string(::getpid()) + ".json";
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(cfgs.c_str(), f);
  std::fclose(f);
  const Shell s = shell("set -o pipefail; " + kBin + " check " + file +
                        " --arch sm120 --format json | head -c 10 >/dev/null");
  EXPECT_EQ(s.exit_code, 4) << s.err;
  EXPECT_EQ(s.err, "error: cannot write the output: Broken pipe\n");
  std::remove(file.c_str());
}

TEST(ExitCodes, InternalErrorsHaveTheirOwnCode) {
  const cli::Extension boom = [](CLI::App& app, cli::Command& cmd) {
    app.add_subcommand("boom", "throws")->callback([&cmd] {
      cmd = [](cli::CliContext&) { throw std::logic_error("an invariant broke"); };
    });
  };
  test::RunOptions o;
  o.extension = boom;
  const test::CliRun r = test::run_in_process({"boom"}, o);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_EQ(r.err, "error: internal error: an invariant broke\n");
}

TEST(ExitCodes, UsageErrorsSayHowToGetHelp) {
  const test::CliRun r = test::run_in_process({"check", "--no-such-flag", "x.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("tilefit --help"), std::string::npos);
  const test::CliRun arch = test::run_in_process({"check", "configs/x.json", "--arch", "sm99"});
  EXPECT_EQ(arch.exit_code, 2);
  EXPECT_EQ(arch.err.rfind("error: --arch \"sm99\": unknown architecture; allowed: sm_70", 0), 0u)
      << arch.err;
}

TEST(ExitCodes, EveryErrorLineHasOneStyle) {
  const auto r = test::run_command(
      "check tests/data/does-not-exist.json configs/sm120_moe_fp4.json --builtin");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "error: tests/data/does-not-exist.json: cannot open: No such file or directory\n");
  const auto dev = test::run_command("device");
  EXPECT_EQ(dev.exit_code, 3);
  EXPECT_EQ(dev.err.rfind("error: ", 0), 0u) << dev.err;
}

}  // namespace
}  // namespace tilefit
