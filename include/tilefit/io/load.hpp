// The config front door: one Source (a file, a text, CUTLASS kernel names) and one load() that
// reads it into what the caller wants — configs (LoadResult: check, suggest, probe, the C++ API
// and the C ABI) or sweep spaces (SpaceLoad: sweep) — by the same file-level rules, the same
// decoder and the same errors.
//
//   io::LoadResult r = io::load<io::LoadResult>(io::Source::file("configs/x.json"));
//   io::SpaceLoad s = io::load<io::SpaceLoad>(io::Source::kernel_names({"cutlass3x_sm90_…"}));
//
// A file is a JSON object {"configs": [...]} (other top-level keys: "$schema", "description",
// "comment"), a bare array of configs, one config object (its first key a config field), or a
// vLLM/SGLang tuned fused-MoE table. Every config is checked field by field; a config with any
// error is left out and every one of its errors is reported, while the other configs are still
// returned: one bad config never hides the rest, and nothing is dropped without an error saying
// so. Errors (tilefit/io/config_error.hpp) read like (one line each; see format_error):
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
#include "tilefit/io/input_limits.hpp"  // the bounds every source is read within
#include "tilefit/io/loaded_config.hpp"
#include "tilefit/io/space.hpp"

namespace tilefit::io {

/// Where configs come from. Build one with file(), text() or kernel_names().
struct Source {
  enum class Kind { file, text, kernel_names };
  Kind kind = Kind::file;
  std::string path;                ///< file: the path ("-" = standard input, labelled "<stdin>")
  std::string_view body;           ///< text: the document (not copied: it must outlive load())
  std::string label;               ///< text: what names it in errors and results
  std::vector<std::string> names;  ///< kernel_names: the names, labelled "--name"

  /// A file; missing, unreadable, directory and oversized files give one file-level error.
  static Source file(std::string path);
  /// The text of one config file, named `label`.
  static Source text(std::string_view body, std::string label);
  /// CUTLASS library kernel names (`--name NAME`), each one config (tilefit/io/kernel_name.hpp).
  static Source kernel_names(std::vector<std::string> names);
};

/// Reads `source` into `Want`: LoadResult (configs) or SpaceLoad (sweep spaces; a config with
/// arrays of alternatives is a space, and a tuned-table entry or a kernel name a space of one).
template <class Want>
Want load(const Source& source);
template <>
LoadResult load<LoadResult>(const Source& source);
template <>
SpaceLoad load<SpaceLoad>(const Source& source);

/// load<LoadResult> that hands each config to `each` as soon as it is read instead of holding
/// them (memory: one config, whatever the file's size) and returns the errors. A first pass of
/// the parser alone makes sure the file cannot fail as a whole once configs were handed out; a
/// file that might (a syntax error, too deep, too many configs, ...) and a tuned table are read
/// whole first, exactly as load() reads them. The configs and errors are load()'s.
std::vector<ConfigError> stream(const Source& source,
                                const std::function<void(LoadedConfig&&)>& each);

}  // namespace tilefit::io
