// The JSON fields shared by several reports, written once for both emitters of
// report/json_emit.hpp (the nlohmann tree and the streamed text): a target's limits, a target, a
// breakdown (the limits from their column model, report/limit_columns.hpp). report/json.cpp builds the trees the other reports use from these.
#pragma once

#include <string_view>

#include "report/json_emit.hpp"
#include "report/limit_columns.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/report/json.hpp"
#include "tilefit/analysis/target.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::report::emit {

/// The limit columns (report/limit_columns.hpp: optin_per_block_bytes, per_sm_bytes, ...,
/// threads_per_sm): members of the object being written.
template <class Out>
void limits_members(Out& o, const model::Limits& lim) {
  write_members(o, limit_columns(), lim);
}

/// source, [device, device_name,] arch and the limits: members of the object being written.
template <class Out>
void target_members(Out& o, const analysis::Target& t) {
  o.key("source"), o.value(analysis::source_name(t.source));
  if (t.source == analysis::Target::Source::device) {
    o.key("device"), o.value(t.device);
    o.key("device_name"), o.value(t.device_name);
  }
  o.key("arch"), o.value(model::arch_name(t.limits.sm));
  limits_members(o, t.limits);
}

template <class Out>
void target(Out& o, const analysis::Target& t) {
  o.begin_object();
  target_members(o, t);
  o.end();
}

/// {"A": bytes, ...}: the non-zero components, in component order.
template <class Out>
void breakdown(Out& o, const model::Field& f) {
  o.begin_object();
  for (int i = 0; i < model::kComponentCount; ++i) {
    if (f.parts[i] == 0) continue;
    o.key(model::component_key(static_cast<model::Component>(i)));
    o.value(f.parts[i]);
  }
  o.end();
}

/// A diagnostic as report::diagnostic_json builds it ({"code", "severity", "message", then each
/// value; a byte value whose key lacks "_bytes" also under "<key>_bytes"), written straight
/// through `o` (no tree built, then serialized: that was a sixth of `check --format json`'s
/// instructions over the engines' tuned folders). A diagnostic whose keys would repeat (the
/// tree keeps the first place and the last value) goes through the tree.
template <class Out>
void diagnostic(Out& o, const model::Diagnostic& d) {
  const auto& vs = d.values;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const std::string_view k = vs[i].key;
    bool repeated = k == "code" || k == "severity" || k == "message";
    for (std::size_t j = 0; j < i && !repeated; ++j) repeated = vs[j].key == k;
    if (repeated) {
      o.value(diagnostic_json(d));
      return;
    }
  }
  o.begin_object();
  o.key("code"), o.value(model::code_name(d.code));
  o.key("severity"), o.value(model::severity_name(d.severity));
  o.key("message"), o.value(message(d));
  for (const model::DiagValue& v : vs) {
    o.key(v.key);
    switch (v.kind) {
      case model::ValueKind::bytes: {
        o.value(static_cast<long long>(v.number));
        if (v.key.ends_with("_bytes")) break;
        const std::string alias = std::string(v.key) + "_bytes";
        bool taken = false;
        for (const model::DiagValue& w : vs) taken = taken || w.key == alias;
        if (!taken) o.key(alias), o.value(static_cast<long long>(v.number));
        break;
      }
      case model::ValueKind::integer:
      case model::ValueKind::stages:
        o.value(static_cast<long long>(v.number));
        break;
      case model::ValueKind::flag:
        o.value(v.number != 0);
        break;
      default:
        o.value(value_text(v));
        break;
    }
  }
  o.end();
}

}  // namespace tilefit::report::emit
