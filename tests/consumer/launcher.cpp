// The README's launcher example: before GemmUniversalAdapter::initialize(), ask tilefit whether
// the tile fits the GPU it is about to run on, and say why not.
// Usage: launcher '<config JSON>' [arch]   (exit 0: fits, 1: does not fit, 2: bad input)
#include <cstdio>

#include <tilefit/tilefit.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: launcher CONFIG_JSON [ARCH]\n"), 2;
  try {
    const tilefit::Analysis a = tilefit::analyze(argv[1], argc > 2 ? argv[2] : "");
    std::printf("%s on %s: %lld B of %lld B at %d stages (%s); at most %d fit\n", a.status.c_str(),
                a.arch.c_str(), static_cast<long long>(a.smem_bytes.value_or(0)),
                static_cast<long long>(a.limit_bytes), a.stages, a.auto_stages ? "the builder's" : "given",
                a.max_stages);
    if (!a.fits) {
      for (const tilefit::Message& m : a.diagnostics) std::fprintf(stderr, "  %s\n", m.message.c_str());
      return 1;  // do not call gemm.initialize(): it would return kErrorInternal
    }
    return 0;  // gemm.initialize(args, workspace); gemm.run();
  } catch (const tilefit::InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());  // names the field: "tile", "dtype", ...
    return 2;
  }
}
