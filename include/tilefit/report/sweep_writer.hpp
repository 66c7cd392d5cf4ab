// The interface of every `tilefit sweep` output format: a SweepSink that streams the listed
// candidates and writes the end of the document at finish(). The formats are in
// src/report/sweep_report.cpp (table, Markdown, CSV, JSON; SweepWriter::make is there too) and
// src/report/sweep_map_svg.cpp (the map).
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "tilefit/analysis/sweep.hpp"
#include "tilefit/report/format.hpp"

namespace tilefit::report {

/// Streams a sweep's listed candidates to `emit`; finish() writes the errors and the summary.
class SweepWriter : public analysis::SweepSink {
 public:
  using Emit = std::function<void(std::string_view)>;
  /// `spaces` and `archs` (empty for one target) size the columns; `mode` is the target's mode.
  static std::unique_ptr<SweepWriter> make(Format format,
                                           const std::vector<io::ConfigSpace>& spaces,
                                           const analysis::TargetRequest& request, Emit emit);
  /// Writes what is still buffered, the problems (JSON) and the summary.
  virtual void finish(const analysis::SweepTally& tally,
                      const std::vector<analysis::Problem>& problems) = 0;
};

}  // namespace tilefit::report
