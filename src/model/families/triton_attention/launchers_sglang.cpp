// SGLang d6ef68881e263812d4901f632786015005c4d050: what its Triton attention backend passes to
// the kernels. Paths are relative to python/sglang/ at that commit:
//   kernels/ops/attention/decode_attention.py   decode_attention_fwd (decode, MLA decode)
//   kernels/ops/attention/extend_attention.py   extend_attention_fwd(_unified)
//   kernels/ops/attention/prefill_attention.py  context_attention_fwd
//   srt/layers/attention/triton_backend.py       TritonAttnBackend (splits, PDL, page size)
#include <algorithm>
#include <string>

#include "launchers.hpp"

namespace tilefit::model::attention {
namespace {

AttnLaunch make(AttnKernel k, std::string_view stage, DType q, DType kv, DType out) {
  AttnLaunch l;
  l.kernel = k;
  l.stage = stage;
  l.q_dtype = q;
  l.kv_dtype = kv;
  l.out_dtype = out;
  return l;
}

/// _get_block_sizes_for_extend_attention (extend_attention.py:38-127) on CUDA: BLOCK_DMODEL /
/// BLOCK_DPE by Lq (576 -> 512 + 64, 288 -> 256 + 32, 192 -> 128 + 64, else next_power_of_2),
/// BLOCK_DV = next_power_of_2(Lv), BLOCK_M / BLOCK_N per capability, num_warps 4 for Lq <= 64
/// else 8.
struct ExtendBlocks {
  long long dmodel, dpe, dv, m, n;
  int warps;
};
ExtendBlocks extend_blocks(long long lq, long long lv, int arch) {
  ExtendBlocks b{};
  if (lq == 576) {
    b.dmodel = 512, b.dpe = 64;
  } else if (lq == 288) {
    b.dmodel = 256, b.dpe = 32;
  } else if (lq == 192) {
    b.dmodel = 128, b.dpe = 64;
  } else {
    b.dmodel = next_pow2(lq), b.dpe = 0;
  }
  b.dv = next_pow2(lv);
  const int major = arch / 10, minor = arch % 10;
  auto pick = [&](long long m, long long n) { b.m = m, b.n = n; };
  if (major == 12) {  // 79-86: sm_120 / sm_121 (about 100 KB)
    if (lq <= 128)
      pick(64, 128);
    else if (lq <= 256)
      pick(64, 64);
    else
      pick(32, 32);
  } else if (major == 10) {  // 87-94: sm_100 (register limits for Lq 512)
    if (lq <= 256)
      pick(64, 64);
    else
      pick(16, 64);
  } else if (major >= 9) {  // 95-102: Hopper (and sm_110, major 11)
    if (lq <= 128)
      pick(128, 64);
    else if (lq <= 256)
      pick(64, 64);
    else
      pick(32, 64);
  } else if (major >= 8) {  // 103-119: Ampere; sm_86 / sm_89 have about 100 KB
    if (minor == 9 || minor == 6) {
      if (lq <= 128)
        pick(64, 128);
      else if (lq <= 256)
        pick(64, 64);
      else
        pick(32, 32);
    } else {
      if (lq <= 128)
        pick(128, 128);
      else if (lq <= 256)
        pick(64, 64);
      else
        pick(32, 64);
    }
  } else {  // 120-122: older architectures
    if (lq <= 128)
      pick(64, 64);
    else
      pick(32, 32);
  }
  b.warps = lq <= 64 ? 4 : 8;  // 125
  return b;
}

}  // namespace

AttnOp sglang_default_op(const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                         Findings& why) {
  (void)cfg;
  (void)why;
  // TritonAttnBackend.forward_decode -> decode_attention_fwd (triton_backend.py:1787-1807,
  // has_mla=self.use_mla); forward_extend -> extend_attention_fwd (1365-1390), or
  // extend_attention_fwd_unified under --enable-deterministic-inference (1293-1294). A prefill
  // is an extend without a prefix in this backend.
  if (rt.phase == AttnPhase::Decode) return s.mla() ? AttnOp::MlaDecode : AttnOp::Decode;
  return rt.deterministic ? AttnOp::ExtendUnified : AttnOp::Extend;
}

std::vector<AttnLaunch> sglang_launches(AttnOp op, const AttnShape& s, const Runtime& rt,
                                        const KernelConfig& cfg, Findings& why) {
  const DType act = cfg.attention.act_dtype.value_or(DType::BF16);
  const DType kv = cfg.attention.kv_dtype.value_or(act);
  const DType q = cfg.attention.q_dtype.value_or(act);
  const double logit_cap = s.logit_cap;
  switch (op) {
    case AttnOp::Decode:
    case AttnOp::MlaDecode: {
      // An MLA shape reads the latent cache whichever decode op is named (has_mla =
      // self.use_mla, triton_backend.py:1804).
      const bool mla = op == AttnOp::MlaDecode || s.mla();
      // MLA: the latent cache, one head of kv_lora_rank + rope_dim, V its first kv_lora_rank.
      const long long kv_heads = mla ? 1 : std::max(1LL, s.kv_heads);
      const long long lk = mla ? s.kv_lora_rank + s.rope_dim : s.head_dim;
      const long long lv = mla ? s.kv_lora_rank : s.head_dim_v;
      const long long group = s.q_heads / kv_heads;  // decode_attention.py:997
      const long long max_splits = rt.max_kv_splits;
      std::vector<AttnLaunch> out;
      if (group == 1) {
        // _decode_att_m_fwd (284-381): BLOCK 64 (301), num_warps 4 for kv_group_num 1
        // (319-324), next powers of two (326-327), num_stages 2 (371).
        AttnLaunch l = make(AttnKernel::SglangDecodeStage1, "stage1", q, kv, DType::F32);
        l.constexprs = {{"kv_group_num", 1.0},
                        {"BLOCK_DMODEL", double(next_pow2(lk))},
                        {"BLOCK_DV", double(next_pow2(lv))},
                        {"BLOCK_N", 64.0},
                        {"MIN_BLOCK_KV", 32.0},
                        {"logit_cap", logit_cap},
                        {"Lk", double(lk)},
                        {"Lv", double(lv)},
                        {"xai_temperature_len", -1.0},
                        {"PAGE_SIZE", double(rt.page_size)}};
        l.num_warps = 4;
        l.num_stages = 2;
        out.push_back(std::move(l));
      } else {
        // _decode_grouped_att_m_fwd (611-729): BLOCK 32 (630), the 576 / 288 split (638-646)
        // for any Lk of that size (not only MLA), BLOCK_H 16 (655), num_stages 2 (664),
        // num_warps 4 (715).
        long long dmodel = next_pow2(lk), dpe = 0;
        if (lk == 576)
          dmodel = 512, dpe = 64;
        else if (lk == 288)
          dmodel = 256, dpe = 32;
        AttnLaunch l = make(AttnKernel::SglangDecodeGroupedStage1, "stage1", q, kv, DType::F32);
        l.constexprs = {{"kv_group_num", double(group)},
                        {"q_head_num", double(s.q_heads)},
                        {"BLOCK_DMODEL", double(dmodel)},
                        {"BLOCK_DPE", double(dpe)},
                        {"BLOCK_DV", double(next_pow2(lv))},
                        {"BLOCK_N", 32.0},
                        {"BLOCK_H", 16.0},
                        {"MIN_BLOCK_KV", 32.0},
                        {"logit_cap", logit_cap},
                        {"xai_temperature_len", -1.0},
                        {"Lk", double(lk)},
                        {"Lv", double(lv)},
                        {"HAS_MLA", mla ? 1.0 : 0.0},
                        {"USE_PDL", rt.use_pdl ? 1.0 : 0.0},
                        {"PAGE_SIZE", double(rt.page_size)}};
        l.num_warps = 4;
        l.num_stages = 2;
        out.push_back(std::move(l));
      }
      // _decode_softmax_reducev_fwd (808-858): MAX_KV_SPLITS, MIN_BLOCK_KV 32 (36), HAS_SINK,
      // USE_PDL (the MHA path passes none: decode_attention_fwd_normal leaves it False),
      // num_warps 4, num_stages 2.
      // It reads Mid_O (f32) and writes o, never the cache: kv_dtype is q's (as the measured
      // rows record it), so an fp8 cache below sm_89 leaves it valid.
      AttnLaunch r = make(AttnKernel::SglangDecodeStage2, "stage2", q, q, q);
      r.constexprs = {
          {"MAX_KV_SPLITS", double(max_splits)}, {"MIN_BLOCK_KV", 32.0},
          {"BLOCK_DV", double(next_pow2(lv))},   {"Lv", double(lv)},
          {"HAS_SINK", s.sinks ? 1.0 : 0.0},     {"USE_PDL", group != 1 && rt.use_pdl ? 1.0 : 0.0}};
      r.num_warps = 4;
      r.num_stages = 2;
      out.push_back(std::move(r));
      return out;
    }
    case AttnOp::Extend:
    case AttnOp::ExtendUnified: {
      const bool unified = op == AttnOp::ExtendUnified;
      // An MLA shape runs the absorbed form: q [tokens, heads, kv_lora_rank + rope_dim] over
      // the latent cache (one head, V its first kv_lora_rank): SGLang's MLA layers call
      // forward_extend with the latent k/v buffers (models/deepseek_v2.py, forward_absorb).
      // The decompressed form is the shape without kv_lora_rank (head_dim 192 / 128).
      const bool mla = s.mla();
      const long long lq = mla ? s.kv_lora_rank + s.rope_dim : s.head_dim;
      const long long lv = mla ? s.kv_lora_rank : s.head_dim_v;
      const ExtendBlocks b = extend_blocks(lq, lv, cfg.arch);
      const long long kv_heads = mla ? 1 : std::max(1LL, s.kv_heads);
      // SLIDING_WINDOW_SIZE: the layer's window, -1 without (triton_backend.py:1375-1380).
      const double window = s.sliding_window > 0 ? double(s.sliding_window) : -1.0;
      AttnLaunch l = make(unified ? AttnKernel::SglangExtendUnified : AttnKernel::SglangExtend,
                          "main", q, kv, q);
      // The arguments both kernels take first, in their signatures' order.
      l.constexprs = {{"SLIDING_WINDOW_SIZE", window},
                      {"logit_cap", logit_cap},
                      {"xai_temperature_len", -1.0},
                      {"Lq", double(lq)},
                      {"Lv", double(lv)},
                      {"BLOCK_DMODEL", double(b.dmodel)},
                      {"BLOCK_DPE", double(b.dpe)},
                      {"BLOCK_DV", double(b.dv)},
                      {"BLOCK_M", double(b.m)},
                      {"BLOCK_N", double(b.n)}};
      const double sink = s.sinks ? 1.0 : 0.0;
      const double page = double(rt.page_size);
      if (unified) {
        // extend_attention_fwd_unified (1152-1291): num_stages 1 (1196).
        l.constexprs.insert(l.constexprs.end(), {{"IS_CAUSAL", 1.0},
                                                 {"USE_CUSTOM_MASK", 0.0},
                                                 {"HAS_SINK", sink},
                                                 {"PAGE_SIZE", page}});
      } else {
        // extend_attention_fwd (660-808): num_stages 1 (726), no LSE, no DCP skips, the
        // prefix custom mask skipped (skip_prefix_custom_mask=True), STORE_TRANSPOSE = is_hip.
        l.constexprs.insert(l.constexprs.end(), {{"USE_CUSTOM_MASK", 0.0},
                                                 {"IS_CAUSAL", 1.0},
                                                 {"SKIP_PREFIX_CUSTOM_MASK", 1.0},
                                                 {"STORE_LSE", 0.0},
                                                 {"SKIP_PREFIX", 0.0},
                                                 {"SKIP_EXTEND", 0.0},
                                                 {"STORE_TRANSPOSE", 0.0},
                                                 {"HAS_SINK", sink},
                                                 {"PAGE_SIZE", page}});
      }
      // kv_group_num is a plain int argument: Triton specialises it when it is 1.
      if (s.q_heads / kv_heads == 1) l.constexprs.push_back({"kv_group_num", 1.0});
      l.num_warps = b.warps;
      l.num_stages = 1;
      return {std::move(l)};
    }
    case AttnOp::Prefill: {
      // prefill_attention.py context_attention_fwd (170-219): BLOCK 128 when the capability's
      // major is above 8, else 64 (180-183), num_warps 4 for Lk <= 64 else 8 (193),
      // num_stages 1 (217).
      const long long block = cfg.arch / 10 > 8 ? 128 : 64;
      const long long kv_heads = std::max(1LL, s.kv_heads);
      AttnLaunch l = make(AttnKernel::SglangPrefill, "main", q, kv, q);
      l.constexprs = {{"kv_group_num", double(s.q_heads / kv_heads)},
                      {"BLOCK_M", double(block)},
                      {"BLOCK_DMODEL", double(next_pow2(s.head_dim))},
                      {"BLOCK_N", double(block)},
                      {"IS_CAUSAL", 1.0},
                      {"Lk", double(s.head_dim)}};
      l.num_warps = s.head_dim <= 64 ? 4 : 8;
      l.num_stages = 1;
      return {std::move(l)};
    }
    default:
      why.reject([&] {
        return diag(Code::attn_op_not_in_engine)
            .name("engine", "sglang@d6ef6888")
            .name("op", attn_op_name(op))
            .name("allowed", "decode, mla_decode, extend, extend_unified, prefill");
      });
      return {};
  }
}

bool sglang_refuses(AttnOp op, const AttnShape& s, const Runtime& rt, const KernelConfig& cfg,
                    Findings& why) {
  (void)rt;
  (void)cfg;
  bool refused = false;
  const long long kvh = op == AttnOp::MlaDecode || s.mla() ? 1 : s.kv_heads;
  if (kvh > 0 && s.q_heads % kvh != 0) {
    refused = true;
    why.note([&] {
      return diag(Code::attn_engine_refuses)
          .name("engine", "sglang@d6ef6888")
          .name("reason", std::to_string(s.q_heads) + " query heads are not a multiple of " +
                              std::to_string(kvh) +
                              " kv heads (kv_group_num = q.shape[1] // kv_head_num, "
                              "decode_attention.py:997, extend_attention.py:712)");
    });
  }
  return refused;
}

}  // namespace tilefit::model::attention
