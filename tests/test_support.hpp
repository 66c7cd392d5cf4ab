// Helpers shared by the tests: paths, running the CLI, reading files.
#pragma once

#include <string>

namespace tilefit::test {

/// Absolute path of a file under tests/data.
std::string data_path(const std::string& name);

/// Absolute path of a file under the source tree.
std::string source_path(const std::string& name);

/// Result of running the built `tilefit` binary.
struct CliRun {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Runs `tilefit <args>` (args are passed to /bin/sh, already quoted by the caller), with
/// `env` prepended (e.g. "CUDA_VISIBLE_DEVICES= "), from the source directory, with
/// `stdin_text` on standard input.
CliRun run_cli(const std::string& args, const std::string& env = "",
               const std::string& stdin_text = "");

/// Whole contents of a file; empty when unreadable.
std::string read_file(const std::string& path);

}  // namespace tilefit::test
