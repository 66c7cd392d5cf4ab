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
constexpr Bytes round_up(Bytes x, Bytes a) { return ceil_div(x, a) * a; }

/// floor(x / a) * a.
constexpr Bytes round_down(Bytes x, Bytes a) { return (x / a) * a; }

/// `cutlass::bits_to_bytes` (cutlass/numeric_size.h:69-75): ceil(bits / 8).
constexpr Bytes bits_to_bytes(Bytes bits) { return ceil_div(bits, 8); }

}  // namespace tilefit::model
