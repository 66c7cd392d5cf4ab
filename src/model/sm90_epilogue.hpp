// The SM90 epilogue builder's shared decisions, used by SM90 and (through the SM120 builder)
// SM120: which swizzle atom ss_smem_selector picks for the C/D buffers.
#pragma once

#include "tilefit/model/bytes.hpp"

namespace tilefit::model {

/// alignment_for_swizzle of the widest swizzle atom that ss_smem_selector picks for an
/// element of `bits` along a contiguous extent of `extent` elements
/// (gemm/collective/builders/sm90_common.inl:270-325; cutlass/detail/layout.hpp:420-433):
/// SW128 (1024 bits wide) -> 1024, SW64 -> 512, SW32 -> 256, INTER (128 bits) -> 128.
/// Returns 0 when no atom divides the extent (CUTLASS static_asserts).
Bytes ss_swizzle_alignment(int bits, long long extent);

}  // namespace tilefit::model
