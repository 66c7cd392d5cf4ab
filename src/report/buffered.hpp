// Output in large pieces, and text held for the end of a streamed report without holding it in
// memory. Shared by the streamed writers of check and sweep.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace tilefit::report {

using Emit = std::function<void(std::string_view)>;

/// Collects output and hands it on in pieces of about 64 KiB.
class Buffered {
 public:
  explicit Buffered(Emit emit) : emit_(std::move(emit)) { buf_.reserve(1 << 16); }
  std::string& buf() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= (1 << 16)) flush();
  }
  void flush() {
    if (!buf_.empty()) emit_(buf_);
    buf_.clear();
  }

 private:
  Emit emit_;
  std::string buf_;
};

/// Text that is written after everything else (the notes under a Markdown table): kept in memory
/// up to 1 MiB, then in an anonymous temporary file, so a report of a million configs stays small.
class Spill {
 public:
  Spill() = default;
  Spill(const Spill&) = delete;
  Spill& operator=(const Spill&) = delete;
  ~Spill();

  void append(std::string_view text);
  bool empty() const { return mem_.empty() && spilled_ == 0; }
  /// Hands everything to `emit`, in order, and empties.
  void drain(Buffered& out);

 private:
  std::string mem_;
  std::FILE* file_ = nullptr;
  std::size_t spilled_ = 0;
};

}  // namespace tilefit::report
