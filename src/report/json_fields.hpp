// The JSON fields shared by several reports, written once for both emitters of
// report/json_emit.hpp (the nlohmann tree and the streamed text): a target's limits, a target, a
// breakdown (the limits from their column model, report/limit_columns.hpp). report/json.cpp builds the trees the other reports use from these.
#pragma once

#include <string_view>

#include "report/json_emit.hpp"
#include "report/limit_columns.hpp"
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

}  // namespace tilefit::report::emit
