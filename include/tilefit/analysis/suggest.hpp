// `tilefit suggest` as a library: for a config that does not fit (or cannot be built because its
// stage count is below the collective's minimum), the nearest alternatives that fit.
//
// The moves, each a distance (how much it changes the kernel; smaller is nearer):
//   1  fewer stages: the largest stage count that fits (StageCount<N>, kStages, num_stages);
//   2  swap_ab (TensorRT-LLM's MoE epilogues), a smaller epilogue tile (N or M halved),
//      cooperative <-> pingpong (SM90, SM120), 1SM <-> 2SM (SM100);
//   3  tile K halved;  4  tile N halved, tile M halved.
// A move that fits only with fewer stages as well costs one more. Ranked by distance, then by
// more stages, then by more shared memory used (the closest fit); at most `max` suggestions,
// none equal to another.
#pragma once

#include <string>
#include <vector>

#include "tilefit/model/config.hpp"
#include "tilefit/model/evaluate.hpp"

namespace tilefit::analysis {

/// One field a suggestion changes, with its value before and after (as the config writes them).
struct FieldChange {
  std::string field;  ///< "stages", "tile.k", "swap_ab", "epilogue.tile", "schedule"
  std::string from, to;
};

struct Suggestion {
  model::KernelConfig config;        ///< the changed config (named "<name>~<rank>")
  std::vector<FieldChange> changes;  ///< what changed
  int distance = 0;
  model::Result result;  ///< it fits
  model::Bytes saved_bytes =
      0;  ///< the original's bytes (or what its builder pick needs) minus these
};

/// Whether `r` is a result suggest works on: does_not_fit, or invalid only because its explicit
/// stage count is below the minimum.
bool wants_suggestions(const model::Result& r);

/// The nearest alternatives of `cfg` that fit `limits` (empty when none of the moves fits).
/// `original` is evaluate(cfg, limits).
std::vector<Suggestion> suggest(const model::KernelConfig& cfg, const model::Limits& limits,
                                const model::Result& original, std::size_t max = 5);

}  // namespace tilefit::analysis
