#include "sm100_kernel.hpp"

namespace tilefit::model {
namespace {

/// alignas(16) member of `bytes` barrier storage (8-byte barriers).
template <class F>
F barriers16(Component c, Bytes bytes) {
  return with_align(leaf<F>(c, bytes, 8), 16);
}

}  // namespace

template <class F>
F sm100_kernel_storage(const Sm100KernelParts<F>& p) {
  const Bytes sstg = p.sched_stages;
  const F pipelines = make_struct(
      {with_align(p.mainloop_pipeline, 16), with_align(p.epilogue_pipeline, 16),
       barriers16<F>(Component::KernelBarriers, 16), barriers16<F>(Component::Scheduler, 16 * sstg),
       barriers16<F>(Component::KernelBarriers, 16 * Bytes{p.acc_stages}),
       barriers16<F>(Component::Scheduler, 16 * sstg), barriers16<F>(Component::KernelBarriers, 8)},
      16);
  const F responses =
      with_align(leaf<F>(Component::Scheduler, sstg * kSm100ClcResponseBytes, 4), 16);
  const F tensors = make_struct({p.epilogue_tensors, p.mainloop_tensors}, 128);
  return make_struct({pipelines, responses, leaf<F>(Component::TmemPointer, 4, 4), tensors});
}

template <class F>
F sm100_mma_transform_kernel_storage(const Sm100KernelParts<F>& p) {
  const Bytes sstg = p.sched_stages;
  const F pipelines = make_struct(
      {with_align(p.mainloop_pipeline, 16), with_align(p.epilogue_pipeline, 16),
       barriers16<F>(Component::KernelBarriers, 16), barriers16<F>(Component::Scheduler, 16 * sstg),
       barriers16<F>(Component::Scheduler, 16 * sstg), barriers16<F>(Component::KernelBarriers, 8),
       barriers16<F>(Component::KernelBarriers, 8)},
      16);
  const F responses =
      with_align(leaf<F>(Component::Scheduler, sstg * kSm100ClcResponseBytes, 4), 16);
  const F tensors = make_struct({p.epilogue_tensors, p.mainloop_tensors}, 128);
  return make_struct({pipelines, responses, leaf<F>(Component::TmemPointer, 4, 4), tensors});
}

template Field sm100_kernel_storage(const Sm100KernelParts<Field>&);
template Extent sm100_kernel_storage(const Sm100KernelParts<Extent>&);
template Field sm100_mma_transform_kernel_storage(const Sm100KernelParts<Field>&);
template Extent sm100_mma_transform_kernel_storage(const Sm100KernelParts<Extent>&);

}  // namespace tilefit::model
