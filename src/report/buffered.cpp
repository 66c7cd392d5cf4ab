#include "report/buffered.hpp"

#include <stdexcept>

namespace tilefit::report {

namespace {
constexpr std::size_t kInMemory = std::size_t{1} << 20;
}

Spill::~Spill() {
  if (file_) std::fclose(file_);
}

void Spill::append(std::string_view text) {
  mem_ += text;
  if (mem_.size() < kInMemory) return;
  if (!file_) file_ = std::tmpfile();
  if (!file_ || std::fwrite(mem_.data(), 1, mem_.size(), file_) != mem_.size())
    throw std::runtime_error("cannot hold the report's notes in a temporary file (TMPDIR full?)");
  spilled_ += mem_.size();
  mem_.clear();
}

void Spill::drain(Buffered& out) {
  if (file_ && spilled_ > 0) {
    std::rewind(file_);
    char chunk[1 << 16];
    std::size_t left = spilled_;
    while (left > 0) {
      const std::size_t n = std::fread(chunk, 1, std::min(sizeof chunk, left), file_);
      if (n == 0)
        throw std::runtime_error("cannot read back the report's notes from a temporary file");
      out.buf().append(chunk, n);
      out.maybe_flush();
      left -= n;
    }
    std::fclose(file_);
    file_ = nullptr;
    spilled_ = 0;
  }
  out.buf() += mem_;
  mem_.clear();
}

}  // namespace tilefit::report
