// `tilefit schema config|results`: JSON Schemas (draft 2020-12) of config files and of the JSON
// results, generated from the sources the reader and the JSON reports use — the config vocabulary
// (io/vocabulary: fields, their kinds, allowed names with aliases), the built-in arch table, the
// model's component keys, diagnostic codes and statuses — so a schema cannot drift from the tool.
//
// The config schema is what an editor or a CI job validates a tile table with before tilefit
// runs; the reader stays the authority (it also checks what a schema cannot say, such as which
// fields combine). Values the reader takes in any case ("SM_90A", "Cooperative") are matched by
// case-insensitive patterns.
#pragma once

#include <nlohmann/json.hpp>

namespace tilefit::report {

/// The schema of a config file: {"configs": [...]} or a bare array of configs, each an object
/// (README "Config format") or a CUTLASS kernel name.
nlohmann::ordered_json config_schema();

/// The schema of `tilefit check --format json` (schema_version 3); a result of `suggest
/// --format json` is the same with "suggestions".
nlohmann::ordered_json results_schema();

}  // namespace tilefit::report
