// What the SM120 families (block-scaled and dense) share: the builders' common checks, and the
// whole SharedStorage of an SM120 kernel — the SM90 kernel shells with an SM120 mainloop, the
// SM120 epilogue and the SM100-style tile scheduler.
#pragma once

#include <string>

#include "epilogue_storage.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model {

/// Checks shared by every SM120 3.x builder: TN only, cluster 1x1x1, N >= 8, schedule.
/// (sm120_blockscaled_mma_builder.inl:67-105; sm120_mma_builder.inl:80-95)
void sm120_common_checks(const KernelConfig& cfg, Findings& why);

/// True for the pingpong schedule (KernelScheduleAuto selects cooperative).
bool sm120_pingpong(const KernelConfig& cfg);

/// The decisions an SM120 kernel's layout needs.
struct Sm120Layout {
  EpilogueStorage epilogue;
  bool pingpong = false;
  bool grouped = false;
  int a_bits = 8, b_bits = 8;  ///< smem element width of A / B (4: packed fp4)
  bool block_scaled = false;   ///< the mainloop holds SFA / SFB arrays
  Bytes sfa_per_stage = 0, sfb_per_stage = 0;
  int scheduler_stages = 2;      ///< the builder's SchedulerPipelineStageCount
  int mainloop_descriptors = 2;  ///< grouped: TMA descriptors of the mainloop (A, B[, SFA, SFB])
};

/// The Storage of an SM120 kernel at `stages`:
///  * mainloop TensorStorage : aligned_struct<128> {
///      alignas(1024) ArrayEngine<A, S·M·K> smem_A;  alignas(1024) ArrayEngine<B, S·N·K> smem_B;
///      [alignas(16) ArrayEngine<SF, S·SFA> smem_SFA; alignas(16) … smem_SFB;] }
///    (sm120_blockscaled_mma_tma.hpp:266-275, array L269-286; sm120_mma_tma.hpp:194-202,
///    sm120_mma_array_tma.hpp:192-205), pipeline PipelineTmaAsync<S> (16·S);
///  * the SM90 shell (sm90_kernel.hpp) with, non-grouped, PersistentTileSchedulerSm100<Cluster,
///    Sstg>::SharedStorage = { alignas(16) CLC pipeline 16·Sstg; alignas(16) throttle 16·Sstg;
///    alignas(16) CLCResponse[Sstg] 16·Sstg } = 48·Sstg (sm100_tile_scheduler.hpp:71-96), or,
///    grouped, PersistentTileSchedulerSm90Group<…, 8>: PipelineAsyncSharedStorage<8> (128 B) and
///    WorkTileInfo[8] responses (8·16 B) (sm90_tile_scheduler_group.hpp:66-70, 106-129),
///    mainloop tensormaps `mainloop_descriptors`·128 B and the epilogue's.
template <class F>
BasicStorage<F> sm120_layout(const KernelConfig& cfg, const Sm120Layout& s, int stages);

extern template Storage sm120_layout<Field>(const KernelConfig&, const Sm120Layout&, int);
extern template Sizes sm120_layout<Extent>(const KernelConfig&, const Sm120Layout&, int);

/// The parts of an Sm120Layout every SM120 family decides the same way: the epilogue (decided
/// and sealed; its rejections go to `why`), the schedule and grouping.
Sm120Layout sm120_common_layout(const KernelConfig& cfg, Findings& why);

/// The SM120 builders' stage count: StageCountAutoCarveout<sizeof(CollectiveEpilogue::
/// SharedStorage)>, the carve-out used as is (not rounded on SM120; cutlass-smem-model.md P2),
/// over the builder's `stage_bytes` per stage; the mainloops' static_assert(Stages >= 2); and the
/// epilogue tile when the epilogue stages tiles (what `suggest` shrinks).
inline void sm120_stage_rule(Plan& p, const KernelConfig& cfg, const Sm120Layout& state,
                             Bytes stage_bytes) {
  p.rule.carveout = state.epilogue.shared<Extent>().size;
  p.rule.stage_bytes = stage_bytes;
  p.choose_stages(cfg.stages);
  p.min_stages = 2;
  p.epilogue_tile = state.epilogue.staged_tile();
}

/// "KernelPtrArrayTmaWarpSpecializedPingpong" / "KernelTmaWarpSpecializedCooperative".
std::string sm120_kernel_schedule(const KernelConfig& cfg);

/// Both SM120 families lay out with sm120_layout().
template <class Derived>
class Sm120Family : public LaidOutFamily<Derived, Sm120Layout> {
 public:
  template <class F>
  static BasicStorage<F> assemble(const KernelConfig& cfg, const Sm120Layout& s, int stages) {
    return sm120_layout<F>(cfg, s, stages);
  }
};

}  // namespace tilefit::model
