// Reading a config file's bytes: regular files, pipes and standard input, never more than
// kMaxConfigFileBytes + 1 bytes.
#pragma once

#include <string>
#include <variant>

namespace tilefit::io::detail {

/// The file's bytes, or a message saying why there are none ("cannot open: No such file or
/// directory", "is a directory, not a config file", "file too large: ...").
struct ReadFailure {
  std::string message;
};
std::variant<std::string, ReadFailure> read_input(const std::string& path);

}  // namespace tilefit::io::detail
