// What the config reader hands back: the configs it read, each with where it came from, and
// every error.
#pragma once

#include <string>
#include <vector>

#include "tilefit/io/config_error.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io {

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

}  // namespace tilefit::io
