// Typed diagnostics: every code has a message written from its declared values alone, the
// values the model attaches are the declared ones, the reference lists every code, and the
// story's FINALIZE tile carries an error whose typed values include 102400.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model_test_util.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

using model::Code;
using model::Diagnostic;

std::set<std::string> declared_keys(Code c) {
  std::set<std::string> keys;
  std::istringstream in{std::string(model::code_keys(c))};
  for (std::string k; in >> k;) keys.insert(k);
  return keys;
}

TEST(Diagnostics, EveryCodeHasAMessageFromItsDeclaredValues) {
  std::set<std::string> names;
  for (Code c : model::all_codes()) {
    const std::string name(model::code_name(c));
    EXPECT_TRUE(names.insert(name).second) << "duplicate code " << name;
    for (char ch : name)
      EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_') << name;
    Diagnostic d(c);
    // Keys are string_views into static storage in real use; here they point into `keys`,
    // which outlives `d`'s rendering.
    const std::set<std::string> keys = declared_keys(c);
    for (const std::string& k : keys) d.integer(k, 1);
    const std::string m = report::message(d);
    EXPECT_FALSE(m.empty()) << name;
    EXPECT_NE(m, name) << name << " has no message";
    EXPECT_EQ(m.find('?'), std::string::npos)
        << name << ": a value the message uses is not declared: " << m;
  }
}

/// Every diagnostic the model attaches over the measured rows and the shipped configs, under
/// several targets, uses only its code's declared keys, and every error diagnostic belongs to a
/// result that does not fit or is invalid.
TEST(Diagnostics, ModelAttachesOnlyDeclaredValues) {
  std::vector<model::KernelConfig> configs;
  for (const char* f : {"cutlass-4.7.jsonl", "measured-sm80.jsonl", "measured-sm100.jsonl",
                        "measured-sm120-sm90.jsonl"})
    for (const auto& row : test::load_rows(f))
      if (auto c = test::row_config(row)) configs.push_back(*c);
  ASSERT_GT(configs.size(), 200u);
  std::set<std::string> seen;
  auto check = [&](const model::KernelConfig& c, int arch) {
    const model::Result r = model::evaluate(c, model::find_arch(arch)->limits);
    for (const Diagnostic& d : r.diagnostics) {
      seen.insert(std::string(model::code_name(d.code)));
      const auto keys = declared_keys(d.code);
      for (const model::DiagValue& v : d.values)
        EXPECT_TRUE(keys.count(std::string(v.key)))
            << model::code_name(d.code) << " carries undeclared " << v.key;
      if (d.severity == model::Severity::error) {
        EXPECT_NE(r.status, model::Status::Fits) << model::code_name(d.code);
      }
    }
  };
  for (int arch : {80, 89, 90, 100, 120}) {
    for (model::KernelConfig c : configs) {
      c.arch = arch;
      check(c, arch);
      c.family.clear();  // inferred for this arch
      check(c, arch);
      for (int s : {1, 2, 9}) {
        c.stages = s;
        check(c, arch);
      }
      c.stages.reset();
      c.k *= 4;  // too large: what fits instead, and the smaller-K suggestion
      check(c, arch);
    }
  }
  EXPECT_GT(seen.size(), 50u);
}

/// The same over the Triton rows, on every architecture the families run on, at other stage
/// counts, with a K too large, and as tuned-table entries tuned with another Triton version.
TEST(Diagnostics, TritonFamiliesAttachOnlyDeclaredValues) {
  std::vector<model::KernelConfig> configs;
  for (const auto& row : test::load_rows("triton-3.6.jsonl"))
    if (auto c = test::row_config(row)) configs.push_back(*c);
  ASSERT_GT(configs.size(), 1000u);
  std::set<std::string> seen;
  auto check = [&](const model::KernelConfig& c, int arch) {
    const model::Result r = model::evaluate(c, model::find_arch(arch)->limits);
    for (const Diagnostic& d : r.diagnostics) {
      seen.insert(std::string(model::code_name(d.code)));
      const auto keys = declared_keys(d.code);
      for (const model::DiagValue& v : d.values)
        EXPECT_TRUE(keys.count(std::string(v.key)))
            << model::code_name(d.code) << " carries undeclared " << v.key;
      if (d.severity == model::Severity::error) {
        EXPECT_NE(r.status, model::Status::Fits) << model::code_name(d.code);
      }
      EXPECT_EQ(report::message(d).find('?'), std::string::npos) << report::message(d);
    }
  };
  for (int arch : {80, 87, 89, 90, 100, 120, 121}) {
    for (std::size_t i = 0; i < configs.size(); i += 3) {
      model::KernelConfig c = configs[i];
      c.arch = arch;
      check(c, arch);
      c.stages = 1 + static_cast<int>(i % 9);
      check(c, arch);
      c.stages.reset();
      c.num_warps.reset();
      c.triton_version = "3.4.0";
      c.k *= 4;
      check(c, arch);
    }
  }
  EXPECT_GT(seen.size(), 12u);
}

TEST(Diagnostics, ReferenceListsEveryCode) {
  const std::string reference = test::read_file(test::source_path("docs/reference/diagnostics.md"));
  for (Code c : model::all_codes())
    EXPECT_NE(reference.find(std::string("| `").append(model::code_name(c)) + "` |"),
              std::string::npos)
        << model::code_name(c)
        << " is not in docs/reference/diagnostics.md (tools/docs/gen_reference.py writes it)";
}

TEST(Diagnostics, FinalizeTileIsAnErrorWith102400Bytes) {
  const auto r = test::run_command("check configs/sm120_moe_finalize.json --builtin --format json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& res : j["results"]) {
    ASSERT_TRUE(res.contains("diagnostics")) << res["name"];
    if (res["name"] != "finalize_128x256x128") continue;
    for (const auto& d : res["diagnostics"]) {
      if (d["severity"] != "error") continue;
      EXPECT_EQ(d["code"], "over_limit_initialize");
      EXPECT_EQ(d["smem_bytes"], 102400);
      EXPECT_EQ(d["limit_bytes"], 101376);
      EXPECT_EQ(d["over_bytes"], 1024);
      EXPECT_EQ(d["stages"], 3);
      EXPECT_EQ(d["builder_pick"], true);
      EXPECT_NE(d["message"].get<std::string>().find("kErrorInternal"), std::string::npos);
      found = true;
    }
    // The notes are the diagnostics' messages, in order.
    std::vector<std::string> messages;
    for (const auto& d : res["diagnostics"]) messages.push_back(d["message"]);
    EXPECT_EQ(res["notes"].get<std::vector<std::string>>(), messages);
  }
  EXPECT_TRUE(found);
}

TEST(Diagnostics, VerdictDetailBuildsNoneAndChangesNoNumber) {
  std::vector<test::GroundTruthRow> rows = test::load_rows("cutlass-4.7.jsonl");
  for (auto& row : test::load_rows("triton-3.6.jsonl")) rows.push_back(std::move(row));
  for (const auto& row : rows) {
    const auto c = test::row_config(row);
    ASSERT_TRUE(c);
    const model::Limits& lim = model::find_arch(c->arch)->limits;
    const model::Result full = model::evaluate(*c, lim, model::Detail::full);
    const model::Result fast = model::evaluate(*c, lim, model::Detail::verdict);
    EXPECT_TRUE(fast.diagnostics.empty());
    EXPECT_FALSE(fast.breakdown);
    EXPECT_TRUE(fast.kernel.empty());
    EXPECT_EQ(fast.status, full.status) << row.id;
    EXPECT_EQ(fast.stages, full.stages) << row.id;
    EXPECT_EQ(fast.max_stages, full.max_stages) << row.id;
    EXPECT_EQ(fast.max_stages_smem, full.max_stages_smem) << row.id;
    EXPECT_EQ(fast.smem_bytes, full.smem_bytes) << row.id;
    EXPECT_EQ(fast.ctas_per_sm, full.ctas_per_sm) << row.id;
  }
}

}  // namespace
}  // namespace tilefit
