#include "tilefit/model/evaluate.hpp"

#include <algorithm>
#include <string>

#include "tilefit/model/config_limits.hpp"

namespace tilefit::model {
namespace {

std::string b(Bytes x) { return std::to_string(x) + " B"; }

std::string overflow_text(Overflow o) {
  switch (o) {
    case Overflow::RuntimeInitialize:
      return "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails and "
             "GemmUniversalAdapter::initialize() returns kErrorInternal";
    case Overflow::CompileStaticAssert:
      return "CUTLASS's device-side static_assert \"SMEM usage exceeded capacity\" rejects it at "
             "compile time";
    case Overflow::RuntimeRun2x:
      return "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails when the "
             "2.x device::Gemm launches it (run() returns kErrorInternal)";
  }
  return "";
}

/// The plan's spelling of an explicit stage count ("StageCount<3>", "kStages = 3").
std::string spell(const BuildPlan& plan, int stages) {
  std::string out = plan.stage_spelling;
  const auto at = out.find("{}");
  if (at == std::string::npos) return out + " " + std::to_string(stages);
  return out.replace(at, 2, std::to_string(stages));
}

/// A fix for a tile that fits at no stage count: the largest K (halving, down to 16) for
/// which the family accepts the config and its stage count (auto: the builder's pick;
/// explicit: the largest that fits) gives a SharedStorage within `limit`.
std::string smaller_k_text(const KernelFamily& family, const KernelConfig& cfg, Bytes limit) {
  KernelConfig smaller = cfg;
  for (long long k = cfg.k / 2; k >= 16 && k * 2 == smaller.k; k /= 2) {
    smaller.k = k;
    const BuildPlan p = family.plan(smaller);
    if (!p.invalid.empty() || !p.sizes_known) continue;
    const int lo = p.min_stages < 1 ? 1 : p.min_stages;
    if (p.auto_stages) {
      if (p.stages < lo) continue;
      const Bytes need = family.storage(smaller, p, p.stages).kernel.size;
      if (need <= limit)
        return "tile K = " + std::to_string(k) + " fits: the builder then picks " +
               std::to_string(p.stages) + " stages and the kernel needs " + b(need);
    } else {
      const Bytes need = family.storage(smaller, p, lo).kernel.size;
      if (need <= limit)
        return "tile K = " + std::to_string(k) + " fits with " + spell(p, lo) + " (" + b(need) + ")";
    }
  }
  return "choose a smaller tile";
}

/// Which family models `cfg`, and why; nullptr with the reason when none does.
const KernelFamily* select_family(const KernelConfig& cfg, std::string& reason) {
  if (!cfg.family.empty()) {
    const KernelFamily* f = find_family(cfg.family);
    reason = f ? "given in the config" : "unknown family '" + cfg.family + "'";
    return f;
  }
  for (const KernelFamily* f : families()) {
    if (auto why = f->claims(cfg, cfg.arch)) {
      reason = "inferred: " + *why;
      return f;
    }
  }
  reason = "no modelled CUTLASS kernel family builds " + operand_name(cfg.a) + " x " +
           operand_name(cfg.b) + " for " + arch_name(cfg.arch) + " (families: " +
           family_choices() + ")";
  return nullptr;
}

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Fits: return "fits";
    case Status::DoesNotFit: return "does_not_fit";
    case Status::Invalid: return "invalid";
  }
  return "?";
}

int max_fitting_stages(const KernelFamily& family, const KernelConfig& cfg, const BuildPlan& plan,
                       Bytes limit) {
  return max_fitting(family, cfg, plan, limit).stages;
}

MaxFit max_fitting(const KernelFamily& family, const KernelConfig& cfg, const BuildPlan& plan,
                   Bytes limit) {
  auto size = [&](int s) { return family.storage(cfg, plan, s).kernel.size; };
  const int lo = plan.min_stages < 1 ? 1 : plan.min_stages;
  const Bytes at_lo = size(lo);
  if (at_lo > limit) return {0, 0};
  if (lo >= kMaxStages) return {lo, at_lo};
  const Bytes at_next = size(lo + 1);
  if (at_next > limit) return {lo, at_lo};
  // SharedStorage grows by about the same bytes per stage (alignment rounding aside), so
  // start from the linear estimate and walk to the exact answer: usually one or two steps.
  const Bytes per_stage = at_next - at_lo;
  if (per_stage <= 0) {
    const Bytes at_max = size(kMaxStages);
    if (at_max <= limit) return {kMaxStages, at_max};
  }
  const Bytes guess_wide = per_stage > 0 ? lo + 1 + (limit - at_next) / per_stage : lo + 1;
  int s = static_cast<int>(std::clamp<Bytes>(guess_wide, lo + 1, kMaxStages));
  Bytes at_s = size(s);
  for (int step = 0; step < 8; ++step) {
    if (at_s <= limit) {
      if (s >= kMaxStages) return {s, at_s};
      const Bytes above = size(s + 1);
      if (above > limit) return {s, at_s};
      ++s;
      at_s = above;
    } else {
      --s;  // s - 1 >= lo + 1 here: lo + 1 fits
      at_s = size(s);
    }
  }
  // Far from linear (never seen in the families modelled): bisect between lo+1 (fits) and
  // kMaxStages + 1, trusting only that SharedStorage never shrinks as stages grow.
  int good = lo + 1, bad = kMaxStages + 1;
  Bytes at_good = at_next;
  while (bad - good > 1) {
    const int mid = good + (bad - good) / 2;
    const Bytes at_mid = size(mid);
    if (at_mid <= limit) {
      good = mid;
      at_good = at_mid;
    } else {
      bad = mid;
    }
  }
  return {good, at_good};
}

Result evaluate(const KernelConfig& cfg, const Limits& target) {
  Result r;
  r.name = cfg.name;
  r.arch = cfg.arch;
  r.limit_bytes = target.optin_per_block;

  const KernelFamily* family = select_family(cfg, r.family_reason);
  if (family == nullptr) {
    r.status = Status::Invalid;
    r.notes.push_back(r.family_reason);
    return r;
  }
  r.family = std::string(family->name());
  if (!family->runs_on(cfg.arch)) {
    r.status = Status::Invalid;
    r.notes.push_back("family " + r.family + " does not run on " + arch_name(cfg.arch));
    return r;
  }

  const BuildPlan plan = family->plan(cfg);
  r.kernel = plan.kernel;
  r.stages = plan.stages;
  r.auto_stages = plan.auto_stages;
  for (const std::string& why : plan.invalid) r.notes.push_back(why);

  const bool builds = plan.sizes_known && plan.stages >= plan.min_stages;
  MaxFit best;
  if (plan.sizes_known) {
    best = max_fitting(*family, cfg, plan, r.limit_bytes);
    r.max_stages = best.stages;
    if (best.stages > 0) r.max_stages_smem = best.bytes;
  }
  if (builds) {
    const Storage st = family->storage(cfg, plan, plan.stages);
    r.smem_bytes = st.kernel.size;
    r.breakdown = st.kernel;
    r.epilogue_smem = st.epilogue_shared;
    r.mainloop_smem = st.mainloop_shared;
    r.headroom_bytes = r.limit_bytes - st.kernel.size;
  }

  auto max_stage_text = [&]() -> std::string {
    if (r.max_stages == 0) {
      if (!plan.sizes_known) return "";
      const int s = plan.min_stages < 1 ? 1 : plan.min_stages;
      const Bytes need = family->storage(cfg, plan, s).kernel.size;
      return "even " + spell(plan, s) + " needs " + b(need) + " > " + b(r.limit_bytes) + "; " +
             smaller_k_text(*family, cfg, r.limit_bytes);
    }
    return spell(plan, r.max_stages) + " needs " + b(best.bytes) + " and fits (" +
           b(r.limit_bytes - best.bytes) + " spare)";
  };

  if (!plan.invalid.empty()) {
    r.status = Status::Invalid;
  } else if (!plan.sizes_known) {
    r.status = Status::Invalid;
  } else if (plan.stages < plan.min_stages) {
    if (plan.auto_stages) {
      r.status = Status::DoesNotFit;
      r.notes.push_back("the builder's automatic stage count is " + std::to_string(plan.stages) +
                        " ((" + std::to_string(plan.builder_capacity) + " - " +
                        std::to_string(plan.carveout) + ") / " + std::to_string(plan.stage_bytes) +
                        " B per stage): the collective's static_assert(Stages >= " +
                        std::to_string(plan.min_stages) + ") fails at compile time");
      if (const std::string t = max_stage_text(); !t.empty()) r.notes.push_back(t);
    } else {
      r.status = Status::Invalid;
      r.notes.push_back("stages = " + std::to_string(plan.stages) +
                        ": the collective requires Stages >= " + std::to_string(plan.min_stages) +
                        " (static_assert \"Specialization requires Stages set to value " +
                        std::to_string(plan.min_stages) + " or more.\")");
    }
  } else if (*r.smem_bytes > r.limit_bytes) {
    r.status = Status::DoesNotFit;
    const bool builder_pick = plan.auto_stages && plan.capacity_constant != 0;
    std::string what = builder_pick ? "the builder picks " + std::to_string(plan.stages) +
                                          " stages but the kernel then needs "
                                    : spell(plan, plan.stages) + " needs ";
    r.notes.push_back(what + b(*r.smem_bytes) + " > " + b(r.limit_bytes) + " (over by " +
                      b(*r.smem_bytes - r.limit_bytes) + "): " + overflow_text(plan.overflow));
    if (plan.auto_stages && plan.stage_bytes > 0) {
      const Bytes reserved = plan.capacity_constant - plan.builder_capacity;
      const Bytes budget = plan.carveout + plan.stages * plan.stage_bytes + reserved;
      if (budget < *r.smem_bytes) {
        std::string n = "the builder budgets " + b(budget) + " (epilogue carve-out " +
                        std::to_string(plan.carveout) + " + " + std::to_string(plan.stages) +
                        " x " + std::to_string(plan.stage_bytes) + " per stage";
        if (reserved > 0) n += " + " + std::to_string(reserved) + " reserved";
        n += ") against its " + b(plan.capacity_constant) + " constant, but the real SharedStorage is " +
             b(*r.smem_bytes) + ": " + b(*r.smem_bytes - budget) + " it does not count";
        if (!plan.unbudgeted.empty()) n += " (" + plan.unbudgeted + ")";
        r.notes.push_back(n);
      }
    }
    r.notes.push_back(max_stage_text());
  } else {
    r.status = Status::Fits;
    r.fits = true;
    r.ctas_per_sm = ctas_per_sm(*r.smem_bytes, target);
    if (r.max_stages > plan.stages) {
      const std::string need = b(best.bytes);
      if (plan.auto_stages && plan.capacity_constant != 0)
        r.notes.push_back("up to " + std::to_string(r.max_stages) +
                          " stages fit; the builder picks " + std::to_string(plan.stages) +
                          " (an explicit " + spell(plan, r.max_stages) + " needs " + need + ")");
      else
        r.notes.push_back("up to " + std::to_string(r.max_stages) + " stages fit (" +
                          spell(plan, r.max_stages) + " needs " + need + ")");
    }
  }
  if (plan.capacity_constant != 0 && plan.capacity_constant != r.limit_bytes && plan.auto_stages) {
    r.notes.push_back("CUTLASS sizes stages against its " + b(plan.capacity_constant) +
                      " constant; this target allows " + b(r.limit_bytes) + " per block");
  }
  for (const std::string& n : plan.notes) r.notes.push_back(n);
  return r;
}

}  // namespace tilefit::model
