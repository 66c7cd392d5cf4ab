// A config back as JSON: the canonical text of one KernelConfig in the config-file format, so
// that what sweep and suggest print can be fed back to `tilefit check` and gives the same result
// (tests/config_writer_test.cpp reads every written config back).
//
//   {"name":"moe@3","arch":"sm_120","kernel":"sm120_blockscaled","tile":[128,256,128],
//    "a":"nvfp4","b":"nvfp4","d":"bf16","layout":"tnt","epilogue":"finalize","grouped":true,
//    "stages":2}
#pragma once

#include <string>

#include "tilefit/model/config.hpp"

namespace tilefit::io {

/// Compact JSON of `cfg` (one config object). Fields at their defaults are left out, except
/// name, arch, tile, a, b, d and layout, which are always written. `arch` 0 (not given) is left
/// out too.
std::string config_json(const model::KernelConfig& cfg);

/// config_json(cfg) as one CSV field: quoted, every quote doubled (written that way, not escaped
/// afterwards).
std::string config_json_csv(const model::KernelConfig& cfg);

/// Appends `s` as a JSON string literal (quotes and escapes) to `out`.
void append_json_string(std::string& out, std::string_view s);

}  // namespace tilefit::io
