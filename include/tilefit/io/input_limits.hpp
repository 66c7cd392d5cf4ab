// The bounds on what the config reader accepts; going past one is an error that names it (and
// the limit). Every front end of the reader (config files, tuned tables, kernel names, sweep
// spaces) checks against these.
#pragma once

#include <cstddef>

namespace tilefit::io {

/// Largest config file read, in bytes (64 MiB); larger files are refused unread.
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{64} << 20;
/// Most configs in one file; a file with more is refused as a whole. The reader alone takes
/// about 2 us and 400 B per config (1e6 configs: 2.2 s, 400 MB), but `tilefit check
/// --format json` holds about 10 KB per result, so the limit keeps a whole run near 1 GB.
inline constexpr std::size_t kMaxConfigsPerFile = 100'000;
/// Deepest JSON nesting accepted (a config file needs 5 levels).
inline constexpr int kMaxJsonDepth = 64;
/// Most JSON values (scalars and containers) in one config; a real config has about 30.
inline constexpr std::size_t kMaxValuesPerConfig = 1000;
/// The same for one config of a sweep file, whose alternatives may be long lists.
inline constexpr std::size_t kMaxValuesPerSpace = 100'000;
/// Errors listed per file; past this, one last error counts the rest.
inline constexpr std::size_t kMaxErrorsPerFile = 10'000;
/// Longest config "name", in bytes.
inline constexpr std::size_t kMaxNameBytes = 256;

}  // namespace tilefit::io
