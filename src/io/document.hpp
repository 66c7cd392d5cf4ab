// A config file as a document: the file-level checks (encoding, syntax, nesting, the configs
// array, top-level fields, error limits) shared by everything that reads config files, with
// each element of the configs array handed to a handler (check decodes it into a config; sweep
// builds a space of configs from it).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_value.hpp"
#include "tilefit/io/input_limits.hpp"
#include "tilefit/io/loaded_config.hpp"

namespace tilefit::io::detail {

/// Where a handler reports a config's errors.
class ErrorSink {
 public:
  virtual ~ErrorSink() = default;
  /// False once kMaxErrorsPerFile errors are listed (did-you-mean is not worth computing then).
  virtual bool listing() const = 0;
  virtual void error(ConfigError e) = 0;
};

/// Handles element `index` of the configs array (`too_large`: cut at kMaxValuesPerConfig
/// values); returns false when the config had errors.
using ConfigHandler =
    std::function<bool(std::size_t index, Value&& v, bool too_large, ErrorSink& errors)>;

struct Document {
  std::vector<ConfigError> errors;  ///< every error, in file order
  bool fatal = false;               ///< the file as a whole is unreadable: drop what was handled
  /// The file is a vLLM/SGLang tuned fused-MoE table (io/tuned_file.hpp), not a configs file:
  /// no element went to the handler; its entries, decoded, are in `tuned`.
  bool tuned_table = false;
  std::vector<LoadedConfig> tuned;
};

/// Parses `text` (a config file's bytes; `file_label` names it in errors).
/// A string in the configs array is a CUTLASS library kernel name (tilefit/io/kernel_name.hpp):
/// its typed config, with its provenance (Origin::kernel_name); or nullopt once what cannot be
/// read is reported (the part of the name: field "", config named by the kernel name; or a field
/// the config format refuses).
std::optional<LoadedConfig> read_kernel_name(const std::string& name, const std::string& file,
                                             std::size_t index, ErrorSink& errors);

/// `max_values`: the cap on one config's JSON values (a sweep space may hold many alternatives).
Document parse_document(std::string_view text, const std::string& file_label,
                        const ConfigHandler& handle, std::size_t max_values = kMaxValuesPerConfig);

}  // namespace tilefit::io::detail
