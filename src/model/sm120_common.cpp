#include "sm120_common.hpp"

namespace tilefit::model {

void sm120_common_checks(const KernelConfig& cfg, std::vector<std::string>& invalid) {
  if (!cfg.a_k_major || !cfg.b_k_major)
    invalid.push_back("SM120 builders support TN layouts only (A K-major \"t\", B K-major \"n\")");
  if (cfg.cluster != std::array<int, 3>{1, 1, 1})
    invalid.push_back("SM120 kernels need cluster 1x1x1 (the builder static_asserts on the cluster shape)");
  if (cfg.n < 8) invalid.push_back("tile N must be >= 8 on SM120");
  switch (cfg.schedule) {
    case Schedule::Auto:
    case Schedule::Cooperative:
      if (cfg.m < 128)
        invalid.push_back(
            "the cooperative kernel requires tile M >= 128 (static_assert in "
            "sm90_gemm_tma_warpspecialized_cooperative.hpp:374 / "
            "sm90_gemm_array_tma_warpspecialized_cooperative.hpp:443, which SM120 reuses); "
            "use \"schedule\": \"pingpong\" for M = 64");
      break;
    case Schedule::Pingpong:
      if (cfg.n < 16) invalid.push_back("the pingpong schedule needs tile N >= 16 on SM120");
      break;
    default:
      invalid.push_back("schedule \"" + std::string(schedule_name(cfg.schedule)) +
                        "\" is not an SM120 schedule; allowed: auto, cooperative, pingpong");
  }
}

bool sm120_pingpong(const KernelConfig& cfg) { return cfg.schedule == Schedule::Pingpong; }

void sm120_fill_shell(Sm90KernelParts& p, const KernelConfig& cfg, const TmaEpilogue& epi,
                      int scheduler_stages, int mainloop_descriptors) {
  p.pingpong = sm120_pingpong(cfg);
  if (!cfg.grouped) {
    const Field part = with_align(leaf(Component::Scheduler, 16 * scheduler_stages, 8), 16);
    p.scheduler = make_struct({part, part, part});
    return;
  }
  p.scheduler_pipeline = leaf(Component::Scheduler, 16 * 8, 8);
  p.scheduler_responses = leaf(Component::Scheduler, 8 * 16, 4);
  p.mainloop_tensormaps =
      make_struct({leaf(Component::Tensormaps, 128 * mainloop_descriptors, 64)}, 128);
  p.epilogue_tensormaps = tma_epilogue_tensormaps(epi);
}

Field sm120_kernel_storage(const Sm90KernelParts& parts, bool grouped) {
  return grouped ? sm90_array_kernel_storage(parts) : sm90_kernel_storage(parts);
}

Storage sm120_storage(const Field& mainloop_tensors, int stages, const KernelConfig& cfg,
                      int scheduler_stages, int mainloop_descriptors) {
  const Sm120EpiloguePlan epi = sm120_epilogue(cfg, /*explain=*/false);
  Sm90KernelParts parts;
  parts.mainloop_tensors = mainloop_tensors;
  // Mainloop pipeline: PipelineTmaAsync<S> (sm120_blockscaled_mma_tma.hpp:163).
  parts.mainloop_pipeline = pipeline_barriers(Component::MainloopBarriers, stages);
  parts.epilogue_tensors = tma_epilogue_tensor_storage(epi.epi);
  parts.epilogue_pipeline = tma_epilogue_pipeline_storage(epi.epi);
  sm120_fill_shell(parts, cfg, epi.epi, scheduler_stages, mainloop_descriptors);

  Storage st;
  st.kernel = sm120_kernel_storage(parts, cfg.grouped);
  st.epilogue_shared = tma_epilogue_shared_storage(epi.epi).size;
  // CollectiveMainloop::SharedStorage = { TensorStorage; alignas(16) PipelineStorage }.
  // Measured: the grouped collective's SharedStorage has the same size (its descriptors
  // live in the kernel's TensorMapStorage).
  st.mainloop_shared =
      make_struct({parts.mainloop_tensors, with_align(parts.mainloop_pipeline, 16)}).size;
  return st;
}

}  // namespace tilefit::model
