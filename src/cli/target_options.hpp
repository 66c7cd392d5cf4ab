// The target options shared by check (and sweep): --arch A | --device N | --builtin.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "tilefit/analysis/target.hpp"

namespace tilefit::cli {

struct TargetOptions {
  std::string arch;  ///< --arch, as written
  int device = -1;   ///< --device
  bool builtin = false;

  /// The request these options make; an unknown --arch is a usage error (CommandError, exit 2).
  analysis::TargetRequest request() const;
};

/// Adds --arch, --device and --builtin (mutually exclusive) to `sub`.
void add_target_options(CLI::App& sub, TargetOptions& opt);

}  // namespace tilefit::cli
