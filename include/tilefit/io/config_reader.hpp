// Reading tile configurations from JSON (../shared/docs/design.md, "Config file").
//
// A file is a JSON object {"configs": [...]} (other top-level keys: "$schema", "description",
// "comment"), a bare array of configs, or one config object (its first key a config field:
// {"arch": "sm_120", "tile": ...}; what sweep and suggest print as "config"). Every config is checked field by field; a config
// with any error is left out of `configs` and every one of its errors is reported, while the
// other configs are still returned: one bad config never hides the rest, and nothing is
// dropped without an error saying so.
//
// Errors read like (one line each; see format_error):
//   configs/x.json: config #2 "moe_big": field "tile": 0 is not a valid tile extent;
//     allowed: integers 1..65536 (or "MxNxK")
//   configs/x.json: not JSON: syntax error at line 3, column 7: unexpected '}'; expected
//     string literal
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/model/config.hpp"

namespace tilefit::io {

/// Input bounds; going past one is an error that names it (and the limit).
/// Largest config file read, in bytes (64 MiB); larger files are refused unread.
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{64} << 20;
/// Most configs in one file; a file with more is refused as a whole. The reader alone takes
/// about 2 us and 400 B per config (1e6 configs: 2.2 s, 400 MB), but `tilefit check
/// --format json` holds about 10 KB per result, so the limit keeps a whole run near 1 GB.
inline constexpr std::size_t kMaxConfigsPerFile = 100'000;
/// Deepest JSON nesting accepted (a config file needs 5 levels).
inline constexpr int kMaxJsonDepth = 64;
/// Most JSON values (scalars and containers) in one config; a real config has about 30.
inline constexpr std::size_t kMaxValuesPerConfig = 1000;
/// The same for one config of a sweep file, whose alternatives may be long lists.
inline constexpr std::size_t kMaxValuesPerSpace = 100'000;
/// Errors listed per file; past this, one last error counts the rest.
inline constexpr std::size_t kMaxErrorsPerFile = 10'000;
/// Longest config "name", in bytes.
inline constexpr std::size_t kMaxNameBytes = 256;

struct ConfigError {
  std::string file;         ///< path as given on the command line ("<stdin>" for -)
  int index = -1;           ///< config index in the array (0-based); -1 = the file as a whole
  std::string config_name;  ///< the config's "name" if it has a readable one, else "#<index>"
  std::string field;        ///< JSON field ("tile", "epilogue.stages_c", ...); empty for file-level
  std::string message;      ///< what is wrong, with the offending value and what is allowed
};

/// One line: `FILE: config #I "NAME": field "F": MESSAGE`; the config part is left out for
/// file-level errors, the name when it is the default `#I`, the field part when empty.
/// Names and fields are printed as JSON strings (escaped), names cut to 40 bytes.
std::string format_error(const ConfigError& e);

struct LoadedConfig {
  std::string file;  ///< as ConfigError::file
  int index = 0;     ///< position in the file's config array (0-based)
  model::KernelConfig config;
  bool arch_given = false;  ///< the config has its own "arch" (config.arch is then set)
};

struct LoadResult {
  std::vector<LoadedConfig> configs;  ///< the configs without errors, in file order
  std::vector<ConfigError> errors;    ///< every error, in file order
};

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
