// Which limits a config is analysed against: the target rules of `tilefit check` (README,
// "Where the limits come from"), as a library, behind the DeviceSource interface.
//
//   --arch A    the built-in table for A, for every config (overrides the configs' arch; the
//               result carries arch_overridden);
//   --device N  GPU N, queried; a config whose arch differs is invalid (arch_mismatch);
//   --builtin   the built-in table for each config's own arch; no GPU is asked; a config
//               without arch is an input error;
//   none        a config with an arch uses a present GPU of that architecture, else the table;
//               one without arch uses GPU 0, and with no GPU that is a device error.
// A vLLM/SGLang tuned table's entries have no arch but the file name's device_name: without
// --arch or --device it picks the architecture from the table of NVIDIA products
// (tilefit/model/products.hpp) and is then treated like an arch of the config's own; an unknown
// device_name is an input error asking for --arch. With --arch or --device a note says which GPU
// the table was tuned on.
// GPUs are asked at most once per resolver, and only when a rule needs them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/device/device_source.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"

namespace tilefit::analysis {

/// What the user asked for.
struct TargetRequest {
  enum class Mode { per_config, arch, device, builtin };
  Mode mode = Mode::per_config;
  /// Mode::arch: the compute capabilities (each in the built-in table); several give one result
  /// per config per architecture ("which of my H100 configs break on an RTX 5090").
  std::vector<int> archs;
  int device = -1;  ///< Mode::device: GPU index
  /// --engine: the release whose launch rules apply to every config of its engine (at most one
  /// per engine), whatever release the config or its table's path named; like --arch, a what-if.
  std::vector<model::EngineRelease> engines{};
  /// --hip-async-copy on|off (issue 20): TRITON_HIP_USE_ASYNC_COPY for the configs analysed on
  /// an AMD target (it overrides their `hip_async_copy` field); a config analysed on an NVIDIA
  /// target with it is an input error, except in a several-architecture run (below).
  std::optional<bool> hip_async_copy{};
  /// Set by for_arch on the per-architecture requests of a several-arch --arch list: there the
  /// switch and the `hip_async_copy` field apply to the AMD targets only and the NVIDIA ones
  /// analyse the config without them (no error).
  bool several_archs = false;

  /// The release a config of `engine` is analysed with: the pinned one of that engine, else
  /// `engine` itself.
  model::EngineRelease engine_for(model::EngineRelease engine) const;

  /// The same request for one of its architectures.
  TargetRequest for_arch(int sm) const;
};

/// "per-config", "arch", "device", "builtin" (the JSON `target.mode`).
std::string_view mode_name(TargetRequest::Mode m);

/// Where one result's limits came from.
struct Target {
  enum class Source { builtin, device };
  Source source = Source::builtin;
  int device = -1;          ///< Source::device: the GPU index
  std::string device_name;  ///< Source::device: "NVIDIA H200"
  model::Limits limits;
};

/// "builtin" or "device".
std::string_view source_name(Target::Source s);

/// The built-in table's target for `sm` (which must be in the table).
Target builtin_target(int sm);
/// A queried GPU's target.
Target device_target(const device::DeviceInfo& d);

/// One config, resolved (for a single architecture: a resolver of a several-arch request takes the
/// first).
struct Resolution {
  enum class Kind {
    analyse,       ///< evaluate `config` against `target`
    mismatch,      ///< --device N with a config for another arch: invalid, `why` says so
    input_error,   ///< the request cannot apply to this config (`field`, `message`)
    device_error,  ///< a GPU was needed and none could be asked (`message`)
  };
  Kind kind = Kind::analyse;
  model::KernelConfig config;  ///< with the arch that is analysed
  Target target;
  /// Diagnostics to put before (arch_overridden) and after (limits_from_device) the model's.
  std::vector<model::Diagnostic> before, after;
  std::optional<model::Diagnostic> why;  ///< Kind::mismatch: arch_mismatch
  std::string field;                     ///< Kind::input_error
  std::string message;                   ///< Kind::input_error, Kind::device_error
  /// The same for every config of the file (a tuned table's device_name; configs without "arch"
  /// and no GPU): reported once per file.
  bool file_level = false;
};

class TargetResolver {
 public:
  TargetResolver(const TargetRequest& request, const device::DeviceSource& devices);

  const TargetRequest& request() const { return request_; }
  /// The one target every config uses (--arch, --device); nullopt when it varies per config
  /// or when --device's GPU could not be asked.
  const std::optional<Target>& common() const { return common_; }
  /// --device N could not be asked: every config is then a device error with this message.
  const std::optional<device::DeviceError>& device_failure() const { return device_failure_; }

  /// Applies the rules to one config (`arch_given`: the config has its own "arch"). With
  /// `explain` false the `before`/`after` diagnostics are not built (sweeps).
  Resolution resolve(const model::KernelConfig& cfg, bool arch_given, bool explain = true);

  /// The AMD async-copy switch on a config whose arch is resolved (resolve() applies it; sweeps
  /// call it per candidate, since `hip_async_copy` can be a sweep axis): on an AMD target the
  /// request's --hip-async-copy, if any, replaces the config's; on an NVIDIA target the switch
  /// or the field is an input error (false, with `field` and `message` set), except in a
  /// several-arch run, where both are dropped.
  bool apply_hip_async_copy(model::KernelConfig& cfg, std::string& field,
                            std::string& message) const;

 private:
  Resolution resolve_target(const model::KernelConfig& cfg, bool arch_given, bool explain);

  const device::DeviceList& all_devices();

  TargetRequest request_;
  const device::DeviceSource& devices_;
  std::optional<Target> common_;
  std::optional<device::DeviceError> device_failure_;
  std::optional<device::DeviceInfo> chosen_;  ///< --device N
  std::optional<device::DeviceList> all_;     ///< asked once, when a rule needs it
};

}  // namespace tilefit::analysis
