// What the config reader hands back: the configs it read, each with where it came from, and
// every error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/io/config_error.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io {

/// Where one config came from, compactly: the kind of source, where in it, and which of the
/// config's fields the source set (every other field is a default or inferred). The reader's
/// errors are built from it (error()), so each names the file, the config and the field.
struct Provenance {
  enum class Origin : std::uint8_t {
    file,               ///< a config object of a JSON file (or text): file + config index
    tuned_entry,        ///< an entry of a vLLM/SGLang tuned table: file + entry key
    kernel_name,        ///< a CUTLASS kernel name (in a file, or --name): the name
    sweep_alternative,  ///< a candidate of a sweep space: file + index + "<name>@<i>"
    api,                ///< a config text given to the C++ API or the C ABI ("<config>")
  };
  Origin origin = Origin::file;
  std::string file;  ///< as ConfigError::file: the path, "<stdin>", "--name", "<config>"
  int index = 0;     ///< position in the file's configs (a tuned table: among its entries)
  std::string key;   ///< tuned_entry: the batch size; kernel_name: the name; sweep: the candidate
  model::FieldMask given;  ///< bit i set: config_fields()[i] (tilefit/io/vocabulary.hpp) was set
  /// Of `given`, the fields a sweep space varies: in a candidate their value is one of the
  /// file's alternatives (Origin::sweep_alternative), the others are the config object's.
  model::FieldMask alternatives{};

  /// True when the source set config field `field` ("tile", "epilogue", ...).
  bool gave(std::string_view field) const;
  /// True when `field`'s value is a sweep alternative (see `alternatives`).
  bool varies(std::string_view field) const;
  /// Marks config field `field` as set (a name the field table does not hold is ignored);
  /// `alternative`: its value is one of a sweep space's alternatives.
  void give(std::string_view field, bool alternative = false);
  /// An error of this config: `config_name` as the reader names it ("#<index>" when unnamed).
  ConfigError error(std::string config_name, std::string field, std::string message) const;
};

/// "file", "tuned_entry", "kernel_name", "sweep_alternative", "api".
std::string_view origin_name(Provenance::Origin o);

struct LoadedConfig {
  std::string file;  ///< as ConfigError::file
  int index = 0;     ///< position in the file's config array (0-based)
  model::KernelConfig config;
  bool arch_given = false;  ///< the config has its own "arch" (config.arch is then set)
  Provenance from;          ///< where it came from, field by field
};

struct LoadResult {
  std::vector<LoadedConfig> configs;  ///< the configs without errors, in file order
  std::vector<ConfigError> errors;    ///< every error, in file order
};

}  // namespace tilefit::io
