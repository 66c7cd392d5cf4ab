// Pieces shared by the SM120 families (block-scaled and dense): the kernel shell parts
// that do not depend on the mainloop.
#pragma once

#include "sm120_epilogue.hpp"
#include "sm90_kernel.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model {

/// Checks shared by every SM120 3.x builder: TN only, cluster 1x1x1, N >= 8, schedule.
/// (sm120_blockscaled_mma_builder.inl:67-105; sm120_mma_builder.inl:80-95)
void sm120_common_checks(const KernelConfig& cfg, std::vector<std::string>& invalid);

/// True for the pingpong schedule (KernelScheduleAuto selects cooperative).
bool sm120_pingpong(const KernelConfig& cfg);

/// Fills the scheduler / tensormap parts of an SM90 kernel shell as SM120 uses it.
///  Non-grouped: PersistentTileSchedulerSm100<Cluster, Sstg>::SharedStorage
///    = { alignas(16) CLC pipeline 16·Sstg; alignas(16) throttle 16·Sstg;
///        alignas(16) CLCResponse[Sstg] 16·Sstg } = 48·Sstg  (sm100_tile_scheduler.hpp:71-96)
///  Grouped: PersistentTileSchedulerSm90Group<…, 8>: PipelineAsyncSharedStorage<8> (128 B) and
///    WorkTileInfo[8] responses (8·16 B) (sm90_tile_scheduler_group.hpp:66-70, 106-129),
///    mainloop tensormaps `mainloop_descriptors`·128 B, epilogue tensormaps 128·(1+2).
void sm120_fill_shell(Sm90KernelParts& parts, const KernelConfig& cfg, const TmaEpilogue& epi,
                      int scheduler_stages, int mainloop_descriptors);

/// The kernel SharedStorage for the parts (non-grouped or ptr-array shell).
Field sm120_kernel_storage(const Sm90KernelParts& parts, bool grouped);

/// The Storage of an SM120 kernel (block-scaled or dense) at `stages`, given the family's
/// mainloop TensorStorage for those stages. The rest is common to both families: the mainloop
/// pipeline (16·S), the epilogue (sm120_epilogue), and the SM90 shell as sm120_fill_shell fills
/// it with the family's SchedulerPipelineStageCount `scheduler_stages` and its
/// `mainloop_descriptors` TMA descriptors (grouped).
Storage sm120_storage(const Field& mainloop_tensors, int stages, const KernelConfig& cfg,
                      int scheduler_stages, int mainloop_descriptors);

}  // namespace tilefit::model
