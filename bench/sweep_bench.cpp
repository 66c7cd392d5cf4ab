// Sweep throughput (Google Benchmark): the 1,000,000 candidates of bench/sweep_space.json on
// the verdict path (what `tilefit sweep` does before it writes a line), into a sink that counts.
// bench/time_sweep.sh times the whole process with CSV output.
#include <benchmark/benchmark.h>

#include "tilefit/analysis/sweep.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/space.hpp"

namespace {

using namespace tilefit;

class CountingSink final : public analysis::SweepSink {
 public:
  void result(const io::ConfigSpace&, std::uint64_t,
              std::span<const analysis::Entry> entries) override {
    listed += entries.size();
  }
  std::uint64_t listed = 0;
};

void BM_Sweep_1M(benchmark::State& state) {
  const io::SpaceLoad load =
      io::load<io::SpaceLoad>(io::Source::file(TILEFIT_BENCH_DIR "/sweep_space.json"));
  if (!load.errors.empty()) {
    state.SkipWithError("bench/sweep_space.json did not read");
    return;
  }
  analysis::SweepOptions options;
  options.request.mode = analysis::TargetRequest::Mode::builtin;
  std::uint64_t candidates = 0;
  for (auto _ : state) {
    CountingSink sink;
    std::vector<analysis::Problem> problems;
    const analysis::SweepTally t =
        analysis::run_sweep(load.spaces, options, device::system_devices(), sink, problems);
    candidates += t.candidates;
    benchmark::DoNotOptimize(sink.listed);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(candidates));
}
BENCHMARK(BM_Sweep_1M)->Unit(benchmark::kMillisecond);

}  // namespace
