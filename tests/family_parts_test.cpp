// A family is one folder and one row: for every row of the family table, the family's folder
// (src/model/families/<family>/) holds its rules (family.cpp) and its diagnostic codes with their
// message templates (diagnostics.def, opening with its section); the row names that section and
// the shared ones it also reports; every code the family owns renders from its declared keys
// alone; its codes are in the diagnostics reference's table for it; and some measured row or golden names it.
// Fails when a family lacks a part.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family_table.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

namespace fs = std::filesystem;
using model::Code;

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string folder_of(std::string_view family) {
  return test::source_path("src/model/families/" + std::string(family));
}

/// The placeholders of a template: "key" or "key:format" ({{ and }} are not placeholders).
std::vector<std::string> placeholders(std::string_view t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if ((t[i] == '{' || t[i] == '}') && i + 1 < t.size() && t[i + 1] == t[i]) {
      ++i;
      continue;
    }
    if (t[i] != '{') continue;
    const std::size_t close = t.find('}', i);
    if (close == std::string_view::npos) {
      out.push_back(std::string(t.substr(i)));  // unterminated: reported as an unknown key
      break;
    }
    out.push_back(std::string(t.substr(i + 1, close - i - 1)));
    i = close;
  }
  return out;
}

/// The diagnostics reference (docs/reference/diagnostics.md, generated from the .def files).
std::string reference_diagnostics() {
  return test::read_file(test::source_path("docs/reference/diagnostics.md"));
}

/// The rows of the reference's table headed **`name`** (up to the next bold heading).
std::string reference_table(const std::string& section, std::string_view name) {
  const std::string head = "\n**" + std::string(name) + "**\n";
  const std::size_t begin = section.find(head);
  if (begin == std::string::npos) return "";
  const std::size_t end = section.find("\n**", begin + head.size());
  return section.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// Every measured/ground-truth row and golden that names `family`: by name (a family field, a
/// Triton kernel, a `family` column), or for an engine family a row with a launcher on one of
/// its architectures. families.txt lists every family and does not count.
int mentions(std::string_view family) {
  int n = 0;
  const std::string quoted = "\"" + std::string(family) + "\"";
  for (const auto& e : fs::directory_iterator(test::data_path(""))) {
    if (e.path().extension() != ".jsonl") continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      if (line.find(quoted) != std::string::npos) {
        ++n;
        continue;
      }
      if (line.find("\"launcher\"") == std::string::npos) continue;
      const auto row = nlohmann::json::parse(line, nullptr, false);
      if (row.is_discarded() || !row.contains("config") || !row["config"].contains("arch"))
        continue;
      const std::string arch = row["config"]["arch"].get<std::string>();
      if (arch.rfind("sm_", 0) == 0 &&
          model::engine_family_for(std::stoi(arch.substr(3))) == family)
        ++n;
    }
  }
  for (const auto& e : fs::directory_iterator(test::data_path("golden"))) {
    if (e.path().filename() == "families.txt") continue;
    if (test::read_file(e.path().string()).find(std::string(family)) != std::string::npos) ++n;
  }
  return n;
}

TEST(FamilyParts, EveryRowHasItsFolderAndParts) {
  ASSERT_FALSE(model::family_table().empty());
  for (const model::FamilyRow& r : model::family_table()) {
    const std::string name(r.family->name());
    SCOPED_TRACE(name);
    const std::string folder = folder_of(name);
    EXPECT_TRUE(fs::is_directory(folder)) << folder;
    EXPECT_TRUE(fs::is_regular_file(folder + "/family.cpp"))
        << "no rules: " << folder << "/family.cpp";
    const std::string def = folder + "/diagnostics.def";
    ASSERT_TRUE(fs::is_regular_file(def)) << "no diagnostics: " << def;
    EXPECT_NE(test::read_file(def).find("TILEFIT_DIAGNOSTIC_SECTION(" + name + ")"),
              std::string::npos)
        << def << " does not open the section " << name;
    EXPECT_EQ(r.diagnostics, name) << "the row names another section";
    EXPECT_FALSE(model::section_codes(r.diagnostics).empty())
        << "the family owns no diagnostic code";
    for (const std::string& shared : words(r.shared_diagnostics))
      EXPECT_FALSE(model::section_codes(shared).empty()) << "no section " << shared;
    EXPECT_FALSE(r.family->description().empty());
    EXPECT_FALSE(r.mirrors.empty());
    EXPECT_FALSE(model::family_archs(*r.family).empty()) << "runs on no built-in architecture";
  }
}

TEST(FamilyParts, EveryFolderHasARow) {
  for (const auto& e : fs::directory_iterator(test::source_path("src/model/families"))) {
    if (!e.is_directory()) continue;
    EXPECT_NE(model::find_family_row(e.path().filename().string()), nullptr)
        << e.path() << " is a family folder without a row in family_registry.cpp";
  }
}

// Each code has a message: a template whose placeholders are declared keys with a known format,
// or a phrasing function; rendered with every declared key set, nothing is "?". Every code is in
// one of the sections: common, a shared rule library's, a family's.
TEST(FamilyParts, EveryOwnedCodeRendersFromItsDeclaredKeys) {
  std::vector<std::string_view> sections = {
      "common",     "sm120",         "triton", "amd_triton", "triton_attention_kernel",
      "engine_fp8", "engine_tables", "amd"};
  for (const model::FamilyRow& r : model::family_table()) sections.push_back(r.diagnostics);
  std::size_t owned = 0;
  for (const std::string_view section : sections) {
    for (const Code c : model::section_codes(section)) {
      ++owned;
      const std::string name(model::code_name(c));
      SCOPED_TRACE(name);
      const model::MessageSpec m = model::code_message(c);
      ASSERT_TRUE(m.phrase != nullptr || !m.text.empty()) << "no message template";
      const std::vector<std::string> keys = words(model::code_keys(c));
      const std::set<std::string> declared(keys.begin(), keys.end());
      if (!m.phrase)
        for (const std::string& p : placeholders(m.text)) {
          const std::size_t colon = p.find(':');
          EXPECT_EQ(declared.count(p.substr(0, colon)), 1u) << "undeclared key {" << p << "}";
          if (colon != std::string::npos) {
            EXPECT_TRUE(p.substr(colon + 1) == "B" || p.substr(colon + 1) == "stages")
                << "unknown format {" << p << "}";
          }
        }
      // As integers (0 and 1, so both phrasings of a flag) and as names.
      for (int variant = 0; variant < 3; ++variant) {
        model::Diagnostic d(c);
        for (const std::string& k : keys) {
          if (variant == 2)
            d.name(k, "x");
          else
            d.integer(k, variant);
        }
        const std::string text = report::message(d);
        EXPECT_FALSE(text.empty());
        EXPECT_EQ(text.find('?'), std::string::npos) << text;
      }
    }
  }
  EXPECT_EQ(owned, model::all_codes().size())
      << "a code in a section that is neither common, a shared library's nor a family's";
}

TEST(FamilyParts, ReferenceHasATableOfEachFamilysCodes) {
  const std::string section = reference_diagnostics();
  ASSERT_FALSE(section.empty()) << "no docs/reference/diagnostics.md";
  for (const model::FamilyRow& r : model::family_table()) {
    SCOPED_TRACE(std::string(r.diagnostics));
    const std::string table = reference_table(section, r.diagnostics);
    ASSERT_FALSE(table.empty()) << "docs/reference/diagnostics.md has no table **" << r.diagnostics
                                << "**";
    for (const Code c : model::section_codes(r.diagnostics))
      EXPECT_NE(table.find("| `" + std::string(model::code_name(c)) + "` | " +
                           std::string(model::severity_name(model::code_severity(c))) + " |"),
                std::string::npos)
          << model::code_name(c) << " is not in the reference's table for " << r.diagnostics;
  }
}

TEST(FamilyParts, SomeMeasuredRowOrGoldenNamesEveryFamily) {
  for (const model::FamilyRow& r : model::family_table())
    EXPECT_GT(mentions(r.family->name()), 0) << r.family->name() << ": no measured row or golden";
}

}  // namespace
}  // namespace tilefit
