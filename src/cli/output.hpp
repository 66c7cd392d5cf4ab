// Standard output, checked. Every result goes through Output::write; a write that fails (a full
// disk, /dev/full, a closed pipe) is remembered, nothing more is written, and finish() turns it
// into an error (exit 4) instead of a silent success.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace tilefit::cli {

class Output {
 public:
  explicit Output(std::FILE* file) : file_(file) {}

  /// Writes `text` (nothing once a write has failed).
  void write(std::string_view text);
  /// Flushes; true when everything was written. `problem()` then says what failed otherwise.
  bool finish();
  bool failed() const { return failed_; }
  /// True once anything was written (or tried).
  bool written() const { return written_; }
  /// "cannot write the output: No space left on device".
  const std::string& problem() const { return problem_; }

  /// For machine-readable output (JSON, CSV): a closed pipe must be an error with a message, not
  /// a silent SIGPIPE death, so SIGPIPE is ignored and EPIPE reported. Tables cut by `| head`
  /// keep the usual SIGPIPE behaviour.
  static void report_closed_pipes();

  /// Whether the output is a terminal (isatty), unless set_terminal() said otherwise (tests).
  bool terminal() const;
  void set_terminal(bool terminal) { terminal_ = terminal ? 1 : 0; }

 private:
  void fail(int err);

  std::FILE* file_;
  bool failed_ = false;
  bool written_ = false;
  std::string problem_;
  int terminal_ = -1;  ///< -1: ask isatty
};

/// Standard error as a run sees it: where progress and error lines go, whether it is a terminal
/// (progress is drawn only on one, unless --progress) and the clock progress is timed with —
/// both injectable, so that tests run the real CLI in-process.
class ErrorOutput {
 public:
  explicit ErrorOutput(std::FILE* file) : file_(file) {}

  std::FILE* file() const { return file_; }
  /// Writes `text` and flushes (stderr is unbuffered; a temporary file in tests is not).
  void write(std::string_view text);

  /// Whether standard error is a terminal (isatty), unless set_terminal() said otherwise.
  bool terminal() const;
  void set_terminal(bool terminal) { terminal_ = terminal ? 1 : 0; }

  /// Seconds on a monotonic clock (std::chrono::steady_clock), unless set_clock() gave another.
  double now() const;
  void set_clock(std::function<double()> clock) { clock_ = std::move(clock); }

 private:
  std::FILE* file_;
  int terminal_ = -1;  ///< -1: ask isatty
  std::function<double()> clock_;
};

}  // namespace tilefit::cli
