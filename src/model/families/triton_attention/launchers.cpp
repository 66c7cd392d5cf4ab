// What both engines' launcher inference shares: the runtime defaults, the op, the overrides
// and the stage selection (launchers.hpp).
#include "launchers.hpp"

#include <algorithm>
#include <string>

namespace tilefit::model::attention {

long long next_pow2(long long n) {
  long long p = 1;
  while (p < n) p <<= 1;
  return p;
}

void set_constexpr(AttnLaunch& l, std::string_view name, double v) {
  for (auto& [n, value] : l.constexprs)
    if (n == name) {
      value = v;
      return;
    }
  l.constexprs.emplace_back(std::string(name), v);
}

long long reference_sm_count(int arch) {
  // One reference GPU per arch (the SM count its launchers would read from the device); the
  // same table as the measured rows' (tools/attention/gen_jobs.py SM_COUNT).
  switch (arch) {
    case 75:
      return 40;  // Tesla T4
    case 80:
      return 108;  // A100
    case 86:
      return 84;  // A40
    case 87:
      return 16;  // Jetson AGX Orin
    case 89:
      return 142;  // L40S
    case 90:
      return 132;  // H100 SXM
    case 100:
      return 148;  // B200
    case 103:
      return 148;  // B300
    case 110:
      return 20;  // Jetson Thor
    case 120:
      return 188;  // RTX PRO 6000 Blackwell
    case 121:
      return 48;  // DGX Spark (GB10)
    default:
      return 108;
  }
}

namespace {

std::string_view stage_of(AttnStage s) {
  switch (s) {
    case AttnStage::Stage1:
      return "stage1";
    case AttnStage::Stage2:
      return "stage2";
    case AttnStage::Main:
      return "main";
    case AttnStage::Reduce:
      return "reduce";
    case AttnStage::All:
      break;
  }
  return "";
}

/// The override fields and the constexpr each replaces.
struct Override {
  std::string_view field;
  std::string_view constexpr_name;
  std::optional<long long> AttentionSpec::*member;
};
constexpr Override kOverrides[] = {
    {"block_n", "BLOCK_N", &AttentionSpec::block_n},
    {"block_h", "BLOCK_H", &AttentionSpec::block_h},
    {"block_m", "BLOCK_M", &AttentionSpec::block_m},
    {"block_q", "BLOCK_Q", &AttentionSpec::block_q},
    {"tile_size", "TILE_SIZE", &AttentionSpec::tile_size},
    {"block_dmodel", "BLOCK_DMODEL", &AttentionSpec::block_dmodel},
    {"block_dpe", "BLOCK_DPE", &AttentionSpec::block_dpe},
    {"block_dv", "BLOCK_DV", &AttentionSpec::block_dv},
};

/// The constexpr num_kv_splits replaces in a launch (vLLM decode NUM_KV_SPLITS, vLLM 3D
/// NUM_SEGMENTS_PER_SEQ, SGLang stage2 MAX_KV_SPLITS), or empty.
std::string_view splits_name(const AttnLaunch& l) {
  if (l.get("NUM_KV_SPLITS")) return "NUM_KV_SPLITS";
  if (l.get("MAX_KV_SPLITS")) return "MAX_KV_SPLITS";
  if (l.get("NUM_SEGMENTS_PER_SEQ") && l.get("IS_3D").value_or(1) != 0)
    return "NUM_SEGMENTS_PER_SEQ";
  return "";
}

}  // namespace

Inference infer(const KernelConfig& cfg, Findings& why) {
  Inference inf;
  const AttentionSpec& a = cfg.attention;
  const bool sglang = cfg.launcher == Launcher::Sglang;
  const std::string engine = sglang ? "sglang@d6ef6888" : "vllm@6adad087";
  AttnShapeError err;
  std::optional<AttnShape> shape = resolve_attn_shape(a, &err);
  if (!shape) {
    inf.failed = true;
    why.reject([&] {
      return diag(Code::attn_shape).name("field", err.field).name("reason", err.message);
    });
    return inf;
  }
  inf.shape = *shape;
  const AttnShape& s = inf.shape;

  // ---- the runtime inputs, with the defaults said ----
  Runtime& rt = inf.rt;
  auto assumed = [&](std::string_view field, std::string value, std::string_view source) {
    why.note([&] {
      return diag(Code::attn_assumed)
          .name("field", field)
          .name("value", value)
          .name("source", source);
    });
  };
  if (a.phase != AttnPhase::Unset) {
    rt.phase = a.phase;
  } else {
    // The op says the phase when given: decode ops run one query token per sequence.
    const bool decode_op = a.op == AttnOp::Decode || a.op == AttnOp::MlaDecode ||
                           a.op == AttnOp::Unified3d || a.op == AttnOp::Auto;
    rt.phase =
        decode_op ? AttnPhase::Decode
        : (a.op == AttnOp::Extend || a.op == AttnOp::ExtendUnified || a.op == AttnOp::PrefixPrefill)
            ? AttnPhase::Extend
            : AttnPhase::Prefill;
    if (a.op == AttnOp::Auto) assumed("phase", "decode", "no op and no phase given");
  }
  const bool decode = rt.phase == AttnPhase::Decode;
  rt.num_seqs = a.num_seqs.value_or(1);
  if (a.max_seqlen_q) {
    rt.max_seqlen_q = *a.max_seqlen_q;
  } else {
    rt.max_seqlen_q = decode ? 1 : 2048;
    if (!decode) assumed("max_seqlen_q", "2048", "the longest new-token run of a prefill batch");
  }
  rt.context_len = s.context_len;
  if (a.max_seq_len) {
    rt.max_seq_len = *a.max_seq_len;
  } else {
    rt.max_seq_len = 4096;
    if (decode) assumed("max_seq_len", "4096", "the batch's longest sequence");
  }
  if (rt.context_len == 0) rt.context_len = std::max(rt.max_seq_len, rt.max_seqlen_q);
  if (a.page_size) {
    rt.page_size = *a.page_size;
  } else {
    // vLLM's default block_size 16 (CacheConfig); SGLang's page_size 1 (server_args, read by
    // triton_backend.py:154-156).
    rt.page_size = sglang ? 1 : 16;
  }
  if (a.sm_count) {
    rt.sm_count = *a.sm_count;
  } else {
    rt.sm_count = reference_sm_count(cfg.arch);
  }
  rt.deterministic = a.deterministic.value_or(false);
  // SGLang's use_pdl = is_arch_support_pdl(): CUDA capability major >= 9
  // (triton_backend.py:220-223, jit_kernel/utils/arch.py:116-119).
  rt.use_pdl = a.use_pdl.value_or(sglang && cfg.arch >= 90);
  if (sglang) {
    // max_kv_splits (triton_backend.py:208-250): server_args.triton_attention_num_kv_splits
    // (default 8, server_args.py:1595-1598); MLA raises it to
    // max(base, min(next_pow2(SMs), next_pow2(cdiv(context_len, 32)))) (_mla_decode_kv_splits_cap,
    // 67-74); deterministic inference: cdiv(context_len, split_tile_size 256) (234-250).
    // The field `max_kv_splits` is the launcher's argument as it reaches decode_attention_fwd
    // (the backend's final self.max_kv_splits): given, it is taken as it is.
    long long m = 8;
    const bool mla_decode = a.op == AttnOp::MlaDecode || (a.op == AttnOp::Auto && s.mla());
    if (mla_decode && rt.sm_count > 0)
      m = std::max(m, std::min(next_pow2(rt.sm_count), next_pow2((rt.context_len + 31) / 32)));
    if (rt.deterministic) m = (rt.context_len + 255) / 256;
    rt.max_kv_splits = a.max_kv_splits.value_or(m);
  }
  if (!a.sm_count && (s.mla() || sglang))
    assumed("sm_count", std::to_string(rt.sm_count), "the arch's reference GPU");

  // ---- the op ----
  inf.op = a.op;
  if (inf.op == AttnOp::Auto) {
    inf.op = sglang ? sglang_default_op(s, rt, cfg, why) : vllm_default_op(s, rt, cfg, why);
    if (inf.op == AttnOp::Auto) {
      inf.failed = true;
      return inf;
    }
    why.note([&] {
      return diag(Code::attn_op_inferred)
          .name("engine", engine)
          .name("op", attn_op_name(inf.op))
          .name("phase", attn_phase_name(rt.phase));
    });
  }
  if ((inf.op == AttnOp::MlaDecode) && !s.mla()) {
    inf.failed = true;
    why.reject([&] {
      return diag(Code::attn_shape)
          .name("field", "op")
          .name("reason",
                "mla_decode needs an MLA shape: kv_lora_rank and rope_dim, or an MLA "
                "model (deepseek-v3, kimi-k2)");
    });
    return inf;
  }
  // Every op but the latent-cache ones (MLA decode, SGLang's absorbed MLA extend) reads
  // head_dim.
  const bool latent =
      inf.op == AttnOp::MlaDecode || (sglang && s.mla() && inf.op != AttnOp::Prefill);
  if (!latent && s.head_dim == 0) {
    inf.failed = true;
    why.reject([&] {
      return diag(Code::attn_shape)
          .name("field", "head_dim")
          .name("reason", "missing; op " + std::string(attn_op_name(inf.op)) +
                              " reads the query/key head size (kv_lora_rank and rope_dim alone "
                              "are the MLA decode's latent cache)");
    });
    return inf;
  }
  inf.engine_refuses =
      sglang ? sglang_refuses(inf.op, s, rt, cfg, why) : vllm_refuses(inf.op, s, rt, cfg, why);
  inf.all =
      sglang ? sglang_launches(inf.op, s, rt, cfg, why) : vllm_launches(inf.op, s, rt, cfg, why);
  if (inf.all.empty()) {
    inf.failed = true;
    return inf;
  }

  // ---- the stage ----
  if (a.stage == AttnStage::All) {
    inf.launches = inf.all;
  } else {
    for (const AttnLaunch& l : inf.all)
      if (l.stage == stage_of(a.stage)) inf.launches.push_back(l);
    if (inf.launches.empty()) {
      inf.failed = true;
      why.reject([&] {
        std::string have;
        for (const AttnLaunch& l : inf.all)
          have += (have.empty() ? "" : ", ") + std::string(l.stage);
        return diag(Code::attn_stage_absent)
            .name("stage", attn_stage_name(a.stage))
            .name("op", attn_op_name(inf.op))
            .name("allowed", "all, " + have);
      });
      return inf;
    }
  }
  inf.primary = 0;

  // ---- the overrides ----
  for (const Override& o : kOverrides) {
    const std::optional<long long>& v = a.*(o.member);
    if (!v) continue;
    bool used = false;
    for (AttnLaunch& l : inf.launches) {
      const std::optional<double> was = l.get(o.constexpr_name);
      if (!was) continue;
      used = true;
      set_constexpr(l, o.constexpr_name, double(*v));
      // vLLM unified: BLOCK_Q follows BLOCK_M (BLOCK_M // num_queries_per_kv,
      // triton_unified_attention.py:930-933) unless block_q is given too.
      if (o.field == "block_m" && !a.block_q && l.get("BLOCK_Q") && l.get("num_queries_per_kv"))
        set_constexpr(
            l, "BLOCK_Q",
            double(*v / std::max(1LL, static_cast<long long>(*l.get("num_queries_per_kv")))));
      why.note([&] {
        return diag(Code::attn_override)
            .name("field", o.field)
            .name("name", o.constexpr_name)
            .integer("value", *v)
            .integer("launcher_value", static_cast<std::int64_t>(*was))
            .name("kernel", kernel_function(l.kernel));
      });
    }
    if (!used)
      why.note([&] {
        return diag(Code::attn_override_unused)
            .name("field", o.field)
            .name("name", o.constexpr_name)
            .name("op", attn_op_name(inf.op));
      });
  }
  if (a.num_kv_splits) {
    for (AttnLaunch& l : inf.launches) {
      const std::string_view n = splits_name(l);
      if (!n.empty()) set_constexpr(l, n, double(*a.num_kv_splits));
    }
  }
  AttnLaunch& p = inf.launches[static_cast<std::size_t>(inf.primary)];
  if (cfg.num_warps) p.num_warps = *cfg.num_warps;
  if (cfg.stages) p.num_stages = *cfg.stages;
  return inf;
}

}  // namespace tilefit::model::attention
