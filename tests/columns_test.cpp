// The column model (src/report/columns.hpp): every writer shows only fields its column sets know,
// the results schema has every key the JSON writers emit (and nothing they never emit), and every
// byte quantity's JSON key ends in "_bytes" (the old key kept beside it, marked deprecated).
// Outputs are generated in process for the shipped configs, a sweep space and a probe report.
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/device_report.hpp"
#include "report/limit_columns.hpp"
#include "report/result_columns.hpp"
#include "report/suggest_columns.hpp"
#include "test_support.hpp"
#include "tilefit/report/csv.hpp"
#include "tilefit/report/json.hpp"
#include "tilefit/report/schema.hpp"

namespace tilefit {
namespace {

using nlohmann::ordered_json;
using Keys = std::set<std::string>;

Keys keys_of(const ordered_json& object) {
  Keys out;
  for (auto it = object.begin(); it != object.end(); ++it) out.insert(it.key());
  return out;
}

/// The JSON keys of a column set: each column's key and its deprecated key; with `all` false,
/// only those every row has (no `shown` predicate).
template <class Row>
Keys json_keys(std::span<const report::Column<Row>> set, bool all = true) {
  Keys out;
  for (const auto& c : set) {
    if (!c.json || (!all && c.shown)) continue;
    out.insert(std::string(c.key));
    if (!c.deprecated_key.empty()) out.insert(std::string(c.deprecated_key));
  }
  return out;
}

template <class Row>
void expect_byte_keys(std::span<const report::Column<Row>> set, const char* what) {
  Keys seen;
  for (const auto& c : set) {
    EXPECT_TRUE(seen.insert(std::string(c.key)).second) << what << ": " << c.key << " twice";
    EXPECT_FALSE(c.description.empty()) << what << ": " << c.key;
    if (c.unit == report::Unit::bytes && c.json && c.type != report::ColumnType::breakdown) {
      EXPECT_TRUE(c.key.ends_with("_bytes")) << what << ": " << c.key << " holds bytes";
    }
    if (!c.deprecated_key.empty()) {
      EXPECT_TRUE(c.json) << what << ": " << c.key;
      EXPECT_FALSE(c.deprecated_key.ends_with("_bytes")) << what << ": " << c.deprecated_key;
    }
  }
}

ordered_json run_json(const std::vector<std::string>& args) {
  const test::CliRun r = test::run_in_process(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return ordered_json::parse(r.out);
}

std::vector<std::string> shipped_configs() {
  std::vector<std::string> out;
  for (const auto& f : std::filesystem::directory_iterator(test::source_path("configs")))
    if (f.path().extension() == ".json") out.push_back(f.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Columns, EveryByteQuantityIsNamedInBytes) {
  expect_byte_keys(report::result_columns(), "results");
  expect_byte_keys(report::limit_columns(), "limits");
  expect_byte_keys(report::sweep_columns(), "sweep");
  expect_byte_keys(report::probe_columns(), "probe");
  expect_byte_keys(report::probe_boundary_columns(), "probe boundary");
  expect_byte_keys(report::suggest_columns(), "suggestions");
}

TEST(Columns, EveryFormatListNamesAColumnThatHasThatFormat) {
  Keys table, csv;
  for (const std::string_view k : report::kTableKeys) {
    const auto* c = report::find_column(report::result_columns(), k);
    ASSERT_NE(c, nullptr) << k;
    EXPECT_TRUE(c->cell && !c->head.empty() && !c->md_head.empty()) << k;
    table.insert(std::string(k));
  }
  for (const std::string_view k : report::kSweepTableKeys) {
    const auto* c = report::find_column(report::result_columns(), k);
    ASSERT_NE(c, nullptr) << k;
    EXPECT_TRUE(c->cell) << k;
    table.insert(std::string(k));
  }
  for (const std::string_view k : report::kCsvKeys) {
    const auto* c = report::find_column(report::result_columns(), k);
    ASSERT_NE(c, nullptr) << k;
    EXPECT_TRUE(c->csv_field && !c->csv.empty()) << k;
    csv.insert(std::string(k));
  }
  // And the other way: a column with a cell or a CSV field is in a list (nothing is dead).
  for (const auto& c : report::result_columns()) {
    if (c.cell) {
      EXPECT_TRUE(table.count(std::string(c.key))) << c.key;
    }
    if (c.csv_field) {
      EXPECT_TRUE(csv.count(std::string(c.key))) << c.key;
    }
    EXPECT_TRUE(c.cell || c.csv_field || c.json) << c.key << " is in no format";
  }
  for (const std::string_view k : report::kSuggestCsvKeys) {
    const auto* c = report::find_column(report::suggest_columns(), k);
    ASSERT_NE(c, nullptr) << k;
    EXPECT_TRUE(c->csv_field && !c->csv.empty()) << k;
  }
  for (const auto& c : report::suggest_columns())
    EXPECT_TRUE(c.csv_field || c.json) << c.key << " is in no format";
  // The CSV header is the CSV list's heads.
  std::string header;
  for (const std::string_view k : report::kCsvKeys)
    header += (header.empty() ? "" : ",") +
              std::string(report::find_column(report::result_columns(), k)->csv);
  EXPECT_EQ(report::csv_header(), header + "\n");
}

TEST(Columns, CheckAndSuggestJsonKeysAreTheSchemasAndTheColumns) {
  const ordered_json schema = report::results_schema();
  const ordered_json& defs = schema["$defs"];
  Keys result_props = keys_of(defs["result"]["properties"]);
  result_props.erase("suggestions");  // suggest's alone
  EXPECT_EQ(result_props, json_keys(report::result_columns()));
  Keys target_props = keys_of(defs["target"]["properties"]);
  const Keys suggestion_props = keys_of(defs["suggestion"]["properties"]);
  EXPECT_EQ(suggestion_props, json_keys(report::suggest_columns()));
  std::size_t suggestions = 0;

  std::vector<std::string> check{"check"}, suggest{"suggest"};
  for (const std::string& f : shipped_configs()) check.push_back(f), suggest.push_back(f);
  for (auto* args : {&check, &suggest}) {
    args->insert(args->end(), {"--builtin", "--format", "json"});
    const ordered_json doc = run_json(*args);
    EXPECT_EQ(doc["schema_version"], report::kSchemaVersion);
    ASSERT_GT(doc["results"].size(), 10u);
    for (const ordered_json& r : doc["results"]) {
      Keys k = keys_of(r);
      if (args == &suggest) {
        EXPECT_TRUE(k.erase("suggestions")) << r["name"];
        for (const ordered_json& sug : r["suggestions"]) {
          EXPECT_EQ(keys_of(sug), suggestion_props) << r["name"];
          ++suggestions;
        }
      }
      // `engine` exactly for a config of an engine: of the shipped configs, the tuned table's.
      Keys want = result_props;
      const std::string file = r["file"].get<std::string>();
      const bool tuned =
          file.find("/E=") != std::string::npos || file.find("/N=") != std::string::npos;
      EXPECT_EQ(r.contains("engine"), tuned) << r["name"];
      if (!tuned) want.erase("engine");
      want.erase("hip_async_copy");  // AMD targets only; the shipped configs are NVIDIA's
      // `launches` and `engine_refuses` exactly for a triton_attention config (none shipped).
      EXPECT_EQ(r.contains("launches"), r["kernel"] == "triton_attention") << r["name"];
      if (r["kernel"] != "triton_attention") want.erase("launches"), want.erase("engine_refuses");
      EXPECT_EQ(k, want) << r["name"];
      for (const std::string& t : keys_of(r["target"])) EXPECT_TRUE(target_props.count(t)) << t;
      for (const ordered_json& req : defs["target"]["required"])
        EXPECT_TRUE(r["target"].contains(req)) << req;
      // Every deprecated key carries the same value as the key that replaces it.
      for (const auto& c : report::result_columns()) {
        if (!c.deprecated_key.empty()) {
          EXPECT_EQ(r[std::string(c.deprecated_key)], r[std::string(c.key)]) << c.key;
        }
      }
      for (const auto& c : report::limit_columns()) {
        if (!c.deprecated_key.empty()) {
          EXPECT_EQ(r["target"][std::string(c.deprecated_key)], r["target"][std::string(c.key)])
              << c.key;
        }
      }
    }
  }
  EXPECT_GT(suggestions, 0u);
}

TEST(Columns, SchemaMarksEveryDeprecatedKey) {
  const ordered_json schema = report::results_schema();
  const ordered_json& defs = schema["$defs"];
  auto check = [&](const ordered_json& props, auto set) {
    for (const auto& c : set) {
      if (!c.json) continue;
      const ordered_json& p = props.at(std::string(c.key));
      EXPECT_FALSE(p.contains("deprecated")) << c.key;
      if (c.deprecated_key.empty()) continue;
      const ordered_json& old = props.at(std::string(c.deprecated_key));
      EXPECT_EQ(old["deprecated"], true) << c.deprecated_key;
      EXPECT_NE(old["description"].get<std::string>().find(std::string(c.key)), std::string::npos);
    }
  };
  check(defs["result"]["properties"], report::result_columns());
  check(defs["target"]["properties"], report::limit_columns());
}

TEST(Columns, SweepJsonKeysAreTheSchemasAndTheColumns) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("tilefit_columns_sweep_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path)
      << R"({"configs": [{"name": "m", "arch": "sm120", "dtype": "nvfp4", "grouped": true,
      "tile": {"m": 128, "n": [128, 256], "k": 128}, "stages": ["auto", 2], "epilogue": "finalize"}]})";
  const ordered_json doc = run_json({"sweep", path.string(), "--all", "--format", "json"});
  std::filesystem::remove(path);
  const ordered_json schema = report::results_schema();
  const Keys props = keys_of(schema["$defs"]["sweep_result"]["properties"]);
  Keys expected = json_keys(report::result_columns());
  for (const std::string& k : json_keys(report::sweep_columns())) expected.insert(k);
  EXPECT_EQ(props, expected);
  ASSERT_EQ(doc["results"].size(), 4u);
  Keys without_engine = props;
  without_engine.erase("engine");          // a config of an engine only
  without_engine.erase("hip_async_copy");  // an AMD target only
  without_engine.erase("launches");        // a triton_attention config only
  without_engine.erase("engine_refuses");  // a triton_attention config only
  for (const ordered_json& r : doc["results"]) EXPECT_EQ(keys_of(r), without_engine) << r["name"];
  EXPECT_EQ(doc["schema_version"], report::kSchemaVersion);
}

TEST(Columns, DeviceArchsAndProbeJsonKeysAreTheColumns) {
  Keys limits = json_keys(report::limit_columns());
  limits.insert("sm");
  device::DeviceInfo d;
  d.name = "fake";
  d.limits = model::find_arch(120)->limits;
  const ordered_json dev = report::devices_json({d});
  EXPECT_EQ(keys_of(dev["devices"][0]["limits"]), limits);
  const ordered_json archs = run_json({"archs", "--format", "json"});
  Keys arch_row = limits;
  arch_row.insert({"arch", "examples", "source", "vendor", "wave_size", "aliases"});
  for (const ordered_json& a : archs["archs"]) EXPECT_EQ(keys_of(a), arch_row) << a["arch"];

  report::ProbeReport rep;
  rep.device = d;
  report::ProbeRow probed, skipped;
  probed.name = "p";
  probed.smem = 1024;
  probed.launch =
      device::ProbeOutcome{1024, false, "cudaErrorInvalidValue", "cudaFuncSetAttribute"};
  skipped.name = "s";
  skipped.skipped = "no smem_bytes";
  rep.rows = {probed, skipped};
  rep.boundary =
      device::Boundary{101376, 101377, "cudaErrorInvalidValue", "cudaFuncSetAttribute", 18};
  const ordered_json j = report::probe_json(rep);
  const report::ProbeLine line{probed, 0};
  const report::ProbeLine skipped_line{skipped, 0};
  Keys shown_probed, shown_skipped;
  for (const auto& c : report::probe_columns()) {
    if (!c.shown || c.shown(line)) shown_probed.insert(std::string(c.key));
    if (!c.shown || c.shown(skipped_line)) shown_skipped.insert(std::string(c.key));
  }
  EXPECT_EQ(keys_of(j["results"][0]), shown_probed);
  EXPECT_EQ(keys_of(j["results"][1]), shown_skipped);
  EXPECT_TRUE(shown_probed.count("driver_error") && !shown_skipped.count("driver_error"));
  EXPECT_EQ(keys_of(j["boundary"]), json_keys(report::probe_boundary_columns()));
  EXPECT_EQ(j["boundary"]["largest_launched_bytes"], 101376);
  EXPECT_FALSE(j["boundary"].contains("largest_launched"));  // schema version 3
  EXPECT_EQ(j["boundary"]["optin_per_block_bytes"], d.limits.optin_per_block);
}

TEST(Columns, DiagnosticByteValuesAreNamedInBytes) {
  // A diagnostic value the model gives in bytes under a key without "_bytes" goes under
  // "<key>_bytes" (schema version 2 had the old key too); the others are as they were.
  const model::Diagnostic d = model::diag(model::Code::auto_stages_below_minimum)
                                  .stages("stages", 1, model::StageParam::CutlassStageCount)
                                  .bytes("builder_capacity", 101376)
                                  .bytes("carveout", 17408)
                                  .bytes("stage_bytes", 65536)
                                  .integer("min_stages", 2);
  const ordered_json j = report::diagnostic_json(d);
  EXPECT_FALSE(j.contains("builder_capacity"));
  EXPECT_EQ(j["builder_capacity_bytes"], 101376);
  EXPECT_FALSE(j.contains("carveout"));
  EXPECT_EQ(j["carveout_bytes"], 17408);
  EXPECT_FALSE(j.contains("stage_bytes_bytes"));
  EXPECT_FALSE(j.contains("min_stages_bytes"));
  const model::Diagnostic fit = model::diag(model::Code::max_stages_fit)
                                    .stages("stages", 3, model::StageParam::CutlassStageCount)
                                    .bytes("smem_bytes", 4096)
                                    .bytes("spare_bytes", 512);
  const ordered_json f = report::diagnostic_json(fit);
  EXPECT_EQ(f["spare_bytes"], 512);
  EXPECT_FALSE(f.contains("spare_bytes_bytes"));
  EXPECT_FALSE(f.contains("stages_bytes"));
}

}  // namespace
}  // namespace tilefit
