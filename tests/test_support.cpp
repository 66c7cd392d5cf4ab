#include "test_support.hpp"

#include "cli/cli_context.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tilefit/io/load.hpp"

namespace tilefit::test {

std::string data_path(const std::string& name) { return std::string(TILEFIT_TEST_DATA_DIR) + "/" + name; }

std::string source_path(const std::string& name) { return std::string(TILEFIT_SOURCE_DIR) + "/" + name; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliRun run_in_process(const std::vector<std::string>& args, bool stdout_terminal) {
  std::vector<const char*> argv{"tilefit"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  char cwd[4096];
  const bool have_cwd = getcwd(cwd, sizeof cwd) != nullptr;
  [[maybe_unused]] const int cd = chdir(TILEFIT_SOURCE_DIR);
  cli::Output output(out);
  output.set_terminal(stdout_terminal);
  CliRun r;
  r.exit_code = cli::run(static_cast<int>(argv.size()), argv.data(), output, err);
  if (have_cwd) [[maybe_unused]] const int back = chdir(cwd);
  auto slurp = [](std::FILE* f) {
    std::string text;
    std::rewind(f);
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
    std::fclose(f);
    return text;
  };
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

CliRun run_cli(const std::string& args, const std::string& env, const std::string& stdin_text) {
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
