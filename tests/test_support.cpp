#include "test_support.hpp"

#include <glob.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

#include <gtest/gtest.h>

#include "tilefit/io/load.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::test {

std::string data_path(const std::string& name) {
  return std::string(TILEFIT_TEST_DATA_DIR) + "/" + name;
}

std::string engine_rows_path() {
  const char* env = std::getenv("TILEFIT_ENGINE_ROWS");
#ifdef TILEFIT_ENGINE_ROWS
  return env ? std::string(env) : std::string(TILEFIT_ENGINE_ROWS);
#else
  return env ? std::string(env) : data_path("engines-triton-3.6.jsonl");
#endif
}

std::string attention_rows_path() {
  const char* env = std::getenv("TILEFIT_ATTENTION_ROWS");
#ifdef TILEFIT_ATTENTION_ROWS
  return env ? std::string(env) : std::string(TILEFIT_ATTENTION_ROWS);
#else
  return env ? std::string(env) : data_path("attention-triton-3.6.jsonl");
#endif
}

std::string source_path(const std::string& name) {
  return std::string(TILEFIT_SOURCE_DIR) + "/" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- fake GPUs ---------------------------------------------------------------------------------

namespace {

device::DeviceInfo fake_gpu(int index, const char* name, int sm, int sm_count, const char* bus) {
  device::DeviceInfo d;
  d.index = index;
  d.name = name;
  d.cc_major = sm / 10;
  d.cc_minor = sm % 10;
  d.sm_count = sm_count;
  d.limits = model::find_arch(sm)->limits;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  d.pci_bus_id = bus;
  return d;
}

constexpr const char* kArchHint =
    "use --arch to analyse for an architecture from the built-in table";

}  // namespace

device::DeviceInfo fake_h200(int index) {
  return fake_gpu(index, "NVIDIA H200", 90, 132, "0000:00:06.0");
}
device::DeviceInfo fake_rtx5090(int index) {
  return fake_gpu(index, "NVIDIA GeForce RTX 5090", 120, 170, "0000:01:00.0");
}
device::DeviceInfo fake_gb10(int index) {
  return fake_gpu(index, "NVIDIA GB10", 121, 48, "000f:01:00.0");
}

device::DeviceError fake_no_gpu_error() {
  std::string message(
      "no CUDA-capable GPU found (cudaErrorNoDevice: no CUDA-capable device is detected); ");
  message += kArchHint;
  return {"cudaErrorNoDevice", std::move(message)};
}

device::DeviceError fake_driver_error() {
  return {"cudaErrorInsufficientDriver",
          std::string("no usable NVIDIA driver (cudaErrorInsufficientDriver: CUDA driver version "
                      "is insufficient "
                      "for CUDA runtime version): the installed driver supports CUDA 12.4, "
                      "tilefit's runtime is "
                      "CUDA 13.0 (update the driver or build tilefit with an older toolkit); ") +
              kArchHint};
}

FakeDevices::FakeDevices(std::vector<device::DeviceInfo> gpus) : gpus_(std::move(gpus)) {
  for (std::size_t i = 0; i < gpus_.size(); ++i) gpus_[i].index = static_cast<int>(i);
}

device::DeviceList FakeDevices::all() const {
  ++queries;
  if (!error_.message.empty()) return error_;
  return gpus_;
}

device::DeviceResult FakeDevices::one(int index) const {
  ++queries;
  if (!error_.message.empty()) return error_;
  const int count = static_cast<int>(gpus_.size());
  if (index < 0 || index >= count) {
    const std::string range = count == 1 ? "only GPU 0 is visible"
                                         : std::to_string(count) + " GPUs are visible (valid: 0.." +
                                               std::to_string(count - 1) + ")";
    return device::DeviceError{"", "GPU index " + std::to_string(index) +
                                       " is out of range: " + range +
                                       "; pass --device with a valid index, or " + kArchHint};
  }
  return gpus_[static_cast<std::size_t>(index)];
}

device::Expected<device::ProbeOutcome> FakeProbe::launch(int device, model::Bytes bytes) const {
  if (!unavailable_.empty()) return device::DeviceError{"", unavailable_};
  const device::DeviceResult gpu = gpus_.one(device);
  if (!gpu) return gpu.error();
  ++launches;
  device::ProbeOutcome out;
  out.dynamic_smem = bytes;
  if (bytes < 0 || bytes > INT_MAX) {
    out.error = "cudaErrorInvalidValue";
    out.refused_by = "tilefit (size outside the range of cudaFuncSetAttribute)";
    return out;
  }
  out.launched = bytes <= granted_.value_or(gpu->limits.optin_per_block);
  if (!out.launched) {
    out.error = "cudaErrorInvalidValue";
    out.refused_by = "cudaFuncSetAttribute";
  }
  return out;
}

device::Expected<int> FakeProbe::occupancy(int device, model::Bytes bytes) const {
  if (!unavailable_.empty()) return device::DeviceError{"", unavailable_};
  const device::DeviceResult gpu = gpus_.one(device);
  if (!gpu) return gpu.error();
  const model::Limits& l = gpu->limits;
  if (bytes < 0 || bytes > granted_.value_or(l.optin_per_block)) return 0;
  return static_cast<int>(
      std::min<model::Bytes>(l.max_ctas_per_sm, l.per_sm / (bytes + l.reserved_per_block)));
}

device::Expected<device::Boundary> FakeProbe::boundary(int device) const {
  if (!unavailable_.empty()) return device::DeviceError{"", unavailable_};
  const device::DeviceResult gpu = gpus_.one(device);
  if (!gpu) return gpu.error();
  return device::search_boundary(device,
                                 [this, device](model::Bytes n) { return launch(device, n); });
}

// ---- running the CLI ---------------------------------------------------------------------------

namespace {

std::string slurp(std::FILE* f) {
  std::string text;
  std::rewind(f);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
  std::fclose(f);
  return text;
}

}  // namespace

CliRun run_in_process(const std::vector<std::string>& args, const RunOptions& options) {
  std::FILE* in = std::tmpfile();
  std::fwrite(options.stdin_text.data(), 1, options.stdin_text.size(), in);
  std::rewind(in);
  std::FILE* out = options.stdout_file ? options.stdout_file : std::tmpfile();
  std::FILE* err = std::tmpfile();
  const FakeDevices none = FakeDevices::none();
  const device::DeviceSource& devices = options.devices ? *options.devices : none;
  const FakeProbe fake_probe(devices);
  const device::ProbeSource& probe = options.probe ? *options.probe : fake_probe;

  char cwd[4096];
  const bool have_cwd = getcwd(cwd, sizeof cwd) != nullptr;
  [[maybe_unused]] const int cd = chdir(TILEFIT_SOURCE_DIR);
  cli::Output output(out);
  output.set_terminal(options.stdout_terminal);
  cli::ErrorOutput error(err);
  error.set_terminal(options.stderr_terminal);
  if (options.clock) error.set_clock(options.clock);
  CliRun r;
  r.exit_code = cli::run(args, cli::Env{in, output, error, devices, probe}, options.extension);
  if (have_cwd) [[maybe_unused]]
    const int back = chdir(cwd);
  std::fclose(in);
  if (!options.stdout_file) r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

CliRun run_in_process(const std::vector<std::string>& args, bool stdout_terminal) {
  RunOptions o;
  o.stdout_terminal = stdout_terminal;
  return run_in_process(args, o);
}

std::vector<std::string> split_command_line(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, pattern = false;
  auto flush = [&] {
    if (!in_word) return;
    glob_t g{};
    // A relative pattern is matched from the source directory (where the CLI runs) and its matches
    // named relative to it, as the shell there would.
    const bool absolute = !word.empty() && word.front() == '/';
    const std::string from = absolute ? "" : std::string(TILEFIT_SOURCE_DIR) + "/";
    if (pattern && ::glob((from + word).c_str(), 0, nullptr, &g) == 0) {
      const std::size_t strip = from.size();
      for (std::size_t i = 0; i < g.gl_pathc; ++i)
        words.push_back(std::string(g.gl_pathv[i]).substr(strip));
    } else {
      words.push_back(word);
    }
    if (pattern) ::globfree(&g);
    word.clear();
    in_word = pattern = false;
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      flush();
    } else if (c == '\'') {
      in_word = true;
      const std::size_t end = line.find('\'', i + 1);
      word += line.substr(i + 1, end - i - 1);
      i = end == std::string::npos ? line.size() : end;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size() &&
            std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos)
          ++i;
        word += line[i];
      }
    } else if (c == '\\' && i + 1 < line.size()) {
      in_word = true;
      word += line[++i];
    } else {
      in_word = true;
      if (c == '*' || c == '?' || c == '[') pattern = true;
      word += c;
    }
  }
  flush();
  return words;
}

CliRun run_command(const std::string& line, const RunOptions& options) {
  return run_in_process(split_command_line(line), options);
}

CliRun run_binary(const std::string& args, const std::string& env, const std::string& stdin_text) {
  char out_tmpl[] = "/tmp/tilefit_out_XXXXXX";
  char err_tmpl[] = "/tmp/tilefit_err_XXXXXX";
  char in_tmpl[] = "/tmp/tilefit_in_XXXXXX";
  const int out_fd = mkstemp(out_tmpl);
  const int err_fd = mkstemp(err_tmpl);
  const int in_fd = mkstemp(in_tmpl);
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0) close(err_fd);
  if (in_fd >= 0) {
    [[maybe_unused]] const ssize_t n = write(in_fd, stdin_text.data(), stdin_text.size());
    close(in_fd);
  }
  const std::string cmd = "cd '" + std::string(TILEFIT_SOURCE_DIR) + "' && " + env + "'" +
                          std::string(TILEFIT_BINARY) + "' " + args + " >'" + out_tmpl + "' 2>'" +
                          err_tmpl + "' <'" + in_tmpl + "'";
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out_tmpl);
  r.err = read_file(err_tmpl);
  std::remove(out_tmpl);
  std::remove(err_tmpl);
  std::remove(in_tmpl);
  return r;
}

std::vector<GroundTruthRow> load_rows(const std::string& file, const std::string& kernel) {
  std::vector<GroundTruthRow> rows;
  std::ifstream in(data_path(file));
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j = nlohmann::json::parse(line);
    if (!kernel.empty() && j.at("config").value("kernel", std::string()) != kernel) continue;
    rows.push_back({j.at("id").get<std::string>(), j.at("config"), j.at("expect")});
  }
  return rows;
}

std::optional<model::KernelConfig> row_config(const GroundTruthRow& row) {
  const std::string text = nlohmann::json{{"configs", {row.config}}}.dump();
  io::LoadResult lr = io::load<io::LoadResult>(io::Source::text(text, row.id));
  for (const io::ConfigError& e : lr.errors) ADD_FAILURE() << io::format_error(e);
  if (!lr.errors.empty() || lr.configs.size() != 1) {
    ADD_FAILURE() << row.id << ": " << lr.configs.size() << " configs read, expected 1";
    return std::nullopt;
  }
  return lr.configs[0].config;
}

}  // namespace tilefit::test
