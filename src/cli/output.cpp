#include "cli/output.hpp"

#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace tilefit::cli {

void Output::fail(int err) {
  if (failed_) return;
  failed_ = true;
  problem_ = std::string("cannot write the output: ") + (err ? std::strerror(err) : "write error");
}

void Output::write(std::string_view text) {
  if (failed_ || text.empty()) return;
  written_ = true;
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::ferror(file_))
    fail(errno);
}

bool Output::finish() {
  if (!failed_) {
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail(errno);
  }
  return !failed_;
}

bool Output::terminal() const {
  return terminal_ >= 0 ? terminal_ == 1 : isatty(fileno(file_)) == 1;
}

void ErrorOutput::write(std::string_view text) {
  if (text.empty()) return;
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fflush(file_);
}

bool ErrorOutput::terminal() const {
  return terminal_ >= 0 ? terminal_ == 1 : isatty(fileno(file_)) == 1;
}

double ErrorOutput::now() const {
  if (clock_) return clock_();
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

void Output::report_closed_pipes() { std::signal(SIGPIPE, SIG_IGN); }

}  // namespace tilefit::cli
