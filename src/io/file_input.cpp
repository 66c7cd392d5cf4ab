#include "io/file_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tilefit/io/input_limits.hpp"

namespace tilefit::io::detail {
namespace {

std::string too_large(unsigned long long bytes, bool at_least) {
  return "file too large: " + std::string(at_least ? "more than " : "") + std::to_string(bytes) +
         " bytes; the limit is " + std::to_string(kMaxConfigFileBytes) +
         " bytes (64 MiB); split the configs into several files";
}

// Reads `fd` to its end, stopping past the size limit.
std::variant<std::string, ReadFailure> read_all(int fd) {
  std::string text;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return ReadFailure{std::string("cannot read: ") + std::strerror(errno)};
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxConfigFileBytes) return ReadFailure{too_large(kMaxConfigFileBytes, true)};
  }
  return text;
}

}  // namespace

std::variant<std::string, ReadFailure> read_input(const std::string& path) {
  if (path == "-") return read_all(STDIN_FILENO);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadFailure{std::string("cannot open: ") + std::strerror(errno)};
  struct stat st {};
  std::variant<std::string, ReadFailure> out;
  if (::fstat(fd, &st) != 0) {
    out = ReadFailure{std::string("cannot read: ") + std::strerror(errno)};
  } else if (S_ISDIR(st.st_mode)) {
    out = ReadFailure{"is a directory, not a config file"};
  } else if (S_ISREG(st.st_mode) &&
             static_cast<unsigned long long>(st.st_size) > kMaxConfigFileBytes) {
    out = ReadFailure{too_large(static_cast<unsigned long long>(st.st_size), false)};
  } else {
    out = read_all(fd);
  }
  ::close(fd);
  return out;
}

}  // namespace tilefit::io::detail
