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

BENCHMARK(BM_Sm120MoeFinalize);
BENCHMARK(BM_Sm120Dense);
BENCHMARK(BM_Sm90Tma);

}  // namespace

BENCHMARK_MAIN();
