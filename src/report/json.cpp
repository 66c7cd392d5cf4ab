#include "tilefit/report/json.hpp"

#include "report/json_fields.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::report {

using nlohmann::ordered_json;

namespace {

bool has_value(const model::Diagnostic& d, std::string_view key) {
  for (const model::DiagValue& v : d.values)
    if (v.key == key) return true;
  return false;
}

}  // namespace

void add_limits(ordered_json& j, const model::Limits& lim) {
  emit::JsonTree t(j);
  emit::limits_members(t, lim);
}

ordered_json limits_json(const model::Limits& lim) {
  emit::JsonTree t;
  t.begin_object();
  t.key("sm"), t.value(lim.sm);
  emit::limits_members(t, lim);
  t.end();
  return t.take();
}

ordered_json target_json(const analysis::Target& target) {
  emit::JsonTree t;
  emit::target(t, target);
  return t.take();
}

ordered_json diagnostic_json(const model::Diagnostic& d) {
  ordered_json j;
  j["code"] = std::string(model::code_name(d.code));
  j["severity"] = std::string(model::severity_name(d.severity));
  j["message"] = message(d);
  for (const model::DiagValue& v : d.values) {
    const std::string key(v.key);
    switch (v.kind) {
      case model::ValueKind::bytes:
        // The house rule: a byte count's key ends in _bytes. A value the model names otherwise
        // ("builder_capacity") goes under "<key>_bytes" (schema version 2 had the old key too).
        j[key.ends_with("_bytes") || has_value(d, key + "_bytes") ? key : key + "_bytes"] =
            v.number;
        break;
      case model::ValueKind::integer:
      case model::ValueKind::stages:
        j[key] = v.number;
        break;
      case model::ValueKind::flag:
        j[key] = v.number != 0;
        break;
      default:
        j[key] = value_text(v);
        break;
    }
  }
  return j;
}

ordered_json breakdown_json(const model::Field& f) {
  emit::JsonTree t;
  emit::breakdown(t, f);
  return t.take();
}

}  // namespace tilefit::report
