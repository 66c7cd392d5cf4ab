// sm90_tma_ws: Hopper TMA warp-specialized GEMM, cooperative and pingpong, TMA or no-smem
// epilogue, dense and ptr-array grouped.
//
// Builder:   gemm/collective/builders/sm90_gmma_builder.inl
// Mainloop:  gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized[_fp8].hpp,
//            sm90_mma_array_tma_gmma_ss_warpspecialized[_fp8].hpp (ptr-array)
// Epilogue:  epilogue/collective/builders/sm90_builder.inl -> sm90_epilogue_[array_]tma_warpspecialized.hpp
// Kernels:   gemm/kernel/sm90_gemm_[array_]tma_warpspecialized_{cooperative,pingpong}.hpp
// Reference: ../shared/docs/cutlass-smem-model.md §4, §2.1, §2.2, §2.5, §2.6.1.
#include <numeric>
#include <string>

#include "../sm90_epilogue.hpp"
#include "../sm90_kernel.hpp"
#include "families.hpp"

namespace tilefit::model {
namespace {

/// sm90_smem_capacity_bytes (gemm/collective/builders/sm90_common.inl:57).
constexpr Bytes kSm90Capacity = 232448;

/// KernelScheduleAuto (sm90_gmma_builder.inl:970-1048, TMA-compatible alignment):
/// pingpong when tile M == 64, cooperative otherwise.
bool is_pingpong(const KernelConfig& cfg) {
  if (cfg.schedule == Schedule::Auto) return cfg.m == 64;
  return cfg.schedule == Schedule::Pingpong;
}

/// The MMA element: tf32 for f32 A/B (sm90_gmma_builder.inl:246-247).
int mma_bits(DType t) { return t == DType::F32 ? 32 : bits(t); }

bool tma_epilogue(const KernelConfig& cfg) { return cfg.epilogue.variant == EpilogueVariant::Tma; }

struct EpiloguePlan {
  TmaEpilogue epi;
  std::vector<std::string> invalid;
  std::string description;
};

/// The SM90 epilogue builder (sm90_builder.inl):
///  tile (L112-165): cooperative EpiM = min(128, M), EpiN = gcd(min(32, N), N);
///    pingpong EpiM = min(64, M), EpiN = gcd(min(Nperf, N), N), Nperf = 64 if bits(D) == 8 and
///    N % 64 == 0, else 32; explicit tiles need M = 64 (pingpong) / 128 (cooperative), N % 16 == 0;
///  stages (sm90_get_tma_dispatch_policy, L64-86): EpiTiles = (M/EpiM)·(N/EpiN);
///    ReuseSmem = bits(C) == bits(D) && bits(D) > 8; StagesD = min(EpiTiles, 2);
///    StagesC = ReuseSmem ? max(min(EpiTiles, 4), StagesD + 1) : min(EpiTiles, 4);
///  atoms (L89-109): ss_smem_selector, K-major on EpiN for row-major D, MN-major on EpiM.
///  ptr-array: PtrArrayTmaWarpSpecialized{Cooperative,Pingpong} -> NumEpilogueWarpGroups = 2
///    (epilogue/dispatch_policy.hpp:58-60).
/// With `explain` false only the numbers are computed (storage() inside the max_stages search).
EpiloguePlan sm90_epilogue(const KernelConfig& cfg, bool explain = true) {
  EpiloguePlan p;
  TmaEpilogue& e = p.epi;
  const bool pingpong = is_pingpong(cfg);
  const long long M = cfg.m, N = cfg.n;
  if (cfg.epilogue.tile) {
    e.epi_m = (*cfg.epilogue.tile)[0];
    e.epi_n = (*cfg.epilogue.tile)[1];
    const long long want_m = pingpong ? 64 : 128;
    if (explain && (e.epi_m != want_m || e.epi_n % 16 != 0))
      p.invalid.push_back("an explicit SM90 epilogue tile needs M = " + std::to_string(want_m) +
                          (pingpong ? " (pingpong)" : " (cooperative)") +
                          " and N a multiple of 16 (sm90_builder.inl:154-165)");
  } else if (pingpong) {
    const long long nperf = (bits(cfg.d) == 8 && N % 64 == 0) ? 64 : 32;
    e.epi_m = std::min<long long>(64, M);
    e.epi_n = std::gcd(std::min(nperf, N), N);
  } else {
    e.epi_m = std::min<long long>(128, M);
    e.epi_n = std::gcd(std::min<long long>(32, N), N);
  }
  if (e.epi_m <= 0 || e.epi_n <= 0 || M % e.epi_m != 0 || N % e.epi_n != 0) {
    if (explain) p.invalid.push_back("epilogue tile " + std::to_string(e.epi_m) + "x" + std::to_string(e.epi_n) +
                        " must divide the CTA tile");
    e.epi_m = std::max<long long>(1, std::min(e.epi_m, M));
    e.epi_n = std::max<long long>(1, std::min(e.epi_n, N));
  }
  const long long tiles = (M / e.epi_m) * (N / e.epi_n);
  const bool reuse = bits(cfg.c) == bits(cfg.d) && bits(cfg.d) > 8;
  int sd = static_cast<int>(std::min<long long>(tiles, 2));
  int sc = reuse ? std::max(static_cast<int>(std::min<long long>(tiles, 4)), sd + 1)
                 : static_cast<int>(std::min<long long>(tiles, 4));
  if (cfg.epilogue.stages_d) sd = *cfg.epilogue.stages_d;
  if (cfg.epilogue.stages_c) sc = *cfg.epilogue.stages_c;
  e.stages_c = sc;
  e.stages_d = sd;
  e.reuse_smem_c = reuse;
  if (reuse && sd > sc)
    if (explain) p.invalid.push_back("ReuseSmemC needs StagesD <= StagesC (sm90_epilogue_tma_warpspecialized.hpp:170-172)");
  e.c_bits = bits(cfg.c);
  e.d_bits = bits(cfg.d);
  const long long extent = cfg.cd_row_major ? e.epi_n : e.epi_m;
  e.align_c = cfg.c == DType::Void ? 128 : ss_swizzle_alignment(e.c_bits, extent);
  e.align_d = ss_swizzle_alignment(e.d_bits, extent);
  if (e.align_c == 0 || e.align_d == 0) {
    if (explain) p.invalid.push_back("no swizzle atom divides the epilogue tile's contiguous extent (" +
                        std::to_string(extent) + " elements; ss_smem_selector)");
    if (e.align_c == 0) e.align_c = 128;
    if (e.align_d == 0) e.align_d = 128;
  }
  e.ptr_array = cfg.grouped;
  e.num_epilogue_wg = 2;
  if (!explain) return p;
  p.description = std::string(cfg.grouped ? "PtrArrayTmaWarpSpecialized" : "TmaWarpSpecialized") +
                  (pingpong ? "" : "Cooperative") + " epilogue " + std::to_string(e.epi_m) + "x" +
                  std::to_string(e.epi_n) + ", StagesC " + std::to_string(sc) + ", StagesD " +
                  std::to_string(sd) + (reuse ? ", ReuseSmemC" : "");
  return p;
}

/// Epilogue pieces as the kernel holds them (TMA or no-smem).
struct EpilogueParts {
  Field tensors, pipeline, tensormaps;
  Bytes shared = 0;  ///< sizeof(CollectiveEpilogue::SharedStorage)
};

EpilogueParts epilogue_parts(const KernelConfig& cfg, const EpiloguePlan& ep) {
  EpilogueParts out;
  if (tma_epilogue(cfg)) {
    out.tensors = tma_epilogue_tensor_storage(ep.epi);
    out.pipeline = tma_epilogue_pipeline_storage(ep.epi);
    out.tensormaps = tma_epilogue_tensormaps(ep.epi);
    out.shared = tma_epilogue_shared_storage(ep.epi).size;
  } else {
    // No-smem epilogue (§2.5): TensorStorage empty (1 B), PipelineTransactionAsync<0> (2 B),
    // SharedStorage 1 B; in ptr-array kernels its TensorMapStorage is an empty struct
    // placed alignas(128).
    out.tensors = nosmem_epilogue_tensor_storage();
    out.pipeline = nosmem_epilogue_pipeline_storage();
    out.tensormaps = empty_member(Component::Tensormaps);
    out.shared = kNoSmemEpilogueSharedStorage;
  }
  return out;
}

/// Mainloop TensorStorage : aligned_struct<128> { array_aligned<AMma, S·M·K> A;
/// array_aligned<BMma, S·N·K> B; } (sm90_mma_tma_gmma_ss_warpspecialized.hpp:153-162):
/// no alignas(1024) — unlike SM120 — so the tensors are 128-aligned.
Field mainloop_tensors(const KernelConfig& cfg, int stages) {
  return make_struct(
      {array_aligned(Component::A, bits_to_bytes(stages * cfg.m * cfg.k * mma_bits(cfg.a.elem))),
       array_aligned(Component::B, bits_to_bytes(stages * cfg.n * cfg.k * mma_bits(cfg.b.elem)))},
      128);
}

class Sm90TmaWs final : public KernelFamily {
 public:
  std::string_view name() const override { return "sm90_tma_ws"; }
  std::string_view description() const override {
    return "Hopper TMA warp-specialized GEMM, cooperative and pingpong, TMA or no-smem "
           "epilogue, dense and ptr-array grouped";
  }
  bool runs_on(int sm) const override { return sm == 90; }

  std::optional<std::string> claims(const KernelConfig& cfg, int sm) const override {
    if (sm != 90 || cfg.a.block_scaled() || cfg.b.block_scaled()) return std::nullopt;
    if (cfg.warp || cfg.schedule == Schedule::Multistage) return std::nullopt;
    return std::string("sm_90 with ") + operand_name(cfg.a) + " x " + operand_name(cfg.b) +
           ": the SM90 GMMA builder (TMA warp-specialized)";
  }

  BuildPlan plan(const KernelConfig& cfg) const override {
    BuildPlan p;
    p.capacity_constant = kSm90Capacity;
    p.overflow = Overflow::RuntimeInitialize;
    const bool pingpong = is_pingpong(cfg);

    if (cfg.a.block_scaled() || cfg.b.block_scaled())
      p.invalid.push_back("block-scaled operands are not an SM90 GMMA type (use sm100_umma or sm120_blockscaled)");
    for (const Operand* op : {&cfg.a, &cfg.b}) {
      const DType t = op->elem;
      const bool ok = t == DType::BF16 || t == DType::F16 || t == DType::F32 || t == DType::TF32 ||
                      t == DType::E4M3 || t == DType::E5M2 || t == DType::S8 || t == DType::U8;
      if (!ok)
        p.invalid.push_back("operand " + operand_name(*op) +
                            " is not an SM90 GMMA type (bf16, f16, tf32/f32, e4m3, e5m2, s8, u8)");
    }
    // fp8, int8 and tf32 operands must be K-major (sm90_common.inl:61-…).
    const bool k_major_only = bits(cfg.a.elem) != 16 || bits(cfg.b.elem) != 16;
    if (k_major_only && (!cfg.a_k_major || !cfg.b_k_major))
      p.invalid.push_back("8-bit and 32-bit operands must be K-major on SM90 (layout \"tn\")");
    switch (cfg.schedule) {
      case Schedule::Auto:
      case Schedule::Cooperative:
      case Schedule::Pingpong: break;
      default:
        p.invalid.push_back("schedule \"" + std::string(schedule_name(cfg.schedule)) +
                            "\" is not an SM90 TMA schedule; allowed: auto, cooperative, pingpong");
    }
    if (!pingpong && cfg.m < 128)
      p.invalid.push_back("the cooperative kernel requires tile M >= 128 (static_assert, "
                          "sm90_gemm_tma_warpspecialized_cooperative.hpp:374-375); use pingpong for M = 64");
    if (cfg.m % 64 != 0)
      p.invalid.push_back("tile M must be a multiple of 64 (one GMMA warp group covers 64 rows)");
    const auto v = cfg.epilogue.variant;
    if (v != EpilogueVariant::Auto && v != EpilogueVariant::Tma && v != EpilogueVariant::NoSmem)
      p.invalid.push_back("epilogue \"" + std::string(epilogue_name(v)) +
                          "\" is not modelled for sm90_tma_ws; allowed: auto (no-smem), tma, nosmem");

    const EpiloguePlan ep = sm90_epilogue(cfg);
    if (tma_epilogue(cfg))
      for (const std::string& why : ep.invalid) p.invalid.push_back(why);
    const EpilogueParts parts = epilogue_parts(cfg, ep);

    p.kernel = std::string(cfg.grouped ? "KernelPtrArrayTmaWarpSpecialized" : "KernelTmaWarpSpecialized") +
               (pingpong ? "Pingpong" : "Cooperative") + "; " +
               (tma_epilogue(cfg) ? ep.description
                                  : std::string(cfg.grouped ? "PtrArrayNoSmemWarpSpecialized" : "NoSmemWarpSpecialized") +
                                        " epilogue (EpilogueScheduleAuto on SM90)");

    // compute_stage_count_or_override (sm90_gmma_builder.inl:69-85):
    //   stage = ru(B(AMma,M·K) + B(BMma,N·K), 128) + sizeof(PipelineTmaAsync<1>::SharedStorage)=16
    //   Cap   = rd(232448 − KernelSmemCarveout, 128),  KernelSmemCarveout = ptr-array ? 2·128 (+128
    //           scheduler pipeline for pointer strides) : 0    (L240-242, L269-273)
    //   S     = (Cap − ru(carveout, 128)) / stage
    const Bytes kernel_carveout = cfg.grouped ? 256 + 128 : 0;
    p.builder_capacity = round_down(kSm90Capacity - kernel_carveout, 128);
    p.carveout = round_up(parts.shared, 128);
    p.stage_bytes = round_up(bits_to_bytes(cfg.m * cfg.k * mma_bits(cfg.a.elem)) +
                                 bits_to_bytes(cfg.n * cfg.k * mma_bits(cfg.b.elem)),
                             128) +
                    16;
    if (cfg.stages) {
      p.auto_stages = false;
      p.stages = *cfg.stages;
    } else {
      p.stages = static_cast<int>((p.builder_capacity - p.carveout) / p.stage_bytes);
    }
    p.min_stages = 2;  // static_assert(Stages >= 2): sm90_mma_tma_gmma_ss_warpspecialized.hpp:137
    p.unbudgeted = "the kernel pipelines and the padding of the tensor block to the epilogue's "
                   "swizzle alignment";
    if (v == EpilogueVariant::Auto)
      p.notes.push_back("epilogue auto on SM90 is the no-smem epilogue (EpilogueScheduleAuto, "
                        "sm90_builder.inl:581-641); name \"tma\" for the TMA epilogue");
    return p;
  }

  Storage storage(const KernelConfig& cfg, const BuildPlan&, int stages) const override {
    const EpiloguePlan ep = sm90_epilogue(cfg, /*explain=*/false);
    const EpilogueParts epi = epilogue_parts(cfg, ep);
    Sm90KernelParts parts;
    parts.mainloop_tensors = mainloop_tensors(cfg, stages);
    parts.mainloop_pipeline = pipeline_barriers(Component::MainloopBarriers, stages);
    parts.epilogue_tensors = epi.tensors;
    parts.epilogue_pipeline = epi.pipeline;
    parts.pingpong = is_pingpong(cfg);
    // PersistentTileSchedulerSm90::SharedStorage is empty: 1 B (sm90_tile_scheduler.hpp:53-65).
    parts.scheduler = empty_member(Component::Scheduler);
    // Grouped: PersistentTileSchedulerSm90Group<…, 8>: PipelineAsyncSharedStorage<8> (128 B),
    // WorkTileInfo[8] (16 B each); mainloop tensormaps: 2 descriptors (A, B)
    // (sm90_mma_array_tma_gmma_ss_warpspecialized.hpp:170-183).
    parts.scheduler_pipeline = leaf(Component::Scheduler, 128, 8);
    parts.scheduler_responses = leaf(Component::Scheduler, 8 * 16, 4);
    parts.mainloop_tensormaps = make_struct({leaf(Component::Tensormaps, 256, 64)}, 128);
    parts.epilogue_tensormaps = epi.tensormaps;

    Storage st;
    st.kernel = cfg.grouped ? sm90_array_kernel_storage(parts) : sm90_kernel_storage(parts);
    st.epilogue_shared = epi.shared;
    // CollectiveMainloop::SharedStorage = { TensorStorage; [TensorMapStorage (ptr-array);]
    // PipelineStorage }.
    st.mainloop_shared =
        cfg.grouped ? make_struct({parts.mainloop_tensors, parts.mainloop_tensormaps,
                                   parts.mainloop_pipeline}).size
                    : make_struct({parts.mainloop_tensors, parts.mainloop_pipeline}).size;
    return st;
  }
};

}  // namespace

const KernelFamily& sm90_tma_ws_family() {
  static const Sm90TmaWs family;
  return family;
}

}  // namespace tilefit::model
