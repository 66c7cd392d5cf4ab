// The one family table (tilefit/model/family_table.hpp): every row complete, `tilefit families`
// in text (byte for byte what it printed before the table existed) and --format json, both from
// the table, and the reference's table (docs/reference/families.md) checked against it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family_table.hpp"

namespace tilefit {
namespace {

std::string arch_list(const std::vector<int>& archs) {
  std::string out;
  for (int sm : archs) out += (out.empty() ? "" : ", ") + model::arch_name(sm);
  return out;
}

// ---- the table ------------------------------------------------------------------------------

TEST(FamilyTable, EveryRowIsComplete) {
  std::set<std::string_view> names;
  ASSERT_FALSE(model::family_table().empty());
  for (const model::FamilyRow& r : model::family_table()) {
    ASSERT_NE(r.family, nullptr);
    const std::string_view name = r.family->name();
    SCOPED_TRACE(std::string(name));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << "two rows for one family";
    EXPECT_FALSE(r.family->description().empty());
    EXPECT_FALSE(r.mirrors.empty());
    EXPECT_FALSE(model::kind_name(r.kind).empty());
    EXPECT_FALSE(model::family_archs(*r.family).empty()) << "runs on no built-in architecture";
    // The sources cited are the ones of the kind: a Triton family mirrors Triton, the others a
    // CUTLASS version.
    if (r.kind == model::FamilyKind::Triton)
      EXPECT_NE(r.mirrors.find("Triton 3.6.0"), std::string_view::npos) << r.mirrors;
    else
      EXPECT_NE(r.mirrors.find("CUTLASS 4.7.0"), std::string_view::npos) << r.mirrors;
    if (r.kind == model::FamilyKind::EngineCutlass) {
      EXPECT_NE(r.mirrors.find("vLLM"), std::string_view::npos) << r.mirrors;
      EXPECT_NE(r.mirrors.find("SGLang"), std::string_view::npos) << r.mirrors;
    }
  }
}

TEST(FamilyTable, FamiliesAndLookupsAreTheTable) {
  const auto rows = model::family_table();
  const auto fams = model::families();
  ASSERT_EQ(fams.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(fams[i], rows[i].family) << i;
    EXPECT_EQ(model::find_family(rows[i].family->name()), rows[i].family);
    EXPECT_EQ(model::find_family_row(rows[i].family->name()), &rows[i]);
  }
  EXPECT_EQ(model::find_family("no_such_family"), nullptr);
  EXPECT_EQ(model::find_family_row("no_such_family"), nullptr);
}

// The kind agrees with what the rest of the model says about a family: the engine families are
// the ones engine_family_for names (one per launcher architecture), the Triton families are never
// inferred from a config's types (a config names them).
TEST(FamilyTable, KindsAgreeWithTheModel) {
  std::set<std::string_view> engines;
  for (int sm : {89, 90, 100, 120}) engines.insert(model::engine_family_for(sm));
  for (const model::FamilyRow& r : model::family_table()) {
    const std::string_view name = r.family->name();
    SCOPED_TRACE(std::string(name));
    EXPECT_EQ(r.kind == model::FamilyKind::EngineCutlass, engines.count(name) == 1);
    if (r.kind == model::FamilyKind::Triton) {
      model::KernelConfig cfg;
      for (int sm : model::family_archs(*r.family)) EXPECT_FALSE(r.family->claims(cfg, sm)) << sm;
    }
  }
  EXPECT_EQ(model::kind_name(model::FamilyKind::Cutlass), "CUTLASS");
  EXPECT_EQ(model::kind_name(model::FamilyKind::EngineCutlass), "engine CUTLASS");
  EXPECT_EQ(model::kind_name(model::FamilyKind::Triton), "Triton");
}

TEST(FamilyTable, ArchsAreWhereTheKernelsRun) {
  for (const model::FamilyRow& r : model::family_table()) {
    const std::vector<int> archs = model::family_archs(*r.family);
    const std::set<int> in(archs.begin(), archs.end());
    for (const model::ArchInfo& a : model::builtin_archs())
      EXPECT_EQ(in.count(a.limits.sm) == 1, r.family->runs_on(a.limits.sm))
          << r.family->name() << " sm_" << a.limits.sm;
  }
  EXPECT_EQ(arch_list(model::family_archs(*model::find_family("engine_fp8_sm89"))), "sm_89");
  EXPECT_EQ(arch_list(model::family_archs(*model::find_family("sm90_tma_ws"))), "sm_90");
  EXPECT_EQ(arch_list(model::family_archs(*model::find_family("sm120_dense"))), "sm_120, sm_121");
  EXPECT_EQ(arch_list(model::family_archs(*model::find_family("sm100_umma"))),
            "sm_100, sm_103, sm_110");
}

// ---- tilefit families -----------------------------------------------------------------------

TEST(FamiliesCommand, TextIsUnchanged) {
  const auto r = test::run_in_process({"families"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  const std::string golden = test::data_path("golden/families.txt");
  if (std::getenv("TILEFIT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(golden, std::ios::binary) << r.out;
    return;
  }
  EXPECT_EQ(r.out, test::read_file(golden)) << "golden families.txt differs";
  // One line per row of the table, in its order.
  std::istringstream lines(r.out);
  std::string line;
  std::size_t i = 0;
  for (; std::getline(lines, line); ++i) {
    ASSERT_LT(i, model::family_table().size());
    EXPECT_EQ(line.rfind(std::string(model::family_table()[i].family->name()) + " ", 0), 0u)
        << line;
  }
  EXPECT_EQ(i, model::family_table().size());
}

TEST(FamiliesCommand, JsonIsTheTable) {
  const auto r = test::run_in_process({"families", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_TRUE(j["families"].is_array());
  const auto rows = model::family_table();
  ASSERT_EQ(j["families"].size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& f = j["families"][i];
    SCOPED_TRACE(f.dump());
    std::vector<std::string> keys;
    for (const auto& [k, v] : f.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"archs", "description", "kind", "mirrors", "name"}));
    EXPECT_EQ(f["name"], std::string(rows[i].family->name()));
    EXPECT_EQ(f["kind"], std::string(model::kind_name(rows[i].kind)));
    EXPECT_EQ(f["description"], std::string(rows[i].family->description()));
    EXPECT_EQ(f["mirrors"], std::string(rows[i].mirrors));
    std::vector<std::string> archs;
    for (int sm : model::family_archs(*rows[i].family)) archs.push_back(model::arch_name(sm));
    EXPECT_EQ(f["archs"].get<std::vector<std::string>>(), archs);
  }
  // The fields in the order a reader meets them.
  const auto ordered = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> order;
  for (const auto& [k, v] : ordered["families"][0].items()) order.push_back(k);
  EXPECT_EQ(order, (std::vector<std::string>{"name", "kind", "description", "archs", "mirrors"}));
  EXPECT_EQ(j["families"][0]["name"], "engine_fp8_sm89");
  EXPECT_EQ(j["families"][0]["kind"], "engine CUTLASS");
  EXPECT_EQ(j["families"][0]["archs"], nlohmann::json::array({"sm_89"}));
}

TEST(FamiliesCommand, TableIsTheDefaultAndOtherFormatsAreUsageErrors) {
  EXPECT_EQ(test::run_in_process({"families", "--format", "table"}).out,
            test::run_in_process({"families"}).out);
  const auto r = test::run_in_process({"families", "--format", "csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  // The CLI's usage error: one error line, then where the usage is.
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "error: --format: csv not in {table,json}") << r.err;
}

// ---- the reference --------------------------------------------------------------------------

/// The cells of a Markdown table row ("| a | b |"), trimmed; `\|` is a pipe inside a cell.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

/// The rows of the first table under `# Kernel families` of the reference (generated from
/// `tilefit families --format json` by tools/docs/gen_reference.py; header first, separator
/// dropped).
std::vector<std::vector<std::string>> reference_family_table() {
  std::istringstream in(test::read_file(test::source_path("docs/reference/families.md")));
  std::string line;
  while (std::getline(in, line) && line != "# Kernel families") {
  }
  std::vector<std::vector<std::string>> rows;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) break;
    if (line.rfind("|", 0) == 0) {
      in_table = true;
      if (line.rfind("|---", 0) != 0) rows.push_back(cells(line));
    } else if (in_table) {
      break;
    }
  }
  return rows;
}

TEST(FamilyTable, ReferenceListsExactlyTheFamilies) {
  const auto rows = reference_family_table();
  ASSERT_FALSE(rows.empty()) << "docs/reference/families.md: no table under \"# Kernel families\"";
  EXPECT_EQ(rows[0], (std::vector<std::string>{"family", "kind", "runs on", "what is modelled"}));
  const auto table = model::family_table();
  ASSERT_EQ(rows.size() - 1, table.size())
      << "docs/reference/families.md's table has " << rows.size() - 1 << " rows, the family table "
      << table.size();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& row = rows[i + 1];
    ASSERT_EQ(row.size(), 4u) << "docs/reference/families.md family row " << i;
    const model::FamilyRow& r = table[i];
    EXPECT_EQ(row[0], "`" + std::string(r.family->name()) + "`")
        << "row " << i << ": in inference order";
    EXPECT_EQ(row[1], model::kind_name(r.kind)) << r.family->name();
    EXPECT_EQ(row[2], arch_list(model::family_archs(*r.family))) << r.family->name();
    EXPECT_FALSE(row[3].empty()) << r.family->name();
  }
}

// The reference's rows are split as Markdown does: escaped pipes stay in their cell.
TEST(FamilyTable, ReferenceCellsParse) {
  EXPECT_EQ(cells("| `a` | CUTLASS | sm_90 | x \\| y |"),
            (std::vector<std::string>{"`a`", "CUTLASS", "sm_90", "x | y"}));
  EXPECT_EQ(cells("| a |  |"), (std::vector<std::string>{"a", ""}));
}

}  // namespace
}  // namespace tilefit
