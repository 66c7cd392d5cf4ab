// The round trip the README promises: every `config` tilefit writes (sweep's rows, suggest's
// alternatives, the CSV `config` column, Config::json()) re-checks to the result it was listed
// with. A property over everything the tests read: every tuned table under configs/, every
// tuned-table entry of the measured engine rows (fused-MoE, gptq_awq, block-quantised matmuls,
// AMD), and every measured config row; each analysed for every arch of the built-in table, its
// written config read back and analysed again: status, every byte count, the stage counts, the
// breakdown and the error codes must be equal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit {
namespace {

/// What a listed result and the re-check of its config must share, as one comparable text.
std::string verdict(const model::Result& r) {
  nlohmann::json j;
  j["status"] = std::string(model::status_name(r.status));
  j["family"] = std::string(r.family);
  j["smem"] = r.smem_bytes ? nlohmann::json(*r.smem_bytes) : nlohmann::json();
  j["stages"] = r.stages;
  j["max_stages"] = r.max_stages;
  j["max_stages_smem"] = r.max_stages_smem ? nlohmann::json(*r.max_stages_smem) : nlohmann::json();
  j["epilogue"] = r.epilogue_smem ? nlohmann::json(*r.epilogue_smem) : nlohmann::json();
  j["mainloop"] = r.mainloop_smem ? nlohmann::json(*r.mainloop_smem) : nlohmann::json();
  j["limit"] = r.limit_bytes;
  if (r.breakdown)
    for (int c = 0; c < model::kComponentCount; ++c) j["parts"].push_back(r.breakdown->parts[c]);
  for (const model::LaunchSummary& l : r.launches)
    j["launches"].push_back({l.stage, l.smem_bytes ? *l.smem_bytes : -1, l.invalid});
  std::set<std::string> errors;
  for (const model::Diagnostic& d : r.diagnostics)
    if (d.severity == model::Severity::error) errors.insert(std::string(model::code_name(d.code)));
  j["errors"] = errors;
  return j.dump();
}

struct Source {
  std::string label;
  model::KernelConfig config;
};

std::vector<model::KernelConfig> read_all(const io::Source& src, const std::string& label) {
  const io::LoadResult r = io::load<io::LoadResult>(src);
  EXPECT_TRUE(r.errors.empty()) << label << ": " << io::format_error(r.errors.front());
  std::vector<model::KernelConfig> out;
  for (const auto& c : r.configs) out.push_back(c.config);
  return out;
}

/// The table's path as its engine ships it (SGLang's triton_X_Y_Z folder kept).
std::string table_path(const nlohmann::json& row) {
  const std::string table = row["table"].get<std::string>();
  const std::string name = row["table_name"].get<std::string>();
  if (row["engine"] == "sglang" && table.find("/triton_") != std::string::npos) {
    const std::string dir = table.substr(0, table.size() - name.size() - 1);
    return "sglang/" + dir.substr(dir.find_last_of('/') + 1) + "/" + name;
  }
  return row["engine"].get<std::string>() + "/" + name;
}

/// Every measured row of a JSON-lines file: its config (a `config` object) or its tuned-table
/// entry (`table`, `key`, `entry`), read as a user gives it; repeated inputs once.
void rows_of(const std::string& path, std::set<std::string>& seen, std::vector<Source>& out) {
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line);
    std::string text, label;
    if (row.contains("config") && row["config"].is_object()) {
      text = "[" + row["config"].dump() + "]";
      label = "row.json";
    } else if (row.contains("entry") && row.contains("table_name")) {
      // An empty device_name= is an input error of the name (a table its engine never loads).
      if (row["table_name"].get<std::string>().find("device_name=,") != std::string::npos) continue;
      nlohmann::json table;
      table[row["key"].get<std::string>()] = row["entry"];
      text = table.dump();
      label = table_path(row);
    } else {
      continue;
    }
    if (!seen.insert(label + text).second) continue;
    const io::LoadResult r = io::load<io::LoadResult>(io::Source::text(text, label));
    if (!r.errors.empty()) continue;  // rows of inputs tilefit refuses: nothing is listed
    for (const auto& c : r.configs)
      out.push_back({path + " " + row.value("id", std::string("?")), c.config});
  }
}

std::vector<Source> everything() {
  std::vector<Source> out;
  // Every tuned table (and config file) shipped under configs/.
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("configs"))) {
    const std::string path = e.path().string();
    for (model::KernelConfig& c : read_all(io::Source::file(path), path))
      out.push_back({path, std::move(c)});
  }
  std::set<std::string> seen;
  rows_of(test::engine_rows_path(), seen, out);
#ifdef TILEFIT_AMD_ROWS
  rows_of(TILEFIT_AMD_ROWS, seen, out);
#endif
#ifdef TILEFIT_ATTENTION_ROWS
  rows_of(TILEFIT_ATTENTION_ROWS, seen, out);
#endif
  for (const char* f :
       {"triton-3.6.jsonl", "measured-triton-3.6.jsonl", "measured-triton-3.6-grid.jsonl",
        "cutlass-4.7.jsonl", "measured-sm80.jsonl", "measured-sm100.jsonl",
        "measured-sm120-sm90.jsonl", "fp8-engines-cutlass-4.7.jsonl", "measured-fp8-engines.jsonl",
        "attention-launch-rows.jsonl"})
    rows_of(test::data_path(f), seen, out);
  return out;
}

TEST(RoundTrip, EveryWrittenConfigRechecksToItsResult) {
  const std::vector<Source> sources = everything();
  ASSERT_GT(sources.size(), 20000u);
  std::size_t checked = 0, differ = 0, launcher_refused = 0;
  std::map<std::string, int> kinds;  // what differs, counted (printed: where to look)
  for (const Source& s : sources) {
    for (const model::ArchInfo& arch : model::builtin_archs()) {
      model::KernelConfig cfg = s.config;
      cfg.arch = arch.limits.sm;
      const model::Result listed = model::evaluate(cfg, arch.limits, model::Detail::full);
      const std::string written = io::config_json(cfg);
      const io::LoadResult back =
          io::load<io::LoadResult>(io::Source::text("[" + written + "]", "written.json"));
      ++checked;
      // The one input the reader refuses that an arch override can list: an engine-built CUTLASS
      // config (`launcher`) on an arch its engine has no FP8 kernel for, which the model answers
      // `invalid` (no family builds it). Its written config names that arch, which the reader
      // refuses ("has no FP8 kernel for", "has no blockwise_fp8 kernel for"): counted apart, and only for invalid results.
      if (!back.errors.empty() && listed.status == model::Status::Invalid &&
          s.config.launcher != model::Launcher::None &&
          (io::format_error(back.errors.front()).find("has no FP8 kernel for") !=
               std::string::npos ||
           io::format_error(back.errors.front()).find("has no blockwise_fp8 kernel for") !=
               std::string::npos)) {
        ++launcher_refused;
        continue;
      }
      if (!back.errors.empty()) {
        ++kinds["unreadable: " + io::format_error(back.errors.front()).substr(0, 90)];
        if (++differ <= 10)
          ADD_FAILURE() << s.label << " on " << model::arch_name(arch.limits.sm) << ": " << written
                        << " does not read back: " << io::format_error(back.errors.front());
        continue;
      }
      ASSERT_EQ(back.configs.size(), 1u);
      const model::Result again =
          model::evaluate(back.configs[0].config, arch.limits, model::Detail::full);
      if (verdict(listed) != verdict(again))
        ++kinds["differs: " + std::string(listed.family) + " " + model::arch_name(arch.limits.sm)];
      if (verdict(listed) != verdict(again) && ++differ <= 10)
        ADD_FAILURE() << s.label << " on " << model::arch_name(arch.limits.sm) << ": " << written
                      << "\n  listed:     " << verdict(listed)
                      << "\n  re-checked: " << verdict(again);
    }
  }
  for (const auto& [k, n] : kinds) std::printf("  %6d  %s\n", n, k.c_str());
  std::printf(
      "round trip: %zu configs x %zu archs = %zu written configs, %zu differ (%zu invalid engine "
      "CUTLASS configs on an arch without its kernel: the reader refuses the written arch)\n",
      sources.size(), model::builtin_archs().size(), checked, differ, launcher_refused);
  EXPECT_EQ(differ, 0u);
}

/// The README's example, through the library's own path: the config's "engine" does not turn an
/// fp8 config into the bf16 kernel.
TEST(RoundTrip, EngineFieldKeepsTheFp8Kernel) {
  const auto read = [](const std::string& extra) {
    const std::string text =
        R"([{"arch":"sm_120","kernel":"triton_fused_moe","dtype":"fp8_w8a8","block_shape":[128,128],)"
        R"("tile":[64,128,128],"num_warps":4,"stages":4)" +
        extra + "}]";
    const io::LoadResult r = io::load<io::LoadResult>(io::Source::text(text, "c.json"));
    EXPECT_TRUE(r.errors.empty());
    return model::evaluate(r.configs.at(0).config, model::find_arch(120)->limits,
                           model::Detail::full);
  };
  const model::Result plain = read("");
  const model::Result vllm = read(R"(,"engine":"vllm")");
  const model::Result sglang = read(R"(,"engine":"sglang")");
  ASSERT_TRUE(plain.smem_bytes.has_value());
  EXPECT_EQ(*plain.smem_bytes, 74240);
  ASSERT_TRUE(vllm.smem_bytes.has_value());
  EXPECT_EQ(*vllm.smem_bytes, *plain.smem_bytes);
  EXPECT_EQ(vllm.status, model::Status::Fits);
  ASSERT_TRUE(sglang.smem_bytes.has_value());
  EXPECT_EQ(sglang.status, model::Status::Fits);
}

}  // namespace
}  // namespace tilefit
