#include "tilefit/report/tile_text.hpp"

#include <fmt/format.h>

namespace tilefit::report {

std::string tile_text(long long m, long long n, long long k) {
  return fmt::format("{}x{}x{}", m, n, k);
}

}  // namespace tilefit::report
