// sm90_tma_ws's phrasing functions (diagnostics.def; src/model/diagnostics/phrasing.hpp).
#include "../../diagnostics/phrasing.hpp"

namespace tilefit::model::phrasing {

std::string sm90_epilogue_tile_shape(const Diagnostic& d) {
  const Phrase x(d);
  return "an explicit SM90 epilogue tile needs M = " + x.v("epilogue_m") +
         (x.on("pingpong") ? " (pingpong)" : " (cooperative)") +
         " and N a multiple of 16 (sm90_builder.inl:154-165)";
}

}  // namespace tilefit::model::phrasing
