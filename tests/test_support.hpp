// Helpers shared by the tests: paths, fake GPUs and probe, running the CLI in-process (and the
// real binary for the few end-to-end tests), reading files, ground-truth rows.
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_context.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/device/probe_source.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::test {

/// Absolute path of a file under tests/data.
std::string data_path(const std::string& name);
/// The engines' measured launches (tests/data/engines-triton-3.6.tar.xz, unpacked by CMake into
/// the build tree); the environment variable TILEFIT_ENGINE_ROWS names another file.
std::string engine_rows_path();
/// The engines' measured Triton attention launches (tests/data/attention-triton-3.6.tar.xz,
/// unpacked by CMake into the build tree; tools/attention/README.md has the row format); the
/// environment variable TILEFIT_ATTENTION_ROWS names another file.
std::string attention_rows_path();

/// Absolute path of a file under the source tree.
std::string source_path(const std::string& name);

/// Result of running tilefit (in-process or the built binary).
struct CliRun {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

// ---- fake GPUs ---------------------------------------------------------------------------------

/// The GPUs the fakes are: what the real one reports through the CUDA Runtime (the built-in
/// table's row for its architecture, which each matches: docs/dev/device-validation.md for the
/// H200; products.cpp for the names), driver and runtime CUDA 13.0.
/// H200: sm_90, 132 SMs, 232448 B opt-in per block, 233472 B per SM.
device::DeviceInfo fake_h200(int index = 0);
/// GeForce RTX 5090: sm_120, 170 SMs, 101376 B opt-in per block, 102400 B per SM, 24 CTAs/SM.
device::DeviceInfo fake_rtx5090(int index = 0);
/// GB10 (DGX Spark): sm_121, 48 SMs, 101376 B opt-in per block.
device::DeviceInfo fake_gb10(int index = 0);

/// The errors the CUDA layer gives (src/device/cuda_device_query.cpp), word for word.
device::DeviceError fake_no_gpu_error();  ///< cudaErrorNoDevice
device::DeviceError fake_driver_error();  ///< cudaErrorInsufficientDriver (a CUDA 12.4 driver)

/// GPUs that answer from a list (runtime order, index = position), or the one error every query
/// gives. An index out of range is the CUDA layer's error naming the valid range.
class FakeDevices final : public device::DeviceSource {
 public:
  explicit FakeDevices(std::vector<device::DeviceInfo> gpus);
  explicit FakeDevices(device::DeviceError error) : error_(std::move(error)) {}
  static FakeDevices none() { return FakeDevices(fake_no_gpu_error()); }
  static FakeDevices driver_error() { return FakeDevices(fake_driver_error()); }

  device::DeviceList all() const override;
  device::DeviceResult one(int index) const override;
  mutable int queries = 0;  ///< calls of all() and one()

 private:
  std::vector<device::DeviceInfo> gpus_;
  device::DeviceError error_;
};

/// The probe on fake GPUs, answering as the real probe (src/device/cuda_probe.cpp) does on a GPU
/// that grants exactly its opt-in limit: a launch up to optin_per_block launches, one above is
/// refused by cudaFuncSetAttribute with cudaErrorInvalidValue; occupancy is the occupancy API's
/// answer for 32 threads (min(max_ctas_per_sm, per_sm / (bytes + reserved_per_block)), 0 above
/// the opt-in limit); the boundary is device::search_boundary over those launches (22 launches).
/// A GPU that the devices cannot give (none, driver error, out of range) is that DeviceError.
class FakeProbe final : public device::ProbeSource {
 public:
  explicit FakeProbe(const device::DeviceSource& gpus) : gpus_(gpus) {}
  /// A GPU whose driver grants `bytes` instead of its opt-in limit (a disagreement to find).
  void grant(model::Bytes bytes) { granted_ = bytes; }
  /// A build without a probe kernel: every answer is this reason.
  void unavailable(std::string reason) { unavailable_ = std::move(reason); }

  std::string unavailable_reason() const override { return unavailable_; }
  device::Expected<device::ProbeOutcome> launch(int device,
                                                model::Bytes dynamic_smem) const override;
  device::Expected<int> occupancy(int device, model::Bytes dynamic_smem) const override;
  device::Expected<device::Boundary> boundary(int device) const override;
  mutable int launches = 0;  ///< calls of launch(), the boundary's included

 private:
  const device::DeviceSource& gpus_;
  std::optional<model::Bytes> granted_;
  std::string unavailable_;
};

// ---- running the CLI ---------------------------------------------------------------------------

/// How run_in_process() runs: stdin, what stdout/stderr are said to be, the devices and probe.
struct RunOptions {
  std::string stdin_text;         ///< what "-" reads
  bool stdout_terminal = false;   ///< the terminal's budget bars
  bool stderr_terminal = false;   ///< the progress line's automatic mode
  std::function<double()> clock;  ///< standard error's clock (progress); empty: steady_clock
  /// The GPUs: default none (FakeDevices::none(), as on a machine without a GPU).
  const device::DeviceSource* devices = nullptr;
  /// The probe: default a FakeProbe over `devices`.
  const device::ProbeSource* probe = nullptr;
  cli::Extension extension;          ///< more subcommands (the internal-error test)
  std::FILE* stdout_file = nullptr;  ///< write stdout here (e.g. /dev/full) instead; not read back
};

/// RunOptions with `text` on standard input.
inline RunOptions with_stdin(std::string text) {
  RunOptions o;
  o.stdin_text = std::move(text);
  return o;
}
/// RunOptions with these GPUs (and a FakeProbe over them).
inline RunOptions on(const device::DeviceSource& devices) {
  RunOptions o;
  o.devices = &devices;
  return o;
}

/// Runs `tilefit <args>` in this process (cli::run with an Env of fakes), from the source
/// directory, stdin given, stdout and stderr captured.
CliRun run_in_process(const std::vector<std::string>& args, const RunOptions& options = {});
/// The same with only stdout's terminal decision given.
CliRun run_in_process(const std::vector<std::string>& args, bool stdout_terminal);

/// `line` split into arguments as /bin/sh would (words, '...' and "..." quotes, backslashes) with
/// unquoted * ? [ expanded against the source directory (sorted, as sh does; a pattern that
/// matches nothing stays as it is).
std::vector<std::string> split_command_line(const std::string& line);
/// run_in_process(split_command_line(line), options).
CliRun run_command(const std::string& line, const RunOptions& options = {});

/// Runs the built `tilefit` binary through /bin/sh: `tilefit <args>` (quoted by the caller), with
/// `env` prepended (e.g. "CUDA_VISIBLE_DEVICES= "), from the source directory, with `stdin_text`
/// on standard input. Only for the end-to-end tests of the real process (signals, pipes, the
/// real devices); everything else runs in-process.
CliRun run_binary(const std::string& args, const std::string& env = "",
                  const std::string& stdin_text = "");

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
