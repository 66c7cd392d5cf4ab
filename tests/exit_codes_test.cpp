// The one place that prints errors and picks the exit code (cli::run): output that cannot be
// written, closed pipes under JSON, usage errors, internal errors.
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
  for (const char* format : {"table", "json"}) {
    const Shell s = shell(kBin + " check configs/sm90_hopper.json --builtin --format " + format + " >/dev/full");
    EXPECT_EQ(s.exit_code, 4) << format << ": " << s.err;
    EXPECT_EQ(s.err, "error: cannot write the output: No space left on device\n") << format;
  }
  const Shell archs = shell(kBin + " archs >/dev/full");
  EXPECT_EQ(archs.exit_code, 4);
  const Shell help = shell(kBin + " --help >/dev/full");
  EXPECT_EQ(help.exit_code, 4);
}

TEST(ExitCodes, ClosedPipeUnderJsonIsAnError) {
  // Enough output to fill any pipe buffer: 2,000 configs.
  std::string cfgs = "[";
  for (int i = 0; i < 2000; ++i) cfgs += std::string(i ? "," : "") + "{\"tile\":[128,128,128],\"dtype\":\"nvfp4\"}";
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

/// cli::run in-process, with stdout and stderr in temporary files.
struct InProcess {
  int exit_code;
  std::string out, err;
};
InProcess run_in_process(std::vector<const char*> argv, const cli::Extension& ext = {}) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  cli::Output output(out);
  InProcess r;
  r.exit_code = cli::run(static_cast<int>(argv.size()), argv.data(), output, err, ext);
  auto slurp = [](std::FILE* f) {
    std::string s;
    std::rewind(f);
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) s.append(buf, n);
    std::fclose(f);
    return s;
  };
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

TEST(ExitCodes, InternalErrorsHaveTheirOwnCode) {
  const cli::Extension boom = [](CLI::App& app, cli::Command& cmd) {
    app.add_subcommand("boom", "throws")->callback([&cmd] {
      cmd = [](cli::CliContext&) { throw std::logic_error("an invariant broke"); };
    });
  };
  const InProcess r = run_in_process({"tilefit", "boom"}, boom);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_EQ(r.err, "error: internal error: an invariant broke\n");
}

TEST(ExitCodes, UsageErrorsSayHowToGetHelp) {
  const InProcess r = run_in_process({"tilefit", "check", "--no-such-flag", "x.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("tilefit --help"), std::string::npos);
  const InProcess arch = run_in_process({"tilefit", "check", "configs/x.json", "--arch", "sm99"});
  EXPECT_EQ(arch.exit_code, 2);
  EXPECT_EQ(arch.err.rfind("error: --arch \"sm99\": unknown architecture; allowed: sm_70", 0), 0u) << arch.err;
}

TEST(ExitCodes, EveryErrorLineHasOneStyle) {
  const auto r = test::run_cli("check tests/data/does-not-exist.json configs/sm120_moe_fp4.json --builtin");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: tests/data/does-not-exist.json: cannot open: No such file or directory\n");
  const auto dev = test::run_cli("device", "CUDA_VISIBLE_DEVICES= ");
  EXPECT_EQ(dev.exit_code, 3);
  EXPECT_EQ(dev.err.rfind("error: ", 0), 0u) << dev.err;
}

}  // namespace
}  // namespace tilefit
