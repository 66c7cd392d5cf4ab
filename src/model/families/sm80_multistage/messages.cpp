// sm80_multistage's phrasing functions (diagnostics.def; src/model/diagnostics/phrasing.hpp),
// with the CUTLASS 2.x source each one cites.
#include <string>

#include "../../diagnostics/phrasing.hpp"

namespace tilefit::model::phrasing {
namespace {

std::string thread_map_failure(std::string_view id) {
  if (id == "narrower") return "the tile is narrower than one 128-bit access per warp thread row";
  if (id == "vector_length") return "\"Shape must be divisible by vector length.\"";
  if (id == "warp_arrangement")
    return "\"ShapeInAccesses must be divisible by WarpThreadArrangement.\"";
  if (id == "iterations") return "\"Number of iterations must be non-zero\"";
  return literal(id);
}

}  // namespace

std::string sm80_tile_not_divisible_by_warp(const Diagnostic& d) {
  const Phrase x(d);
  std::string m = "tile " + x.v("tile_m") + "x" + x.v("tile_n") + "x" + x.v("tile_k") +
                  " is not divisible by the warp tile " + x.v("warp_m") + "x" + x.v("warp_n") +
                  "x" + x.v("warp_k");
  if (!x.on("in_k_only"))
    m += " (static_assert \"Threadblock-scoped GEMM should be divisible by warp-scoped GEMM "
         "size.\", gemm/threadblock/default_mma_core_sm80.h:1414-1416)";
  else
    m += " in K (kPartitionsK = K / Wk, gemm/kernel/default_gemm.h:370, would drop part of "
         "every K slice)";
  if (x.on("default_warp"))
    m += "; no warp tile was given, so device::Gemm's default WarpShape 64x64x64 "
         "(gemm/device/default_gemm_configuration.h:468) applies: give `warp`";
  return m;
}

std::string sm80_too_many_threads(const Diagnostic& d) {
  const Phrase x(d);
  return std::to_string(x.n("threads") / 32) + " warps = " + x.v("threads") +
         " threads per CTA; a CTA has at most 1024";
}

std::string sm80_operand_thread_map(const Diagnostic& d) {
  const Phrase x(d);
  return "operand " + x.v("operand") + ": the cp.async global-load thread map (" + x.v("threads") +
         " threads) fails static_assert " + thread_map_failure(x.t("failure")) +
         " (transform/pitch_linear_thread_map.h:250-300)";
}

std::string sm80_epilogue_thread_map(const Diagnostic& d) {
  const Phrase x(d);
  const std::string_view f = x.t("failure");
  if (f == "column_iterations")
    return "the epilogue's output thread map has no column iteration (" + x.v("warps") +
           " warps share each 8-row slice of a " + x.v("tile_n") +
           "-wide tile; static_assert \"ThreadMap::Iterations::kColumn must be > 0\", "
           "epilogue/threadblock/predicated_tile_iterator.h:103)";
  const std::string where = " (" + x.v("warps") + " warps share each 8-row slice; " +
                            "epilogue/threadblock/output_tile_thread_map.h:260-262)";
  if (f == "iteration_count_column")
    return "the epilogue's output thread map fails static_assert \"Iteration Count Column must "
           "be > 0\"" +
           where;
  if (f == "too_many_elements")
    return "the epilogue's output thread map fails static_assert \"Accessing too many elements "
           "per access\"" +
           where;
  return "the epilogue's output thread map fails static_assert \"Iteration Count Row must be "
         "> 0\"" +
         where + ": use fewer warps along N or a wider tile";
}

}  // namespace tilefit::model::phrasing
