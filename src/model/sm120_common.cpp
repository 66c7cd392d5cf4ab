#include "sm120_common.hpp"

#include "cutlass_constants.hpp"
#include "sm120_epilogue.hpp"
#include "sm90_kernel.hpp"

namespace tilefit::model {

void sm120_common_checks(const KernelConfig& cfg, Findings& why) {
  if (!cfg.a_k_major || !cfg.b_k_major) why.reject([] { return diag(Code::sm120_tn_only); });
  if (cfg.cluster != std::array<int, 3>{1, 1, 1})
    why.reject([] { return diag(Code::sm120_cluster); });
  if (cfg.n < 8) why.reject([&] { return diag(Code::sm120_tile_n_min).integer("tile_n", cfg.n); });
  switch (cfg.schedule) {
    case Schedule::Auto:
    case Schedule::Cooperative:
      if (cfg.m < 128)
        why.reject_kernel(
            [&] { return diag(Code::sm120_cooperative_tile_m).integer("tile_m", cfg.m); });
      break;
    case Schedule::Pingpong:
      if (cfg.n < 16)
        why.reject([&] { return diag(Code::sm120_pingpong_tile_n).integer("tile_n", cfg.n); });
      break;
    default:
      why.reject([&] { return diag(Code::sm120_schedule).schedule("schedule", cfg.schedule); });
  }
}

bool sm120_pingpong(const KernelConfig& cfg) { return cfg.schedule == Schedule::Pingpong; }

Sm120Layout sm120_common_layout(const KernelConfig& cfg, Findings& why) {
  Sm120Layout s;
  s.epilogue = sm120_epilogue(cfg, why);
  s.epilogue.seal();
  s.pingpong = sm120_pingpong(cfg);
  s.grouped = cfg.grouped;
  return s;
}

std::string sm120_kernel_schedule(const KernelConfig& cfg) {
  return std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized"
                                 : "KernelTmaWarpSpecialized") +
         (sm120_pingpong(cfg) ? "Pingpong" : "Cooperative");
}

template <class F>
BasicStorage<F> sm120_layout(const KernelConfig& cfg, const Sm120Layout& s, int stages) {
  const Bytes S = stages;
  const F a = with_align(array_engine<F>(Component::A, S * cfg.m * cfg.k, s.a_bits), 1024);
  const F b = with_align(array_engine<F>(Component::B, S * cfg.n * cfg.k, s.b_bits), 1024);
  Sm90KernelParts<F> p;
  p.mainloop_tensors =
      s.block_scaled
          ? make_struct(
                {a, b, with_align(array_aligned<F>(Component::SFA, S * s.sfa_per_stage), 16),
                 with_align(array_aligned<F>(Component::SFB, S * s.sfb_per_stage), 16)},
                128)
          : make_struct({a, b}, 128);
  // Mainloop pipeline: PipelineTmaAsync<S> (sm120_blockscaled_mma_tma.hpp:163).
  p.mainloop_pipeline = pipeline_barriers<F>(Component::MainloopBarriers, S);
  p.epilogue_tensors = s.epilogue.tensors<F>();
  p.epilogue_pipeline = s.epilogue.pipeline<F>();
  p.pingpong = s.pingpong;
  if (!s.grouped) {
    const F part = with_align(leaf<F>(Component::Scheduler, 16 * Bytes{s.scheduler_stages}, 8), 16);
    p.scheduler = make_struct({part, part, part});
  } else {
    p.scheduler_pipeline = leaf<F>(Component::Scheduler, 16 * 8, 8);
    p.scheduler_responses = leaf<F>(Component::Scheduler, 8 * 16, 4);
    p.mainloop_tensormaps = make_struct(
        {leaf<F>(Component::Tensormaps, kTmaDescriptorBytes * s.mainloop_descriptors, 64)}, 128);
    p.epilogue_tensormaps = s.epilogue.tensormaps<F>();
  }
  BasicStorage<F> st;
  st.kernel = s.grouped ? sm90_array_kernel_storage(p) : sm90_kernel_storage(p);
  st.epilogue_shared = s.epilogue.shared<F>().size;
  // CollectiveMainloop::SharedStorage = { TensorStorage; alignas(16) PipelineStorage }.
  // Measured: the grouped collective's SharedStorage has the same size (its descriptors
  // live in the kernel's TensorMapStorage).
  st.mainloop_shared = make_struct({p.mainloop_tensors, with_align(p.mainloop_pipeline, 16)}).size;
  return st;
}

template Storage sm120_layout<Field>(const KernelConfig&, const Sm120Layout&, int);
template Sizes sm120_layout<Extent>(const KernelConfig&, const Sm120Layout&, int);

}  // namespace tilefit::model
