// The line under every check report (table, Markdown, the SVG's subtitle):
// "10 configs: 8 fit, 2 do not fit, 0 invalid[; 1 error]" (src/report/summary_line.cpp).
#pragma once

#include <string>
#include <string_view>

#include "tilefit/analysis/check.hpp"

namespace tilefit::report {

/// The summary line: "10 configs: 8 fit, 2 do not fit, 0 invalid[; 1 error][; 3 files skipped]"
/// (files skipped: `tilefit check DIR`'s files that are not tuned tables).
std::string summary_line(const analysis::Tally& n, std::string_view noun = "config");

}  // namespace tilefit::report
