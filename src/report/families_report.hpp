// `tilefit families`: the kernel families the model covers, from the one family table
// (tilefit/model/family_table.hpp). Samples:
//
// families_text (one line per family, in inference order):
//   engine_fp8_sm89     vLLM / SGLang FP8 scaled_mm on Ada (sm_89): CUTLASS 2.x ...
//   ...
//   sm80_multistage     CUTLASS 2.x device::Gemm, cp.async multistage mainloop ...
//
// families_json: {"schema_version": 1, "families": [{"name": "engine_fp8_sm89",
//   "kind": "engine CUTLASS", "description": "...", "archs": ["sm_89"],
//   "mirrors": "vLLM @1051220e, SGLang @04ec0bc2; CUTLASS 4.7.0 (7107b05)"}, ...]}
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tilefit::report {

std::string families_text();

nlohmann::ordered_json families_json();

}  // namespace tilefit::report
