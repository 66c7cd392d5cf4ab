// Family `triton_attention` (issue 19): the Triton attention kernels of vLLM 6adad087 and SGLang
// d6ef6888 as their launchers launch them, compiled by Triton 3.6 for sm_75 ... sm_121.
//   * decide(): launcher inference (launchers*.cpp) turns the config into one AttnLaunch per
//     kernel launch of the op — the kernel, its constexprs, num_warps, num_stages — selected
//     by `stage`; each launch's shared memory comes from the kernel model (kernel_smem(),
//     kernel_model.cpp) at its own num_stages; the verdict is the worst launch. The engine's
//     refusals before any kernel runs are a separate flag (Plan/Result::engine_refuses) with a
//     warning, not a shared-memory verdict.
//   * layout(stages): the primary launch (the first selected: stage1 / main, or the one `stage`
//     names) at `stages`, every other launch at its own num_stages, the largest of them. The
//     launches are re-inferred (LayoutState keeps only a trivially copyable summary).
#include <algorithm>
#include <string>
#include <vector>

#include "../families.hpp"
#include "launchers.hpp"

namespace tilefit::model {
namespace {

using attention::AttnLaunch;
using attention::Inference;
using attention::KernelSmem;

/// What layout() needs besides the config: which launch the stage count applies to.
struct State {
  int primary = 0;
  int count = 0;
};

std::string constexpr_text(const AttnLaunch& l) {
  std::string out;
  for (const auto& [n, v] : l.constexprs) {
    out += (out.empty() ? "" : ", ") + n + "=";
    const long long i = static_cast<long long>(v);
    if (static_cast<double>(i) == v)
      out += std::to_string(i);
    else
      out += std::to_string(v);
  }
  return out;
}

bool pow2(long long v) { return v > 0 && (v & (v - 1)) == 0; }

class TritonAttention final : public KernelFamily {
 public:
  std::string_view name() const override { return "triton_attention"; }
  std::string_view description() const override {
    return "vLLM's and SGLang's Triton attention kernels (decode, MLA decode, unified 2D/3D, "
           "extend, prefill) as their launchers launch them, compiled by Triton 3.6";
  }
  bool runs_on(int sm) const override { return !is_amd(sm) && sm >= 75; }
  bool claims(const KernelConfig&, int) const override { return false; }
  Diagnostic claim_reason(const KernelConfig&, int) const override {
    return diag(Code::family_given).name("family", name());
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    p.min_stages = 1;
    p.auto_stages = false;
    p.overflow = Overflow::TritonOutOfResources;
    p.stage_param = StageParam::TritonNumStages;
    Findings why(explain);
    const std::vector<long long> bad_blocks = check_blocks(cfg, why);
    Inference inf = attention::infer(cfg, why);
    p.engine_refuses = inf.engine_refuses;
    if (inf.failed || inf.launches.empty()) {
      p.sizes_known = false;
      p.invalid = true;
      p.take(std::move(why));
      return p;
    }
    const AttnLaunch& primary = inf.launches[static_cast<std::size_t>(inf.primary)];
    p.stages = primary.num_stages;
    for (const AttnLaunch& l : inf.launches) {
      Findings kw(explain);
      const KernelSmem ks = attention::kernel_smem(l, cfg.arch, kw);
      LaunchSummary s;
      s.stage = std::string(l.stage);
      s.kernel = std::string(attention::kernel_function(l.kernel));
      s.constexprs = l.constexprs;
      s.num_warps = l.num_warps;
      s.num_stages = l.num_stages;
      s.invalid = ks.invalid || kw.invalid();
      s.stages_matter = ks.stages_matter;
      if (!s.invalid) s.smem_bytes = ks.storage.kernel.size;
      if (&l == &primary) p.stages_matter = ks.stages_matter;
      why.note([&] {
        Diagnostic d = diag(Code::attn_launch)
                           .name("stage", s.stage)
                           .name("kernel", s.kernel)
                           .name("constexprs", constexpr_text(l))
                           .integer("num_warps", l.num_warps)
                           .integer("num_stages", l.num_stages);
        if (s.smem_bytes) d.bytes("smem_bytes", *s.smem_bytes);
        return d;
      });
      if (!ks.stages_matter && (&l == &primary || cfg.stages))
        why.note([&] {
          return diag(Code::attn_stages_dont_matter)
              .name("stage", s.stage)
              .name("kernel", s.kernel)
              .integer("num_stages", l.num_stages);
        });
      if (s.invalid) p.sizes_known = false;
      drop_reported_blocks(kw, bad_blocks);
      why.merge(std::move(kw));
      p.launches.push_back(std::move(s));
    }
    if (explain) {
      p.kernel.add(KernelText::attention_op)
          .name("engine", engine_text(cfg))
          .name("op", attn_op_name(inf.op));
      for (const LaunchSummary& s : p.launches)
        p.kernel.add(KernelText::attention_launch).name("kernel", s.kernel).name("stage", s.stage);
    }
    p.state.store(State{inf.primary, static_cast<int>(inf.launches.size())});
    p.take(std::move(why));
    return p;
  }

  Storage layout(const KernelConfig& cfg, const Plan& plan, int stages) const override {
    return assemble(cfg, plan, stages);
  }
  Sizes sizes(const KernelConfig& cfg, const Plan& plan, int stages) const override {
    const Storage st = assemble(cfg, plan, stages);
    Sizes out;
    out.kernel = Extent{st.kernel.size, st.kernel.align};
    return out;
  }

 private:
  static std::string engine_text(const KernelConfig& cfg) {
    return cfg.launcher == Launcher::Sglang ? "sglang@d6ef6888" : "vllm@6adad087";
  }

  /// tl.arange needs power-of-two extents: an override that is not one cannot compile. Returns
  /// the values rejected (one attn_block_not_pow2 each, naming the config field).
  static std::vector<long long> check_blocks(const KernelConfig& cfg, Findings& why) {
    const AttentionSpec& a = cfg.attention;
    const std::pair<std::string_view, std::optional<long long>> blocks[] = {
        {"block_n", a.block_n},   {"block_h", a.block_h},     {"block_m", a.block_m},
        {"block_q", a.block_q},   {"tile_size", a.tile_size}, {"block_dmodel", a.block_dmodel},
        {"block_dv", a.block_dv}, {"block_dpe", a.block_dpe}};
    std::vector<long long> bad;
    for (const auto& [field, v] : blocks) {
      if (!v || pow2(*v) || (field == "block_dpe" && *v == 0)) continue;
      bad.push_back(*v);
      why.reject_kernel([field = field, value = *v] {
        return diag(Code::attn_block_not_pow2).name("field", field).integer("value", value);
      });
    }
    return bad;
  }

  /// One error per fault: the kernel model's attn_block_not_power_of_two for a value that
  /// check_blocks() already rejected as an override is the same fault, said with the constexpr
  /// instead of the field the user wrote, so it is dropped (the launch stays invalid).
  static void drop_reported_blocks(Findings& kw, const std::vector<long long>& bad) {
    if (bad.empty()) return;
    std::vector<Diagnostic>& r = kw.reasons();
    r.erase(std::remove_if(r.begin(), r.end(),
                           [&](const Diagnostic& d) {
                             return d.code == Code::attn_block_not_power_of_two &&
                                    std::find(bad.begin(), bad.end(), d.number("value")) !=
                                        bad.end();
                           }),
            r.end());
  }

  /// The launches again (decide() keeps no vectors in the state), the primary at `stages`.
  static Storage assemble(const KernelConfig& cfg, const Plan& plan, int stages) {
    const State& st = plan.state.get<State>();
    Findings none(false);
    Inference inf = attention::infer(cfg, none);
    Storage worst;
    for (std::size_t i = 0; i < inf.launches.size(); ++i) {
      AttnLaunch l = inf.launches[i];
      if (static_cast<int>(i) == st.primary) l.num_stages = stages;
      Findings kw(false);
      const KernelSmem ks = attention::kernel_smem(l, cfg.arch, kw);
      if (i == 0 || ks.storage.kernel.size > worst.kernel.size) worst = ks.storage;
    }
    return worst;
  }
};

}  // namespace

const KernelFamily& triton_attention_family() { return the_family<TritonAttention>(); }

}  // namespace tilefit::model
