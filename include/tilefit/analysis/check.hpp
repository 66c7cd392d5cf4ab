// `tilefit check` as a library: read config files, resolve each config's target, evaluate it.
// What comes back is data — entries and problems — that the report layer renders (table, JSON)
// and the CLI turns into an exit code.
#pragma once

#include <string>
#include <vector>

#include "tilefit/analysis/target.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/config_reader.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::analysis {

/// One analysed config.
struct Entry {
  std::string file;
  int index = 0;
  model::KernelConfig config;  ///< as evaluated (arch resolved)
  Target target;
  model::Result result;
};

/// A config (or a file) that could not be analysed.
struct Problem {
  enum class Kind { input, device };
  Kind kind = Kind::input;
  io::ConfigError where;  ///< file, config index and name, field, message
};

/// The one-line text of a problem: io::format_error's form.
std::string problem_text(const Problem& p);

struct CheckRun {
  TargetRequest::Mode mode = TargetRequest::Mode::per_config;
  /// --arch with several architectures: their order; entries then hold one result per config per
  /// architecture, config-major (config 0 on every arch, then config 1, ...).
  std::vector<int> archs;
  /// The one target every config uses (--arch, --device); unset when it varies per config.
  std::optional<Target> common_target;
  std::vector<Entry> entries;
  std::vector<Problem> problems;  ///< in file order, input problems of a file before its configs'
};

/// Counts of a run's results by status.
struct Tally {
  std::size_t configs = 0, fits = 0, does_not_fit = 0, invalid = 0, errors = 0;
};
Tally tally(const CheckRun& run);

/// Resolves `lc`'s target and evaluates it; appends an Entry to `run.entries` or a Problem to
/// `run.problems`.
void analyse(const io::LoadedConfig& lc, TargetResolver& resolver, model::Detail detail,
             CheckRun& run);

/// Analyses every config of `loaded` (for each of request.archs when there are several); its
/// errors become input problems.
CheckRun check_configs(io::LoadResult loaded, const TargetRequest& request,
                       const device::DeviceSource& devices,
                       model::Detail detail = model::Detail::full);

/// Reads every file ("-" = standard input) and analyses every config in it (check_configs).
CheckRun check_files(const std::vector<std::string>& files, const TargetRequest& request,
                     const device::DeviceSource& devices,
                     model::Detail detail = model::Detail::full);

}  // namespace tilefit::analysis
