// The one JSON writer for what several reports share: the schema version, limits, targets,
// breakdowns and diagnostics. Every report (check, device, probe, archs) writes these through
// here, so a field has one name and one form everywhere. Sample:
//
//   "target": {"source": "device", "device": 0, "device_name": "NVIDIA H200", "arch": "sm_90",
//              "optin_per_block_bytes": 232448, "per_sm_bytes": 233472, ...}
//   "diagnostics": [{"code": "over_limit_initialize", "severity": "error", "message": "...",
//                    "stages": 3, "builder_pick": true, "smem_bytes": 102400, ...}]
#pragma once

#include <nlohmann/json.hpp>

#include "tilefit/analysis/target.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::report {

/// The version of the JSON documents tilefit writes with results or limits (check, suggest,
/// sweep, device, probe, archs; `families` keeps its own, report/families_report.cpp).
/// Additions (new fields, new diagnostic codes) keep it; a change of meaning or a removal
/// raises it. 2: every byte count's key ends in "_bytes" (optin_per_block_bytes, ...), the old
/// key kept beside it, same value, until 3. 3: the old keys of 2 are gone; a result's
/// `kernel_description` (was `cutlass_kernel`, kept beside it until 4) — docs/guide/results.md
/// "JSON schema versions".
inline constexpr int kSchemaVersion = 3;

/// Adds the Limits fields (report/limit_columns.hpp: optin_per_block_bytes, per_sm_bytes,
/// reserved_per_block_bytes, default_per_block_bytes, each after the key it replaces,
/// max_ctas_per_sm, regs_per_sm, threads_per_sm) to `j`.
void add_limits(nlohmann::ordered_json& j, const model::Limits& lim);

/// {"sm": 90, ...add_limits}.
nlohmann::ordered_json limits_json(const model::Limits& lim);

/// {"source", ["device", "device_name",] "arch", ...add_limits}.
nlohmann::ordered_json target_json(const analysis::Target& t);

/// {"code", "severity", "message", then every value by its key}: numbers stay numbers, flags
/// are booleans, archs "sm_90", types and names strings.
nlohmann::ordered_json diagnostic_json(const model::Diagnostic& d);

/// The breakdown as ordered {component: bytes}, zero parts omitted.
nlohmann::ordered_json breakdown_json(const model::Field& f);

}  // namespace tilefit::report
