// What `tilefit check` reports: results, where each result's limits came from, and errors.
// Rendering only — no evaluation, no I/O beyond returning strings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/io/config_reader.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::report {

/// Where one result's limits came from.
struct TargetInfo {
  std::string source;  ///< "builtin" or "device"
  int device = -1;     ///< device index when source == "device"
  std::string device_name;
  model::Limits limits;
};

struct CheckEntry {
  std::string file;
  int index = 0;
  model::KernelConfig config;  ///< as evaluated (arch resolved)
  TargetInfo target;
  model::Result result;
};

/// An error that is not about one config's content: a device error for configs that need a
/// GPU, reported per config with exit code 3.
struct DeviceProblem {
  std::string file;
  int index = -1;
  std::string config_name;
  std::string message;
};

struct CheckReport {
  std::string mode;  ///< "arch" (--arch), "device" (--device), "builtin", "per-config"
  /// The one target every config uses (--arch, --device); unset when it varies per config.
  std::optional<TargetInfo> common_target;
  std::vector<CheckEntry> entries;
  std::vector<io::ConfigError> errors;
  std::vector<DeviceProblem> device_errors;
};

inline constexpr int kSchemaVersion = 1;

/// The table a person reads: one line per config, notes beneath, a summary line.
/// `breakdown` adds the per-component bytes under each config.
std::string render_table(const CheckReport& report, bool breakdown);

/// One line per input or device error ("error: …", "device error: …"), for stderr.
std::string render_errors(const CheckReport& report);

/// JSON for scripts: schema_version, target, results, errors, summary.
nlohmann::ordered_json to_json(const CheckReport& report);

/// The breakdown of a result as ordered {component: bytes}, zero parts omitted.
nlohmann::ordered_json breakdown_json(const model::Field& f);

/// "128x256x128".
std::string tile_text(long long m, long long n, long long k);

}  // namespace tilefit::report
