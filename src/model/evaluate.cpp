#include "tilefit/model/evaluate.hpp"

#include <algorithm>
#include <string>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit::model {
namespace {

/// The error diagnostic of a kernel that asks for more than the limit, by how it fails.
Code over_limit_code(Overflow o) {
  switch (o) {
    case Overflow::RuntimeInitialize:
      return Code::over_limit_initialize;
    case Overflow::CompileStaticAssert:
      return Code::over_limit_static_assert;
    case Overflow::RuntimeRun2x:
      return Code::over_limit_launch_2x;
    case Overflow::TritonOutOfResources:
      return Code::over_limit_out_of_resources;
  }
  return Code::over_limit_initialize;
}

int lowest_stages(const Plan& plan) { return plan.min_stages < 1 ? 1 : plan.min_stages; }

/// When no stage count fits: the largest K (halving, down to 16) for which the family accepts
/// the config and its stage count (auto: the builder's pick; explicit: the lowest it allows)
/// gives a SharedStorage within `limit`. Adds smaller_k* values to `d` (smaller_k 0: none).
void add_smaller_k(Diagnostic& d, const KernelFamily& family, const KernelConfig& cfg,
                   Bytes limit) {
  KernelConfig smaller = cfg;
  for (long long k = cfg.k / 2; k >= 16 && k * 2 == smaller.k; k /= 2) {
    smaller.k = k;
    const Plan p = family.decide(smaller, /*explain=*/false);
    if (p.invalid || !p.sizes_known || p.no_storage) continue;
    const int lo = lowest_stages(p);
    const int stages = p.auto_stages ? p.stages : lo;
    if (p.auto_stages && p.stages < lo) continue;
    const Bytes need = family.sizes(smaller, p, stages).kernel.size;
    if (need <= limit) {
      d.integer("smaller_k", k)
          .flag("smaller_k_auto", p.auto_stages)
          .stages("smaller_k_stages", stages, p.stage_param)
          .bytes("smaller_k_bytes", need);
      return;
    }
  }
  d.integer("smaller_k", 0);
}

/// What fits instead, when something does: the largest stage count and its bytes, or — when
/// none fits — what even the lowest count needs and the largest halved K that fits.
Diagnostic what_fits(const KernelFamily& family, const KernelConfig& cfg, const Plan& plan,
                     const MaxFit& best, Bytes limit) {
  if (best.stages == 0) {
    const int s = lowest_stages(plan);
    Diagnostic d = diag(Code::no_stage_count_fits);
    d.stages("stages", s, plan.stage_param)
        .bytes("smem_bytes", family.sizes(cfg, plan, s).kernel.size)
        .bytes("limit_bytes", limit);
    add_smaller_k(d, family, cfg, limit);
    return d;
  }
  return diag(Code::max_stages_fit)
      .stages("stages", best.stages, plan.stage_param)
      .bytes("smem_bytes", best.bytes)
      .bytes("spare_bytes", limit - best.bytes);
}

/// Which family models `cfg`; nullptr when none does. `reason` (when given) says why.
const KernelFamily* select_family(const KernelConfig& cfg, std::optional<Diagnostic>* reason) {
  if (!cfg.family.empty()) {
    const KernelFamily* f = find_family(cfg.family);
    if (reason)
      *reason = f ? diag(Code::family_given).name("family", f->name())
                  : diag(Code::unknown_family).name("family", cfg.family);
    return f;
  }
  for (const KernelFamily* f : families()) {
    if (f->claims(cfg, cfg.arch)) {
      if (reason) *reason = f->claim_reason(cfg, cfg.arch);
      return f;
    }
  }
  if (reason)
    *reason = diag(Code::no_family).operand("a", cfg.a).operand("b", cfg.b).arch("arch", cfg.arch);
  return nullptr;
}

/// The cluster as a whole (CTAs = product of the extents) against what the architecture
/// launches (ClusterLimits, arch.hpp): beyond the non-portable maximum, or any cluster where
/// there are none, the launch fails — invalid, and the SharedStorage sizes stay (the kernel
/// compiles); beyond the portable size it needs the non-portable attribute — a warning.
void check_cluster(const KernelConfig& cfg, int sm, bool explain, Plan& plan) {
  for (int c : cfg.cluster)
    if (c < 1) return;  // the family says cluster_extent_min
  const long long size = 1LL * cfg.cluster[0] * cfg.cluster[1] * cfg.cluster[2];
  const ClusterLimits lim = cluster_limits(sm);
  if (size <= lim.portable) return;
  if (lim.non_portable <= 1) {
    plan.invalid = true;
    if (explain)
      plan.reasons.push_back(
          diag(Code::cluster_unsupported).integer("cluster_size", size).arch("arch", sm));
  } else if (size > lim.non_portable) {
    plan.invalid = true;
    if (explain)
      plan.reasons.push_back(diag(Code::cluster_too_large)
                                 .integer("cluster_size", size)
                                 .integer("max_size", lim.non_portable)
                                 .integer("portable_size", lim.portable)
                                 .arch("arch", sm));
  } else if (explain) {
    plan.notes.push_back(diag(Code::cluster_non_portable)
                             .integer("cluster_size", size)
                             .integer("portable_size", lim.portable)
                             .integer("max_size", lim.non_portable)
                             .arch("arch", sm));
  }
}

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Fits:
      return "fits";
    case Status::DoesNotFit:
      return "does_not_fit";
    case Status::Invalid:
      return "invalid";
  }
  return "?";
}

namespace {

/// The stage search over any size function (memoised by evaluate()): the largest count in
/// [lo, kMaxStages] whose SharedStorage fits `limit`, trusting only that SharedStorage never
/// shrinks as stages grow.
template <class SizeAt>
MaxFit search_max_stages(SizeAt&& size, int lo, Bytes limit) {
  auto at_most_lo = [&]() -> MaxFit {
    const Bytes at_lo = size(lo);
    return at_lo <= limit ? MaxFit{lo, at_lo} : MaxFit{0, 0};
  };
  // lo + 1 first: when it fits, so does lo, and the step from lo + 1 to lo + 2 estimates the
  // per-stage growth better than the step from lo (Triton's num_stages 1 pipelines nothing).
  if (lo >= kMaxStages) return at_most_lo();
  const Bytes at_next = size(lo + 1);
  if (at_next > limit) return at_most_lo();
  if (lo + 1 >= kMaxStages) return {lo + 1, at_next};
  const Bytes at_next2 = size(lo + 2);
  if (at_next2 > limit) return {lo + 1, at_next};
  // Keep a bracket: `good` fits, `bad` does not (kMaxStages + 1 before any count failed). Guess
  // where the limit is crossed by linear interpolation — SharedStorage grows by about the same
  // bytes per stage, alignment rounding aside — so a search usually takes two layouts after
  // lo + 1 and lo + 2. After four guesses the search bisects.
  int good = lo + 2, bad = kMaxStages + 1;
  Bytes at_good = at_next2, at_bad = -1;
  Bytes slope = at_next2 - at_next;
  for (int round = 0; bad - good > 1; ++round) {
    int s = good + (bad - good) / 2;
    if (round < 4) {
      if (at_bad >= 0) slope = (at_bad - at_good) / (bad - good);
      const Bytes step = slope > 0 ? (limit - at_good) / slope : Bytes{bad - good};
      s = static_cast<int>(std::clamp<Bytes>(good + step, good + 1, bad - 1));
    }
    const Bytes at_s = size(s);
    if (at_s <= limit) {
      good = s;
      at_good = at_s;
    } else {
      bad = s;
      at_bad = at_s;
    }
  }
  return {good, at_good};
}

/// The last few sizes() the stage search computed, so that evaluate() does not lay out the
/// builder's stage count again (it is usually one of them).
class SizeMemo {
 public:
  SizeMemo(const KernelFamily& f, const KernelConfig& c, const Plan& p) : f_(f), c_(c), p_(p) {}
  const Sizes& at(int stages) {
    for (int i = 0; i < n_; ++i)
      if (stages_[i] == stages) return sizes_[i];
    const int slot = next_++ % kSlots;
    stages_[slot] = stages;
    sizes_[slot] = f_.sizes(c_, p_, stages);
    if (n_ < kSlots) ++n_;
    return sizes_[slot];
  }

 private:
  static constexpr int kSlots = 8;
  const KernelFamily& f_;
  const KernelConfig& c_;
  const Plan& p_;
  int stages_[kSlots] = {};
  Sizes sizes_[kSlots] = {};
  int n_ = 0, next_ = 0;
};

}  // namespace

MaxFit max_fitting(const KernelFamily& family, const KernelConfig& cfg, const Plan& plan,
                   Bytes limit) {
  return search_max_stages([&](int s) { return family.sizes(cfg, plan, s).kernel.size; },
                           lowest_stages(plan), limit);
}

Result evaluate(const KernelConfig& cfg, const Limits& target, Detail detail) {
  const bool full = detail == Detail::full;
  Result r;
  r.name = cfg.name;
  r.arch = cfg.arch;
  r.limit_bytes = target.optin_per_block;

  std::optional<Diagnostic> reason;
  const KernelFamily* family = select_family(cfg, full ? &reason : nullptr);
  if (reason) r.family_reason = *reason;
  if (family == nullptr) {
    r.status = Status::Invalid;
    if (reason) r.diagnostics.push_back(*reason);
    return r;
  }
  r.family = family->name();
  if (!family->runs_on(cfg.arch)) {
    r.status = Status::Invalid;
    // A CUTLASS family on an AMD target (issue 20) says why: CUTLASS is CUDA only.
    const bool cutlass_on_amd = is_amd(cfg.arch) && !r.family.starts_with("triton_");
    if (full)
      r.diagnostics.push_back(
          diag(cutlass_on_amd ? Code::cutlass_family_on_amd : Code::family_not_on_arch)
              .name("family", r.family)
              .arch("arch", cfg.arch));
    return r;
  }

  Plan plan = family->decide(cfg, full);
  check_cluster(cfg, target.sm != 0 ? target.sm : cfg.arch, full, plan);
  const StageRule& rule = plan.rule;
  r.kernel = std::move(plan.kernel);
  r.stages = plan.stages;
  r.auto_stages = plan.auto_stages;
  r.stage_param = plan.stage_param;
  r.epilogue_tile = plan.epilogue_tile;
  std::vector<Diagnostic>& out = r.diagnostics;
  if (full) out = std::move(plan.reasons);
  r.engine_refuses = plan.engine_refuses;
  r.launches = std::move(plan.launches);
  for (LaunchSummary& l : r.launches) l.fits = l.smem_bytes && *l.smem_bytes <= r.limit_bytes;

  // The sizes exist exactly when the kernel's SharedStorage type does (docs/guide/results.md): the
  // layout is known, no builder or collective rejected the config, and the stage count passes
  // the collective's static_assert(Stages >= min). A kernel-body rejection (reject_kernel, e.g.
  // the cooperative kernel's tile M >= 128) or a launch-time one (cluster size) keeps them.
  const bool storage = plan.sizes_known && !plan.no_storage;
  const bool builds = storage && plan.stages >= plan.min_stages;
  SizeMemo memo(*family, cfg, plan);
  MaxFit best;
  if (storage && !plan.stages_matter) {
    // The stage count changes nothing (triton_attention launches whose num_stages the pipeliner
    // ignores): the count as launched fits or none does.
    const Bytes at = memo.at(plan.stages).kernel.size;
    if (plan.stages >= lowest_stages(plan) && at <= r.limit_bytes) best = {plan.stages, at};
    r.max_stages = best.stages;
    if (best.stages > 0) r.max_stages_smem = best.bytes;
  } else if (storage) {
    best = search_max_stages([&](int s) { return memo.at(s).kernel.size; }, lowest_stages(plan),
                             r.limit_bytes);
    r.max_stages = best.stages;
    if (best.stages > 0) r.max_stages_smem = best.bytes;
  }
  if (builds) {
    if (full) {
      Storage st = family->layout(cfg, plan, plan.stages);
      r.smem_bytes = st.kernel.size;
      r.epilogue_smem = st.epilogue_shared;
      r.mainloop_smem = st.mainloop_shared;
      r.breakdown = st.kernel;
    } else {
      const Sizes& st = memo.at(plan.stages);
      r.smem_bytes = st.kernel.size;
      r.epilogue_smem = st.epilogue_shared;
      r.mainloop_smem = st.mainloop_shared;
    }
    r.headroom_bytes = r.limit_bytes - *r.smem_bytes;
  }
  const bool builder_pick = plan.auto_stages && rule.capacity_constant != 0;

  if (plan.invalid || !plan.sizes_known) {
    r.status = Status::Invalid;
  } else if (plan.stages < plan.min_stages) {
    if (plan.auto_stages) {
      r.status = Status::DoesNotFit;
      if (full) {
        out.push_back(diag(Code::auto_stages_below_minimum)
                          .stages("stages", plan.stages, plan.stage_param)
                          .bytes("builder_capacity", rule.builder_capacity)
                          .bytes("carveout", rule.carveout)
                          .bytes("stage_bytes", rule.stage_bytes)
                          .integer("min_stages", plan.min_stages));
        out.push_back(what_fits(*family, cfg, plan, best, r.limit_bytes));
      }
    } else {
      r.status = Status::Invalid;
      if (full)
        out.push_back(diag(Code::stages_below_minimum)
                          .stages("stages", plan.stages, plan.stage_param)
                          .integer("min_stages", plan.min_stages));
    }
  } else if (*r.smem_bytes > r.limit_bytes) {
    r.status = Status::DoesNotFit;
    if (full) {
      out.push_back(diag(over_limit_code(plan.overflow))
                        .stages("stages", plan.stages, plan.stage_param)
                        .flag("builder_pick", builder_pick)
                        .bytes("smem_bytes", *r.smem_bytes)
                        .bytes("limit_bytes", r.limit_bytes)
                        .bytes("over_bytes", *r.smem_bytes - r.limit_bytes));
      // What the builder's own arithmetic counts, when it counts less than the real struct.
      if (plan.auto_stages && rule.stage_bytes > 0) {
        const Bytes reserved = rule.capacity_constant - rule.builder_capacity;
        const Bytes budget = rule.carveout + plan.stages * rule.stage_bytes + reserved;
        if (budget < *r.smem_bytes)
          out.push_back(diag(Code::builder_budget_gap)
                            .bytes("budget_bytes", budget)
                            .bytes("carveout", rule.carveout)
                            .stages("stages", plan.stages, plan.stage_param)
                            .bytes("stage_bytes", rule.stage_bytes)
                            .bytes("reserved_bytes", reserved)
                            .bytes("capacity_bytes", rule.capacity_constant)
                            .bytes("smem_bytes", *r.smem_bytes)
                            .bytes("gap_bytes", *r.smem_bytes - budget)
                            .name("unbudgeted", plan.unbudgeted));
      }
      out.push_back(what_fits(*family, cfg, plan, best, r.limit_bytes));
    }
  } else {
    r.status = Status::Fits;
    r.fits = true;
    r.ctas_per_sm = ctas_per_sm(*r.smem_bytes, target);
    if (full && r.max_stages > plan.stages)
      out.push_back(diag(Code::more_stages_fit)
                        .stages("max_stages", r.max_stages, plan.stage_param)
                        .stages("stages", plan.stages, plan.stage_param)
                        .flag("builder_pick", builder_pick)
                        .bytes("smem_bytes", best.bytes));
  }
  if (full && rule.capacity_constant != 0 && rule.capacity_constant != r.limit_bytes &&
      plan.auto_stages)
    out.push_back(diag(Code::capacity_differs)
                      .bytes("capacity_bytes", rule.capacity_constant)
                      .bytes("limit_bytes", r.limit_bytes));
  if (full)
    for (Diagnostic& d : plan.notes) out.push_back(std::move(d));
  return r;
}

}  // namespace tilefit::model

namespace tilefit::model {

Result not_evaluated(const KernelConfig& cfg, const Limits& target, Diagnostic why) {
  Result r;
  r.name = cfg.name;
  r.arch = cfg.arch;
  r.status = Status::Invalid;
  r.limit_bytes = target.optin_per_block;
  r.diagnostics.push_back(std::move(why));
  return r;
}

}  // namespace tilefit::model
