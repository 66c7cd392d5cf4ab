// `tilefit sweep` as a library: every candidate of every space (io/space.hpp), on every target,
// evaluated on the fast path (model::Detail::verdict) and handed to a sink as it comes — memory
// stays bounded whatever the number of candidates, unless a sort asks to hold them (then only
// the listed ones, 32 B each, or the best `top`).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/target.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/space.hpp"

namespace tilefit::analysis {

/// What a tuner sorts by. stages: most stages first; bytes: fewest smem bytes first; headroom:
/// least headroom first (the tightest fit); tile: largest M·N·K first. Ties keep sweep order.
enum class SortKey { none, stages, bytes, headroom, tile };

struct SweepOptions {
  TargetRequest request;
  bool all = false;  ///< list every candidate, not only those that fit
  /// How much each listed result carries (full: diagnostics and breakdown, for JSON).
  model::Detail detail = model::Detail::verdict;
  SortKey sort = SortKey::none;
  bool reverse = false;   ///< the other way round
  std::uint64_t top = 0;  ///< with a sort: only the best `top` (0: all)
};

/// Receives the listed candidates.
class SweepSink {
 public:
  virtual ~SweepSink() = default;
  /// One listed candidate of `space`: its entries, one per architecture of the request (one
  /// when it has one). With several architectures a candidate is listed when it fits on any.
  virtual void result(const io::ConfigSpace& space, std::uint64_t candidate,
                      std::span<const Entry> entries) = 0;
  /// True when the sink cannot take more (its output failed): the sweep stops.
  virtual bool stopped() const { return false; }
  /// `done` of `total` candidates evaluated (every space together; an architecture list
  /// counts a candidate once), every kProgressEvery candidates and once at the end of the
  /// evaluation (before a sort hands over what it held).
  virtual void progress(std::uint64_t done, std::uint64_t total) { (void)done, (void)total; }
  static constexpr std::uint64_t kProgressEvery = 4096;
};

struct SweepTally {
  std::uint64_t candidates = 0;  ///< candidates × architectures evaluated
  std::uint64_t fits = 0, does_not_fit = 0, invalid = 0;
  std::uint64_t listed = 0;  ///< candidates handed to the sink
};

/// Sweeps `spaces`. Problems (a config whose target cannot be resolved) go to `problems`, once
/// per space and message.
SweepTally run_sweep(const std::vector<io::ConfigSpace>& spaces, const SweepOptions& options,
                     const device::DeviceSource& devices, SweepSink& sink,
                     std::vector<Problem>& problems);

}  // namespace tilefit::analysis
