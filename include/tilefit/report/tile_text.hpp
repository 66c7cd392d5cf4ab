// How a report writes a tile: "128x256x128" (src/report/tile_text.cpp).
#pragma once

#include <string>

namespace tilefit::report {

/// "128x256x128".
std::string tile_text(long long m, long long n, long long k);

}  // namespace tilefit::report
