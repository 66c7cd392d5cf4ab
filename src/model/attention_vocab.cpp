#include "tilefit/model/attention_vocab.hpp"

#include <cctype>
#include <iterator>

namespace tilefit::model {
namespace {

constexpr EnumName<AttnOp> kOps[] = {
    {AttnOp::Auto, "auto", "inferred from phase and the shape"},
    {AttnOp::Decode, "decode",
     "vLLM triton_decode_attention.py decode_attention_fwd / SGLang decode_attention.py "
     "decode_attention_fwd (MHA, GQA)"},
    {AttnOp::MlaDecode, "mla_decode",
     "the same launchers with the MLA cache (kv_lora_rank + rope_dim, one latent head)"},
    {AttnOp::Unified2d, "unified_2d",
     "vLLM triton_unified_attention.py unified_attention, 2D grid"},
    {AttnOp::Unified3d, "unified_3d",
     "vLLM unified_attention, 3D grid (segments) + reduce_segments"},
    {AttnOp::Extend, "extend", "SGLang extend_attention.py extend_attention_fwd (_fwd_kernel)"},
    {AttnOp::ExtendUnified, "extend_unified",
     "SGLang extend_attention_fwd_unified (_fwd_kernel_unified; deterministic inference)"},
    {AttnOp::Prefill, "prefill",
     "vLLM triton_prefill_attention.py / SGLang prefill_attention.py context_attention_fwd"},
    {AttnOp::PrefixPrefill, "prefix_prefill", "vLLM prefix_prefill.py context_attention_fwd"},
};

constexpr EnumName<AttnStage> kStages[] = {
    {AttnStage::All, "all", "every launch of the op; the verdict is the worst"},
    {AttnStage::Stage1, "stage1", "decode: _fwd_kernel_stage1 / _fwd_grouped_kernel_stage1"},
    {AttnStage::Stage2, "stage2", "decode: _fwd_kernel_stage2 (the split-KV reduction)"},
    {AttnStage::Main, "main", "the op's one attention kernel (unified, extend, prefill)"},
    {AttnStage::Reduce, "reduce", "unified_3d: reduce_segments"},
};

constexpr EnumName<AttnPhase> kPhases[] = {
    {AttnPhase::Decode, "decode", "one query token per sequence"},
    {AttnPhase::Prefill, "prefill", "prompt tokens, no cached prefix"},
    {AttnPhase::Extend, "extend", "new tokens over a cached prefix (chunked prefill)"},
};

// Whole-model numbers from each repository's config.json (num_attention_heads,
// num_key_value_heads, head_dim or hidden_size / num_attention_heads, v_head_dim, kv_lora_rank,
// qk_rope_head_dim, sliding_window, max_position_embeddings). MLA models: head_dim is
// qk_nope_head_dim + qk_rope_head_dim (the decompressed K of prefill/extend), kv_heads the
// decompressed K/V heads (= q heads); their decode reads the latent cache (kv_lora_rank +
// rope_dim, one head). Gemma-3 and gpt-oss alternate sliding-window and full layers: the preset
// gives the sliding layers' window, `"sliding_window": 0` checks a full layer.
constexpr AttnPreset kPresets[] = {
    // deepseek-ai/DeepSeek-V3 config.json: 128 heads, qk_nope 128 + qk_rope 64, v 128,
    // kv_lora_rank 512, max_position_embeddings 163840.
    {"deepseek-v3", "deepseek-ai/DeepSeek-V3", 128, 128, 192, 128, 512, 64, 0, false, 0, 163840},
    // moonshotai/Kimi-K2-Instruct config.json: 64 heads, the DeepSeek-V3 MLA dims, 131072.
    {"kimi-k2", "moonshotai/Kimi-K2-Instruct", 64, 64, 192, 128, 512, 64, 0, false, 0, 131072},
    // meta-llama/Llama-3.1-8B-Instruct: 32 heads, 8 kv heads, 4096 / 32 = 128.
    {"llama-3.1-8b", "meta-llama/Llama-3.1-8B-Instruct", 32, 8, 128, 128, 0, 0, 0, false, 0,
     131072},
    // meta-llama/Llama-3.1-70B-Instruct: 64 heads, 8 kv heads, 8192 / 64 = 128.
    {"llama-3.1-70b", "meta-llama/Llama-3.1-70B-Instruct", 64, 8, 128, 128, 0, 0, 0, false, 0,
     131072},
    // Qwen/Qwen3-*: head_dim 128 everywhere, max_position_embeddings 40960.
    {"qwen3-0.6b", "Qwen/Qwen3-0.6B", 16, 8, 128, 128, 0, 0, 0, false, 0, 40960},
    {"qwen3-8b", "Qwen/Qwen3-8B", 32, 8, 128, 128, 0, 0, 0, false, 0, 40960},
    {"qwen3-32b", "Qwen/Qwen3-32B", 64, 8, 128, 128, 0, 0, 0, false, 0, 40960},
    {"qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B", 32, 4, 128, 128, 0, 0, 0, false, 0, 40960},
    {"qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B", 64, 4, 128, 128, 0, 0, 0, false, 0, 40960},
    // google/gemma-3-*-it text_config: head_dim 256 (27B: 128), sliding_window 1024 (1B: 512).
    {"gemma-3-1b", "google/gemma-3-1b-it", 4, 1, 256, 256, 0, 0, 512, false, 0, 32768},
    {"gemma-3-4b", "google/gemma-3-4b-it", 8, 4, 256, 256, 0, 0, 1024, false, 0, 131072},
    {"gemma-3-12b", "google/gemma-3-12b-it", 16, 8, 256, 256, 0, 0, 1024, false, 0, 131072},
    {"gemma-3-27b", "google/gemma-3-27b-it", 32, 16, 128, 128, 0, 0, 1024, false, 0, 131072},
    // openai/gpt-oss-*: 64 heads, 8 kv heads, head_dim 64, sliding_window 128, sinks.
    {"gpt-oss-20b", "openai/gpt-oss-20b", 64, 8, 64, 64, 0, 0, 128, true, 0, 131072},
    {"gpt-oss-120b", "openai/gpt-oss-120b", 64, 8, 64, 64, 0, 0, 128, true, 0, 131072},
    // google/gemma-4-31B-it text_config: sliding layers 32 heads, 16 kv heads, head_dim 256,
    // sliding_window 1024; the full-attention layers global_head_dim 512 with
    // num_global_key_value_heads 4 (vLLM transformers_utils/configs/gemma4.py:19-32 reads them).
    {"gemma-4-31b", "google/gemma-4-31B-it", 32, 16, 256, 256, 0, 0, 1024, false, 0, 131072},
    {"gemma-4-31b-global", "google/gemma-4-31B-it (global layers)", 32, 4, 512, 512, 0, 0, 0, false,
     0, 131072},
    // mistralai/Mistral-7B-v0.1: 32 heads, 8 kv heads, 128, sliding_window 4096.
    {"mistral-7b-v0.1", "mistralai/Mistral-7B-v0.1", 32, 8, 128, 128, 0, 0, 4096, false, 0, 32768},
    // mistralai/Mistral-Small-24B-Instruct-2501: 32 heads, 8 kv heads, head_dim 128.
    {"mistral-small-24b", "mistralai/Mistral-Small-24B-Instruct-2501", 32, 8, 128, 128, 0, 0, 0,
     false, 0, 32768},
    // mistralai/Mistral-Large-Instruct-2407: 96 heads, 8 kv heads, 12288 / 96 = 128.
    {"mistral-large-2", "mistralai/Mistral-Large-Instruct-2407", 96, 8, 128, 128, 0, 0, 0, false, 0,
     131072},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::span<const EnumName<AttnOp>> attn_op_names() { return kOps; }
std::span<const EnumName<AttnStage>> attn_stage_names() { return kStages; }
std::span<const EnumName<AttnPhase>> attn_phase_names() { return kPhases; }
std::string_view attn_op_name(AttnOp o) { return enum_name(attn_op_names(), o); }
std::string_view attn_stage_name(AttnStage s) { return enum_name(attn_stage_names(), s); }
std::string_view attn_phase_name(AttnPhase p) {
  return p == AttnPhase::Unset ? "unset" : enum_name(attn_phase_names(), p);
}

std::span<const AttnPreset> attn_presets() { return kPresets; }

const AttnPreset* find_attn_preset(std::string_view name) {
  const std::string n = lower(name);
  for (const AttnPreset& p : kPresets)
    if (p.name == n) return &p;
  return nullptr;
}

std::string attn_preset_choices() {
  std::string out;
  for (const AttnPreset& p : kPresets) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

std::optional<AttnShape> resolve_attn_shape(const AttentionSpec& spec, AttnShapeError* error) {
  auto fail = [&](std::string field, std::string message) -> std::optional<AttnShape> {
    if (error) *error = {std::move(field), std::move(message)};
    return std::nullopt;
  };
  AttnShape s;
  if (!spec.model.empty()) {
    const AttnPreset* p = find_attn_preset(spec.model);
    if (p == nullptr)
      return fail("model", "\"" + spec.model + "\" is not a preset; allowed: " +
                               attn_preset_choices() + " (or give q_heads, kv_heads, head_dim)");
    const long long tp = spec.tp.value_or(1);
    // vLLM llama.py:141-154 (the same rule in qwen3.py, gemma3.py, gpt_oss.py; deepseek_v2.py:990
    // num_local_heads = num_heads // tp_size): q heads split evenly; kv heads split when there
    // are at least tp of them, else replicated (tp a multiple of kv_heads, one per rank).
    if (p->q_heads % tp != 0)
      return fail("tp", std::to_string(tp) + " does not divide " + std::string(p->name) + "'s " +
                            std::to_string(p->q_heads) +
                            " attention heads; allowed: a divisor of " +
                            std::to_string(p->q_heads));
    s.q_heads = p->q_heads / tp;
    if (p->kv_heads >= tp) {
      if (p->kv_heads % tp != 0)
        return fail("tp", std::to_string(tp) + " does not divide " + std::string(p->name) + "'s " +
                              std::to_string(p->kv_heads) +
                              " kv heads; allowed: a divisor or a multiple of " +
                              std::to_string(p->kv_heads));
      s.kv_heads = p->kv_heads / tp;
    } else {
      if (tp % p->kv_heads != 0)
        return fail("tp", std::to_string(tp) + " is neither a divisor nor a multiple of " +
                              std::string(p->name) + "'s " + std::to_string(p->kv_heads) +
                              " kv heads (vLLM asserts tp_size % num_kv_heads == 0)");
      s.kv_heads = 1;
    }
    s.head_dim = p->head_dim;
    s.head_dim_v = p->head_dim_v;
    s.kv_lora_rank = p->kv_lora_rank;
    s.rope_dim = p->rope_dim;
    s.sliding_window = p->sliding_window;
    s.sinks = p->sinks;
    s.logit_cap = p->logit_cap;
    s.context_len = p->context_len;
  } else if (spec.tp) {
    return fail("tp",
                "applies only with \"model\" (a preset); per-rank shapes are given as "
                "q_heads, kv_heads, head_dim");
  }
  if (spec.q_heads) s.q_heads = *spec.q_heads;
  if (spec.kv_heads) s.kv_heads = *spec.kv_heads;
  if (spec.head_dim) s.head_dim = *spec.head_dim;
  if (spec.head_dim_v) s.head_dim_v = *spec.head_dim_v;
  if (spec.kv_lora_rank) s.kv_lora_rank = *spec.kv_lora_rank;
  if (spec.rope_dim) s.rope_dim = *spec.rope_dim;
  if (spec.sliding_window) s.sliding_window = *spec.sliding_window;
  if (spec.sinks) s.sinks = *spec.sinks;
  if (spec.logit_cap) s.logit_cap = *spec.logit_cap;
  if (spec.context_len) s.context_len = *spec.context_len;
  if (spec.model.empty()) {
    if (s.q_heads == 0)
      return fail("q_heads", "missing; a triton_attention config needs \"model\" (" +
                                 attn_preset_choices() + ") or q_heads and head_dim");
    if (s.kv_heads == 0) s.kv_heads = s.q_heads;
    if (s.head_dim == 0 && s.kv_lora_rank == 0)
      return fail("head_dim",
                  "missing; give head_dim (the query/key head size) or "
                  "kv_lora_rank and rope_dim (MLA)");
    if (s.head_dim_v == 0) s.head_dim_v = s.head_dim;
  }
  if (s.kv_heads > s.q_heads)
    return fail("kv_heads", std::to_string(s.kv_heads) + " kv heads for " +
                                std::to_string(s.q_heads) +
                                " query heads; allowed: at most q_heads");
  return s;
}

}  // namespace tilefit::model
