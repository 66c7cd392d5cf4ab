// `tilefit archs`: the built-in architecture table. Sample (archs_text):
//
//   ARCH     OPT-IN/BLOCK    PER SM  RESERVED   DEFAULT  CTAs/SM  REGS/SM   THR/SM  EXAMPLES
//   sm_90          232448    233472      1024     49152       32    65536     2048  H100, H200, H20
//   ...
//   Bytes. Sources: CCCL arch_traits.h and CUTLASS arch.h / library.py (see `--format json`);
//   a GPU's own answer (`tilefit device`) wins over this table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tilefit::report {

std::string archs_text();

/// {"schema_version", "archs": [{"arch", "examples", "sm", ...limits, "source"}]}.
nlohmann::ordered_json archs_json();

}  // namespace tilefit::report
