// `tilefit sweep SPACE --format svg`: the shared-memory map of a sweep. For each architecture and
// each value of the other varying fields, a panel: a grid of tile M (rows) × tile N (columns),
// both in increasing order, each cell coloured by the largest stage count that fits
// (max_stages: one sequential scale, the same in every panel), the number written in it;
// "does not fit" (as configured: the stage count given, or the builder's) is hatched, the number
// then the most stages that would fit; "invalid" is a cross on grey; a grid cell no candidate maps
// to is blank. With several architectures (--arch sm_90,sm_120) their panels sit side by side.
//
// Panels: every varying field other than tile M and tile N is a panel axis (a list of tiles, the
// field `tile`, gives tile K as the axis), so each cell is exactly one candidate on one
// architecture (two alternatives that spell the same tile differently share a cell: the first
// is drawn, its title counts the others). The last varying field joins the architectures across
// the columns when that makes at most kMapColumns columns spanning at most 1000 px; the other
// fields make the rows of panels.
//
// Bounds: at most kMaxMapCells cells (candidates × architectures; under 2 MB of SVG) and
// kMaxMapPanels panels; beyond either the map is refused before the sweep (sweep_map_refusal).
// The writer holds one compact cell per candidate and architecture and writes the file at
// finish(); SVG implies --all (every candidate is drawn, not only those that fit).
//
// Sample (abridged; a <title> on every cell carries its exact numbers):
//   <text …>Largest stage count that fits, by tile M × N</text>
//   <g transform="translate(16,120)" …><text …>sm_120</text><text …>stages=auto</text> …
//   <rect x="43" y="49" width="28" height="22" fill="#225ea8"><title>moe@0 sm_120 128x64x128: fits
//     at 6 auto, max 6 (101376 B); 101376 / 101376 B</title></rect><text …>6</text>
//   <rect … fill="url(#nofit)"><title>moe@30 sm_120 128x256x128: DOES NOT FIT at 3 auto, max 2
//     (74752 B); 102400 / 101376 B</title></rect><text …>2</text> … </g>
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tilefit/analysis/sweep.hpp"
#include "tilefit/report/sweep_writer.hpp"

namespace tilefit::report {

/// The most cells (candidates × architectures) one map draws.
inline constexpr std::uint64_t kMaxMapCells = 10'000;
/// The most panels (architectures × combinations of the fields other than tile M and N).
inline constexpr std::size_t kMaxMapPanels = 128;
/// The most panel columns the last varying field and the architectures may make together.
inline constexpr std::size_t kMapColumns = 6;

/// Why the map of `spaces` on `request`'s targets is not drawn (too many cells or panels), as one
/// line naming the count; nullopt when it is drawn.
std::optional<std::string> sweep_map_refusal(const std::vector<io::ConfigSpace>& spaces,
                                             const analysis::TargetRequest& request);

/// The map writer (SweepWriter::make(Format::svg, …) returns one). Check sweep_map_refusal first.
std::unique_ptr<SweepWriter> make_sweep_map_writer(const std::vector<io::ConfigSpace>& spaces,
                                                   const analysis::TargetRequest& request,
                                                   SweepWriter::Emit emit);

}  // namespace tilefit::report
