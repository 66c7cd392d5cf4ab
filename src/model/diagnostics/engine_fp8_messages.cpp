// The phrasing functions of the inference-engine launchers' codes (engine_fp8.def;
// phrasing.hpp), with the vLLM, SGLang and CUTLASS sources each one cites.
#include "phrasing.hpp"
#include "tilefit/model/engine_fp8.hpp"

namespace tilefit::model::phrasing {
namespace {

/// "vLLM" / "SGLang" for a launcher name value.
std::string engine_name(std::string_view launcher) {
  if (launcher == "vllm") return "vLLM";
  if (launcher == "sglang") return "SGLang";
  return literal(launcher);
}

/// The engine family of a claim_engine_fp8 diagnostic's arch.
std::string engine_family_of(const Phrase& x) {
  return literal(engine_family_for(static_cast<int>(x.n("arch"))));
}

/// Which static_assert an engine_scale_granularity diagnostic quotes, by arch.
std::string scale_granularity_source(const Phrase& x) {
  const long long sm = x.n("arch");
  if (sm == 90)
    return "static_assert \"FP8 scaling granularity must evenly divide tile shape along " +
           x.v("axis") + ".\", sm90_gmma_builder.inl:1151-1152";
  if (sm == 120 || sm == 121)
    return "static_assert \"Scale Granularity " + x.v("axis") +
           " must evenly divide the tile shape " + x.v("axis") +
           ".\", sm120_blockwise_mma_builder.inl:199-200";
  return "static_assert \"Scale Granularity " + x.v("axis") +
         " must divide Tile Shape\", sm100_mma_warpspecialized_blockwise_scaling.hpp:132-142";
}

}  // namespace

std::string claim_engine_fp8(const Diagnostic& d) {
  const Phrase x(d);
  return "inferred: launcher " + engine_name(x.t("launcher")) + " with op " + x.v("op") + " on " +
         x.v("arch") + ": the engine's own kernel (" + engine_family_of(x) + ")";
}

std::string engine_no_kernel(const Diagnostic& d) {
  const Phrase x(d);
  return engine_name(x.t("launcher")) + " has no " + x.v("op") + " kernel for " + x.v("arch") +
         " (the engines' blockwise FP8 GEMMs start at sm_90; CUTLASS 2.x on sm_89 is scaled_mm "
         "only)";
}

std::string engine_scale_granularity(const Diagnostic& d) {
  const Phrase x(d);
  return "tile " + x.v("axis") + " = " + x.v("tile") +
         " is not a multiple of the scale granularity " + x.v("granularity") + " (" +
         scale_granularity_source(x) + ")";
}

std::string engine_scale_k(const Diagnostic& d) {
  const Phrase x(d);
  return "tile K = " + x.v("tile_k") + " with scale granularity K " + x.v("scale_k") + ": " +
         (x.n("arch") == 90
              ? "K must equal the granularity, a multiple of 128 (static_asserts K % "
                "ScaleGranularityK == 0, "
                "\"ScalePromotionInterval must be a multiple of 4.\", \"... greater than or equal "
                "to the "
                "number of stages of the MMA atom.\", "
                "sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:127-135)"
              : "static_assert \"Scale Granularity K must be equal to the tile shape K.\" "
                "(sm120_blockwise_mma_builder.inl:201)");
}

std::string engine_c_from_launcher(const Diagnostic& d) {
  const Phrase x(d);
  return engine_name(x.t("launcher")) + " passes ElementC = " + x.v("c") +
         " although it never reads C" +
         (x.on("reuse")
              ? ": the epilogue shares one C/D buffer (ReuseSmemC) with StagesC > StagesD, "
                "more shared memory than a void C; \"c\": null models the C-less wrapper"
              : "");
}

}  // namespace tilefit::model::phrasing
