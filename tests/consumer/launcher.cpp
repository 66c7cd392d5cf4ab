// The README's launcher example: before GemmUniversalAdapter::initialize(), ask tilefit whether
// the tile fits the GPU it is about to run on, and say why not in one line.
// Usage: launcher '<config JSON>' [arch]   (exit 0: fits, 1: does not fit, 2: bad input)
#include <cstdio>

#include <tilefit/tilefit.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: launcher CONFIG_JSON [ARCH]\n");
    return 2;
  }
  try {
    const tilefit::Analysis a = tilefit::analyze(argv[1], argc > 2 ? argv[2] : "");
    if (!a.fits) {
      std::fprintf(stderr, "tilefit %s: %s\n", tilefit::version().data(), a.diagnostics.front().message.c_str());
      return 1;
    }
    std::printf("fits: %lld B of %lld B, %d stages\n", static_cast<long long>(*a.smem_bytes),
                static_cast<long long>(a.limit_bytes), a.stages);
    return 0;  // ... gemm.initialize(args, workspace); gemm.run();
  } catch (const tilefit::InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
