#include "tilefit/report/summary_line.hpp"

#include <fmt/format.h>

namespace tilefit::report {

std::string summary_line(const analysis::Tally& n, std::string_view noun) {
  std::string out = fmt::format("{} {}{}: {} fit, {} do not fit, {} invalid", n.configs, noun,
                                n.configs == 1 ? "" : "s", n.fits, n.does_not_fit, n.invalid);
  if (n.errors) out += fmt::format("; {} error{}", n.errors, n.errors == 1 ? "" : "s");
  if (n.files_skipped)
    out += fmt::format("; {} file{} skipped", n.files_skipped, n.files_skipped == 1 ? "" : "s");
  return out + "\n";
}

}  // namespace tilefit::report
