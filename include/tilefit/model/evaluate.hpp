// The model's entry point: one config + the target's limits -> one Result.
#pragma once

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/family.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::model {

/// Evaluates `cfg` against `target`. `cfg.arch` must be set (the caller applies the
/// target rules of design.md); when it differs from target.sm the caller decides.
/// Never throws for any config the reader accepts.
Result evaluate(const KernelConfig& cfg, const Limits& target);

/// The largest stage count that fits and its SharedStorage size ({0, 0}: none fits).
struct MaxFit {
  int stages = 0;
  Bytes bytes = 0;
};

/// Largest s in [min_stages, kMaxStages] with storage(s) <= limit, and storage(s).
MaxFit max_fitting(const KernelFamily& family, const KernelConfig& cfg, const BuildPlan& plan,
                   Bytes limit);

/// max_fitting(...).stages (exposed for tests).
int max_fitting_stages(const KernelFamily& family, const KernelConfig& cfg, const BuildPlan& plan,
                       Bytes limit);

}  // namespace tilefit::model
