// Helpers shared by the tests: paths, running the CLI, reading files, ground-truth rows.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/model/config.hpp"

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

/// Runs `tilefit <args>` in this process (cli::run), from the source directory, stdout and stderr
/// captured; `stdout_terminal`: what the CLI is told about stdout (the terminal's budget bars).
CliRun run_in_process(const std::vector<std::string>& args, bool stdout_terminal = false);

/// Whole contents of a file; empty when unreadable.
std::string read_file(const std::string& path);

/// One row of a ground-truth file (tests/data/*.jsonl, described in tests/data/README.md).
struct GroundTruthRow {
  std::string id;
  nlohmann::json config;  ///< one config in the config-file format
  nlohmann::json expect;  ///< what CUTLASS measured: status, stages, smem_bytes, ...
};

/// GoogleTest prints a parameter with this (the row's id), not as raw bytes.
inline void PrintTo(const GroundTruthRow& row, std::ostream* os) { *os << row.id; }

/// The rows of tests/data/`file` (blank lines skipped), in file order; with `kernel` given,
/// only the rows whose config names that kernel family.
std::vector<GroundTruthRow> load_rows(const std::string& file, const std::string& kernel = "");

/// The row's config as the real config reader reads it (io::parse_configs on
/// {"configs": [config]}); nullopt, with a test failure naming the errors, when it does not read.
std::optional<model::KernelConfig> row_config(const GroundTruthRow& row);

}  // namespace tilefit::test
