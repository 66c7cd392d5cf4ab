// The SM90 GEMM kernel shells (gemm/kernel/sm90_gemm_*tma_warpspecialized*.hpp), which SM90
// and SM120 (dense, block-scaled, grouped) kernels all instantiate.
// docs/dev/cutlass-smem-model.md §3.7 and §4.5.
#pragma once

#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// The pieces a kernel shell assembles into its SharedStorage (F = Field or Extent).
template <class F>
struct Sm90KernelParts {
  F mainloop_tensors;     ///< CollectiveMainloop::TensorStorage
  F mainloop_pipeline;    ///< CollectiveMainloop::PipelineStorage (16·S)
  F epilogue_tensors;     ///< CollectiveEpilogue::TensorStorage
  F epilogue_pipeline;    ///< CollectiveEpilogue::PipelineStorage (16·SC, or 2 B)
  bool pingpong = false;  ///< adds OrderedSequenceBarrier<2,2> math_wg_order (32 B)

  // Non-grouped kernels only.
  F scheduler;  ///< TileScheduler::SharedStorage (SM90: empty, 1 B)

  // ptr-array kernels only.
  F scheduler_pipeline;   ///< grouped: PipelineAsyncSharedStorage<8> (128 B); array: 1 B
  F scheduler_responses;  ///< grouped: WorkTileInfo[8] (128 B); array: CLCResponse[8] (8 B)
  F mainloop_tensormaps;  ///< CollectiveMainloop::TensorMapStorage
  F epilogue_tensormaps;  ///< CollectiveEpilogue::TensorMapStorage
};

/// Non-grouped cooperative / pingpong kernel
/// (sm90_gemm_tma_warpspecialized_cooperative.hpp:163-184, …pingpong.hpp:165-188):
///   struct SharedStorage {
///     struct PipelineStorage : aligned_struct<16> {
///       alignas(16) mainloop; alignas(16) epi_load;
///       [alignas(16) math_wg_order (pingpong)]; alignas(16) load_order (16 B) } pipelines;
///     alignas(16) TileScheduler::SharedStorage scheduler;
///     struct TensorStorage : aligned_struct<128> { epilogue; mainloop; } tensors;  // epilogue FIRST
///   };
template <class F>
F sm90_kernel_storage(const Sm90KernelParts<F>& p);

/// ptr-array (grouped) cooperative / pingpong kernel
/// (sm90_gemm_array_tma_warpspecialized_cooperative.hpp:197-228, …pingpong.hpp:203-236):
///   struct SharedStorage {
///     struct TensorStorage : aligned_struct<128> { mainloop; epilogue; } tensors;    // mainloop FIRST
///     struct PipelineStorage : aligned_struct<16> {
///       alignas(16) scheduler; alignas(16) mainloop; alignas(16) epi_load;
///       alignas(16) load_order; [alignas(16) math_wg_order (pingpong)] } pipelines;
///     alignas(16) scheduler_response[8];
///     struct TensorMapStorage : aligned_struct<128> {
///       alignas(128) mainloop; alignas(128) epilogue; } tensormaps;
///   };
template <class F>
F sm90_array_kernel_storage(const Sm90KernelParts<F>& p);

/// The basic, non-persistent KernelTmaWarpSpecialized kernel (the engines' `ws` schedule;
/// gemm/kernel/sm90_gemm_tma_warpspecialized.hpp:119-137): mainloop and epilogue never use
/// shared memory at the same time, so their tensors share a union; no scheduler storage, no
/// load-order or math-WG-order barrier:
///   struct SharedStorage {
///     union TensorStorage { mainloop; epilogue; } tensors;      // the larger, rounded to both aligns
///     struct PipelineStorage : aligned_struct<16> {
///       alignas(16) mainloop; alignas(16) epi_load; } pipelines;
///   };
/// (The builder still carves the whole epilogue SharedStorage out before counting stages.)
template <class F>
F sm90_basic_kernel_storage(const Sm90KernelParts<F>& p);

extern template Field sm90_kernel_storage(const Sm90KernelParts<Field>&);
extern template Extent sm90_kernel_storage(const Sm90KernelParts<Extent>&);
extern template Field sm90_array_kernel_storage(const Sm90KernelParts<Field>&);
extern template Extent sm90_array_kernel_storage(const Sm90KernelParts<Extent>&);
extern template Field sm90_basic_kernel_storage(const Sm90KernelParts<Field>&);
extern template Extent sm90_basic_kernel_storage(const Sm90KernelParts<Extent>&);

}  // namespace tilefit::model
