// engine_fp8_sm100's phrasing functions (diagnostics.def; src/model/diagnostics/phrasing.hpp).
#include "../../diagnostics/phrasing.hpp"

namespace tilefit::model::phrasing {

std::string engine_sm100_tile_n(const Diagnostic& d) {
  const Phrase x(d);
  return std::string(x.on("two_sm") ? "2SM" : "1SM") + " MMA tile N = " + x.v("tile_n") +
         ": must be a multiple of 8 up to 256 (static_assert \"Invalid TileShape_N.\", "
         "sm100_common.inl:" +
         (x.on("two_sm") ? "379" : "313") + ")";
}

}  // namespace tilefit::model::phrasing
