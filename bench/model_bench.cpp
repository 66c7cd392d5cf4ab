// How many configs per second the model evaluates, in three forms per config:
//   Verdict   evaluate(..., Detail::verdict): family inference, the builder's stage count, the
//             SharedStorage layout and the max_stages search — numbers only (the sweep path);
//   Full      evaluate(..., Detail::full): also the breakdown, the kernel name and every typed
//             diagnostic (no text);
//   Explained Full plus every diagnostic's message written by the report layer (what `check`
//             prints: "with explanations").
#include <benchmark/benchmark.h>

#include "model/triton_gemm.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace {

using namespace tilefit::model;

KernelConfig config(int arch, long long m, long long n, long long k, const char* op, bool grouped,
                    EpilogueVariant epi) {
  KernelConfig c;
  c.name = "bench";
  c.arch = arch;
  c.m = m;
  c.n = n;
  c.k = k;
  c.a = c.b = *parse_operand(op);
  c.grouped = grouped;
  c.epilogue.variant = epi;
  return c;
}

enum class Form { verdict, full, explained };

void run(benchmark::State& state, const KernelConfig& c, Form form) {
  const Limits lim = find_arch(c.arch)->limits;
  for (auto _ : state) {
    Result r = evaluate(c, lim, form == Form::verdict ? Detail::verdict : Detail::full);
    if (form == Form::explained)
      for (const Diagnostic& d : r.diagnostics) {
        std::string m = tilefit::report::message(d);
        benchmark::DoNotOptimize(m);
      }
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

// The story's FINALIZE tile (does not fit: the most diagnostics).
KernelConfig sm120_moe_finalize() {
  return config(120, 128, 256, 128, "nvfp4", true, EpilogueVariant::Finalize);
}
KernelConfig sm120_blockscaled() {
  return config(120, 128, 128, 128, "nvfp4", false, EpilogueVariant::Auto);
}
KernelConfig sm90_tma() { return config(90, 128, 256, 64, "bf16", false, EpilogueVariant::Tma); }
// Doc §5.7 A: dense bf16 1SM UMMA 128x256x64 on B200, auto epilogue.
KernelConfig sm100() { return config(100, 128, 256, 64, "bf16", false, EpilogueVariant::Auto); }
// Doc §6.2: 2.x multistage f16 (f32 accumulate, f16 C/D) 128x256x64 / warp 64x64x64, 3 stages.
KernelConfig sm80() {
  KernelConfig c = config(80, 128, 256, 64, "f16", false, EpilogueVariant::Auto);
  c.warp = {{64, 64, 64}};
  c.c = c.d = DType::F16;
  c.stages = 3;
  return c;
}

// Triton: vLLM's fused-MoE kernel, fp8_w8a8 block-wise [128, 128], 64x128x128, num_warps 4,
// num_stages 4, on an RTX 5090 (sm_120): does not fit (the H100 entry of the README's example).
// decide() answers every layout-conversion question once (the linear-layout swizzle search);
// the max_stages search then runs only Triton's allocator.
KernelConfig triton_fused_moe() {
  KernelConfig c = config(120, 64, 128, 128, "e4m3", false, EpilogueVariant::Auto);
  c.family = "triton_fused_moe";
  c.fp8_w8a8 = true;
  c.block_shape = std::array<long long, 2>{128, 128};
  c.num_warps = 4;
  c.stages = 4;
  return c;
}

#define TILEFIT_BENCH(name, make)                                                      \
  void BM_##name##_Verdict(benchmark::State& s) { run(s, make(), Form::verdict); }     \
  void BM_##name##_Full(benchmark::State& s) { run(s, make(), Form::full); }           \
  void BM_##name##_Explained(benchmark::State& s) { run(s, make(), Form::explained); } \
  BENCHMARK(BM_##name##_Verdict);                                                      \
  BENCHMARK(BM_##name##_Full);                                                         \
  BENCHMARK(BM_##name##_Explained);

TILEFIT_BENCH(Sm120MoeFinalize, sm120_moe_finalize)
TILEFIT_BENCH(Sm120BlockScaled, sm120_blockscaled)
TILEFIT_BENCH(Sm90Tma, sm90_tma)
TILEFIT_BENCH(Sm100, sm100)
TILEFIT_BENCH(Sm80, sm80)
TILEFIT_BENCH(TritonFusedMoe, triton_fused_moe)

// The same Triton config with its layout-conversion answers forgotten before every evaluation:
// the cost of a config whose BLOCK_SIZE_M/N, num_warps and types were never seen before (the
// swizzle searches of the epilogue and scale conversions run).
void BM_TritonFusedMoe_VerdictCold(benchmark::State& state) {
  const KernelConfig c = triton_fused_moe();
  const Limits lim = find_arch(c.arch)->limits;
  for (auto _ : state) {
    tilefit::model::triton::clear_layout_memo();
    Result r = evaluate(c, lim, Detail::verdict);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TritonFusedMoe_VerdictCold);

}  // namespace

BENCHMARK_MAIN();
