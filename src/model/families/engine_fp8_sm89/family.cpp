// engine_fp8_sm89: the FP8 GEMMs vLLM and SGLang build for Ada (sm_89: L4, L40S, RTX 40xx) with
// CUTLASS 2.x.
//
//  vLLM    cutlass_2x_gemm (scaled_mm_c2x.cuh@1051220e) with the sm89 dispatch
//          (scaled_mm_c2x_sm89_fp8_dispatch.cuh: sm89_fp8_config_*, sm89_fp8_fallback_gemm):
//          DefaultGemmWithVisitor<e4m3 RowMajor 16, e4m3 ColumnMajor 16, float RowMajor 4 (ElementC,
//          AlignmentCD), float, float, OpClassTensorOp, Sm89, TileShape, WarpShape,
//          GemmShape<16, 8, 32>, EVT, ThreadblockSwizzleStreamK, Stages,
//          OpMultiplyAddFastAccum, 1>
//  SGLang  DeviceGemmFp8RowwiseSm89 (fp8_gemm_kernel.cu@04ec0bc2: sm89_fp8_dispatch_bias):
//          the same builder with ElementC = the output type, 128-bit alignment,
//          GemmIdentityThreadblockSwizzle<>.
// Both are the CUTLASS 2.x kernel: fixed stages, storage
//   union { Mma::SharedStorage main_loop; Epilogue::SharedStorage epilogue; }
// (gemm/kernel/default_gemm_universal_with_visitor.h:102-149 -> GemmWithEpilogueVisitor[Streamk]
// whose SharedStorage is GemmUniversal[Streamk]'s: gemm/kernel/gemm_universal.h:352-355,
// gemm_universal_streamk.h:508-512), with the visitor epilogue's extra fusion byte
// (../cutlass2x_storage.hpp).
#include <string>

#include "../../cutlass2x_storage.hpp"
#include "../../engine_fp8.hpp"
#include "../families.hpp"

namespace tilefit::model {
namespace {

/// mma.sync.m16n8k32 for e4m3 on Sm89 (arch/mma_sm89.h), the engines' InstructionShape.
constexpr long long kInstrM = 16, kInstrN = 8, kInstrK = 32;

/// What layout() needs.
struct Sm89EngineLayout {
  long long m = 0, n = 0, k = 0;
  long long warps_m = 0, warps_n = 0, partitions_k = 0, warp_n = 0;
  int fragments_per_iteration = 1;
};

/// The kernel storage at `stages`:
///   mainloop = Mma::SharedStorage: ru16(S·M·K) + ru16(S·N·K) (e4m3, no TensorOp padding)
///   epilogue = { AlignedBuffer<float, rows·cols> acc_smem[1]; FusionCallbacks::SharedStorage }
///     rows = WarpCount.m · 8 · kPartitionsK · FPI, cols = WarpCount.n · Wn + 8 (float padding
///     64/32·4, default_epilogue_tensor_op.h:604), FPI = kPartitionsK == 1 ?
///     DefaultIteratorsTensorOp<ElementC, float, AlignmentC>::kFragmentsPerIteration : 1 (L606):
///     the base epilogue is DefaultEpilogueTensorOp of LinearCombination<ElementC, AlignmentC>
///     (default_gemm_universal_with_visitor.h:102-118), so FPI follows the launcher's C —
///     vLLM float/4: 2; SGLang bf16/8: 1, f16/8: 2.

class EngineFp8Sm89 final : public EngineFamily<LaidOutFamily<EngineFp8Sm89, Sm89EngineLayout>> {
 public:
  /// The kernel's SharedStorage at `stages` (LaidOutFamily turns it into layout() and sizes()).
  template <class F>
  static BasicStorage<F> assemble(const KernelConfig&, const Sm89EngineLayout& s, int stages) {
    const Bytes S = stages;
    const F mainloop = mma_base_storage<F>(S * s.m * s.k, S * s.n * s.k);
    const Bytes rows = s.warps_m * 8 * s.partitions_k * s.fragments_per_iteration;
    const Bytes cols = s.warps_n * s.warp_n + 8;
    const F epilogue = epilogue_visitor_storage<F>(epilogue_base_storage<F>(32, rows, cols));
    BasicStorage<F> st;
    st.kernel = make_union({mainloop, epilogue});
    st.mainloop_shared = mainloop.size;
    st.epilogue_shared = epilogue.size;
    return st;
  }

  std::string_view name() const override { return "engine_fp8_sm89"; }
  std::string_view description() const override {
    return "vLLM / SGLang FP8 scaled_mm on Ada (sm_89): CUTLASS 2.x DefaultGemmWithVisitor, "
           "fixed stages, the union of mainloop and visitor epilogue";
  }
  bool runs_on(int sm) const override { return sm == 89; }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    p.overflow = Overflow::RuntimeInitialize;  // GemmUniversalBase::init_device_props():
                                               // cudaFuncSetAttribute -> kErrorInternal
                                               // (gemm/device/gemm_universal_base.h:157-166)
    p.stage_param = StageParam::CutlassKStages;
    p.min_stages = 2;
    engine_common_checks(cfg, why);

    if (cfg.schedule != Schedule::Auto && cfg.schedule != Schedule::Multistage)
      why.reject([&] {
        return diag(Code::engine_schedule)
            .schedule("schedule", cfg.schedule)
            .arch("arch", cfg.arch)
            .name("op", engine_op_name(cfg.op))
            .name("allowed", "multistage");
      });
    // The engines' 2.x dispatch tables name both the warp tile and the stage count
    // (vLLM's scaled_mm_c2x_sm89_fp8_dispatch.cuh: sm89_fp8_config_*; SGLang's fp8_gemm_kernel.cu:
    // sm89_fp8_dispatch_bias).
    if (!cfg.warp || !cfg.stages)
      why.reject([&] {
        return diag(Code::engine_sm89_warp_and_stages)
            .flag("warp", cfg.warp.has_value())
            .flag("stages", cfg.stages.has_value());
      });
    if (cfg.swap_ab) why.reject([] { return diag(Code::engine_sm89_swap_ab); });
    if (cfg.cluster != std::array<int, 3>{1, 1, 1})
      why.reject([] { return diag(Code::sm80_cluster); });
    if (cfg.epilogue.variant != EpilogueVariant::Auto || cfg.epilogue.tile ||
        cfg.epilogue.stages_c || cfg.epilogue.stages_d)
      why.reject([] { return diag(Code::sm80_epilogue); });
    const DType c = engine_c_type(cfg);
    if (c == DType::Void) why.reject([] { return diag(Code::engine_sm89_void_c); });

    p.auto_stages = false;
    p.stages = cfg.stages.value_or(0);
    const long long M = cfg.m, N = cfg.n, K = cfg.k;
    const long long wm = cfg.warp ? (*cfg.warp)[0] : 0, wn = cfg.warp ? (*cfg.warp)[1] : 0,
                    wk = cfg.warp ? (*cfg.warp)[2] : 0;
    if (M <= 0 || N <= 0 || K <= 0 || wm <= 0 || wn <= 0 || wk <= 0 || !cfg.stages) {
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }
    if (M % wm != 0 || N % wn != 0 || K % wk != 0) {
      why.reject([&] {
        return diag(Code::sm80_tile_not_divisible_by_warp)
            .integer("tile_m", M)
            .integer("tile_n", N)
            .integer("tile_k", K)
            .integer("warp_m", wm)
            .integer("warp_n", wn)
            .integer("warp_k", wk)
            .flag("in_k_only", M % wm == 0 && N % wn == 0)
            .flag("default_warp", false);
      });
      p.sizes_known = false;
      p.take(std::move(why));
      return p;
    }
    // kWarpGemmIterations = Wk / InstructionK must be > 1 and even (gemm/threadblock/mma_base.h:116-133);
    // the warp tile is a whole number of m16n8k32 instructions.
    const long long iters = wk / kInstrK;
    if (wk % kInstrK != 0 || iters < 2 || iters % 2 != 0)
      why.reject([&] {
        return diag(Code::sm80_warp_k_iterations)
            .integer("warp_k", wk)
            .integer("iterations", iters)
            .integer("instr_k", kInstrK);
      });
    if (wm % kInstrM != 0 || wn % kInstrN != 0)
      why.reject([&] {
        return diag(Code::sm80_warp_tile_instruction)
            .integer("warp_m", wm)
            .integer("warp_n", wn)
            .integer("warp_k", wk)
            .integer("instr_m", kInstrM)
            .integer("instr_n", kInstrN)
            .integer("instr_k", kInstrK);
      });
    Sm89EngineLayout s;
    s.m = M;
    s.n = N;
    s.k = K;
    s.warps_m = M / wm;
    s.warps_n = N / wn;
    s.partitions_k = K / wk;
    s.warp_n = wn;
    const long long threads = 32 * s.warps_m * s.warps_n * s.partitions_k;
    if (threads > 1024)
      why.reject([&] { return diag(Code::sm80_too_many_threads).integer("threads", threads); });
    // The base epilogue's output op is LinearCombination<ElementC, AlignmentC>: vLLM float with 4
    // per access, SGLang (and an explicit c) 128 / bits(C) per access.
    const int c_bits = bits(c) > 0 ? bits(c) : 32;
    const int c_per_access = 128 / c_bits;
    s.fragments_per_iteration =
        s.partitions_k == 1 ? default_fragments_per_iteration(c == DType::Void ? DType::F32 : c,
                                                              DType::F32, c_per_access)
                            : 1;

    if (explain) {
      engine_entry_point(p.kernel, cfg);
      p.kernel.add(KernelText::engine_sm89_gemm)
          .integer("tile_m", M)
          .integer("tile_n", N)
          .integer("tile_k", K)
          .integer("warp_m", wm)
          .integer("warp_n", wn)
          .integer("warp_k", wk)
          .integer("stages", p.stages)
          .name("swizzle", cfg.launcher == Launcher::Vllm ? "ThreadblockSwizzleStreamK"
                                                          : "GemmIdentityThreadblockSwizzle")
          .dtype("c", c)
          .integer("c_per_access", c_per_access)
          .integer("fragments", s.fragments_per_iteration);
      const Sizes st = assemble<Extent>(cfg, s, p.stages);
      note_union_epilogue_larger(why, st);
    }
    finish(p, s, std::move(why));
    return p;
  }
};

}  // namespace

const KernelFamily& engine_fp8_sm89_family() { return the_family<EngineFp8Sm89>(); }

}  // namespace tilefit::model
