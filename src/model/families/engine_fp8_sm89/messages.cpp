// engine_fp8_sm89's phrasing functions (diagnostics.def; src/model/diagnostics/phrasing.hpp).
#include "../../diagnostics/phrasing.hpp"

namespace tilefit::model::phrasing {

std::string engine_sm89_warp_and_stages(const Diagnostic& d) {
  const Phrase x(d);
  const bool warp = x.on("warp"), stages = x.on("stages");
  return std::string("the engines' sm_89 (CUTLASS 2.x) kernels are instantiated with a ") +
         (!warp && !stages ? "warp tile and a stage count"
          : !warp          ? "warp tile"
                           : "stage count") +
         ": give " +
         (!warp && !stages ? "\"warp\" and \"stages\""
          : !warp          ? "\"warp\""
                           : "\"stages\"") +
         " (2.x has no automatic stage count)";
}

}  // namespace tilefit::model::phrasing
