// A Triton attention launch as a user knows it (family triton_attention, issue 19): the engine
// whose launcher runs it, the operation, the model's shape per rank, the dtypes, the runtime
// inputs the launchers branch on, and overrides of the launcher's choices. Everything left out
// is inferred the way the launcher at the pinned engine commit infers it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tilefit/model/dtype.hpp"

namespace tilefit::model {

/// Which attention operation (config field `op` of a triton_attention config).
enum class AttnOp : std::uint8_t {
  Auto,           ///< inferred from `phase` and the shape
  Decode,         ///< vLLM triton_decode_attention / SGLang decode_attention (MHA/GQA)
  MlaDecode,      ///< the same launchers with an MLA shape (kv_lora_rank + rope_dim)
  Unified2d,      ///< vLLM kernel_unified_attention, 2D grid
  Unified3d,      ///< vLLM kernel_unified_attention, 3D grid (segments) + reduce_segments
  Extend,         ///< SGLang extend_attention_fwd (_fwd_kernel)
  ExtendUnified,  ///< SGLang extend_attention_fwd_unified (_fwd_kernel_unified)
  Prefill,  ///< vLLM triton_prefill_attention / SGLang prefill_attention context_attention_fwd
  PrefixPrefill,  ///< vLLM prefix_prefill context_attention_fwd
};

/// Which launch of the operation (config field `stage`): All checks every launch, and the
/// verdict is the worst.
enum class AttnStage : std::uint8_t { All, Stage1, Stage2, Main, Reduce };

/// What the engine is running: decode, prefill or extend (config field `phase`).
enum class AttnPhase : std::uint8_t { Unset, Decode, Prefill, Extend };

/// The attention fields of a config (KernelConfig::attention). nullopt / empty: not given.
struct AttentionSpec {
  AttnOp op = AttnOp::Auto;
  AttnStage stage = AttnStage::All;
  AttnPhase phase = AttnPhase::Unset;
  // ---- shape per rank (or `model` with `tp`) ----
  std::string model;  ///< a preset name ("deepseek-v3", "kimi-k2", ...); empty: none
  std::optional<long long> tp;
  std::optional<long long> q_heads, kv_heads, head_dim, head_dim_v, kv_lora_rank, rope_dim;
  // ---- dtypes ----
  std::optional<DType> act_dtype, kv_dtype, q_dtype;
  // ---- cache and masking ----
  std::optional<long long> page_size, sliding_window;
  std::optional<bool> sinks;
  std::optional<double> logit_cap;
  /// ALiBi slopes (vLLM prefix_prefill's `_fwd_kernel_alibi`; added with the measured rows).
  std::optional<bool> alibi;
  // ---- runtime inputs the launchers branch on ----
  std::optional<long long> num_seqs, max_seqlen_q, max_seq_len, max_kv_splits, sm_count,
      context_len;
  std::optional<bool> use_pdl, deterministic;
  // ---- overrides of the launcher's choices (num_warps, num_stages: KernelConfig) ----
  std::optional<long long> block_m, block_n, block_h, block_q, tile_size, block_dmodel, block_dpe,
      block_dv, num_kv_splits;

  bool operator==(const AttentionSpec&) const = default;
};

}  // namespace tilefit::model
