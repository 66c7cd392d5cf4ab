// One config: JSON tree -> model::KernelConfig, with every error found (field by field, in
// the order the fields appear in the file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/json_value.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io::detail {

struct FieldError {
  std::string field;  ///< "tile", "epilogue.stages_c"; empty for the config as a whole
  std::string message;
};

struct DecodedConfig {
  std::string name;                           ///< the readable "name", else "#<index>"
  std::optional<model::KernelConfig> config;  ///< set exactly when `errors` is empty
  bool arch_given = false;
  model::FieldMask given;  ///< Provenance::given: the config fields the object has
  std::vector<FieldError> errors;
};

/// Decodes config `index`. `too_large`: the stream cut the tree at kMaxValuesPerConfig values.
/// `suggest`: look for did-you-mean suggestions for unknown fields (the costly part of an
/// error; the reader turns it off once it lists no more errors).
DecodedConfig decode_config(const Value& v, std::size_t index, bool too_large, bool suggest = true);

/// Fields a config may have (tilefit/io/vocabulary.hpp), in order (for did-you-mean and
/// "allowed:" lists).
const std::vector<std::string>& config_field_names();

}  // namespace tilefit::io::detail
