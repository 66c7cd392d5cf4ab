// What `tilefit sweep` prints, as it comes (every format streams; nothing is held).
//
// table (one column per varying field):
//   NAME      TILE           STAGES  ARCH    STAGES  MAX  SMEM / LIMIT (B)  HEADROOM  CTAs/SM  VERDICT
//   moe@0     [128,64,128]   "auto"  sm_120  5 auto    5    93184 / 101376      8192        1  fits
//   …
//   288 candidates: 120 fit, 100 do not fit, 68 invalid; 120 listed
// markdown: the same as a GitHub table; csv: tilefit/report/csv.hpp rows;
// json: {"schema_version", "tool", "command": "sweep", "target", "results": [{…check's result…,
//   "alternatives": {"tile": [128,64,128], "stages": "auto"}, "config": {…}}], "errors", "summary"}
// With several architectures, table and Markdown show one column per architecture ("fits (4)").
// svg: the shared-memory map (tilefit/report/sweep_map_svg.hpp), written at finish().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/analysis/sweep.hpp"
#include "tilefit/report/sweep_writer.hpp"

namespace tilefit::report {

/// "288 candidates: 120 fit, 100 do not fit, 68 invalid; 120 listed[; 1 error]".
std::string sweep_summary(const analysis::SweepTally& t, std::size_t errors);

}  // namespace tilefit::report
