// Launcher inference of the triton_attention family (issue 19): what vLLM 6adad087 and SGLang
// d6ef6888 pass to each @triton.jit attention kernel for a config — the op (from `phase` and the
// shape when it is not given), the kernel(s), every constexpr the launcher computes (block
// sizes, head-dim padding, the MLA split, splits, flags), num_warps and num_stages — and what
// the engine refuses before any kernel runs. Pure model code; each rule cites file:line of the
// engine at its pinned commit (launchers_vllm.cpp, launchers_sglang.cpp).
#pragma once

#include <vector>

#include "launch.hpp"
#include "tilefit/model/attention_vocab.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"

namespace tilefit::model::attention {

/// The runtime inputs the launchers branch on, with the defaults filled in (each default is
/// said in a note when explained).
struct Runtime {
  AttnPhase phase = AttnPhase::Decode;
  long long num_seqs = 1;
  long long max_seqlen_q = 1;
  long long max_seq_len = 4096;
  long long page_size = 16;
  long long sm_count = 0;
  long long context_len = 0;
  long long max_kv_splits = 0;  ///< SGLang: server_args.triton_attention_num_kv_splits (8)
  bool use_pdl = false;
  bool deterministic = false;
};

/// Everything inference produces for one config.
struct Inference {
  AttnOp op = AttnOp::Auto;  ///< as resolved
  AttnShape shape;           ///< per rank
  Runtime rt;
  /// Every launch of the op, in launch order (before `stage` selects).
  std::vector<AttnLaunch> all;
  /// The launches `stage` selects (all of them for AttnStage::All).
  std::vector<AttnLaunch> launches;
  /// Index in `launches` of the launch num_warps / num_stages overrides apply to and whose
  /// num_stages the stage search varies: the op's first launch (stage1 / main) for `all`.
  int primary = 0;
  /// The engine refuses the configuration before any kernel runs (its reasons are notes of
  /// code attn_engine_refuses in the Findings).
  bool engine_refuses = false;
  /// No launch could be inferred (the reasons are errors in the Findings).
  bool failed = false;
};

/// vLLM's seq_threshold_3D for `kv_heads` kv heads per rank (triton_attn.py:141-154).
long long vllm_seq_threshold_3d(long long kv_heads);

/// The SM count assumed when the config gives none: the reference GPU of the arch.
long long reference_sm_count(int arch);

/// The whole inference: shape, op, runtime defaults, the engine's launch, the overrides, the
/// stage selection. Notes (defaults, the op chosen) and refusals go to `why`.
Inference infer(const KernelConfig& cfg, Findings& why);

// ---- per engine (launchers_vllm.cpp, launchers_sglang.cpp) ----
/// The op the engine runs when `op` is Auto; Auto when none (why gets the error).
AttnOp vllm_default_op(const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                       Findings& why);
AttnOp sglang_default_op(const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                         Findings& why);
/// The engine's launches of `op`, before overrides.
std::vector<AttnLaunch> vllm_launches(AttnOp op, const AttnShape& s, const Runtime& rt,
                                      const KernelConfig& cfg, Findings& why);
std::vector<AttnLaunch> sglang_launches(AttnOp op, const AttnShape& s, const Runtime& rt,
                                        const KernelConfig& cfg, Findings& why);
/// The engine's refusals before any kernel runs; true when it refuses.
bool vllm_refuses(AttnOp op, const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                  Findings& why);
bool sglang_refuses(AttnOp op, const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                    Findings& why);

/// triton.next_power_of_2 (1 for n <= 1).
long long next_pow2(long long n);

/// Sets constexpr `name` to `v` (appends it when absent).
void set_constexpr(AttnLaunch& l, std::string_view name, double v);

}  // namespace tilefit::model::attention
