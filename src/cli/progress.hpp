// A progress line on standard error for long runs: "sweep: 41943040/100000000 candidates (41%),
// 3.4M/s, 17 s left", redrawn in place with '\r' and cleared at the end. Shown once a run has
// taken about a second, and only when standard error is a terminal, unless --progress (always)
// or --no-progress (never): pipes, files and CI logs stay clean by default.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/output.hpp"

namespace tilefit::cli {

/// --progress / --no-progress / neither.
enum class ProgressMode { automatic, on, off };

class Progress {
 public:
  /// Seconds before the first line, and between two redraws.
  static constexpr double kDelay = 1.0;
  static constexpr double kInterval = 0.2;

  Progress(ErrorOutput& err, ProgressMode mode, std::string_view what);
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  /// `done` of `total` units; draws when due. Cheap enough to call every few thousand units.
  void update(std::uint64_t done, std::uint64_t total);
  /// Erases the line (before something else is written to the same terminal); the next due
  /// update() draws it again.
  void clear();
  /// Erases the line for good.
  void finish();

  /// The text of one line (no '\r'): "<what>: <done>/<total> candidates (<p>%), <rate>/s, <left>".
  static std::string line(std::string_view what, std::uint64_t done, std::uint64_t total,
                          double seconds);

 private:
  ErrorOutput& err_;
  bool enabled_;
  std::string what_;
  double start_ = 0, last_ = 0;
  std::size_t drawn_ = 0;  ///< width of the line on screen (0: none)
  bool finished_ = false;
};

}  // namespace tilefit::cli
