#include "tilefit/io/config_writer.hpp"

#include <charconv>
#include <utility>

#include "io/moe_quant.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/attention_vocab.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::io {
namespace {

using model::DType;

void append_int(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

/// The name the reader parses back to `op`: a block-scaled format name, else the element type.
/// A non-default scale-factor vector size is written as "sf_vec" (see sf_vec_override).
std::string_view operand_text(const model::Operand& op) {
  if (op.block_scaled()) {
    if (op.sf == DType::UE4M3 && op.elem == DType::E2M1) return "nvfp4";
    if (op.sf == DType::UE8M0) {
      if (op.elem == DType::E2M1) return "mxfp4";
      if (model::bits(op.elem) == 6) return "mxfp6";
      if (model::bits(op.elem) == 8) return "mxfp8";
    }
  }
  return model::dtype_name(op.elem);
}

/// The default vector size of `op`'s format name (nvfp4 16, mx* 32); 0 for plain operands.
int default_sf_vec(const model::Operand& op) {
  if (!op.block_scaled()) return 0;
  return op.sf == DType::UE4M3 ? 16 : 32;
}

class Writer {
 public:
  /// `quote`: how a JSON quote is written — "\"" for JSON, "\"\"" for JSON inside a CSV field.
  explicit Writer(std::string_view quote = "\"") : q_(quote) { out_.reserve(256); }
  std::string done() {
    out_ += '}';
    return std::move(out_);
  }
  /// `k` is one of the config's own field names: plain ASCII, written as is.
  void key(std::string_view k) {
    out_ += first_ ? '{' : ',';
    first_ = false;
    out_ += q_;
    out_ += k;
    out_ += q_;
    out_ += ':';
  }
  void str(std::string_view k, std::string_view v) {
    key(k);
    if (q_.size() == 1) {
      append_json_string(out_, v);
      return;
    }
    std::string json;
    append_json_string(json, v);
    for (const char c : json) {
      if (c == '"') out_ += '"';
      out_ += c;
    }
  }
  /// A value that is one of tilefit's own names (an arch, a type, a schedule): no escapes.
  void word(std::string_view k, std::string_view v) {
    key(k);
    out_ += q_;
    out_ += v;
    out_ += q_;
  }
  void num(std::string_view k, long long v) {
    key(k);
    append_int(out_, v);
  }
  void boolean(std::string_view k, bool v) {
    key(k);
    out_ += v ? "true" : "false";
  }
  template <class It>
  void list(std::string_view k, It begin, It end) {
    key(k);
    out_ += '[';
    for (It i = begin; i != end; ++i) {
      if (i != begin) out_ += ',';
      append_int(out_, *i);
    }
    out_ += ']';
  }
  std::string& raw() { return out_; }

 private:
  std::string_view q_;
  std::string out_;
  bool first_ = true;
};

std::string write_config(const model::KernelConfig& cfg, std::string_view quote);

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  // Copy runs of plain characters whole; escape the rest.
  std::size_t from = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c != '"' && c != '\\' && c >= 0x20) continue;
    out.append(s.data() + from, i - from);
    if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += '\\';
      out += static_cast<char>(c);
    }
    from = i + 1;
  }
  out.append(s.data() + from, s.size() - from);
  out += '"';
}

std::string config_json(const model::KernelConfig& cfg) { return write_config(cfg, "\""); }

std::string config_json_csv(const model::KernelConfig& cfg) {
  std::string out(1, '"');
  out += write_config(cfg, "\"\"");
  out += '"';
  return out;
}

namespace {

/// A Triton config (issue 12): the fields a Triton kernel takes. What a tuned table adds
/// (tuned_device, tuned_block_k, unmodelled_dtype) is not a config field: the written config is
/// the entry as analysed (its arch resolved, its K clamped).
void write_triton(Writer& w, const model::KernelConfig& cfg, std::string_view quote) {
  // A fused-MoE config's quantisation as apply_moe_quant reads it back (fp8_w8a8, int8_w8a16,
  // …: what the engine's launcher runs), with the launch keys a tuned entry added ("tuned").
  const bool moe = cfg.family == "triton_fused_moe";
  const std::string quant = moe ? io::detail::moe_quant_text(cfg) : std::string();
  if (!quant.empty())
    w.str("dtype", quant);
  else
    w.word("dtype", cfg.fp8_w8a8 ? std::string_view("fp8_w8a8") : operand_text(cfg.a));
  w.word("d", model::dtype_name(cfg.d));
  if (cfg.num_warps) w.num("num_warps", *cfg.num_warps);
  if (cfg.stages) w.num("stages", *cfg.stages);
  if (cfg.group_m) w.num("group_m", *cfg.group_m);
  if (cfg.block_shape) w.list("block_shape", cfg.block_shape->begin(), cfg.block_shape->end());
  if (cfg.mul_routed_weight) w.boolean("mul_routed_weight", true);
  if (!cfg.triton_version.empty()) w.str("triton", cfg.triton_version);
  if (cfg.engine != model::EngineRelease::None)
    w.str("engine", model::engine_release_text(cfg.engine));
  const model::KernelConfig::TunedLaunch& t = cfg.tuned;
  if (moe && (t.split_k || t.use_tma || t.num_ctas || t.waves_per_eu || t.matrix_instr_nonkdim ||
              t.kpack || t.per_channel_quant)) {
    w.key("tuned");
    Writer o(quote);
    if (t.split_k) o.num("SPLIT_K", *t.split_k);
    if (t.use_tma) o.boolean("USE_TMA", *t.use_tma);
    if (t.num_ctas) o.num("num_ctas", *t.num_ctas);
    if (t.waves_per_eu) o.num("waves_per_eu", *t.waves_per_eu);
    if (t.matrix_instr_nonkdim) o.num("matrix_instr_nonkdim", *t.matrix_instr_nonkdim);
    if (t.kpack) o.num("kpack", *t.kpack);
    if (t.per_channel_quant) o.boolean("per_channel_quant", true);
    w.raw() += o.done();
  }
  if (cfg.hip_async_copy) w.boolean("hip_async_copy", *cfg.hip_async_copy);
}

/// The attention dtypes as the reader spells them.
std::string_view attn_dtype_text(DType t) {
  switch (t) {
    case DType::E4M3:
      return "fp8_e4m3";
    case DType::E5M2:
      return "fp8_e5m2";
    default:
      return model::dtype_name(t);
  }
}

/// A triton_attention config (issue 19): every field the config gave, as the reader reads it.
void write_attention(Writer& w, const model::KernelConfig& cfg) {
  const model::AttentionSpec& a = cfg.attention;
  w.word("launcher", model::launcher_name(cfg.launcher));
  if (cfg.engine != model::EngineRelease::None)
    w.str("engine", model::engine_release_text(cfg.engine));
  if (a.op != model::AttnOp::Auto) w.word("op", model::attn_op_name(a.op));
  if (a.stage != model::AttnStage::All) w.word("stage", model::attn_stage_name(a.stage));
  if (a.phase != model::AttnPhase::Unset) w.word("phase", model::attn_phase_name(a.phase));
  if (!a.model.empty()) w.str("model", a.model);
  const std::pair<std::string_view, const std::optional<long long>*> ints[] = {
      {"tp", &a.tp},
      {"q_heads", &a.q_heads},
      {"kv_heads", &a.kv_heads},
      {"head_dim", &a.head_dim},
      {"head_dim_v", &a.head_dim_v},
      {"kv_lora_rank", &a.kv_lora_rank},
      {"rope_dim", &a.rope_dim},
      {"page_size", &a.page_size},
      {"sliding_window", &a.sliding_window},
      {"num_seqs", &a.num_seqs},
      {"max_seqlen_q", &a.max_seqlen_q},
      {"max_seq_len", &a.max_seq_len},
      {"max_kv_splits", &a.max_kv_splits},
      {"sm_count", &a.sm_count},
      {"context_len", &a.context_len},
      {"block_m", &a.block_m},
      {"block_n", &a.block_n},
      {"block_h", &a.block_h},
      {"block_q", &a.block_q},
      {"tile_size", &a.tile_size},
      {"block_dmodel", &a.block_dmodel},
      {"block_dpe", &a.block_dpe},
      {"block_dv", &a.block_dv},
      {"num_kv_splits", &a.num_kv_splits}};
  for (const auto& [k, v] : ints)
    if (*v) w.num(k, **v);
  if (a.act_dtype) w.word("act_dtype", attn_dtype_text(*a.act_dtype));
  if (a.kv_dtype) w.word("kv_dtype", attn_dtype_text(*a.kv_dtype));
  if (a.q_dtype) w.word("q_dtype", attn_dtype_text(*a.q_dtype));
  if (a.sinks) w.boolean("sinks", *a.sinks);
  if (a.alibi) w.boolean("alibi", *a.alibi);
  if (a.use_pdl) w.boolean("use_pdl", *a.use_pdl);
  if (a.deterministic) w.boolean("deterministic", *a.deterministic);
  if (a.logit_cap) {
    w.key("logit_cap");
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, *a.logit_cap);
    w.raw().append(buf, r.ptr);
  }
  if (cfg.num_warps) w.num("num_warps", *cfg.num_warps);
  if (cfg.stages) w.num("num_stages", *cfg.stages);
}

std::string write_config(const model::KernelConfig& cfg, std::string_view quote) {
  Writer w(quote);
  w.str("name", cfg.name);
  if (cfg.arch != 0) w.word("arch", model::arch_name(cfg.arch));
  if (!cfg.family.empty()) w.word("kernel", cfg.family);
  if (cfg.family == "triton_attention") {
    write_attention(w, cfg);
    return w.done();
  }
  const long long tile[] = {cfg.m, cfg.n, cfg.k};
  w.list("tile", std::begin(tile), std::end(tile));
  if (cfg.family.rfind("triton_", 0) == 0) {
    write_triton(w, cfg, quote);
    return w.done();
  }
  if (cfg.cluster != std::array<int, 3>{1, 1, 1})
    w.list("cluster", cfg.cluster.begin(), cfg.cluster.end());
  w.word("a", operand_text(cfg.a));
  w.word("b", operand_text(cfg.b));
  // The reader applies one sf_vec to every block-scaled operand.
  const int vec = cfg.a.block_scaled() ? cfg.a.sf_vec : cfg.b.sf_vec;
  const int dflt = cfg.a.block_scaled() ? default_sf_vec(cfg.a) : default_sf_vec(cfg.b);
  if ((cfg.a.block_scaled() || cfg.b.block_scaled()) && vec != dflt) w.num("sf_vec", vec);
  // With a launcher an unwritten `c` is the launcher's choice (issue 11): write it only when it
  // was given, and then always.
  const bool launcher = cfg.launcher != model::Launcher::None;
  if (launcher ? cfg.c_given : cfg.c != cfg.d) {
    if (cfg.c == DType::Void) {
      w.key("c");
      w.raw() += "null";
    } else {
      w.word("c", model::dtype_name(cfg.c));
    }
  }
  w.word("d", model::dtype_name(cfg.d));
  if (cfg.acc != DType::F32) w.word("acc", model::dtype_name(cfg.acc));
  std::string layout;
  layout += cfg.a_k_major ? 't' : 'n';
  layout += cfg.b_k_major ? 'n' : 't';
  layout += cfg.cd_row_major ? 't' : 'n';
  w.word("layout", layout);
  if (cfg.schedule != model::Schedule::Auto) w.word("schedule", model::schedule_name(cfg.schedule));
  const model::EpilogueSpec& e = cfg.epilogue;
  const bool epi_object =
      e.tile || e.stages_c || e.stages_d || e.sf_vec != 0 || e.sf != DType::Void;
  if (epi_object) {
    w.key("epilogue");
    Writer o(quote);
    o.word("variant", model::epilogue_name(e.variant));
    if (e.tile) o.list("tile", e.tile->begin(), e.tile->end());
    if (e.stages_c) o.num("stages_c", *e.stages_c);
    if (e.stages_d) o.num("stages_d", *e.stages_d);
    if (e.sf_vec != 0) o.num("sf_vec", e.sf_vec);
    if (e.sf != DType::Void) o.word("sf", model::dtype_name(e.sf));
    w.raw() += o.done();
  } else if (e.variant != model::EpilogueVariant::Auto) {
    w.word("epilogue", model::epilogue_name(e.variant));
  }
  if (cfg.grouped) w.boolean("grouped", true);
  if (cfg.stages) w.num("stages", *cfg.stages);
  if (cfg.mma != model::Mma::Auto) w.word("mma", model::mma_name(cfg.mma));
  if (cfg.warp) w.list("warp", cfg.warp->begin(), cfg.warp->end());
  if (cfg.swap_ab) w.boolean("swap_ab", true);
  if (launcher) {
    w.word("launcher", model::launcher_name(cfg.launcher));
    if (cfg.op != model::EngineOp::ScaledMm) w.word("op", model::engine_op_name(cfg.op));
    if (cfg.bias != model::Bias::None) w.word("bias", model::bias_name(cfg.bias));
    if (cfg.scale_block != model::ScaleBlock{}) {
      w.key("scale_block");
      Writer o(quote);
      const long long a[] = {cfg.scale_block.a_m, cfg.scale_block.a_k};
      const long long b[] = {cfg.scale_block.b_n, cfg.scale_block.b_k};
      o.list("a", std::begin(a), std::end(a));
      o.list("b", std::begin(b), std::end(b));
      w.raw() += o.done();
    }
  }
  return w.done();
}

}  // namespace

}  // namespace tilefit::io
