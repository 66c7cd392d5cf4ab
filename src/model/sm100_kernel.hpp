// The SM100 GEMM kernel shells (gemm/kernel/sm100_gemm_tma_warpspecialized*.hpp): the dense /
// block-scaled UMMA kernel that sm100_umma and the engines' SM100 scaled_mm instantiate, and the
// "MMA-transform" kernel of the blockwise-scaled FP8 GEMM (engine_fp8_sm100).
// docs/dev/cutlass-smem-model.md §5.
#pragma once

#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// PersistentTileSchedulerSm100::CLCResponse { uint32_t data[4]; } (sm100_tile_scheduler.hpp:74);
/// detail::CLCResponseSize (sm100_common.inl:70-71).
inline constexpr Bytes kSm100ClcResponseBytes = 16;

/// The pieces an SM100 kernel shell assembles (F = Field or Extent).
template <class F>
struct Sm100KernelParts {
  F mainloop_tensors;    ///< CollectiveMainloop::TensorStorage
  F mainloop_pipeline;   ///< CollectiveMainloop::PipelineStorage (dense: PipelineTmaUmmaAsync<S>,
                         ///< 16·S; blockwise: { AB 16·S; SF 16·S; accumulator 16·Acc })
  F epilogue_tensors;    ///< CollectiveEpilogue::TensorStorage
  F epilogue_pipeline;   ///< CollectiveEpilogue::PipelineStorage (16·SC, or 2 B)
  int acc_stages = 0;    ///< AccumulatorPipelineStageCount
  int sched_stages = 0;  ///< SchedulerPipelineStageCount
};

/// Non-grouped dense / block-scaled kernel (sm100_gemm_tma_warpspecialized.hpp:182-212):
///   struct SharedStorage {
///     struct PipelineStorage : aligned_struct<16> {   // every member alignas(16)
///       mainloop; epi_load; load_order OrderedSequenceBarrier<1,2> (16 B);
///       clc PipelineCLCFetchAsync<Sstg> (16·Sstg); accumulator PipelineUmmaAsync<Acc> (16·Acc);
///       clc_throttle PipelineAsync<Sstg> (16·Sstg); tmem_dealloc ClusterBarrier (8 B) } pipelines;
///     alignas(16) CLCResponse clc_response[Sstg];   // 16 B each
///     uint32_t tmem_base_ptr;
///     struct TensorStorage : aligned_struct<128> { epilogue; mainloop; } tensors;  // epilogue FIRST
///   };
template <class F>
F sm100_kernel_storage(const Sm100KernelParts<F>& p);

/// The MMA-transform kernel of KernelTmaWarpSpecializedBlockwise{1,2}SmSm100
/// (sm100_gemm_tma_warpspecialized_mma_transform.hpp:188-215): the accumulator pipeline lives in
/// the mainloop's PipelineStorage (`mainloop_pipeline`), there is an extra epilogue throttle:
///   struct SharedStorage {
///     struct PipelineStorage : aligned_struct<16> {   // every member alignas(16)
///       mainloop; epi_load; load_order (16 B); clc (16·Sstg); clc_throttle (16·Sstg);
///       tmem_dealloc ClusterBarrier (8 B); epilogue_throttle ClusterBarrier (8 B) } pipelines;
///     alignas(16) CLCResponse clc_response[Sstg];
///     uint32_t tmem_base_ptr;
///     struct TensorStorage : aligned_struct<128> { epilogue; mainloop; } tensors;
///   };
template <class F>
F sm100_mma_transform_kernel_storage(const Sm100KernelParts<F>& p);

extern template Field sm100_kernel_storage(const Sm100KernelParts<Field>&);
extern template Extent sm100_kernel_storage(const Sm100KernelParts<Extent>&);
extern template Field sm100_mma_transform_kernel_storage(const Sm100KernelParts<Field>&);
extern template Extent sm100_mma_transform_kernel_storage(const Sm100KernelParts<Extent>&);

}  // namespace tilefit::model
