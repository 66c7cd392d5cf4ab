// `tilefit schema`: the config schema accepts every shipped config file and rejects unknown
// fields; `check --format json` and `suggest --format json` output validates against the results
// schema. Validation is a small draft 2020-12 validator below, which refuses any keyword it does
// not implement (so a schema cannot pass by using keywords nobody checks).
// scripts/validate_schema.py cross-checks the same with the Python `jsonschema` package.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/report/schema.hpp"

namespace tilefit {
namespace {

using nlohmann::ordered_json;

/// The draft 2020-12 subset tilefit's schemas use. validate() returns the first violation as
/// "<json pointer>: <what>", or "" when `v` is valid.
class Validator {
 public:
  explicit Validator(ordered_json root) : root_(std::move(root)) {}

  std::string validate(const ordered_json& v) const { return check(root_, v, ""); }

 private:
  ordered_json root_;
  mutable std::map<std::string, std::regex> regexes_;

  const std::regex& regex(const std::string& pattern) const {
    auto it = regexes_.find(pattern);
    if (it == regexes_.end())
      it = regexes_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    return it->second;
  }

  static bool is_type(const ordered_json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "integer")
      return v.is_number_integer() ||
             (v.is_number_float() && v.get<double>() == static_cast<long long>(v.get<double>()));
    if (t == "number") return v.is_number();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    throw std::runtime_error("unknown type " + t);
  }

  const ordered_json& resolve(const std::string& ref) const {
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0) throw std::runtime_error("unsupported $ref " + ref);
    return root_.at("$defs").at(ref.substr(prefix.size()));
  }

  std::string check(const ordered_json& s, const ordered_json& v, const std::string& at) const {
    static const std::set<std::string> kAnnotations = {
        "$schema", "$id", "title", "description", "examples", "$defs", "deprecated"};
    static const std::set<std::string> kKnown = {"type",
                                                 "enum",
                                                 "const",
                                                 "pattern",
                                                 "minimum",
                                                 "maximum",
                                                 "minItems",
                                                 "maxItems",
                                                 "items",
                                                 "properties",
                                                 "required",
                                                 "additionalProperties",
                                                 "patternProperties",
                                                 "anyOf",
                                                 "$ref"};
    for (auto it = s.begin(); it != s.end(); ++it)
      if (!kAnnotations.count(it.key()) && !kKnown.count(it.key()))
        throw std::runtime_error("the test validator does not implement \"" + it.key() + "\"");
    auto fail = [&](const std::string& what) { return (at.empty() ? "/" : at) + ": " + what; };

    if (s.contains("$ref"))
      if (std::string e = check(resolve(s["$ref"]), v, at); !e.empty()) return e;
    if (s.contains("type")) {
      bool ok = false;
      if (s["type"].is_array()) {
        for (const auto& t : s["type"]) ok = ok || is_type(v, t);
      } else {
        ok = is_type(v, s["type"]);
      }
      if (!ok) return fail("not of type " + s["type"].dump());
    }
    if (s.contains("enum")) {
      bool ok = false;
      for (const auto& e : s["enum"]) ok = ok || e == v;
      if (!ok) return fail(v.dump() + " is not one of " + s["enum"].dump());
    }
    if (s.contains("const") && s["const"] != v)
      return fail(v.dump() + " is not " + s["const"].dump());
    if (s.contains("pattern") && v.is_string() &&
        !std::regex_search(v.get<std::string>(), regex(s["pattern"].get<std::string>())))
      return fail(v.dump() + " does not match " + s["pattern"].get<std::string>());
    if (v.is_number()) {
      if (s.contains("minimum") && v.get<double>() < s["minimum"].get<double>())
        return fail("below minimum");
      if (s.contains("maximum") && v.get<double>() > s["maximum"].get<double>())
        return fail("above maximum");
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
        return fail("too few items");
      if (s.contains("maxItems") && v.size() > s["maxItems"].get<std::size_t>())
        return fail("too many items");
      if (s.contains("items"))
        for (std::size_t i = 0; i < v.size(); ++i)
          if (std::string e = check(s["items"], v[i], at + "/" + std::to_string(i)); !e.empty())
            return e;
    }
    if (v.is_object()) {
      if (s.contains("required"))
        for (const auto& k : s["required"])
          if (!v.contains(k.get<std::string>())) return fail("missing " + k.dump());
      for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string where = at + "/" + it.key();
        bool matched = false;
        if (s.contains("properties") && s["properties"].contains(it.key())) {
          matched = true;
          if (std::string e = check(s["properties"][it.key()], it.value(), where); !e.empty())
            return e;
        }
        if (s.contains("patternProperties"))
          for (auto p = s["patternProperties"].begin(); p != s["patternProperties"].end(); ++p)
            if (std::regex_search(it.key(), regex(p.key()))) {
              matched = true;
              if (std::string e = check(p.value(), it.value(), where); !e.empty()) return e;
            }
        if (!matched && s.contains("additionalProperties")) {
          const ordered_json& ap = s["additionalProperties"];
          if (ap.is_boolean()) {
            if (!ap.get<bool>()) return fail("unknown member \"" + it.key() + "\"");
          } else if (std::string e = check(ap, it.value(), where); !e.empty()) {
            return e;
          }
        }
      }
    }
    if (s.contains("anyOf")) {
      std::string first;
      for (const auto& sub : s["anyOf"]) {
        const std::string e = check(sub, v, at);
        if (e.empty()) return "";
        if (first.empty()) first = e;
      }
      return fail("matches no alternative (first: " + first + ")");
    }
    return "";
  }
};

ordered_json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return ordered_json::parse(in);
}

TEST(Schema, TheValidatorRejectsWhatItShould) {
  const ordered_json s =
      ordered_json::parse(R"({"type": "object", "properties": {"a": {"type": "integer",
      "minimum": 1}, "b": {"anyOf": [{"type": "string", "pattern": "^x+$"}, {"type": "null"}]}},
      "required": ["a"], "additionalProperties": false})");
  const Validator v(s);
  EXPECT_EQ(v.validate(ordered_json::parse(R"({"a": 1, "b": "xx"})")), "");
  EXPECT_EQ(v.validate(ordered_json::parse(R"({"a": 1, "b": null})")), "");
  EXPECT_NE(v.validate(ordered_json::parse(R"({"a": 0})")), "");
  EXPECT_NE(v.validate(ordered_json::parse(R"({"b": "x"})")), "");
  EXPECT_NE(v.validate(ordered_json::parse(R"({"a": 1, "b": "y"})")), "");
  EXPECT_NE(v.validate(ordered_json::parse(R"({"a": 1, "c": 2})")), "");
  EXPECT_THROW(Validator(ordered_json::parse(R"({"oneOf": []})")).validate(1), std::runtime_error);
}

TEST(Schema, EveryShippedConfigValidates) {
  const ordered_json schema = report::config_schema();
  EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  const Validator v(schema);
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(test::source_path("configs")))) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_EQ(v.validate(read_json(entry.path())), "") << entry.path();
    ++files;
  }
  EXPECT_GE(files, 10);
  // The tuned tables written for the tests (vLLM's and SGLang's format).
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(test::source_path("tests/data/tuned"))))
    if (entry.path().extension() == ".json") {
      EXPECT_EQ(v.validate(read_json(entry.path())), "") << entry.path();
      ++files;
    }
  // The consumer project's configs too.
  EXPECT_EQ(v.validate(read_json(
                std::filesystem::path(test::source_path("tests/consumer/finalize.json")))),
            "");
}

TEST(Schema, EveryMeasuredConfigValidates) {
  const Validator v(report::config_schema());
  int n = 0;
  for (const char* f :
       {"cutlass-4.7.jsonl", "measured-sm80.jsonl", "measured-sm100.jsonl",
        "measured-sm120-sm90.jsonl", "fp8-engines-cutlass-4.7.jsonl", "measured-fp8-engines.jsonl"})
    for (const auto& row : test::load_rows(f)) {
      ordered_json file = ordered_json::object();
      file["configs"] = ordered_json::array();
      file["configs"].push_back(ordered_json::parse(row.config.dump()));
      EXPECT_EQ(v.validate(file), "") << row.config.dump();
      ++n;
    }
  EXPECT_GE(n, 488);
}

TEST(Schema, UnknownFieldsAndBadValuesDoNotValidate) {
  const Validator v(report::config_schema());
  auto with = [](const char* config) {
    return ordered_json::parse(std::string(R"({"configs": [)") + config + "]}");
  };
  EXPECT_EQ(v.validate(with(R"({"arch": "SM_120a", "tile": "CtaShape128x256x64B", "dtype": "NVFP4",
      "epilogue": {"variant": "finalize", "tile": [64, 32]}, "stages": "auto", "grouped": true})")),
            "");
  EXPECT_EQ(v.validate(with(
                R"({"arch": 90, "tile": [128, 128, 64], "schedule": "Cooperative", "c": null})")),
            "");
  EXPECT_EQ(
      v.validate(with(
          R"("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8")")),
      "");
  EXPECT_NE(v.validate(with(R"({"arch": "sm_120", "tile": [128, 128, 64], "stage": 2})")),
            "");                                             // unknown field
  EXPECT_NE(v.validate(with(R"({"arch": "sm_120"})")), "");  // no tile
  EXPECT_NE(v.validate(with(R"({"arch": "sm_77", "tile": [128, 128, 64]})")),
            "");  // not in the table
  EXPECT_NE(v.validate(with(R"({"arch": "sm_90", "tile": [128, 0, 64]})")), "");  // zero extent
  EXPECT_NE(v.validate(with(R"({"arch": "sm_90", "tile": [128, 128, 64], "dtype": "nvfp5"})")), "");
  EXPECT_NE(v.validate(with(
                R"({"arch": "sm_90", "tile": [128, 128, 64], "epilogue": {"varient": "tma"}})")),
            "");
  EXPECT_NE(v.validate(ordered_json::parse(R"({"configs": [], "extra": 1})")), "");
}

TEST(Schema, EveryVocabularyFieldIsInTheSchema) {
  const ordered_json s = report::config_schema();
  for (const io::FieldSpec& f : io::config_fields())
    EXPECT_TRUE(s["$defs"]["config"]["properties"].contains(std::string(f.name))) << f.name;
  for (const io::FieldSpec& f : io::epilogue_fields())
    EXPECT_TRUE(s["$defs"]["epilogue"]["properties"].contains(std::string(f.name))) << f.name;
}

std::string run_tool(const std::string& args) { return test::run_command(args).out; }

TEST(Schema, CheckAndSuggestOutputValidates) {
  const Validator v(report::results_schema());
  const std::string configs = test::source_path("configs");
  const std::string errors = test::source_path("tests/data/errors");
  for (const std::string& args :
       {"check " + configs + "/*.json --builtin --format json",
        "check " + configs + "/sm90_hopper.json --arch sm_90,sm_120 --format json",
        "check " + configs + "/sm120_moe_finalize.json --arch sm120 --format json",
        "check " + errors + "/mixed_good_bad.json --arch sm120 --format json",
        "suggest " + configs + "/sm120_moe_finalize.json --format json"}) {
    const std::string out = run_tool(args);
    ASSERT_FALSE(out.empty()) << args;
    const ordered_json j = ordered_json::parse(out);
    EXPECT_FALSE(j["results"].empty()) << args;
    EXPECT_EQ(v.validate(j), "") << args;
  }
  // A result with a member the schema does not list is refused.
  ordered_json j =
      ordered_json::parse(run_tool("check " + configs + "/sm120_moe_finalize.json --format json"));
  j["results"][0]["smem"] = 1;
  EXPECT_NE(v.validate(j), "");
}

TEST(Schema, TheCommandPrintsBoth) {
  EXPECT_EQ(ordered_json::parse(run_tool("schema")), report::config_schema());
  EXPECT_EQ(ordered_json::parse(run_tool("schema config")), report::config_schema());
  EXPECT_EQ(ordered_json::parse(run_tool("schema results")), report::results_schema());
}

}  // namespace
}  // namespace tilefit
