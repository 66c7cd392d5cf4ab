#include "sm90_kernel.hpp"

namespace tilefit::model {
namespace {

/// OrderedSequenceBarrier<D,L>: 8·D·L bytes (pipeline/sm90_pipeline.hpp:1255-1269).
template <class F>
F ordered_barrier(int depth, int length) {
  return leaf<F>(Component::KernelBarriers, 8 * depth * length, 8);
}

}  // namespace

template <class F>
F sm90_kernel_storage(const Sm90KernelParts<F>& p) {
  const F load_order = with_align(ordered_barrier<F>(1, 2), 16);
  const F pipelines =
      p.pingpong
          ? make_struct({with_align(p.mainloop_pipeline, 16), with_align(p.epilogue_pipeline, 16),
                         with_align(ordered_barrier<F>(2, 2), 16), load_order},
                        16)
          : make_struct({with_align(p.mainloop_pipeline, 16), with_align(p.epilogue_pipeline, 16),
                         load_order},
                        16);
  const F tensors = make_struct({p.epilogue_tensors, p.mainloop_tensors}, 128);
  return make_struct({pipelines, with_align(p.scheduler, 16), tensors});
}

template <class F>
F sm90_array_kernel_storage(const Sm90KernelParts<F>& p) {
  const F tensors = make_struct({p.mainloop_tensors, p.epilogue_tensors}, 128);
  const F load_order = with_align(ordered_barrier<F>(1, 2), 16);
  const F pipelines =
      p.pingpong
          ? make_struct({with_align(p.scheduler_pipeline, 16), with_align(p.mainloop_pipeline, 16),
                         with_align(p.epilogue_pipeline, 16), load_order,
                         with_align(ordered_barrier<F>(2, 2), 16)},
                        16)
          : make_struct({with_align(p.scheduler_pipeline, 16), with_align(p.mainloop_pipeline, 16),
                         with_align(p.epilogue_pipeline, 16), load_order},
                        16);
  const F tensormaps = make_struct(
      {with_align(p.mainloop_tensormaps, 128), with_align(p.epilogue_tensormaps, 128)}, 128);
  return make_struct({tensors, pipelines, with_align(p.scheduler_responses, 16), tensormaps});
}

template <class F>
F sm90_basic_kernel_storage(const Sm90KernelParts<F>& p) {
  const F tensors = make_union({p.mainloop_tensors, p.epilogue_tensors});
  const F pipelines =
      make_struct({with_align(p.mainloop_pipeline, 16), with_align(p.epilogue_pipeline, 16)}, 16);
  return make_struct({tensors, pipelines});
}

template Field sm90_kernel_storage(const Sm90KernelParts<Field>&);
template Extent sm90_kernel_storage(const Sm90KernelParts<Extent>&);
template Field sm90_array_kernel_storage(const Sm90KernelParts<Field>&);
template Extent sm90_array_kernel_storage(const Sm90KernelParts<Extent>&);
template Field sm90_basic_kernel_storage(const Sm90KernelParts<Field>&);
template Extent sm90_basic_kernel_storage(const Sm90KernelParts<Extent>&);

}  // namespace tilefit::model
