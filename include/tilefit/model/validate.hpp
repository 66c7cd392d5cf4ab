// What every front end checks about a typed config, in one place (src/model/validate.cpp):
// the ranges of its numbers (tile, cluster and warp extents, stage counts, the epilogue's tile
// and stages, the Triton counts) and the combinations that read the same whatever the config
// came from (the epilogue's output scale factors belong to blockscale_out). Config files, tuned
// tables, kernel names, sweep candidates, the C++ API and the C ABI all call it, so one bad
// value gives one message, e.g. (as the reader prints it, field and message from here):
//   <config>: config #0 "x": field "stages": 0 is not a valid stage count; allowed: "auto" or
//     integers 1..4096
// Pure: no I/O, nothing thrown.
#pragma once

#include <string>
#include <vector>

#include "tilefit/model/config.hpp"

namespace tilefit::model {

/// One thing wrong with a config: the config-file field at fault ("tile", "epilogue.sf_vec")
/// and what is wrong with it, with the offending value and what is allowed.
struct ConfigIssue {
  std::string field;
  std::string message;
  bool operator==(const ConfigIssue&) const = default;
};

/// Every issue of `cfg`, in the config format's field order; empty when it is valid. A config
/// the reader decoded never has a range issue (the reader refuses the JSON value first); the
/// combination issues are the reader's own.
std::vector<ConfigIssue> validate(const KernelConfig& cfg);

}  // namespace tilefit::model
