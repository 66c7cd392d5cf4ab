// One error of the config reader, and its one-line text (src/io/config_error.cpp).
//
// Errors read like (one line each):
//   configs/x.json: config #2 "moe_big": field "tile": 0 is not a valid tile extent;
//     allowed: integers 1..65536 (or "MxNxK")
//   configs/x.json: not JSON: syntax error at line 3, column 7: unexpected '}'; expected
//     string literal
#pragma once

#include <string>

namespace tilefit::io {

struct ConfigError {
  std::string file;         ///< path as given on the command line ("<stdin>" for -)
  int index = -1;           ///< config index in the array (0-based); -1 = the file as a whole
  std::string config_name;  ///< the config's "name" if it has a readable one, else "#<index>"
  std::string field;        ///< JSON field ("tile", "epilogue.stages_c", ...); empty for file-level
  std::string message;      ///< what is wrong, with the offending value and what is allowed
};

/// One line: `FILE: config #I "NAME": field "F": MESSAGE`; the config part is left out for
/// file-level errors, the name when it is the default `#I`, the field part when empty.
/// Names and fields are printed as JSON strings (escaped), names cut to 40 bytes.
std::string format_error(const ConfigError& e);

}  // namespace tilefit::io
