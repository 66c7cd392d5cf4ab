// The SM90-style epilogue collectives, used by SM90 and (through the SM120 builder) SM120.
//
//   TMA:     epilogue/collective/sm90_epilogue_tma_warpspecialized.hpp:135-231
//   ptr-array TMA: sm90_epilogue_array_tma_warpspecialized.hpp:233-253
//   no-smem: Sm90TmaWarpSpecializedAdapter<DefaultEpilogue> (epilogue/collective/detail.hpp:269-284)
// ../shared/docs/cutlass-smem-model.md §2.1, §2.2, §2.5.
#pragma once

#include "tilefit/model/dtype.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// Inputs of the TMA epilogue collective, after the builder's decisions.
struct TmaEpilogue {
  long long epi_m = 0, epi_n = 0;  ///< epilogue tile
  int stages_c = 0, stages_d = 0;  ///< StagesC, StagesD
  bool reuse_smem_c = false;       ///< ReuseSmemC (already && D present)
  int c_bits = 0;                  ///< bits of the C element in smem (0: void C)
  int d_bits = 0;                  ///< bits of the D element in smem (fp6 stored as 8)
  Bytes align_c = 128, align_d = 128;  ///< alignment_for_swizzle of the C / D atoms
  Field fusion = empty_member(Component::Fusion);  ///< FusionCallbacks::SharedStorage
  bool ptr_array = false;
  int num_epilogue_wg = 1;         ///< ptr-array: D tensormaps (1 + this many descriptors)
};

/// alignment_for_swizzle of the widest swizzle atom that ss_smem_selector picks for an
/// element of `bits` along a contiguous extent of `extent` elements
/// (gemm/collective/builders/sm90_common.inl:270-325; cutlass/detail/layout.hpp:420-433):
/// SW128 (1024 bits wide) -> 1024, SW64 -> 512, SW32 -> 256, INTER (128 bits) -> 128.
/// Returns 0 when no atom divides the extent (CUTLASS static_asserts).
Bytes ss_swizzle_alignment(int bits, long long extent);

/// CollectiveStorage + FusionStorage (the kernel's EpilogueTensorStorage):
///   no C:        union { empty; alignas(alignD) smem_D }
///   ReuseSmemC:  union { alignas(max) smem_C; alignas(max) smem_D }
///   otherwise:   struct { alignas(alignC) smem_C; alignas(alignD) smem_D }
///   TensorStorage = struct { collective; fusion }    (empty fusion = 1 byte: pitfall P3)
Field tma_epilogue_tensor_storage(const TmaEpilogue& e);

/// PipelineTransactionAsync<StagesC>::SharedStorage: 16·SC, or 2 B when SC = 0.
Field tma_epilogue_pipeline_storage(const TmaEpilogue& e);

/// ptr-array TensorMapStorage : aligned_struct<128>: 128·(1 + NumEpilogueWarpGroups).
Field tma_epilogue_tensormaps(const TmaEpilogue& e);

/// sizeof(CollectiveEpilogue::SharedStorage): { tensors; [tensormaps;] pipeline }.
Field tma_epilogue_shared_storage(const TmaEpilogue& e);

/// The no-smem epilogue: TensorStorage is an empty struct (1 B), PipelineStorage is
/// PipelineTransactionAsync<0> (2 B), SharedStorage is 1 B (default_epilogue.hpp:93).
Field nosmem_epilogue_tensor_storage();
Field nosmem_epilogue_pipeline_storage();
inline constexpr Bytes kNoSmemEpilogueSharedStorage = 1;

}  // namespace tilefit::model
