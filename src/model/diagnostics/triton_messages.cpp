// The phrasing functions of the Triton rule library's codes (triton.def; phrasing.hpp).
// Paths relative to the Triton repository at acd8104 (the 3.6.0 wheel's sources).
#include "phrasing.hpp"

namespace tilefit::model::phrasing {

std::string triton_mma_fallback(const Diagnostic& d) {
  const Phrase x(d);
  const std::string_view why = x.t("reason");
  std::string reason;
  if (why == "num_warps")
    reason = "num_warps " + x.v("num_warps") +
             (x.t("instruction") == "wgmma" ? " is not a multiple of 4" : " is not 4 or 8");
  else if (why == "tile_m")
    reason = "BLOCK_SIZE_M " + x.v("tile_m") + " is not a multiple of 64";
  else if (why == "int8")
    reason =
        "the dot is i8 x i8 -> i32, which Triton 3.6 does not give to tcgen05 (supportMMA's "
        "version-5 check; measured: mma.sync on sm_100 and sm_103)";
  else if (why == "tile_n")
    reason = "BLOCK_SIZE_N " + x.v("tile_n") + " is not a multiple of 16";
  else
    reason = "BLOCK_SIZE_K " + x.v("tile_k") + " is below " + x.v("min_k");
  return x.v("arch") + " cannot use " + x.v("instruction") + " here: " + reason +
         " (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:34-70, "
         "lib/Analysis/Utility.cpp:863-928); tl.dot runs as mma.sync with a cp.async pipeline "
         "of num_stages - 1 buffers";
}

std::string triton_operand_not_pipelined(const Diagnostic& d) {
  const Phrase x(d);
  return x.v("operand") + "'s loads are " + x.v("bits_per_thread") +
         " bits per thread (< 32): the pipeliner does not multi-buffer it "
         "(Pipeliner/AssignLatencies.cpp:100-148, LowerLoops.cpp:472-497); " +
         (x.on("smem") ? "it is staged through shared memory once per iteration"
                       : "its conversion to the dot operand stays in registers");
}

}  // namespace tilefit::model::phrasing
