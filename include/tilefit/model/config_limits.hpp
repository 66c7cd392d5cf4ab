// Bounds the config reader enforces so that every byte computation in the model
// stays far inside 64-bit range (largest product: stages * M * K * 32 bits < 2^62).
#pragma once

#include <cstdint>

namespace tilefit::model {

/// Largest accepted CTA tile extent (M, N or K), in elements.
inline constexpr std::int64_t kMaxTileExtent = 1 << 16;
/// Largest accepted explicit stage count; also the ceiling of the max_stages search.
inline constexpr int kMaxStages = 1 << 12;
/// Largest accepted cluster extent.
inline constexpr int kMaxClusterExtent = 16;

}  // namespace tilefit::model
