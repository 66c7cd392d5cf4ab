// CUTLASS 4.7's shared-memory capacity constants and fixed object sizes, in one place.
#pragma once

#include "tilefit/model/bytes.hpp"

namespace tilefit::model {

/// sm90_smem_capacity_bytes (gemm/collective/builders/sm90_common.inl:57).
inline constexpr Bytes kSm90SmemCapacity = 232448;
/// Sm100::kSharedMemoryCapacityBytes (cutlass/arch/arch.h:44, 100-118; same for Sm101/Sm103).
inline constexpr Bytes kSm100SmemCapacity = 232448;
/// sm120_smem_capacity_bytes (cutlass/arch/arch.h:45).
inline constexpr Bytes kSm120SmemCapacity = 101376;
/// cute::TmaDescriptor: 128 B, alignas(64) (cute/arch/copy_sm90_desc.hpp:292-296).
inline constexpr Bytes kTmaDescriptorBytes = 128;
/// sizeof(PipelineTmaAsync<1>::SharedStorage) / PipelineTmaUmmaAsync<1>: full + empty barrier.
inline constexpr Bytes kOneStageBarrierBytes = 16;

}  // namespace tilefit::model
