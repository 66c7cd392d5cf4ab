// `tilefit check` as a library: read config files, resolve each config's target, evaluate it.
// What comes back is data — entries and problems — that the report layer renders (table, JSON)
// and the CLI turns into an exit code.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tilefit/analysis/target.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/load.hpp"
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
  /// Files of the folders given (`tilefit check DIR`) that are not tuned tables, skipped.
  std::size_t files_skipped = 0;
  void count(const Entry& e);
};
Tally tally(const CheckRun& run);

/// Receives a streamed check's results and problems as they come, in input order: file by file;
/// within a file (CheckStream::add_file) its results and their problems as the configs are read,
/// then the reader's errors of that file; each config on every architecture of a several-arch
/// request before the next config.
class CheckSink {
 public:
  virtual ~CheckSink() = default;
  virtual void entry(Entry&& e) = 0;
  virtual void problem(Problem&& p) = 0;
  /// True once nothing more can be written (a failed output): the run stops reading.
  virtual bool stopped() const { return false; }
};

/// `tilefit check` streamed: files are read and analysed one at a time, each result handed to the
/// sink and dropped, so memory stays bounded whatever the number of files and configs (one file's
/// configs at a time). head() is known before the first result (for a report's header).
class CheckStream {
 public:
  CheckStream(const TargetRequest& request, const device::DeviceSource& devices,
              model::Detail detail = model::Detail::full);
  ~CheckStream();
  /// mode, archs and common_target of a CheckRun (entries and problems empty).
  const CheckRun& head() const { return head_; }
  /// Analyses the configs of one file (or of --name) and reports its errors.
  void add(io::LoadResult&& loaded, CheckSink& sink);
  /// Reads `path` and analyses each config as soon as it is read (io::stream of io::Source::file), then
  /// reports the file's errors.
  void add_file(const std::string& path, CheckSink& sink);
  /// `tilefit check PATH` (the CLI and the C ABI): a file ("-": standard input) is add_file, unless
  /// it is a table of a backend tilefit does not model (io::not_triton_table: skipped); a folder is
  /// every JSON file under it (io::walk_folder), a path that cannot be walked an input problem.
  /// Each skipped file, and each folder's one line of what it did not read, goes to `note`
  /// ("PATH: skipped: why", "DIR: skipped 2 files that are not JSON (no .json name)"). Returns
  /// the files skipped.
  std::size_t add_path(const std::string& path, CheckSink& sink,
                       const std::function<void(std::string)>& note = {});
  /// Ends the run: a GPU that was required and could not be asked is one device problem.
  /// Returns the counts of everything reported.
  Tally finish(CheckSink& sink);

 private:
  void analyse(const io::LoadedConfig& lc, TargetResolver& r, CheckSink& sink);
  void report(Problem&& p, CheckSink& sink);

  CheckRun head_;
  model::Detail detail_;
  std::vector<TargetResolver> resolvers_;
  Tally tally_;
  /// File-level problems already reported (once per file: every entry of a tuned table has the
  /// same device_name).
  std::vector<std::pair<std::string, std::string>> file_problems_;
  /// The lint warning of the last tuned table seen (model/engine_tables.hpp), for its results.
  std::string lint_file_;
  model::EngineRelease lint_release_ = model::EngineRelease::None;
  std::optional<model::Diagnostic> lint_;
};

/// Analyses every config of `loaded` (for each of request.archs when there are several); its
/// errors become input problems. Holds every result (CheckStream does not).
CheckRun check_configs(io::LoadResult loaded, const TargetRequest& request,
                       const device::DeviceSource& devices,
                       model::Detail detail = model::Detail::full);

/// Reads every file ("-" = standard input) and analyses every config in it (check_configs).
CheckRun check_files(const std::vector<std::string>& files, const TargetRequest& request,
                     const device::DeviceSource& devices,
                     model::Detail detail = model::Detail::full);

}  // namespace tilefit::analysis
