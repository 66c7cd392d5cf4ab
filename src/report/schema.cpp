#include "tilefit/report/schema.hpp"

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/analysis/target.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/layout.hpp"
#include "tilefit/model/result.hpp"
#include "tilefit/report/json.hpp"
#include "report/limit_columns.hpp"
#include "report/result_columns.hpp"
#include "report/suggest_columns.hpp"

namespace tilefit::report {
namespace {

using io::FieldKind;
using nlohmann::ordered_json;

constexpr const char* kDraft = "https://json-schema.org/draft/2020-12/schema";

/// `s` as an ECMA-262 pattern that matches it in any case: "sm_90" -> "[sS][mM]_90".
std::string any_case(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalpha(c)) {
      out += '[';
      out += static_cast<char>(std::tolower(c));
      out += static_cast<char>(std::toupper(c));
      out += ']';
    } else if (std::isalnum(c) || ch == '_' || ch == '-') {
      out += ch;
    } else {
      out += '\\';
      out += ch;
    }
  }
  return out;
}

/// A string that is one of `names`, in any case.
ordered_json names_schema(const std::vector<std::string>& names) {
  std::string alt;
  for (const std::string& n : names) {
    if (!alt.empty()) alt += '|';
    alt += any_case(n);
  }
  return {{"type", "string"}, {"pattern", "^(?:" + alt + ")$"}, {"examples", names}};
}

ordered_json int_range(long long lo, long long hi) {
  return {{"type", "integer"}, {"minimum", lo}, {"maximum", hi}};
}

/// `n` extents, each 1..max: a list, or a string "AxB[xC]".
ordered_json extents_schema(int n, long long max) {
  std::string pattern = "^[0-9]+";
  for (int i = 1; i < n; ++i) pattern += "[xX][0-9]+";
  pattern += "$";
  return {{"anyOf",
           {{{"type", "array"}, {"items", int_range(1, max)}, {"minItems", n}, {"maxItems", n}},
            {{"type", "string"}, {"pattern", pattern}}}}};
}

/// The built-in table's archs in every form parse_arch reads: "sm90", "sm_90a", "compute_90",
/// "9.0", "90" (any case, optional a/f suffix), or the integer 90.
ordered_json arch_schema() {
  std::string alt;
  std::vector<long long> numbers;
  std::vector<std::string> examples;
  std::string amd;  // gfx942 and the product aliases: names only, never a number
  for (const model::ArchInfo& a : model::builtin_archs()) {
    const int sm = a.limits.sm;
    examples.push_back(model::arch_name(sm));
    if (a.vendor == model::Vendor::Amd) {
      amd += amd.empty() ? "" : "|";
      amd += any_case(model::arch_name(sm));
      for (std::string_view rest = a.aliases; !rest.empty();) {
        const std::size_t comma = rest.find(',');
        std::string_view one = rest.substr(0, comma);
        while (one.starts_with(' ')) one.remove_prefix(1);
        amd += "|";
        amd += any_case(one);
        rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
      }
      continue;
    }
    if (!alt.empty()) alt += '|';
    alt += std::to_string(sm) + "|" + std::to_string(sm / 10) + "\\." + std::to_string(sm % 10);
    numbers.push_back(sm);
  }
  const std::string prefix = "(?:" + any_case("compute_") + "|" + any_case("sm") + "_?)?";
  return {{"anyOf",
           {{{"type", "string"},
             {"pattern", "^(?:" + prefix + "(?:" + alt + ")[aAfF]?|" + amd + ")$"},
             {"examples", examples}},
            {{"type", "integer"}, {"enum", numbers}}}},
          {"description",
           "an architecture of the built-in table (AMD targets by name only: gfx942, mi300x, "
           "mi325x, gfx950, mi350x, mi355x)"}};
}

ordered_json kind_schema(FieldKind kind);

ordered_json object_of(std::span<const io::FieldSpec> fields, const char* required = nullptr) {
  ordered_json props = ordered_json::object();
  for (const io::FieldSpec& f : fields) {
    ordered_json p = kind_schema(f.kind);
    if (f.name == "dtype") {  // also the engines' quantisation names (triton_fused_moe,
                              // triton_block_matmul)
      std::vector<std::string> names = io::allowed_names(f.kind);
      for (const char* q :
           {"fp8_w8a8", "int8_w8a8", "int8_w8a16", "int4_w4a16", "fp8_w8a16", "float32"})
        names.emplace_back(q);
      p = names_schema(names);
    }
    p["description"] = io::field_meaning(f);
    props[std::string(f.name)] = std::move(p);
  }
  ordered_json o = {
      {"type", "object"}, {"properties", std::move(props)}, {"additionalProperties", false}};
  if (required) o["required"] = {required};
  return o;
}

ordered_json kind_schema(FieldKind kind) {
  using K = FieldKind;
  switch (kind) {
    case K::name:
    case K::text:
      return {{"type", "string"}};
    case K::arch:
      return arch_schema();
    case K::kernel:
    case K::operand:
    case K::element:
    case K::schedule:
    case K::epilogue_variant:
    case K::mma:
    case K::scale_type:
    case K::launcher:
    case K::engine_op:
    case K::attn_stage:
    case K::attn_phase:
    case K::attn_model:
    case K::attn_dtype:
      return names_schema(io::allowed_names(kind));
    case K::count0:
      return {{"type", "integer"}, {"minimum", 0}};
    case K::number:
      return {{"type", "number"}, {"minimum", 0}};
    case K::element_or_null:
    case K::bias:
      return {{"anyOf", {names_schema(io::allowed_names(kind)), {{"type", "null"}}}}};
    case K::tile:
      return {
          {"anyOf",
           {{{"type", "array"},
             {"items", int_range(1, model::kMaxTileExtent)},
             {"minItems", 3},
             {"maxItems", 3}},
            {{"type", "string"},
             {"pattern", "^(?:" + any_case("ctashape") + ")?[0-9]+[xX][0-9]+[xX][0-9]+[bB]?$"}}}}};
    case K::extents3:
      return extents_schema(3, model::kMaxTileExtent);
    case K::extents2:
      return extents_schema(2, model::kMaxTileExtent);
    case K::sf_vec:
      return {{"type", "integer"}, {"enum", {16, 32}}};
    case K::layout:
      return {{"type", "string"}, {"pattern", "^[tTnN]{2,3}$"}};
    case K::epilogue:
      return {{"anyOf", {names_schema(io::allowed_names(kind)), {{"$ref", "#/$defs/epilogue"}}}}};
    case K::boolean:
      return {{"type", "boolean"}};
    case K::stages:
      return {{"anyOf", {names_schema({"auto"}), int_range(1, model::kMaxStages)}}};
    case K::stage_count:
      return int_range(1, model::kMaxStages);
    case K::configs:
      return {{"type", "array"}, {"items", {{"$ref", "#/$defs/entry"}}}};
    case K::integer:
      return {{"type", "integer"}, {"minimum", 1}};
    case K::engine:
      return {{"type", "string"},
              {"pattern", "^(vllm|sglang)(@[0-9a-fA-F]{8,40})?$"},
              {"examples", io::allowed_names(kind)}};
    case K::version:
      return {{"type", "string"},
              {"pattern", "^[0-9]+\\.[0-9]+[!-~]*$"},
              {"examples", ordered_json::array({"3.6.0"})}};
    case K::tuned_launch:
      return object_of(io::tuned_launch_fields());
    case K::scale_block: {
      ordered_json ext = extents_schema(2, model::kMaxTileExtent);
      return {{"type", "object"},
              {"properties", {{"a", ext}, {"b", ext}}},
              {"additionalProperties", false}};
    }
  }
  return ordered_json::object();  // unreachable: every kind is handled above (-Wswitch)
}

/// The $defs both schemas share: a config, an entry of `configs`, the epilogue object.
ordered_json config_defs() {
  ordered_json defs = ordered_json::object();
  defs["config"] = object_of(io::config_fields());
  // Every config needs a tile but a triton_attention one (its shape is heads and head dims).
  defs["config"]["anyOf"] = {
      {{"required", {"tile"}}},
      {{"required", {"kernel"}}, {"properties", {{"kernel", {{"const", "triton_attention"}}}}}}};
  defs["config"]["description"] = "one kernel configuration (docs/guide/config.md)";
  defs["epilogue"] = object_of(io::epilogue_fields());
  defs["kernel_name"] = {{"type", "string"},
                         {"pattern", "^[A-Za-z0-9_]+$"},
                         {"description", "a CUTLASS library kernel name (docs/guide/cutlass.md)"}};
  defs["entry"] = {{"anyOf", {{{"$ref", "#/$defs/config"}}, {{"$ref", "#/$defs/kernel_name"}}}}};
  defs["tuned_entry"] = object_of(io::tuned_entry_fields());
  defs["tuned_entry"]["required"] = {"BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K"};
  defs["tuned_table"] = {{"type", "object"},
                         {"description",
                          "a vLLM / SGLang tuned fused-MoE table (E=…,N=…,device_name=….json): "
                          "batch sizes to entries"},
                         {"properties", {{"triton_version", kind_schema(FieldKind::version)}}},
                         {"patternProperties", {{"^[0-9]+$", {{"$ref", "#/$defs/tuned_entry"}}}}},
                         {"additionalProperties", false}};
  return defs;
}

ordered_json nullable(ordered_json s) { return {{"anyOf", {std::move(s), {{"type", "null"}}}}}; }

ordered_json enum_of(const std::vector<std::string>& names) {
  return {{"type", "string"}, {"enum", names}};
}

ordered_json strict_object(ordered_json props, bool all_required = true) {
  ordered_json o = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (all_required) {
    ordered_json req = ordered_json::array();
    for (auto it = props.begin(); it != props.end(); ++it) req.push_back(it.key());
    o["required"] = std::move(req);
  }
  return o;
}

/// A document of results: schema_version, tool, `command` (required, third, or else optional and
/// last), target and results (of the $defs named), errors, and a summary of `counts`.
ordered_json results_document(const char* command, bool command_required, const char* target,
                              const char* result, std::initializer_list<const char*> counts) {
  ordered_json summary = ordered_json::object();
  for (const char* c : counts) summary[c] = {{"type", "integer"}, {"minimum", 0}};
  ordered_json props = {{"schema_version", {{"const", kSchemaVersion}}},
                        {"tool", {{"const", "tilefit"}}}};
  if (command_required) props["command"] = {{"const", command}};
  props["target"] = {{"$ref", std::string("#/$defs/") + target}};
  props["results"] = {{"type", "array"}, {"items", {{"$ref", std::string("#/$defs/") + result}}}};
  props["errors"] = {{"type", "array"}, {"items", {{"$ref", "#/$defs/error"}}}};
  props["summary"] = strict_object(std::move(summary));
  ordered_json doc = strict_object(std::move(props));
  if (!command_required) doc["properties"]["command"] = {{"const", command}};
  return doc;
}

/// What the results schema needs to say a column's type: the statuses and the arch pattern.
struct ColumnTypes {
  ordered_json status;
  ordered_json arch;
};

/// The schema of a column (report/columns.hpp): its type, null when nullable, its description.
template <class Row>
ordered_json column_schema(const Column<Row>& c, const ColumnTypes& types) {
  using T = ColumnType;
  ordered_json s;
  switch (c.type) {
    case T::text:
      s = {{"type", "string"}};
      break;
    case T::integer:
      s = {{"type", "integer"}};
      break;
    case T::count:
      s = {{"type", "integer"}, {"minimum", 0}};
      break;
    case T::boolean:
      s = {{"type", "boolean"}};
      break;
    case T::arch:
      s = types.arch;
      break;
    case T::status:
      s = types.status;
      break;
    case T::tile:
      s = {{"type", "array"},
           {"items", {{"type", "integer"}, {"minimum", 1}}},
           {"minItems", 3},
           {"maxItems", 3}};
      break;
    case T::breakdown:
      s = {{"$ref", "#/$defs/breakdown"}};
      break;
    case T::target:
      s = {{"$ref", "#/$defs/target"}};
      break;
    case T::texts:
      s = {{"type", "array"}, {"items", {{"type", "string"}}}};
      break;
    case T::diagnostics:
      s = {{"type", "array"}, {"items", {{"$ref", "#/$defs/diagnostic"}}}};
      break;
    case T::object:
      s = {{"type", "object"}};
      break;
    case T::launches: {
      const ordered_json count = {{"type", "integer"}, {"minimum", 0}};
      s = {{"type", "array"},
           {"items",
            strict_object({{"stage", enum_of({"stage1", "stage2", "main", "reduce"})},
                           {"kernel", {{"type", "string"}}},
                           {"constexprs",
                            {{"type", "object"}, {"additionalProperties", {{"type", "number"}}}}},
                           {"num_warps", count},
                           {"num_stages", count},
                           {"smem_bytes", {{"type", {"integer", "null"}}, {"minimum", 0}}},
                           {"fits", {{"type", "boolean"}}},
                           {"invalid", {{"type", "boolean"}}},
                           {"stages_matter", {{"type", "boolean"}}}})}};
      break;
    }
    case T::engine:
      s = strict_object({{"name", enum_of({"vllm", "sglang"})},
                         {"commit", {{"type", "string"}, {"pattern", "^[0-9a-f]{40}$"}}}});
      break;
    case T::config:
      s = {{"$ref", "#/$defs/config"}};
      break;
    case T::positive:
      s = {{"type", "integer"}, {"minimum", 1}};
      break;
    case T::fits:
      s = enum_of({"fits"});
      break;
    case T::changes: {
      const ordered_json str = {{"type", "string"}};
      s = {{"type", "array"},
           {"items", strict_object({{"field", str}, {"from", str}, {"to", str}})}};
      break;
    }
  }
  if (c.nullable) s = nullable(std::move(s));
  s["description"] = std::string(c.description) + (c.unit == Unit::bytes ? " (bytes)" : "");
  return s;
}

/// The properties of the JSON columns of `set`, in order; each deprecated key before the key that
/// replaces it, marked deprecated.
template <class Row>
void add_column_props(ordered_json& props, std::span<const Column<Row>> set,
                      const ColumnTypes& types) {
  for (const Column<Row>& c : set) {
    if (!c.json) continue;
    ordered_json s = column_schema(c, types);
    if (!c.deprecated_key.empty()) {
      ordered_json old = s;
      old["description"] = "deprecated since schema_version " + std::to_string(kSchemaVersion) +
                           ": the same as \"" + std::string(c.key) +
                           "\", which replaces it; removed in schema_version " +
                           std::to_string(kSchemaVersion + 1);
      old["deprecated"] = true;
      props[std::string(c.deprecated_key)] = std::move(old);
    }
    props[std::string(c.key)] = std::move(s);
  }
}

/// The keys of `set` that every row has (a column with `shown` is not required), deprecated ones too.
template <class Row>
ordered_json required_keys(std::span<const Column<Row>> set) {
  ordered_json req = ordered_json::array();
  for (const Column<Row>& c : set) {
    if (!c.json || c.shown) continue;
    if (!c.deprecated_key.empty()) req.push_back(std::string(c.deprecated_key));
    req.push_back(std::string(c.key));
  }
  return req;
}

/// A config of a sweep file (tilefit/io/space.hpp): each field of `config` may also be an array of
/// its alternatives; "tile" also {"m": [...], "n": [...], "k": [...]}.
ordered_json space_schema(const ordered_json& config) {
  ordered_json space = config;
  for (auto it = space["properties"].begin(); it != space["properties"].end(); ++it) {
    ordered_json one = it.value();
    ordered_json description = one.contains("description") ? one["description"] : ordered_json();
    one.erase("description");
    ordered_json alternatives = {{"type", "array"}, {"items", one}, {"minItems", 1}};
    ordered_json any = {one, alternatives};
    if (it.key() == "tile") {
      const ordered_json extents = {
          {"anyOf",
           {int_range(1, model::kMaxTileExtent),
            {{"type", "array"}, {"items", int_range(1, model::kMaxTileExtent)}, {"minItems", 1}}}}};
      any.push_back({{"type", "object"},
                     {"properties", {{"m", extents}, {"n", extents}, {"k", extents}}},
                     {"required", {"m", "n", "k"}},
                     {"additionalProperties", false}});
    }
    it.value() = {{"anyOf", std::move(any)}};
    if (!description.is_null()) it.value()["description"] = std::move(description);
  }
  space["anyOf"] = {{{"required", {"tile"}}}, {{"required", {"kernel"}}}};
  space["description"] =
      "a config of a sweep file: any field may hold an array of alternatives (README \"Sweeps\")";
  return space;
}

}  // namespace

ordered_json config_schema() {
  ordered_json s;
  s["$schema"] = kDraft;
  s["$id"] = "urn:tilefit:schema:config:1";
  s["title"] = "tilefit config file";
  s["description"] =
      "GEMM tile configurations for `tilefit check`: an object with a \"configs\" array, a bare "
      "array, one config object, or a vLLM / SGLang tuned table; for `tilefit sweep` any config "
      "field may hold an array of alternatives (and \"tile\" {\"m\": [...], \"n\": [...], "
      "\"k\": [...]}). Generated by `tilefit schema config` from the reader's vocabulary.";
  // A file of configs, a bare array, one config object, a tuned table; a sweep file is the same
  // with arrays of alternatives in its configs (the "space" entries).
  ordered_json configs_file = object_of(io::file_fields(), "configs");
  configs_file["properties"]["configs"]["items"] = {{"$ref", "#/$defs/space_entry"}};
  s["anyOf"] = {configs_file,
                {{"type", "array"}, {"items", {{"$ref", "#/$defs/space_entry"}}}},
                {{"$ref", "#/$defs/space"}},
                {{"$ref", "#/$defs/tuned_table"}}};
  ordered_json defs = config_defs();
  defs["space"] = space_schema(defs["config"]);
  defs["space_entry"] = {{"anyOf",
                          {{{"$ref", "#/$defs/config"}},
                           {{"$ref", "#/$defs/kernel_name"}},
                           {{"$ref", "#/$defs/space"}}}}};
  s["$defs"] = std::move(defs);
  return s;
}

ordered_json results_schema() {
  std::vector<std::string> statuses, codes, components, modes, sources;
  for (const model::Status st :
       {model::Status::Fits, model::Status::DoesNotFit, model::Status::Invalid})
    statuses.emplace_back(model::status_name(st));
  for (const model::Code c : model::all_codes()) codes.emplace_back(model::code_name(c));
  for (int c = 0; c < model::kComponentCount; ++c)
    components.emplace_back(model::component_key(static_cast<model::Component>(c)));
  using Mode = analysis::TargetRequest::Mode;
  for (const Mode m : {Mode::per_config, Mode::arch, Mode::device, Mode::builtin})
    modes.emplace_back(analysis::mode_name(m));
  for (const auto src : {analysis::Target::Source::builtin, analysis::Target::Source::device})
    sources.emplace_back(analysis::source_name(src));

  ordered_json defs = config_defs();
  const ordered_json integer = {{"type", "integer"}};
  const ordered_json bytes = {{"type", "integer"}, {"minimum", 0}};
  const ordered_json string = {{"type", "string"}};
  // NVIDIA's sm_NN and AMD's gfxNNN (model::arch_name).
  const ordered_json arch = {{"type", "string"}, {"pattern", "^(?:sm_[0-9]+|gfx[0-9a-f]+)$"}};

  const ColumnTypes types{enum_of(statuses), arch};

  // A target (report/json.cpp target_json); `mode` only at the top level.
  ordered_json tprops = {
      {"source", enum_of(sources)}, {"device", integer}, {"device_name", string}, {"arch", arch}};
  add_column_props(tprops, limit_columns(), types);
  ordered_json target = strict_object(tprops, false);
  target["required"] = {"source", "arch"};
  for (const ordered_json& k : required_keys(limit_columns())) target["required"].push_back(k);
  defs["target"] = target;
  ordered_json run_target = target;
  run_target["properties"]["mode"] = enum_of(modes);
  run_target["required"] = {"mode"};
  defs["run_target"] = run_target;

  ordered_json breakdown_props = ordered_json::object();
  for (const std::string& c : components)
    breakdown_props[c] = {{"type", "integer"}, {"minimum", 1}};
  defs["breakdown"] = strict_object(breakdown_props, false);
  defs["breakdown"]["description"] = "bytes of each non-zero component; they sum to smem_bytes";

  defs["diagnostic"] = {
      {"type", "object"},
      {"properties",
       {{"code", enum_of(codes)},
        {"severity", enum_of({"error", "warning", "info"})},
        {"message", string}}},
      {"required", {"code", "severity", "message"}},
      {"additionalProperties", {{"type", {"integer", "boolean", "string"}}}},
      {"description",
       "a typed diagnostic: its code's values (bytes, stages, names) beside the sentence"}};

  // A suggestion (suggest --format json): its columns (report/suggest_columns.hpp), all required.
  ordered_json suggestion_props = ordered_json::object();
  add_column_props(suggestion_props, suggest_columns(), types);
  defs["suggestion"] = strict_object(suggestion_props);

  // A result: its columns (report/result_columns.hpp), all required but those a row may leave
  // out (`engine`).
  ordered_json result_props = ordered_json::object();
  add_column_props(result_props, result_columns(), types);
  ordered_json result = strict_object(result_props, false);
  result["required"] = required_keys(result_columns());
  result["properties"]["suggestions"] = {{"type", "array"},
                                         {"items", {{"$ref", "#/$defs/suggestion"}}}};
  defs["result"] = result;

  defs["error"] = strict_object({{"kind", enum_of({"input", "device"})},
                                 {"file", string},
                                 {"index", nullable({{"type", "integer"}, {"minimum", 0}})},
                                 {"config", string},
                                 {"field", string},
                                 {"message", string},
                                 {"text", string}});

  ordered_json s;
  s["$schema"] = kDraft;
  s["$id"] = "urn:tilefit:schema:results:" + std::to_string(kSchemaVersion);
  s["title"] = "tilefit results";
  s["description"] =
      "The output of `tilefit check --format json` (and `suggest --format json`, whose results "
      "carry "
      "\"suggestions\"), or of `tilefit sweep --format json` (\"command\": \"sweep\"). Generated "
      "by "
      "`tilefit schema results`.";
  ordered_json top = results_document("suggest", false, "run_target", "result",
                                      {"configs", "fits", "does_not_fit", "invalid", "errors"});
  // `tilefit check DIR`: the files of the folders that are not tuned tables (only when some are).
  top["properties"]["summary"]["properties"]["files_skipped"] = {{"type", "integer"},
                                                                 {"minimum", 1}};

  // `tilefit sweep --format json` (report/sweep_report.cpp JsonWriter): each result also carries
  // the alternatives it took and its concrete config; the summary counts candidates.
  ordered_json sweep_target = defs["run_target"];
  sweep_target["properties"]["archs"] = {{"type", "array"}, {"items", arch}, {"minItems", 1}};
  defs["sweep_target"] = sweep_target;
  ordered_json sweep_result = defs["result"];
  sweep_result["properties"].erase("suggestions");
  add_column_props(sweep_result["properties"], sweep_columns(), types);
  for (const ordered_json& k : required_keys(sweep_columns()))
    sweep_result["required"].push_back(k);
  defs["sweep_result"] = sweep_result;
  const ordered_json sweep =
      results_document("sweep", true, "sweep_target", "sweep_result",
                       {"candidates", "fits", "does_not_fit", "invalid", "listed", "errors"});
  s["anyOf"] = {top, sweep};
  s["$defs"] = std::move(defs);
  return s;
}

}  // namespace tilefit::report
