// How many configs per second the model evaluates (design.md: "millions of configs per
// second"). Each iteration is a full evaluate(): family inference, the builder's stage count,
// the SharedStorage layout, the max_stages search and the notes.
#include <benchmark/benchmark.h>

#include "tilefit/model/evaluate.hpp"

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

void run(benchmark::State& state, const KernelConfig& c) {
  const Limits lim = find_arch(c.arch)->limits;
  for (auto _ : state) {
    Result r = evaluate(c, lim);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Sm120MoeFinalize(benchmark::State& s) {
  run(s, config(120, 128, 256, 128, "nvfp4", true, EpilogueVariant::Finalize));
}
void BM_Sm120Dense(benchmark::State& s) {
  run(s, config(120, 128, 128, 128, "nvfp4", false, EpilogueVariant::Auto));
}
void BM_Sm90Tma(benchmark::State& s) {
  run(s, config(90, 128, 256, 64, "bf16", false, EpilogueVariant::Tma));
}

// Doc §5.7 A: dense bf16 1SM UMMA 128x256x64 on B200, auto epilogue.
void BM_Sm100(benchmark::State& s) {
  run(s, config(100, 128, 256, 64, "bf16", false, EpilogueVariant::Auto));
}
// Doc §6.2: 2.x multistage f16 (f32 accumulate, f16 C/D) 128x256x64 / warp 64x64x64, 3 stages.
void BM_Sm80(benchmark::State& s) {
  KernelConfig c = config(80, 128, 256, 64, "f16", false, EpilogueVariant::Auto);
  c.warp = {{64, 64, 64}};
  c.c = c.d = DType::F16;
  c.stages = 3;
  run(s, c);
}

BENCHMARK(BM_Sm120MoeFinalize);
BENCHMARK(BM_Sm120Dense);
BENCHMARK(BM_Sm90Tma);
BENCHMARK(BM_Sm100);
BENCHMARK(BM_Sm80);

}  // namespace

BENCHMARK_MAIN();
