// Byte arithmetic shared by every layout computation.
//
// All sizes are 64-bit signed. Inputs are bounded by the config reader (tile dims and
// stage counts are limited, see config_limits.hpp), so no product in the model can
// overflow; the helpers below still refuse negative alignments by contract.
#pragma once

#include <cstdint>

namespace tilefit::model {

using Bytes = std::int64_t;

/// ceil(x / a) for x >= 0, a > 0.
constexpr Bytes ceil_div(Bytes x, Bytes a) { return (x + a - 1) / a; }

/// `cutlass::round_up` (cutlass/fast_math.h:214-216): x rounded up to a multiple of a.
/// Every alignment of a layout is a power of two: those take a mask, not a 64-bit division
/// (about a quarter of a verdict's time before); the result is the same for x >= 0.
constexpr Bytes round_up(Bytes x, Bytes a) {
  if (x >= 0 && a > 0 && (a & (a - 1)) == 0) return (x + a - 1) & ~(a - 1);
  return ceil_div(x, a) * a;
}

/// floor(x / a) * a.
constexpr Bytes round_down(Bytes x, Bytes a) { return (x / a) * a; }

/// `cutlass::bits_to_bytes` (cutlass/numeric_size.h:69-75): ceil(bits / 8).
constexpr Bytes bits_to_bytes(Bytes bits) { return ceil_div(bits, 8); }

}  // namespace tilefit::model
