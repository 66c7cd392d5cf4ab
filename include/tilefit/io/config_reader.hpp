// Reading tile configurations from JSON (../shared/docs/design.md, "Config file").
//
// A file is a JSON object {"configs": [...]} (other top-level keys: "$schema", "description",
// "comment"), a bare array of configs, or one config object (its first key a config field:
// {"arch": "sm_120", "tile": ...}; what sweep and suggest print as "config"). Every config is checked field by field; a config
// with any error is left out of `configs` and every one of its errors is reported, while the
// other configs are still returned: one bad config never hides the rest, and nothing is
// dropped without an error saying so.
//
// Errors (tilefit/io/config_error.hpp) read like (one line each; see format_error):
//   configs/x.json: config #2 "moe_big": field "tile": 0 is not a valid tile extent;
//     allowed: integers 1..65536 (or "MxNxK")
//   configs/x.json: not JSON: syntax error at line 3, column 7: unexpected '}'; expected
//     string literal
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/io/config_error.hpp"
#include "tilefit/io/input_limits.hpp"
#include "tilefit/io/loaded_config.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io {

/// Parses the text of one config file; `file_label` names it in errors and results.
LoadResult parse_configs(std::string_view text, const std::string& file_label);

/// The configs CUTLASS library kernel names stand for (`tilefit check --name NAME`), labelled
/// "--name" in errors and results.
LoadResult configs_from_names(const std::vector<std::string>& names);

/// Reads and parses `path` ("-" = standard input, labelled "<stdin>"). Missing, unreadable,
/// directory and oversized files give one file-level error.
LoadResult read_config_file(const std::string& path);

/// parse_configs that hands each config to `each` as soon as it is read instead of holding them
/// (memory: one config, whatever the file's size) and returns the errors. A first pass of the
/// parser alone makes sure the file cannot fail as a whole once configs were handed out; a file
/// that might (a syntax error, too deep, too many configs, ...) and a tuned table are read whole
/// first, exactly as parse_configs reads them. The configs and errors are parse_configs's.
std::vector<ConfigError> stream_configs(std::string_view text, const std::string& file_label,
                                        const std::function<void(LoadedConfig&&)>& each);

/// The same for a file (read_config_file's rules for `path`).
std::vector<ConfigError> stream_config_file(const std::string& path,
                                            const std::function<void(LoadedConfig&&)>& each);

}  // namespace tilefit::io
