// The names of the triton_attention config's enums (op, stage, phase) and the model presets
// (`model` + `tp`): pure data the config reader, the schema and the family read. The presets'
// numbers come from each model's Hugging Face config.json (cited per row in
// src/model/attention_vocab.cpp); the per-rank split follows vLLM's rule (llama.py:141-154).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tilefit/model/attention.hpp"
#include "tilefit/model/enum_table.hpp"

namespace tilefit::model {

std::span<const EnumName<AttnOp>> attn_op_names();  ///< "auto" first
std::span<const EnumName<AttnStage>> attn_stage_names();
std::span<const EnumName<AttnPhase>> attn_phase_names();  ///< without Unset
std::string_view attn_op_name(AttnOp o);
std::string_view attn_stage_name(AttnStage s);
std::string_view attn_phase_name(AttnPhase p);

/// A model's attention, whole-model numbers (before tensor parallelism).
struct AttnPreset {
  std::string_view name;     ///< lower case, as a config writes it ("kimi-k2")
  std::string_view hf;       ///< the Hugging Face repository whose config.json the numbers are from
  long long q_heads = 0;     ///< num_attention_heads
  long long kv_heads = 0;    ///< num_key_value_heads (MLA: = q_heads, the decompressed K/V)
  long long head_dim = 0;    ///< head_dim (MLA: qk_nope_head_dim + qk_rope_head_dim)
  long long head_dim_v = 0;  ///< v_head_dim (= head_dim when the model has none)
  long long kv_lora_rank = 0;    ///< MLA latent width (0: not MLA)
  long long rope_dim = 0;        ///< MLA qk_rope_head_dim
  long long sliding_window = 0;  ///< 0: none
  bool sinks = false;            ///< attention sinks (gpt-oss)
  double logit_cap = 0;          ///< attn_logit_softcapping (0: none)
  long long context_len = 0;     ///< max_position_embeddings
};

std::span<const AttnPreset> attn_presets();
/// The preset called `name` (case-insensitive), or nullptr.
const AttnPreset* find_attn_preset(std::string_view name);
/// The preset names, ", "-joined (for "allowed:" lists).
std::string attn_preset_choices();

/// One rank's attention shape after the preset, tp and the config's own fields.
struct AttnShape {
  long long q_heads = 0, kv_heads = 0, head_dim = 0, head_dim_v = 0;
  long long kv_lora_rank = 0, rope_dim = 0;  ///< MLA (0: not MLA)
  long long sliding_window = 0;
  bool sinks = false;
  double logit_cap = 0;
  long long context_len = 0;  ///< 0: unknown
  bool mla() const { return kv_lora_rank > 0; }
};

/// An input error in the shape fields: the field at fault and a one-line message that says the
/// value and what is allowed.
struct AttnShapeError {
  std::string field;
  std::string message;
};

/// The per-rank shape of `spec`: the preset's numbers split over `tp` as vLLM splits them
/// (q heads / tp, which must divide; kv heads / tp when kv_heads >= tp, which must divide, else
/// one replicated kv head per rank, tp % kv_heads == 0: llama.py:141-154; SGLang's
/// qwen3/llama attention do the same), then any shape field the config gives replaces the
/// preset's. nullopt + `error` when no shape can be meant.
std::optional<AttnShape> resolve_attn_shape(const AttentionSpec& spec, AttnShapeError* error);

}  // namespace tilefit::model
