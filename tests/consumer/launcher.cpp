// The README's launcher example: before GemmUniversalAdapter::initialize(), ask tilefit whether
// the tile fits the GPU it is about to run on, and say why not.
// Usage: launcher '<config JSON>' [arch | device]   (exit 0: fits, 1: does not fit, 2: bad input,
// 3: no GPU to ask; `device` only when built with CONSUMER_WITH_DEVICE and tilefit::device).
// C++17: the public header needs nothing newer.
#include <cstdio>
#include <string_view>

#include <tilefit/tilefit.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: launcher CONFIG_JSON [ARCH]\n"), 2;
  try {
    const std::string_view arch = argc > 2 ? argv[2] : "";
#ifdef CONSUMER_WITH_DEVICE
    // "device": the limits GPU 0 reports (tilefit::device), for the config read as it is.
    const tilefit::Analysis a = arch == "device" ? tilefit::analyze(tilefit::read_config(argv[1]),
                                                                    tilefit::device_limits(0))
                                                 : tilefit::analyze(argv[1], arch);
#else
    const tilefit::Analysis a = tilefit::analyze(argv[1], arch);
#endif
    std::printf("%s on %s: %lld B of %lld B at %d stages (%s); at most %d fit\n", a.status.c_str(),
                a.arch.c_str(), static_cast<long long>(a.smem_bytes.value_or(0)),
                static_cast<long long>(a.limit_bytes), a.stages,
                a.auto_stages ? "the builder's" : "given", a.max_stages);
    if (!a.fits) {
      for (const tilefit::Message& m : a.diagnostics)
        std::fprintf(stderr, "  %s\n", m.message.c_str());
      return 1;  // do not call gemm.initialize(): it would return kErrorInternal
    }
    return 0;  // gemm.initialize(args, workspace); gemm.run();
  } catch (const tilefit::InputError& e) {
    std::fprintf(stderr, "%s [field: %s]\n", e.what(),
                 e.field().c_str());  // names the field: "tile", ...
    return 2;
  } catch (const tilefit::DeviceError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 3;
  }
}
