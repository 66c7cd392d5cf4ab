// sm100_umma's phrasing functions (diagnostics.def; src/model/diagnostics/phrasing.hpp), with
// the CUTLASS source each one cites.
#include "../../diagnostics/phrasing.hpp"

namespace tilefit::model::phrasing {

std::string claim_sm100_umma(const Diagnostic& d) {
  const Phrase x(d);
  return "inferred: " + x.v("arch") + ": UMMA kernel (CUTLASS 3.x sm100 " +
         (x.on("block_scaled") ? "block-scaled " : "") + "builder)";
}

std::string sm100_blockscaled_tile_m(const Diagnostic& d) {
  const Phrase x(d);
  const bool two = x.on("two_sm");
  return std::string("block-scaled ") + (two ? "2SM" : "1SM") + " MMA tile M = " + x.v("tile_m") +
         ": must be " + (two ? "256" : "128") +
         " (static_assert \"Invalid TileShape_M.\", sm100_common.inl:" + (two ? "888" : "827") +
         ")";
}

std::string sm100_unpacked_f4f6(const Diagnostic& d) {
  const Phrase x(d);
  return std::string(
             "fp4/fp6 operands unpacked to 8 bits in smem need K % 128 == 0 (K-major) "
             "or M/N % 128 (") +
         (x.on("two_sm") ? "N % 256 for 2SM" : "1SM") +
         ") when MN-major: static_assert \"TileSize and MNK Major does not met with MMA Mix "
         "8-bit TMA load requirement\" (sm100_umma_builder.inl:217, "
         "sm100_blockscaled_umma_builder.inl:168; the check: sm1xx_common.inl:203-364)";
}

std::string sm100_auto_epilogue_mismatch(const Diagnostic& d) {
  const Phrase x(d);
  return std::string("EpilogueScheduleAuto picks TmaWarpSpecialized") +
         (x.on("epilogue_2sm") ? "2Sm" : "1Sm") + " (cluster M " + x.v("cluster_m") + ", MMA M " +
         x.v("tile_m") + ", sm100_builder.inl:1698-1715) while the mainloop is " +
         (x.on("mainloop_2sm") ? "2SM" : "1SM") +
         "; pass epilogue \"tma\" to pair the matching epilogue";
}

}  // namespace tilefit::model::phrasing
