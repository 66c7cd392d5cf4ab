// vLLM 6adad08767583f52eb4d2122111af0bf638ed5e6: what its attention launchers pass to the Triton
// kernels. Paths are relative to vllm/ at that commit:
//   v1/attention/ops/triton_decode_attention.py   decode_attention_fwd (MLA decode, TRITON_MLA)
//   v1/attention/ops/triton_unified_attention.py  unified_attention (TRITON_ATTN, every phase)
//   v1/attention/ops/triton_prefill_attention.py  context_attention_fwd (ViT / encoder prefill)
//   v1/attention/ops/prefix_prefill.py            context_attention_fwd (ROCM_ATTN's prefill)
//   v1/attention/backends/triton_attn.py, backends/mla/triton_mla.py  (the backends calling them)
#include <algorithm>
#include <string>

#include "launchers.hpp"

namespace tilefit::model::attention {
namespace {

int elem_bytes(DType t) { return std::max(1, bits(t) / 8); }
bool is_fp8(DType t) { return t == DType::E4M3 || t == DType::E5M2; }

AttnLaunch make(AttnKernel k, std::string_view stage, const KernelConfig& cfg, DType q, DType kv,
                DType out) {
  (void)cfg;
  AttnLaunch l;
  l.kernel = k;
  l.stage = stage;
  l.q_dtype = q;
  l.kv_dtype = kv;
  l.out_dtype = out;
  return l;
}

/// prefix_prefill.py context_attention_fwd with alibi_slopes (884-942): _fwd_kernel_alibi with
/// BLOCK_M = BLOCK_N = BASE_BLOCK (128 from sm_80, else 64: line 15), halved for f32 queries
/// (891), BLOCK_DMODEL = head size, BLOCK_DMODEL_PADDED its next power of two (857),
/// num_warps NUM_WARPS (8 off ROCm: 16), num_stages 1, SKIP_DECODE False. The page size and x
/// are runtime arguments of this kernel (block_size, x: 510-511), not constexprs.
AttnLaunch prefix_prefill_alibi(const AttnShape& s, const KernelConfig& cfg, DType q, DType kv) {
  const long long base = cfg.arch >= 80 ? 128 : 64;
  const long long block = q == DType::F32 ? base / 2 : base;
  AttnLaunch l = make(AttnKernel::VllmPrefixPrefillAlibi, "main", cfg, q, kv, q);
  l.constexprs = {{"BLOCK_M", double(block)},
                  {"BLOCK_DMODEL", double(s.head_dim)},
                  {"BLOCK_DMODEL_PADDED", double(next_pow2(s.head_dim))},
                  {"BLOCK_N", double(block)},
                  {"SKIP_DECODE", 0.0}};
  l.num_warps = 8;
  l.num_stages = 1;
  return l;
}

/// triton_decode_attention.py decode_attention_fwd (756-818): kv_group_num == 1 runs
/// _fwd_kernel_stage1 through _decode_att_m_fwd (210-276), else _fwd_grouped_kernel_stage1
/// through _decode_grouped_att_m_fwd (470-573); both are followed by _fwd_kernel_stage2 through
/// _decode_softmax_reducev_fwd (642-681).
std::vector<AttnLaunch> decode(bool mla, const AttnShape& s, const Runtime& rt,
                               const KernelConfig& cfg, long long splits) {
  const DType act = cfg.attention.act_dtype.value_or(DType::BF16);
  const DType kv = cfg.attention.kv_dtype.value_or(act);
  const DType q = cfg.attention.q_dtype.value_or(act);
  // MLA: the cache is [pages, page_size, 1, kv_lora_rank + rope_dim] (triton_mla.py:284-289:
  // unsqueeze(2)); K is the whole row (Lk), V its first kv_lora_rank (Lv).
  const long long kv_heads = mla ? 1 : s.kv_heads;
  const long long lk = mla ? s.kv_lora_rank + s.rope_dim : s.head_dim;
  const long long lv = mla ? s.kv_lora_rank : s.head_dim_v;
  const long long group = s.q_heads / kv_heads;  // q.shape[1] // k_buffer.shape[-2] (233, 511)
  const double logit_cap = s.logit_cap;
  std::vector<AttnLaunch> out;
  if (group == 1) {
    // _decode_att_m_fwd: BLOCK = 64 (224), num_warps 4 (235-237: 2 when kv_group_num != 1),
    // BLOCK_DMODEL / BLOCK_DV next powers of two (239-240), num_stages 2 (272).
    AttnLaunch l = make(AttnKernel::VllmDecodeStage1, "stage1", cfg, q, kv, DType::F32);
    l.constexprs = {{"kv_group_num", 1.0},
                    {"BLOCK_DMODEL", double(next_pow2(lk))},
                    {"BLOCK_DV", double(next_pow2(lv))},
                    {"BLOCK_N", 64.0},
                    {"NUM_KV_SPLITS", double(splits)},
                    {"PAGE_SIZE", double(rt.page_size)},
                    {"logit_cap", logit_cap},
                    {"Lk", double(lk)},
                    {"Lv", double(lv)}};
    l.num_warps = 4;
    l.num_stages = 2;
    out.push_back(std::move(l));
  } else {
    // _decode_grouped_att_m_fwd: the MLA split of BLOCK_DMODEL / BLOCK_DPE (491-503: 576 ->
    // 512 + 64, 288 -> 256 + 32, else next_power_of_2(Lv) + next_power_of_2(Lk - Lv); not MLA:
    // next_power_of_2(Lk) and 0), BLOCK_DV (504), BLOCK = 32 (506), BLOCK_H = 16 (513),
    // num_stages 2, 1 when BLOCK_DMODEL >= 1024 (522-532), num_warps 4 (566).
    long long dmodel = 0, dpe = 0;
    if (mla) {
      if (lk == 576) {
        dmodel = 512, dpe = 64;
      } else if (lk == 288) {
        dmodel = 256, dpe = 32;
      } else {
        dmodel = next_pow2(lv);
        dpe = lk > lv ? next_pow2(lk - lv) : 0;
      }
    } else {
      dmodel = next_pow2(lk);
    }
    AttnLaunch l = make(AttnKernel::VllmDecodeGroupedStage1, "stage1", cfg, q, kv, DType::F32);
    l.constexprs = {{"kv_group_num", double(group)},
                    {"q_head_num", double(s.q_heads)},
                    {"BLOCK_DMODEL", double(dmodel)},
                    {"BLOCK_DPE", double(dpe)},
                    {"BLOCK_DV", double(next_pow2(lv))},
                    {"BLOCK_N", 32.0},
                    {"BLOCK_H", 16.0},
                    {"NUM_KV_SPLITS", double(splits)},
                    {"PAGE_SIZE", double(rt.page_size)},
                    {"logit_cap", logit_cap},
                    {"Lk", double(lk)},
                    {"Lv", double(lv)},
                    {"IS_MLA", mla ? 1.0 : 0.0}};
    l.num_warps = 4;
    l.num_stages = dmodel >= 1024 ? 1 : 2;
    out.push_back(std::move(l));
  }
  // _decode_softmax_reducev_fwd: BLOCK_DV (653), num_warps 4, num_stages 2 (678-679); the
  // output o has q's type (triton_mla.py:250-252).
  // It reads Mid_O (f32) and writes o, never the cache: no cache dtype of its own (kv_dtype is
  // q's, as the measured rows record it), so an fp8 cache below sm_89 leaves it valid.
  AttnLaunch r = make(AttnKernel::VllmDecodeStage2, "stage2", cfg, q, q, q);
  r.constexprs = {
      {"NUM_KV_SPLITS", double(splits)}, {"BLOCK_DV", double(next_pow2(lv))}, {"Lv", double(lv)}};
  r.num_warps = 4;
  r.num_stages = 2;
  out.push_back(std::move(r));
  return out;
}

/// triton_mla.py _compute_num_kv_splits (41-47) as forward_mqa calls it (259-268): 1 under
/// VLLM_BATCH_INVARIANT, else min(next_power_of_2(max(1, max_seq_len // 512)), 2 · SMs).
long long mla_splits(const Runtime& rt) {
  if (rt.deterministic) return 1;
  return std::min(next_pow2(std::max(1LL, rt.max_seq_len / 512)), rt.sm_count * 2);
}

/// triton_unified_attention.py _get_tile_size (784-799): Gemma-3's signature (sliding window
/// 1024, head size 128 or 256: _is_gemma3_attention, 774-781) takes 32; else 32 for prefill,
/// 16 for decode with >= 2-byte queries, 32 with fp8 queries.
long long tile_size(long long head, long long window, int q_bytes, bool prefill) {
  if (window == 1024 && (head == 128 || head == 256)) return 32;
  if (prefill) return 32;
  return q_bytes >= 2 ? 16 : 32;
}

/// The default cudagraph_capture_sizes (vllm/config/compilation.py: [1, 2, 4] + range(8, 256,
/// 8) + range(256, max + 1, 16)): triton_attn.py:144-154 moves seq_threshold_3D to the closest.
long long closest_capture_size(long long x) {
  long long best = 1;
  auto consider = [&](long long c) {
    if (std::llabs(c - x) < std::llabs(best - x)) best = c;
  };
  for (long long c : {1, 2, 4}) consider(c);
  for (long long c = 8; c < 256; c += 8) consider(c);
  for (long long c = 256; c <= 512; c += 16) consider(c);
  return best;
}

}  // namespace

/// seq_threshold_3D: MIN_LAUNCH_GRID_SIZE_2D (128) // num_kv_heads (triton_attn.py:55, 141),
/// moved to the closest CUDA-graph capture size (144-154, cudagraphs are on by default).
long long vllm_seq_threshold_3d(long long kv_heads) {
  return closest_capture_size(128 / std::max(1LL, kv_heads));
}

AttnOp vllm_default_op(const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                       Findings& why) {
  (void)cfg;
  if (s.mla()) {
    // TRITON_MLA runs decode_attention_fwd for decode (triton_mla.py:305-320); MLA prefill
    // runs no Triton attention kernel of this family (MLACommonImpl's prefill is FlashAttention
    // / FlashInfer / cuDNN).
    if (rt.phase == AttnPhase::Decode) return AttnOp::MlaDecode;
    why.reject([&] {
      return diag(Code::attn_no_triton_kernel)
          .name("engine", "vllm@6adad087")
          .name("phase", attn_phase_name(rt.phase))
          .name("reason",
                "vLLM's MLA prefill runs FlashAttention / FlashInfer / cuDNN (MLACommonImpl), "
                "not a Triton attention kernel; give \"op\" to check one anyway");
    });
    return AttnOp::Auto;
  }
  // TRITON_ATTN runs unified_attention for every phase (triton_attn.py:700-730); the 3D kernel
  // only when no sequence has more than one query token, the batch is at most seq_threshold_3D
  // and batch invariance is off (triton_unified_attention.py:1040-1049).
  const bool three_d =
      rt.max_seqlen_q <= 1 && rt.num_seqs <= vllm_seq_threshold_3d(s.kv_heads) && !rt.deterministic;
  return three_d ? AttnOp::Unified3d : AttnOp::Unified2d;
}

std::vector<AttnLaunch> vllm_launches(AttnOp op, const AttnShape& s, const Runtime& rt,
                                      const KernelConfig& cfg, Findings& why) {
  const DType act = cfg.attention.act_dtype.value_or(DType::BF16);
  const DType kv = cfg.attention.kv_dtype.value_or(act);
  const DType q = cfg.attention.q_dtype.value_or(act);
  const long long kv_heads = std::max(1LL, s.kv_heads);
  switch (op) {
    case AttnOp::MlaDecode:
    case AttnOp::Decode:
      return decode(op == AttnOp::MlaDecode, s, rt, cfg,
                    cfg.attention.num_kv_splits.value_or(mla_splits(rt)));
    case AttnOp::Unified2d:
    case AttnOp::Unified3d: {
      if (cfg.attention.alibi.value_or(false)) {
        // use_alibi_slopes (triton_unified_attention.py:922, 1123) adds the slope term to S in
        // registers (391-395, 551-553), but no such launch is measured: declined, not sized.
        why.reject([&] {
          return diag(Code::attn_no_triton_kernel)
              .name("engine", "vllm@6adad087")
              .name("phase", attn_phase_name(rt.phase))
              .name("reason",
                    "kernel_unified_attention with ALiBi slopes (USE_ALIBI_SLOPES) is not "
                    "measured, so not modelled; prefix_prefill's _fwd_kernel_alibi is");
        });
        return {};
      }
      const bool three_d = op == AttnOp::Unified3d;
      const long long per_kv = s.q_heads / kv_heads;
      // BLOCK_M / BLOCK_Q (triton_unified_attention.py:930-933).
      long long block_m = per_kv <= 16 ? 16 : next_pow2(per_kv);
      long long block_q = block_m / std::max(1LL, per_kv);
      int warps = 4, stages = 3;  // launch_num_warps / num_stages None: Triton's defaults
      // tuned_large_head (940-950): head 256, max_seqlen_q > 1, <= 16 queries per kv head, on
      // the sm_100 family (is_device_capability_family(100): 10.x).
      const bool large =
          s.head_dim == 256 && rt.max_seqlen_q > 1 && per_kv <= 16 && cfg.arch / 10 == 10;
      if (large) {
        block_m = 32;
        block_q = block_m / std::max(1LL, per_kv);
        warps = 8;
        stages = 2;
      }
      // sliding_window_val = 1 + window_size[0]; window_size = (sliding_window - 1, 0) for a
      // decoder (triton_attn.py:515-520), (-1, -1) without one (964).
      const long long window = s.sliding_window > 0 ? s.sliding_window : 0;
      const int q_bytes = elem_bytes(q);
      long long tile_prefill = tile_size(s.head_dim, window, q_bytes, true);
      const long long tile_decode = tile_size(s.head_dim, window, q_bytes, false);
      if (large) tile_prefill = 128;  // 984-985
      const long long segments = three_d ? cfg.attention.num_kv_splits.value_or(16) : 1;
      const long long padded = next_pow2(s.head_dim);
      // MM_PREFIX_CLAMP_SW: Gemma-4's sliding layers pass True (models/gemma4.py:505-513).
      const bool clamp = cfg.attention.model.rfind("gemma-4", 0) == 0 && window > 0;
      const bool fp8_kv = is_fp8(kv);
      AttnLaunch l = make(AttnKernel::VllmUnified, "main", cfg, q, kv, act);
      l.constexprs = {{"num_query_heads", double(s.q_heads)},
                      {"num_queries_per_kv", double(per_kv)},
                      {"BLOCK_SIZE", double(rt.page_size)},
                      {"TILE_SIZE", double(three_d ? tile_decode : tile_prefill)},
                      {"HEAD_SIZE", double(s.head_dim)},
                      {"HEAD_SIZE_PADDED", double(padded)},
                      {"USE_ALIBI_SLOPES", 0.0},
                      {"USE_ALIBI_SQRT", 0.0},
                      {"USE_QQ_BIAS", 0.0},
                      {"USE_SOFTCAP", s.logit_cap > 0 ? 1.0 : 0.0},
                      {"USE_SINKS", s.sinks ? 1.0 : 0.0},
                      {"SLIDING_WINDOW", double(window)},
                      {"USE_CAUSAL", 1.0},
                      {"USE_PER_SEQ_CAUSAL", 0.0},
                      {"USE_MM_PREFIX", 0.0},
                      {"MAX_MM_RANGES", 0.0},
                      {"R_SWA_WINDOW", 0.0},
                      {"USE_R_SWA", 0.0},
                      {"stride_k_cache_3", 1.0},
                      {"stride_v_cache_3", 1.0},
                      {"BLOCK_Q", double(block_q)},
                      {"BLOCK_M", double(block_m)},
                      {"NUM_SEGMENTS_PER_SEQ", double(segments)},
                      {"USE_FP8", 0.0},
                      {"IS_3D", three_d ? 1.0 : 0.0},
                      // get_kv_quant_mode (v1/kv_cache_interface.py:71-85): fp8* -> FP8_PER_TENSOR.
                      {"KV_QUANT_MODE", fp8_kv ? 1.0 : 0.0},
                      {"Q_IS_FP8", is_fp8(q) ? 1.0 : 0.0},
                      {"CHUNK_LOOKBACK", -1.0},
                      {"CHUNK_SIZE", -1.0},
                      {"USE_TD", 0.0},
                      {"USE_TD_QO", 0.0},
                      {"MM_PREFIX_CLAMP_SW", clamp ? 1.0 : 0.0}};
      if (rt.num_seqs == 1) l.constexprs.push_back({"num_seqs", 1.0});  // specialised int
      l.num_warps = warps;
      l.num_stages = stages;
      std::vector<AttnLaunch> out{std::move(l)};
      if (three_d) {
        // reduce_segments (1165-1186): TILE_SIZE_DECODE, Triton's default warps and stages.
        // It reads the segments' f32 partials, never the cache (kv_dtype is the activations',
        // as the measured rows record it: USE_FP8 is the output's quantisation, 0 here).
        AttnLaunch r = make(AttnKernel::VllmReduceSegments, "reduce", cfg, act, act, act);
        r.constexprs = {{"num_query_heads", double(s.q_heads)},
                        {"TILE_SIZE", double(tile_decode)},
                        {"HEAD_SIZE", double(s.head_dim)},
                        {"HEAD_SIZE_PADDED", double(padded)},
                        {"BLOCK_Q", double(block_q)},
                        {"NUM_SEGMENTS_PER_SEQ", double(segments)},
                        {"USE_FP8", 0.0}};
        if (rt.num_seqs == 1) r.constexprs.push_back({"num_seqs", 1.0});
        r.num_warps = 4;
        r.num_stages = 3;
        out.push_back(std::move(r));
      }
      return out;
    }
    case AttnOp::Prefill: {
      // triton_prefill_attention.py context_attention_fwd (217-286): BLOCK = get_block_size
      // (206-214: 32 for f32 queries, 128 from sm_80, else 64), num_warps 4 for Lk <= 64 else 8,
      // num_stages 1. Its caller in TRITON_ATTN is the encoder path (triton_attn.py:780-793):
      // is_causal=False, sliding_window_q/k = the encoder window (sliding_window - 1 on both
      // sides, -1 without one: 515-520).
      const double sw = s.sliding_window > 0 ? double(s.sliding_window - 1) : -1.0;
      const long long block = q == DType::F32 ? 32 : cfg.arch >= 80 ? 128 : 64;
      AttnLaunch l = make(AttnKernel::VllmPrefill, "main", cfg, q, kv, q);
      l.constexprs = {{"kv_group_num", double(s.q_heads / kv_heads)},
                      {"BLOCK_M", double(block)},
                      {"BLOCK_DMODEL", double(next_pow2(s.head_dim))},
                      {"BLOCK_N", double(block)},
                      {"IS_CAUSAL", 0.0},
                      {"SLIDING_WINDOW_Q", sw},
                      {"SLIDING_WINDOW_K", sw},
                      {"SINKS_BIAS_KEY0", 0.0},
                      {"USE_SINKS", s.sinks ? 1.0 : 0.0},
                      {"Lk", double(s.head_dim)}};
      l.num_warps = s.head_dim <= 64 ? 4 : 8;
      l.num_stages = 1;
      return {std::move(l)};
    }
    case AttnOp::PrefixPrefill: {
      // prefix_prefill.py context_attention_fwd (777-1024) with its defaults (skip_decode
      // False; ROCM_ATTN's chunked_prefill_paged_decode.py:316-338 passes True and sends the
      // decode tokens to its paged-decode kernel): BLOCK_M 128 / BLOCK_N 64 for a power-of-two page,
      // else 32 / 32 (951-961), TRITON_BLOCK_SIZE 32 (966), num_warps 4, num_stages 1 (1020-1021).
      // x = 16 bytes of the cache's element: the K cache is [blocks, kv_heads, head/x, page, x]
      // (its stride(3) is x: stride_k_cache_bl).
      if (cfg.attention.alibi.value_or(false)) return {prefix_prefill_alibi(s, cfg, q, kv)};
      const bool pow2 = rt.page_size > 0 && (rt.page_size & (rt.page_size - 1)) == 0;
      const long long x = 16 / elem_bytes(kv);
      AttnLaunch l = make(AttnKernel::VllmPrefixPrefill, "main", cfg, q, kv, q);
      l.constexprs = {{"x", double(x)},
                      {"stride_k_cache_bl", double(x)},
                      {"num_queries_per_kv", double(s.q_heads / kv_heads)},
                      {"BLOCK_M", pow2 ? 128.0 : 32.0},
                      {"BLOCK_DMODEL", double(s.head_dim)},
                      {"BLOCK_DMODEL_PADDED", double(next_pow2(s.head_dim))},
                      {"BLOCK_SIZE", 32.0},
                      {"PHYSICAL_BLOCK_SIZE", double(rt.page_size)},
                      {"BLOCK_N", pow2 ? 64.0 : 32.0},
                      {"SLIDING_WINDOW", double(std::max(0LL, s.sliding_window))},
                      {"num_unroll_cache", 4.0},
                      {"num_unroll_request", 1.0},
                      {"SKIP_DECODE", 0.0},
                      {"USE_SINKS", s.sinks ? 1.0 : 0.0},
                      {"USE_FP8", 0.0},
                      {"CAUSAL", 1.0},
                      {"KV_FROM_CACHE", 0.0}};
      l.num_warps = 4;
      l.num_stages = 1;
      return {std::move(l)};
    }
    default:
      why.reject([&] {
        return diag(Code::attn_op_not_in_engine)
            .name("engine", "vllm@6adad087")
            .name("op", attn_op_name(op))
            .name("allowed", "decode, mla_decode, unified_2d, unified_3d, prefill, prefix_prefill");
      });
      return {};
  }
}

bool vllm_refuses(AttnOp op, const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                  Findings& why) {
  bool refused = false;
  auto refuse = [&](std::string reason) {
    refused = true;
    why.note([&] {
      return diag(Code::attn_engine_refuses).name("engine", "vllm@6adad087").name("reason", reason);
    });
  };
  const DType act = cfg.attention.act_dtype.value_or(DType::BF16);
  const DType kv = cfg.attention.kv_dtype.value_or(act);
  const bool backend =
      op == AttnOp::MlaDecode || op == AttnOp::Unified2d || op == AttnOp::Unified3d;
  const std::string backend_name =
      op == AttnOp::MlaDecode ? "TRITON_MLA (triton_mla.py" : "TRITON_ATTN (triton_attn.py";
  if (backend && is_fp8(kv) && cfg.arch < 89)
    refuse("FP8 KV cache below sm_89: \"native FP8 (fp8e4nv) requires SM89+\" (" + backend_name +
           (op == AttnOp::MlaDecode ? ":211-222)" : ":526-537)"));
  if (backend && kv == DType::BF16 && cfg.arch < 80)
    refuse("bfloat16 KV cache below sm_80: \"bfloat16 requires SM80+\" (" + backend_name +
           (op == AttnOp::MlaDecode ? ":223-230)" : ":538-546)"));
  if (backend && rt.page_size % 16 != 0)
    refuse("page_size " + std::to_string(rt.page_size) +
           ": the backend's supports_block_size wants a multiple of 16 (" + backend_name +
           (op == AttnOp::MlaDecode ? ":119-122)" : ":299-302)"));
  if ((op == AttnOp::Unified2d || op == AttnOp::Unified3d) && s.head_dim < 32)
    refuse("head_dim " + std::to_string(s.head_dim) +
           ": TRITON_ATTN supports head sizes >= 32 (triton_attn.py:391-392)");
  if (op == AttnOp::MlaDecode && (s.sliding_window > 0 || s.logit_cap > 0))
    refuse(
        "TritonMLAImpl does not support sliding_window or logits_soft_cap (triton_mla.py:193-197)");
  if (cfg.attention.alibi.value_or(false)) {
    if (op == AttnOp::PrefixPrefill && s.sinks)
      refuse("ALiBi with sinks: \"Sinks arg is not supported with alibi\" (prefix_prefill.py:886)");
    else if (op != AttnOp::PrefixPrefill && op != AttnOp::Unified2d && op != AttnOp::Unified3d)
      refuse(std::string("ALiBi: the ") + std::string(attn_op_name(op)) +
             " launcher takes no alibi_slopes (only prefix_prefill.py:792 and "
             "triton_unified_attention.py:824 do)");
  }
  const long long kvh = op == AttnOp::MlaDecode ? 1 : s.kv_heads;
  if (kvh > 0 && s.q_heads % kvh != 0)
    refuse(std::to_string(s.q_heads) + " query heads are not a multiple of " + std::to_string(kvh) +
           " kv heads (num_queries_per_kv = num_heads // num_kv_heads, "
           "triton_attn.py:551)");
  return refused;
}

}  // namespace tilefit::model::attention
