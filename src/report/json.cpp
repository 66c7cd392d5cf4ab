#include "tilefit/report/json.hpp"

#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::report {

using nlohmann::ordered_json;

void add_limits(ordered_json& j, const model::Limits& lim) {
  j["optin_per_block"] = lim.optin_per_block;
  j["per_sm"] = lim.per_sm;
  j["reserved_per_block"] = lim.reserved_per_block;
  j["default_per_block"] = lim.default_per_block;
  j["max_ctas_per_sm"] = lim.max_ctas_per_sm;
  j["regs_per_sm"] = lim.regs_per_sm;
  j["threads_per_sm"] = lim.threads_per_sm;
}

ordered_json limits_json(const model::Limits& lim) {
  ordered_json j;
  j["sm"] = lim.sm;
  add_limits(j, lim);
  return j;
}

ordered_json target_json(const analysis::Target& t) {
  ordered_json j;
  j["source"] = std::string(analysis::source_name(t.source));
  if (t.source == analysis::Target::Source::device) {
    j["device"] = t.device;
    j["device_name"] = t.device_name;
  }
  j["arch"] = model::arch_name(t.limits.sm);
  add_limits(j, t.limits);
  return j;
}

ordered_json diagnostic_json(const model::Diagnostic& d) {
  ordered_json j;
  j["code"] = std::string(model::code_name(d.code));
  j["severity"] = std::string(model::severity_name(d.severity));
  j["message"] = message(d);
  for (const model::DiagValue& v : d.values) {
    const std::string key(v.key);
    switch (v.kind) {
      case model::ValueKind::integer:
      case model::ValueKind::bytes:
      case model::ValueKind::stages: j[key] = v.number; break;
      case model::ValueKind::flag: j[key] = v.number != 0; break;
      default: j[key] = value_text(v); break;
    }
  }
  return j;
}

ordered_json breakdown_json(const model::Field& f) {
  ordered_json j = ordered_json::object();
  for (int i = 0; i < model::kComponentCount; ++i) {
    if (f.parts[i] == 0) continue;
    j[std::string(model::component_key(static_cast<model::Component>(i)))] = f.parts[i];
  }
  return j;
}

}  // namespace tilefit::report
