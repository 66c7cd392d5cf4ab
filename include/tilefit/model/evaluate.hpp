// The model's entry point: one config + the target's limits -> one Result.
#pragma once

#include <array>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/family.hpp"
#include "tilefit/model/result.hpp"

namespace tilefit::model {

/// How much of a Result to compute.
enum class Detail {
  /// Status, stages, max_stages, smem_bytes, headroom and CTAs/SM only: no diagnostics, no
  /// breakdown, no kernel name. The path for sweeps over many candidates.
  verdict,
  /// Everything: the breakdown, epilogue/mainloop sizes, the kernel name and every diagnostic.
  full,
};

/// Evaluates `cfg` against `target`. `cfg.arch` must be set (the target rules of
/// tilefit/analysis/target.hpp decide it); when it differs from target.sm the caller decides.
/// Never throws for any config the reader accepts. The numbers do not depend on `detail`.
Result evaluate(const KernelConfig& cfg, const Limits& target, Detail detail = Detail::full);

/// The largest stage count that fits and its SharedStorage size ({0, 0}: none fits).
struct MaxFit {
  int stages = 0;
  Bytes bytes = 0;
  /// The stage counts the search laid out on the way, with their sizes (so that the caller
  /// need not lay out the config's own count again when it was one of them).
  static constexpr int kProbes = 12;
  int probes = 0;
  std::array<int, kProbes> probe_stages{};
  std::array<Sizes, kProbes> probe_sizes{};
  /// The sizes at `s` if the search laid it out, else nullptr.
  const Sizes* probed(int s) const {
    for (int i = 0; i < probes; ++i)
      if (probe_stages[i] == s) return &probe_sizes[i];
    return nullptr;
  }
};

/// Largest s in [max(1, plan.min_stages), kMaxStages] with layout(s) <= limit, and layout(s).
/// Needs plan.sizes_known.
MaxFit max_fitting(const KernelFamily& family, const KernelConfig& cfg, const Plan& plan,
                   Bytes limit);

}  // namespace tilefit::model

namespace tilefit::model {

/// The Result of a config that is not evaluated because it cannot run on the target (for
/// example a config for sm_90 checked on an sm_120 GPU): invalid, `why` its one diagnostic.
Result not_evaluated(const KernelConfig& cfg, const Limits& target, Diagnostic why);

}  // namespace tilefit::model
