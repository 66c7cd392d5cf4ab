#include "io/config_decoder.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <map>

#include "io/json_fields.hpp"
#include "io/suggest.hpp"
#include "io/moe_quant.hpp"
#include "tilefit/io/input_limits.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/attention_vocab.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family.hpp"
#include "tilefit/model/family_table.hpp"
#include "tilefit/model/validate.hpp"

namespace tilefit::io::detail {
namespace {

using model::DType;
using model::Operand;

const std::vector<std::string>& tuned_launch_field_names() {
  static const std::vector<std::string> k = field_names(tuned_launch_fields());
  return k;
}

const std::vector<std::string>& epilogue_field_names() {
  static const std::vector<std::string> k = field_names(epilogue_fields());
  return k;
}

constexpr std::string_view kStagesAllowed = "\"auto\" or integers 1..4096";
constexpr std::string_view kSfVecAllowed = "16, 32";
/// The block-scale factor types ("ue4m3, ue8m0"), from the model's dtype table.
const std::string& scale_types() {
  static const std::string k = join_names(allowed_names(FieldKind::scale_type));
  return k;
}
constexpr std::string_view kLayoutAllowed =
    "2 or 3 letters t/n for A, B and optionally C/D, e.g. \"tn\", \"tnt\", \"tnn\"";

const ExtentSpec kTile{3, "[M, N, K]", "MxNxK", "tile extent", "tile", model::kMaxTileExtent};
const ExtentSpec kCluster{
    3, "[x, y, z]", "XxYxZ", "cluster extent", "cluster", model::kMaxClusterExtent};
const ExtentSpec kWarp{3,           "[m, n, k]",          "MxNxK", "warp tile extent",
                       "warp tile", model::kMaxTileExtent};
const ExtentSpec kEpiTile{
    2, "[m, n]", "MxN", "epilogue tile extent", "epilogue tile", model::kMaxTileExtent};
const ExtentSpec kBlockShape{
    2, "[n, k]", "NxK", "block_shape extent", "block_shape", model::kMaxTileExtent};

/// Members of a JSON object by name: the first occurrence of each known key with its
/// position; unknown and repeated keys are reported while indexing.
class Members {
 public:
  Members(const Value& obj, const std::vector<std::string>& known, const std::string& allowed,
          const std::string& prefix, std::vector<std::pair<std::size_t, FieldError>>& errors,
          std::size_t order_base, std::size_t order_step, bool suggest)
      : obj_(obj), prefix_(prefix), errors_(errors), base_(order_base), step_(order_step) {
    for (std::size_t i = 0; i < obj.keys.size(); ++i) {
      const std::string& key = obj.keys[i];
      const std::string field = prefix + truncate_utf8(key, 64);
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string m = "unknown field";
        if (auto s = suggest ? did_you_mean(key, known) : std::nullopt)
          m += "; did you mean \"" + *s + "\"?";
        else
          m += "; allowed: " + allowed;
        errors.push_back({order(i), {field, m}});
      } else if (find(key) != nullptr) {
        errors.push_back(
            {order(i), {field, "duplicate field (JSON keeps only one); give it once"}});
      } else {
        first_.push_back({key, i});
      }
    }
  }

  /// The member called `key`, or nullptr; sets the position later errors are filed under.
  const Value* get(std::string_view key) {
    const Known* k = find(key);
    if (k == nullptr) return nullptr;
    current_key_ = k->key;
    return &obj_.items[k->index];
  }

  std::size_t order(std::size_t i) const { return base_ + (i + 1) * step_; }
  std::size_t position(std::string_view key) const {
    const Known* k = find(key);
    return k == nullptr ? static_cast<std::size_t>(-1) : order(k->index);
  }

  /// Files errors from a reader against the member last returned by get().
  void file(Errors& messages) { file_at(current_key_, messages); }
  void file_at(std::string_view key, Errors& messages) {
    for (std::string& m : messages)
      errors_.push_back({position(key), {prefix_ + std::string(key), std::move(m)}});
    messages.clear();
  }
  void error(std::string_view key, std::string message) {
    errors_.push_back({position(key), {prefix_ + std::string(key), std::move(message)}});
  }

 private:
  /// A known member: its key (the object's own string, which outlives this) and its position.
  /// Config objects have a few dozen members at most, so a linear search beats a map (and takes a
  /// string literal without building a std::string: the map was a tenth of `check`'s decoding).
  struct Known {
    std::string_view key;
    std::size_t index;
  };
  const Known* find(std::string_view key) const {
    for (const Known& k : first_)
      if (k.key == key) return &k;
    return nullptr;
  }

  const Value& obj_;
  std::string prefix_;
  std::vector<std::pair<std::size_t, FieldError>>& errors_;
  std::size_t base_, step_;
  std::vector<Known> first_;
  std::string_view current_key_;
};

std::optional<Operand> read_operand(const Value& v, Errors& errors) {
  return read_choice(v, model::parse_operand, "operand type", model::operand_choices(),
                     FieldKind::operand, errors);
}

/// Element types for c/d/acc (`allow_void`: null and "void" mean "no C source").
std::optional<DType> read_element(const Value& v, bool allow_void, Errors& errors) {
  const std::string allowed =
      std::string(model::dtype_choices()) + (allow_void ? ", or null (no C source)" : "");
  if (allow_void && v.kind == Value::Kind::Null) return DType::Void;
  if (v.kind != Value::Kind::String) {
    errors.push_back(type_error(allow_void ? "a string or null" : "a string", v, allowed));
    return std::nullopt;
  }
  auto t = model::parse_dtype(lower_ascii(v.text));
  if (t && (*t != DType::Void || allow_void)) return t;
  errors.push_back(value_error(v, "element type", allowed,
                               t ? std::nullopt : suggest_name(v.text, FieldKind::element)));
  return std::nullopt;
}

std::optional<int> read_stage_count(const Value& v, std::string_view noun, Errors& errors) {
  if (auto x = integer_in(v, 1, model::kMaxStages)) return static_cast<int>(*x);
  const std::string allowed = "integers 1.." + std::to_string(model::kMaxStages);
  if (v.is_number())
    errors.push_back(value_error(v, noun, allowed));
  else
    errors.push_back(type_error("an integer", v, allowed));
  return std::nullopt;
}

std::optional<int> read_sf_vec(const Value& v, Errors& errors) {
  if (auto x = integer_in(v, 16, 32); x && (*x == 16 || *x == 32)) return static_cast<int>(*x);
  if (v.is_number())
    errors.push_back(value_error(v, "scale-factor vector size", kSfVecAllowed));
  else
    errors.push_back(type_error("16 or 32", v));
  return std::nullopt;
}

/// The kind of the family called `family` (the family table's row); nullopt for none (empty or
/// unknown: the kernel is inferred later).
std::optional<model::FamilyKind> family_kind(std::string_view family) {
  const model::FamilyRow* r = family.empty() ? nullptr : model::find_family_row(family);
  return r ? std::optional(r->kind) : std::nullopt;
}

/// Names end up in tables and one-line errors: no line breaks, tabs or other controls.
bool has_control(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  return false;
}

/// The config's decoder: one pass over the known fields, errors kept with their position.
class Decoder {
 public:
  Decoder(const Value& obj, std::size_t index, bool suggest)
      : obj_(obj), index_(index), suggest_(suggest) {}

  DecodedConfig run() {
    DecodedConfig out;
    out.name = "#" + std::to_string(index_);
    // The attention fields (issue 19) are named by their section, not listed one by one.
    static const std::string kAllowed = [] {
      std::vector<std::string> names;
      for (const FieldSpec& f : config_fields())
        if (f.dialect != Dialect::attention) names.emplace_back(f.name);
      return join_names(names) + " + triton_attention's";
    }();
    Members m(obj_, config_field_names(), kAllowed, "", errors_, 0, std::size_t{1} << 20, suggest_);
    model::KernelConfig cfg;
    cfg.name = out.name;
    const std::span<const FieldSpec> fields = config_fields();
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (m.position(fields[i].name) != static_cast<std::size_t>(-1)) out.given.set(i);
    read_identity(m, cfg, out);
    if (cfg.family == "triton_attention") {
      read_attention(m, cfg);
    } else {
      read_kernel_fields(m, cfg, out);
      refuse_attention_fields(m);
    }
    for (const std::string key : {"comment", "description"}) {
      if (const Value* v = m.get(key)) {
        Errors e;
        read_string(*v, e);
        m.file(e);
      }
    }
    // What every front end checks about the typed config, filed under the field at fault.
    for (model::ConfigIssue& i : model::validate(cfg)) {
      std::size_t at = m.position(i.field);
      for (const auto& [field, pos] : epilogue_positions_)
        if (field == i.field) at = pos;
      errors_.push_back({at, {std::move(i.field), std::move(i.message)}});
    }

    std::stable_sort(errors_.begin(), errors_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [order, err] : errors_) out.errors.push_back(std::move(err));
    if (out.errors.empty()) out.config = std::move(cfg);
    return out;
  }

 private:
  /// Every field but name, arch and kernel of a GEMM / MoE config (CUTLASS and Triton).
  void read_kernel_fields(Members& m, model::KernelConfig& cfg, DecodedConfig& out) {
    read_shapes(m, cfg);
    read_operands(m, cfg);
    // The engines' FP8 kernels take e4m3 A and B: with a launcher that is the default (issue 11).
    constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
    if (m.position("launcher") != kAbsent && m.position("dtype") == kAbsent &&
        m.position("a") == kAbsent && m.position("b") == kAbsent)
      cfg.a = cfg.b = model::Operand{DType::E4M3};
    if (k_in_bytes_ && cfg.k > 0) {
      const int b = model::bits(cfg.a.elem);
      if (b <= 0 || (cfg.k * 8) % b != 0 || (cfg.k * 8) / b > model::kMaxTileExtent)
        m.error("tile", std::to_string(cfg.k) + " bytes of K is not a whole number of " +
                            model::operand_name(cfg.a) + " elements within 1.." +
                            std::to_string(model::kMaxTileExtent));
      else
        cfg.k = cfg.k * 8 / b;
    }
    read_outputs(m, cfg);
    read_layout(m, cfg);
    read_pipeline(m, cfg);
    read_engine(m, cfg, out.arch_given);
    read_triton(m, cfg);
  }

  /// The attention fields (issue 19) belong to "kernel": "triton_attention" only.
  void refuse_attention_fields(Members& m) {
    for (const FieldSpec& f : config_fields())
      if (f.dialect == Dialect::attention && m.get(f.name))
        m.error(
            f.name,
            std::string("applies only to \"kernel\": \"triton_attention\" (vLLM's "
                        "and SGLang's Triton attention kernels)") +
                (f.name == "stage" || f.name == "num_stages" ? "; did you mean \"stages\"?" : ""));
  }

  /// A triton_attention config (issue 19): launcher / engine, op, stage, phase, the shape
  /// (model + tp or per-rank heads and head dims), dtypes, runtime inputs and overrides, each
  /// typed and range-checked; the shape resolved (unknown model, tp that does not divide).
  void read_attention(Members& m, model::KernelConfig& cfg) {
    model::AttentionSpec& a = cfg.attention;
    Errors e;
    // Fields of other kernels mean nothing here.
    for (const FieldSpec& f : config_fields()) {
      static constexpr std::string_view kOwn[] = {"name",        "arch",     "kernel", "comment",
                                                  "description", "launcher", "engine", "op",
                                                  "num_warps",   "stages"};
      if (f.dialect == Dialect::attention ||
          std::find(std::begin(kOwn), std::end(kOwn), f.name) != std::end(kOwn))
        continue;
      if (m.get(f.name))
        m.error(f.name,
                "does not apply to \"kernel\": \"triton_attention\"; it takes launcher, "
                "engine, op, stage, phase, model/tp or the shape fields, the dtypes, the "
                "runtime inputs and the overrides (docs/guide/attention.md)");
    }
    // ---- whose launcher ----
    std::optional<model::Launcher> launcher;
    if (const Value* v = m.get("launcher")) {
      if (auto l = read_enum(*v, model::launcher_names(), "launcher", e)) launcher = *l;
      m.file(e);
    }
    std::optional<model::EngineRelease> release;
    constexpr std::string_view kPins = "vllm, sglang, vllm@6adad087, sglang@d6ef6888";
    if (const Value* v = m.get("engine")) {
      if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, kPins));
      } else if (auto r = model::parse_engine_release(v->text);
                 r && (*r == model::EngineRelease::Vllm6adad087 ||
                       *r == model::EngineRelease::SglangD6ef6888)) {
        release = *r;
      } else if (r) {
        e.push_back(render(*v) + ": triton_attention models only the pinned commits; allowed: " +
                    std::string(kPins));
      } else {
        e.push_back(value_error(*v, "engine", kPins));
      }
      m.file(e);
    }
    if (release) {
      const model::Launcher of = model::engine_release_info(*release).engine;
      if (launcher && *launcher != of)
        m.error("engine", quote(model::engine_release_text(*release)) + " is not launcher " +
                              quote(model::launcher_name(*launcher)) +
                              "'s; allowed: the same engine");
      launcher = of;
    }
    if (!launcher) {
      if (m.position("launcher") == static_cast<std::size_t>(-1) &&
          m.position("engine") == static_cast<std::size_t>(-1))
        errors_.push_back({static_cast<std::size_t>(-1),
                           {"launcher",
                            "missing; a triton_attention config needs whose launcher "
                            "runs it; allowed: vllm, sglang"}});
      return;
    }
    cfg.launcher = *launcher;
    cfg.engine = *launcher == model::Launcher::Sglang ? model::EngineRelease::SglangD6ef6888
                                                      : model::EngineRelease::Vllm6adad087;
    const bool sglang = *launcher == model::Launcher::Sglang;
    // ---- op, stage, phase ----
    if (const Value* v = m.get("op")) {
      if (auto o = read_enum(*v, model::attn_op_names(), "triton_attention op", e)) {
        a.op = *o;
        const bool vllm_only = *o == model::AttnOp::Unified2d || *o == model::AttnOp::Unified3d ||
                               *o == model::AttnOp::PrefixPrefill;
        const bool sglang_only = *o == model::AttnOp::Extend || *o == model::AttnOp::ExtendUnified;
        if ((sglang && vllm_only) || (!sglang && sglang_only))
          e.push_back(render(*v) + " is not a launcher of " +
                      std::string(sglang ? "sglang@d6ef6888" : "vllm@6adad087") + "; allowed: " +
                      (sglang ? "auto, decode, mla_decode, extend, extend_unified, prefill"
                              : "auto, decode, mla_decode, unified_2d, unified_3d, prefill, "
                                "prefix_prefill"));
      }
      m.file(e);
    }
    if (const Value* v = m.get("stage")) {
      if (auto st = read_enum(*v, model::attn_stage_names(), "stage", e)) {
        a.stage = *st;
        std::string_view have;
        switch (a.op) {
          case model::AttnOp::Decode:
          case model::AttnOp::MlaDecode:
            have = "all, stage1, stage2";
            break;
          case model::AttnOp::Unified3d:
            have = "all, main, reduce";
            break;
          case model::AttnOp::Auto:
            break;
          default:
            have = "all, main";
        }
        if (!have.empty() && have.find(model::attn_stage_name(*st)) == std::string_view::npos)
          e.push_back(render(*v) + ": op " + std::string(model::attn_op_name(a.op)) +
                      " has no such launch; allowed: " + std::string(have));
      }
      m.file(e);
    }
    if (const Value* v = m.get("phase")) {
      if (auto ph = read_enum(*v, model::attn_phase_names(), "phase", e)) a.phase = *ph;
      m.file(e);
    }
    // ---- shape ----
    if (const Value* v = m.get("model")) {
      if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, model::attn_preset_choices()));
      } else if (model::find_attn_preset(v->text) == nullptr) {
        e.push_back(value_error(*v, "model preset", model::attn_preset_choices(),
                                suggest_name(v->text, FieldKind::attn_model)));
      } else {
        a.model = lower_ascii(v->text);
      }
      m.file(e);
    }
    auto integer = [&](std::string_view key, std::optional<long long>& to, std::int64_t lo,
                       std::int64_t hi, std::string_view noun) {
      const Value* v = m.get(key);
      if (v == nullptr) return;
      if (auto x = integer_in(*v, lo, hi)) {
        to = *x;
      } else {
        const std::string allowed = "integers " + std::to_string(lo) + ".." + std::to_string(hi);
        e.push_back(v->is_number() ? value_error(*v, noun, allowed)
                                   : type_error("an integer", *v, allowed));
      }
      m.file(e);
    };
    constexpr std::int64_t kHeads = 4096, kDim = 65536, kBlock = 65536,
                           kLen = std::int64_t{1} << 31;
    integer("tp", a.tp, 1, 1024, "tensor-parallel size");
    integer("q_heads", a.q_heads, 1, kHeads, "head count");
    integer("kv_heads", a.kv_heads, 1, kHeads, "head count");
    integer("head_dim", a.head_dim, 1, kDim, "head size");
    integer("head_dim_v", a.head_dim_v, 1, kDim, "head size");
    integer("kv_lora_rank", a.kv_lora_rank, 1, kDim, "MLA latent width");
    integer("rope_dim", a.rope_dim, 0, kDim, "rope head size");
    integer("page_size", a.page_size, 1, kBlock, "page size");
    integer("sliding_window", a.sliding_window, 0, kLen, "sliding window");
    integer("num_seqs", a.num_seqs, 1, kLen, "sequence count");
    integer("max_seqlen_q", a.max_seqlen_q, 1, kLen, "query length");
    integer("max_seq_len", a.max_seq_len, 1, kLen, "sequence length");
    integer("max_kv_splits", a.max_kv_splits, 1, kBlock, "split count");
    integer("sm_count", a.sm_count, 1, 4096, "SM count");
    integer("context_len", a.context_len, 1, kLen, "context length");
    integer("block_m", a.block_m, 1, kBlock, "BLOCK_M");
    integer("block_n", a.block_n, 1, kBlock, "BLOCK_N");
    integer("block_h", a.block_h, 1, kBlock, "BLOCK_H");
    integer("block_q", a.block_q, 1, kBlock, "BLOCK_Q");
    integer("tile_size", a.tile_size, 1, kBlock, "TILE_SIZE");
    integer("block_dmodel", a.block_dmodel, 1, kBlock, "BLOCK_DMODEL");
    integer("block_dpe", a.block_dpe, 0, kBlock, "BLOCK_DPE");
    integer("block_dv", a.block_dv, 1, kBlock, "BLOCK_DV");
    integer("num_kv_splits", a.num_kv_splits, 1, kBlock, "split count");
    std::optional<long long> warps, stages, num_stages;
    integer("num_warps", warps, 1, 1024, "num_warps");
    integer("stages", stages, 1, model::kMaxStages, "num_stages");
    integer("num_stages", num_stages, 1, model::kMaxStages, "num_stages");
    if (warps) cfg.num_warps = static_cast<int>(*warps);
    if (stages && num_stages)
      m.error("num_stages", "given twice (\"stages\" is the same knob); give one");
    else if (stages || num_stages)
      cfg.stages = static_cast<int>(stages ? *stages : *num_stages);
    auto boolean = [&](std::string_view key, std::optional<bool>& to) {
      if (const Value* v = m.get(key)) {
        if (auto b = read_bool(*v, e)) to = *b;
        m.file(e);
      }
    };
    boolean("sinks", a.sinks);
    boolean("alibi", a.alibi);
    boolean("use_pdl", a.use_pdl);
    boolean("deterministic", a.deterministic);
    if (const Value* v = m.get("logit_cap")) {
      double x = 0;
      if (!v->is_number())
        e.push_back(type_error("a number", *v, "a number >= 0 (0: no soft cap)"));
      else if (!(std::strtod(v->text.c_str(), nullptr) >= 0))
        e.push_back(value_error(*v, "logit cap", "a number >= 0 (0: no soft cap)"));
      else
        x = std::strtod(v->text.c_str(), nullptr), a.logit_cap = x;
      m.file(e);
    }
    // ---- dtypes ----
    auto dtype = [&](std::string_view key, std::optional<DType>& to, bool fp8) {
      const Value* v = m.get(key);
      if (v == nullptr) return;
      const std::string allowed =
          fp8 ? "bf16, f16, f32, fp8_e4m3 (fp8), fp8_e5m2" : "bf16, f16, f32";
      if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, allowed));
      } else {
        const std::string t = lower_ascii(v->text);
        std::optional<DType> d;
        if (t == "bf16" || t == "bfloat16")
          d = DType::BF16;
        else if (t == "f16" || t == "fp16" || t == "float16" || t == "half")
          d = DType::F16;
        else if (t == "f32" || t == "fp32" || t == "float32" || t == "float")
          d = DType::F32;
        else if (fp8 && (t == "fp8_e4m3" || t == "fp8" || t == "e4m3"))
          d = DType::E4M3;
        else if (fp8 && (t == "fp8_e5m2" || t == "e5m2"))
          d = DType::E5M2;
        if (d)
          to = *d;
        else
          e.push_back(value_error(*v, std::string(key) + " dtype", allowed));
      }
      m.file(e);
    };
    dtype("act_dtype", a.act_dtype, false);
    dtype("kv_dtype", a.kv_dtype, true);
    dtype("q_dtype", a.q_dtype, true);
    // ---- the shape as a whole, once its fields read cleanly (an unknown model is reported
    // above) ----
    if (errors_.empty() &&
        (m.position("model") == static_cast<std::size_t>(-1) || !a.model.empty())) {
      model::AttnShapeError err;
      if (!model::resolve_attn_shape(a, &err)) {
        if (m.position(err.field) == static_cast<std::size_t>(-1))
          errors_.push_back({static_cast<std::size_t>(-1), {err.field, err.message}});
        else
          m.error(err.field, err.message);
      }
    }
  }

  /// name, arch, kernel.
  void read_identity(Members& m, model::KernelConfig& cfg, DecodedConfig& out) {
    Errors e;
    if (const Value* v = m.get("name")) {
      if (v->kind != Value::Kind::String)
        e.push_back(type_error("a string", *v));
      else if (v->text.empty())
        e.push_back("empty; give a name or leave \"name\" out (the default is \"#" +
                    std::to_string(index_) + "\")");
      else if (v->text.size() > kMaxNameBytes)
        e.push_back(std::to_string(v->text.size()) + " bytes long; allowed: at most " +
                    std::to_string(kMaxNameBytes) + " bytes");
      else if (has_control(v->text))
        e.push_back(render(*v) + " holds a control character; allowed: printable text");
      else
        cfg.name = out.name = v->text;
      m.file(e);
    }
    if (const Value* v = m.get("arch")) {
      if (auto sm = read_arch(*v, e)) {
        cfg.arch = *sm;
        out.arch_given = true;
      }
      m.file(e);
    }
    if (const Value* v = m.get("kernel")) {
      if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, model::family_choices()));
      } else if (const model::KernelFamily* f = model::find_family(lower_ascii(v->text))) {
        cfg.family = std::string(f->name());
      } else {
        e.push_back(value_error(*v, "kernel family", model::family_choices(),
                                suggest_name(v->text, FieldKind::kernel)));
      }
      m.file(e);
    }
  }

  /// tile, cluster, warp.
  void read_shapes(Members& m, model::KernelConfig& cfg) {
    Errors e;
    if (const Value* v = m.get("tile")) {
      // TensorRT-LLM / FlashInfer tile names count K in bytes: "CtaShape128x256x64B" (or
      // "128x256x64B") is 128x256x(64·8/bits(A)) elements (moe_gemm_template_dispatch_tma_ws.h,
      // SHAPE_CASE: KtileBytes = K·8/sizeof_bits<T>). K is converted once A is known.
      Value plain;
      const Value* tile = v;
      if (v->kind == Value::Kind::String) {
        std::string t = lower_ascii(v->text);
        if (t.rfind("ctashape", 0) == 0) t.erase(0, 8);
        if (t.size() > 1 && t.back() == 'b' &&
            std::isdigit(static_cast<unsigned char>(t[t.size() - 2]))) {
          t.pop_back();
          k_in_bytes_ = true;
        }
        plain.kind = Value::Kind::String;
        plain.text = t;
        tile = &plain;
      }
      if (auto t = read_extents(*tile, kTile, e)) cfg.m = (*t)[0], cfg.n = (*t)[1], cfg.k = (*t)[2];
      m.file(e);
    } else {
      errors_.push_back(
          {static_cast<std::size_t>(-1),
           {"tile",
            "missing; every config needs a CTA tile, e.g. [128, 128, 128] or \"128x128x128\""}});
    }
    if (const Value* v = m.get("cluster")) {
      if (auto t = read_extents(*v, kCluster, e))
        cfg.cluster = {static_cast<int>((*t)[0]), static_cast<int>((*t)[1]),
                       static_cast<int>((*t)[2])};
      m.file(e);
    }
    if (const Value* v = m.get("warp")) {
      if (auto t = read_extents(*v, kWarp, e))
        cfg.warp = std::array<long long, 3>{(*t)[0], (*t)[1], (*t)[2]};
      m.file(e);
    }
  }

  /// schedule, epilogue, grouped, stages, mma.
  void read_pipeline(Members& m, model::KernelConfig& cfg) {
    Errors e;
    if (const Value* v = m.get("schedule")) {
      if (auto s = read_enum(*v, model::schedule_names(), "schedule", e)) cfg.schedule = *s;
      m.file(e);
    }
    if (const Value* v = m.get("epilogue")) read_epilogue(*v, m, cfg);
    if (const Value* v = m.get("grouped")) {
      if (auto b = read_bool(*v, e)) cfg.grouped = *b;
      m.file(e);
    }
    if (const Value* v = m.get("stages")) {
      if (v->kind == Value::Kind::String) {
        if (lower_ascii(v->text) != "auto")
          e.push_back(value_error(*v, "stage count", kStagesAllowed));
      } else if (auto x = integer_in(*v, 1, model::kMaxStages)) {
        cfg.stages = static_cast<int>(*x);
      } else if (v->is_number()) {
        e.push_back(value_error(*v, "stage count", kStagesAllowed));
      } else {
        e.push_back(type_error("\"auto\" or an integer", *v, kStagesAllowed));
      }
      m.file(e);
    }
    if (const Value* v = m.get("mma")) {
      if (auto x = read_enum(*v, model::mma_names(), "MMA instruction", e)) cfg.mma = *x;
      m.file(e);
    }
  }

  /// The Triton fields (num_warps, group_m, block_shape, mul_routed_weight, triton), which fields
  /// apply to which kernels, and the Triton kernels' default C type.
  void read_triton(Members& m, model::KernelConfig& cfg) {
    Errors e;
    const bool triton = family_kind(cfg.family) == model::FamilyKind::Triton;
    const bool moe = cfg.family == "triton_fused_moe";
    const bool block = moe || cfg.family == "triton_block_matmul";  // kernels with block_shape
    const std::string not_triton =
        "applies only to Triton kernels; give \"kernel\": \"triton_matmul\" or "
        "\"triton_fused_moe\"";
    const std::string not_moe =
        "applies only to \"kernel\": \"triton_fused_moe\" (vLLM's fused-MoE kernel)";
    auto count = [&](const Value& v, std::int64_t hi,
                     std::string_view noun) -> std::optional<std::int64_t> {
      if (auto x = integer_in(v, 1, hi)) return x;
      const std::string allowed = "integers 1.." + std::to_string(hi);
      if (v.is_number())
        e.push_back(value_error(v, noun, allowed));
      else
        e.push_back(type_error("an integer", v, allowed));
      return std::nullopt;
    };
    if (const Value* v = m.get("num_warps")) {
      if (!triton)
        e.push_back(not_triton);
      else if (auto x = count(*v, 1024, "num_warps"))
        cfg.num_warps = static_cast<int>(*x);
      m.file(e);
    }
    if (const Value* v = m.get("group_m")) {
      if (!triton)
        e.push_back(not_triton);
      else if (auto x = count(*v, model::kMaxTileExtent, "GROUP_SIZE_M"))
        cfg.group_m = *x;
      m.file(e);
    }
    if (const Value* v = m.get("block_shape")) {
      if (!block)
        e.push_back(
            "applies only to \"kernel\": \"triton_fused_moe\" or \"triton_block_matmul\" "
            "(vLLM's and SGLang's block-quantised kernels)");
      else if (auto t = read_extents(*v, kBlockShape, e))
        cfg.block_shape = std::array<long long, 2>{(*t)[0], (*t)[1]};
      m.file(e);
    }
    if (const Value* v = m.get("mul_routed_weight")) {
      if (!moe)
        e.push_back(not_moe);
      else if (auto b = read_bool(*v, e))
        cfg.mul_routed_weight = *b;
      m.file(e);
    }
    if (const Value* v = m.get("triton")) {
      if (!triton) {
        e.push_back(not_triton);
      } else if (auto ver = read_triton_version(*v, e)) {
        cfg.triton_version = *ver;
      }
      m.file(e);
    }
    if (const Value* v = m.get("engine")) {
      if (!triton) {
        e.push_back(not_triton);
      } else if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, model::engine_release_choices()));
      } else if (auto r = model::parse_engine_release(v->text)) {
        cfg.engine = *r;
      } else {
        e.push_back(value_error(*v, "engine", model::engine_release_choices()));
      }
      m.file(e);
    }
    if (const Value* v = m.get("tuned")) {
      if (!moe)
        e.push_back(not_moe);
      else if (v->kind != Value::Kind::Object)
        e.push_back(type_error("an object {\"USE_TMA\": …, \"num_ctas\": …, …}", *v,
                               join_names(tuned_launch_field_names())));
      m.file(e);
      if (moe && v->kind == Value::Kind::Object) read_tuned_launch(*v, m, cfg);
    }
    if (const Value* v = m.get("hip_async_copy")) {
      // TRITON_HIP_USE_ASYNC_COPY for the AMD targets (issue 20): JSON true/false only (the
      // command line's --hip-async-copy takes on|off). Whether the target is AMD is decided
      // when the target is (analysis::TargetResolver): an NVIDIA target is an input error there.
      if (!triton)
        e.push_back(not_triton);
      else if (v->kind == Value::Kind::Bool)
        cfg.hip_async_copy = v->boolean;
      else
        e.push_back(type_error("true or false", *v,
                               "true, false (TRITON_HIP_USE_ASYNC_COPY=1 / 0; on the command "
                               "line --hip-async-copy on|off)"));
      m.file(e);
    }
    if (!triton) return;
    // The CUTLASS dialect's fields (the field table's rows) mean nothing to a Triton kernel.
    for (const FieldSpec& f : config_fields()) {
      if (f.dialect == Dialect::cutlass && m.get(f.name))
        m.error(f.name,
                "applies only to CUTLASS kernels; a Triton kernel takes tile, dtype, d, "
                "num_warps, stages, group_m" +
                    std::string(moe     ? ", block_shape, mul_routed_weight"
                                : block ? ", block_shape"
                                        : "") +
                    " and triton");
    }
    if (const Value* v = m.get("stages");
        v && v->kind == Value::Kind::String && lower_ascii(v->text) == "auto")
      m.error("stages",
              "Triton has no automatic num_stages; give an integer, or leave \"stages\" out for "
              "Triton's default 3");
    if (!m.get("d")) cfg.c = cfg.d = triton_default_c(cfg);
  }

  /// "tuned": a tuned entry's launch keys, as the table writes them (decode_launch_key), and the
  /// file name's per_channel_quant (which changes what "dtype" runs: apply_moe_quant).
  void read_tuned_launch(const Value& v, Members& m, model::KernelConfig& cfg) {
    Errors e;
    static const std::string kAllowed = join_names(tuned_launch_field_names());
    Members tm(v, tuned_launch_field_names(), kAllowed, "tuned.", errors_, m.position("tuned"), 1,
               suggest_);
    for (const std::string& key : tuned_launch_field_names()) {
      const Value* x = tm.get(key);
      if (x == nullptr) continue;
      if (key == "per_channel_quant") {
        if (auto b = read_bool(*x, e); b && *b) {
          if (const std::string q = moe_quant_text(cfg); q.empty())
            cfg.tuned.per_channel_quant = true;  // no scales to take it: nothing else changes
          else
            apply_moe_quant(q, true, cfg);
        }
      } else {
        std::string error;
        decode_launch_key(key, *x, cfg, error);
        if (!error.empty()) e.push_back(std::move(error));
      }
      tm.file(e);
    }
  }

  /// C's type when a Triton config leaves "d" out: the tutorial's (f16 for f16/e4m3 operands,
  /// else the operand type); fused_moe's output has the activations' type (bf16 for fp8_w8a8).
  static DType triton_default_c(const model::KernelConfig& cfg) {
    const DType t = cfg.a.elem;
    if (cfg.family == "triton_fused_moe")
      return !cfg.fp8_w8a8 && t == DType::F16 ? DType::F16 : DType::BF16;
    if (cfg.family == "triton_block_matmul") return DType::BF16;  // the engines' model dtype
    if (t == DType::F16 || t == DType::E4M3) return DType::F16;
    if (t == DType::F32 || t == DType::TF32) return DType::F32;
    return DType::BF16;
  }

  static std::optional<int> read_arch(const Value& v, Errors& e) {
    // The list of choices is built only for the error (it was 5 % of `check`'s instructions).
    if (v.kind != Value::Kind::String && !v.is_number()) {
      e.push_back(type_error("a string or a number", v, model::arch_choices()));
      return std::nullopt;
    }
    if (auto sm = model::parse_arch(v.text)) {
      if (const model::ArchInfo* info = model::find_arch(*sm)) return info->limits.sm;
    }
    const std::string_view hint = model::unmodelled_amd_hint(v.text);
    e.push_back(render(v) + " is not a known architecture; allowed: " + model::arch_choices() +
                (hint.empty() ? "" : "; " + std::string(hint)));
    return std::nullopt;
  }

  void read_operands(Members& m, model::KernelConfig& cfg) {
    Errors e;
    std::optional<Operand> dtype, a, b;
    bool bad = false;
    auto one = [&](const char* key, std::optional<Operand>& out) {
      if (const Value* v = m.get(key)) {
        out = read_operand(*v, e);
        bad = bad || !out;
        m.file(e);
      }
    };
    // "fp8_w8a8" is vLLM's name for fused_moe_kernel with fp8 e4m3 weights and activations.
    const Value* dv = m.get("dtype");
    const bool block_mm = cfg.family == "triton_block_matmul";
    if (dv && dv->kind == Value::Kind::String && block_mm && lower_ascii(dv->text) == "int8_w8a8") {
      // The block-quantised matmuls' int8 quantisation: s8 weights and activations.
      dtype = Operand{DType::S8, DType::Void, 0};
    } else if (const auto& q = moe_quant_names();
               dv && dv->kind == Value::Kind::String && cfg.family == "triton_fused_moe" &&
               std::find(q.begin(), q.end(), lower_ascii(dv->text)) != q.end()) {
      // The engines' quantisation names: the same reading as a tuned table's dtype= (what the
      // engine's launcher runs is decided from it, cfg.tuned.quant).
      apply_moe_quant(lower_ascii(dv->text), false, cfg);
      dtype = cfg.a;
    } else if (dv && dv->kind == Value::Kind::String && lower_ascii(dv->text) == "fp8_w8a8") {
      if (block_mm) {
        dtype = Operand{DType::E4M3, DType::Void, 0};
        cfg.fp8_w8a8 = true;
      } else {
        m.error("dtype",
                "\"fp8_w8a8\" is vLLM's and SGLang's W8A8 quantisation (fp8 e4m3 weights and "
                "activations): it applies only with \"kernel\": \"triton_fused_moe\" or "
                "\"triton_block_matmul\"; other kernels take \"e4m3\"");
        bad = true;
      }
    } else {
      one("dtype", dtype);
    }
    one("a", a);
    one("b", b);
    if (dtype) {
      for (auto [key, op] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
        if (*op && **op != *dtype) {
          m.error(key, render(*m.get(key)) + " disagrees with \"dtype\": " +
                           render(*m.get("dtype")) + "; give \"dtype\" alone, or \"a\" and \"b\"");
          bad = true;
        }
      }
    }
    const Operand fallback = cfg.a;
    cfg.a = a ? *a : dtype ? *dtype : b ? *b : fallback;
    cfg.b = b ? *b : dtype ? *dtype : a ? *a : fallback;
    if (const Value* v = m.get("sf_vec")) {
      if (auto vec = read_sf_vec(*v, e); vec && !bad) {
        if (!cfg.a.block_scaled() && !cfg.b.block_scaled()) {
          e.push_back("applies only to block-scaled operands (nvfp4, mxfp4, mxfp6, mxfp8); a is " +
                      model::operand_name(cfg.a) + ", b is " + model::operand_name(cfg.b));
        }
        if (cfg.a.block_scaled()) cfg.a.sf_vec = *vec;
        if (cfg.b.block_scaled()) cfg.b.sf_vec = *vec;
      }
      m.file(e);
    }
  }

  void read_outputs(Members& m, model::KernelConfig& cfg) {
    Errors e;
    if (const Value* v = m.get("d")) {
      if (auto t = read_element(*v, false, e)) cfg.d = *t;
      m.file(e);
    }
    cfg.c = cfg.d;  // CUTLASS's examples pass a C source of the output type
    if (const Value* v = m.get("c")) {
      if (auto t = read_element(*v, true, e)) cfg.c = *t;
      m.file(e);
    }
    if (const Value* v = m.get("acc")) {
      if (auto t = read_element(*v, false, e)) cfg.acc = *t;
      m.file(e);
    }
  }

  void read_layout(Members& m, model::KernelConfig& cfg) {
    Errors e;
    bool cd_given = false;
    if (const Value* v = m.get("layout")) {
      const std::string l = v->kind == Value::Kind::String ? lower_ascii(v->text) : "";
      if (v->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *v, kLayoutAllowed));
      } else if ((l.size() != 2 && l.size() != 3) ||
                 l.find_first_not_of("tn") != std::string::npos) {
        e.push_back(value_error(*v, "layout", kLayoutAllowed));
      } else {
        cfg.a_k_major = l[0] == 't';
        cfg.b_k_major = l[1] == 'n';
        if (l.size() == 3) {
          cfg.cd_row_major = l[2] == 't';
          cd_given = true;
        }
      }
      m.file(e);
    }
    if (const Value* v = m.get("swap_ab")) {
      if (auto s = read_bool(*v, e)) {
        cfg.swap_ab = *s;
        if (*s && !cd_given) cfg.cd_row_major = false;  // TRT-LLM's transposed launch writes D^T
      }
      m.file(e);
    }
  }

  void read_epilogue(const Value& v, Members& m, model::KernelConfig& cfg) {
    Errors e;
    const std::string_view variants = model::epilogue_choices();
    if (v.kind == Value::Kind::String) {
      if (auto x = read_enum(v, model::epilogue_names(), "epilogue variant", e))
        cfg.epilogue.variant = *x;
      m.file(e);
      return;
    }
    if (v.kind != Value::Kind::Object) {
      e.push_back(type_error(
          "a variant name or an object {\"variant\": ..., \"tile\": [m, n], \"stages_c\": ..., "
          "\"stages_d\": ..., \"sf_vec\": ..., \"sf\": ...}",
          v, variants));
      m.file(e);
      return;
    }
    // Nested fields are filed as "epilogue.<key>", ordered within the epilogue's position.
    static const std::string kAllowed = join_names(epilogue_field_names());
    Members em(v, epilogue_field_names(), kAllowed, "epilogue.", errors_, m.position("epilogue"), 1,
               suggest_);
    model::EpilogueSpec& spec = cfg.epilogue;
    if (const Value* x = em.get("variant")) {
      if (auto r = read_enum(*x, model::epilogue_names(), "epilogue variant", e)) spec.variant = *r;
      em.file(e);
    }
    if (const Value* x = em.get("tile")) {
      if (auto t = read_extents(*x, kEpiTile, e))
        spec.tile = std::array<long long, 2>{(*t)[0], (*t)[1]};
      em.file(e);
    }
    for (const std::string key : {"stages_c", "stages_d"}) {
      if (const Value* x = em.get(key)) {
        if (auto s = read_stage_count(*x, "epilogue stage count", e))
          (key == "stages_c" ? spec.stages_c : spec.stages_d) = *s;
        em.file(e);
      }
    }
    for (const FieldSpec& f : epilogue_fields())
      epilogue_positions_.push_back({"epilogue." + std::string(f.name), em.position(f.name)});
    // Whether sf_vec and sf go with the variant is model::validate's to say (run()).
    if (const Value* x = em.get("sf_vec")) {
      if (auto s = read_sf_vec(*x, e)) spec.sf_vec = *s;
      em.file(e);
    }
    if (const Value* x = em.get("sf")) {
      if (x->kind != Value::Kind::String) {
        e.push_back(type_error("a string", *x, scale_types()));
      } else if (auto t = model::parse_dtype(lower_ascii(x->text));
                 t && (*t == DType::UE4M3 || *t == DType::UE8M0)) {
        spec.sf = *t;
      } else {
        e.push_back(value_error(*x, "scale-factor type", scale_types(),
                                suggest_name(x->text, FieldKind::scale_type)));
      }
      em.file(e);
    }
  }

  // ---- inference-engine FP8 kernels (issue 11) ---------------------------------------------

  /// launcher, op, bias, scale_block; and what a launcher config may not combine: op / bias /
  /// scale_block without a launcher, a launcher for an arch (or an op) its engine has no
  /// kernel for, bias with blockwise_fp8, an explicit scale_block that does not divide the
  /// tile, a `kernel` that is not the arch's engine family.
  void read_engine(Members& m, model::KernelConfig& cfg, bool arch_given) {
    Errors e;
    bool launcher_bad = false, op_bad = false, blocks_ok = false;
    if (const Value* v = m.get("launcher")) {
      if (auto l = read_enum(*v, model::launcher_names(), "launcher", e))
        cfg.launcher = *l;
      else
        launcher_bad = true;
      m.file(e);
    }
    if (const Value* v = m.get("op")) {
      if (auto o = read_enum(*v, model::engine_op_names(), "op", e))
        cfg.op = *o;
      else
        op_bad = true;
      m.file(e);
    }
    if (const Value* v = m.get("bias")) {
      if (v->kind == Value::Kind::Null)
        cfg.bias = model::Bias::None;
      else if (auto b = read_enum(*v, model::bias_names(), "bias", e))
        cfg.bias = *b;
      m.file(e);
    }
    if (const Value* v = m.get("scale_block")) blocks_ok = read_scale_block(*v, m, cfg);
    // Only a launcher config tells "c as written" from "c defaulted to d" (the launcher picks C).
    cfg.c_given =
        cfg.launcher != model::Launcher::None && m.position("c") != static_cast<std::size_t>(-1);
    if (launcher_bad) return;

    const bool given_op = m.position("op") != static_cast<std::size_t>(-1);
    const bool given_bias = m.position("bias") != static_cast<std::size_t>(-1);
    const bool given_blocks = m.position("scale_block") != static_cast<std::size_t>(-1);
    const bool engine_kernel = is_engine_family(cfg.family);
    if (cfg.launcher == model::Launcher::None) {
      const std::string why = "applies only to engine-built kernels; give \"launcher\" (" +
                              std::string(model::launcher_choices()) + ")";
      for (const char* key : {"op", "bias", "scale_block"})
        if (m.position(key) != static_cast<std::size_t>(-1)) m.error(key, why);
      if (engine_kernel)
        m.error("kernel", quote(cfg.family) + " models engine-built kernels; give \"launcher\" (" +
                              std::string(model::launcher_choices()) +
                              ") or another kernel family");
      return;
    }
    const std::string launcher = quote(model::launcher_name(cfg.launcher));
    if (arch_given) {
      const std::string_view family = model::engine_family_for(cfg.arch);
      if (family.empty()) {
        m.error("launcher", launcher + " has no FP8 kernel for " + model::arch_name(cfg.arch) +
                                "; allowed: a launcher with arch " +
                                std::string(model::engine_arch_choices()));
        return;
      }
      if (!op_bad && !model::engine_has_kernel(cfg.launcher, cfg.op, cfg.arch))
        m.error(given_op ? "op" : "launcher",
                quote(model::engine_op_name(cfg.op)) + ": " + launcher +
                    " has no blockwise_fp8 kernel for " + model::arch_name(cfg.arch) +
                    " (its CUTLASS 2.x kernels are scaled_mm only); allowed on " +
                    model::arch_name(cfg.arch) + ": scaled_mm");
      if (!cfg.family.empty() && cfg.family != family)
        m.error("kernel", quote(cfg.family) + " does not model " + launcher + " kernels on " +
                              model::arch_name(cfg.arch) + "; allowed: " + std::string(family) +
                              " (or leave \"kernel\" out)");
    } else if (!cfg.family.empty() && !engine_kernel) {
      m.error("kernel", quote(cfg.family) +
                            " does not model engine-built kernels; allowed with \"launcher\": " +
                            engine_families() + " (or leave \"kernel\" out)");
    }
    if (given_bias && cfg.op == model::EngineOp::BlockwiseFp8 && cfg.bias != model::Bias::None)
      m.error(
          "bias",
          quote(model::bias_name(cfg.bias)) +
              ": the engines' blockwise_fp8 kernels have no bias (ElementC = void); allowed: none");
    if (given_blocks && !op_bad && cfg.op != model::EngineOp::BlockwiseFp8) {
      m.error("scale_block", "applies only to op blockwise_fp8 (op is " +
                                 std::string(model::engine_op_name(cfg.op)) + ")");
    } else if (given_blocks && blocks_ok && cfg.m > 0 && cfg.n > 0 && cfg.k > 0 &&
               (arch_given || cfg.scale_block.a_k != cfg.scale_block.b_k)) {
      if (auto why = scale_block_error(cfg)) m.error("scale_block", *why);
    }
  }

  /// {"a": [m, k], "b": [n, k]}: either member may be left out (its default stays).
  bool read_scale_block(const Value& v, Members& m, model::KernelConfig& cfg) {
    Errors e;
    static const std::string kShape = "{\"a\": [m, k], \"b\": [n, k]}";
    if (v.kind != Value::Kind::Object) {
      e.push_back(type_error("an object " + kShape, v,
                             "{\"a\": [1, 128], \"b\": [128, 128]} (the default)"));
      m.file(e);
      return false;
    }
    static const std::vector<std::string> kKeys = {"a", "b"};
    Members sm(v, kKeys, "a, b", "scale_block.", errors_, m.position("scale_block"), 1, suggest_);
    const ExtentSpec a_spec{
        2, "[m, k]", "MxK", "scale block extent", "scale block", model::kMaxTileExtent};
    const ExtentSpec b_spec{
        2, "[n, k]", "NxK", "scale block extent", "scale block", model::kMaxTileExtent};
    bool ok = true;
    if (const Value* x = sm.get("a")) {
      if (auto t = read_extents(*x, a_spec, e))
        cfg.scale_block.a_m = (*t)[0], cfg.scale_block.a_k = (*t)[1];
      else
        ok = false;
      sm.file(e);
    }
    if (const Value* x = sm.get("b")) {
      if (auto t = read_extents(*x, b_spec, e))
        cfg.scale_block.b_n = (*t)[0], cfg.scale_block.b_k = (*t)[1];
      else
        ok = false;
      sm.file(e);
    }
    return ok;
  }

  /// Why an explicit scale_block does not fit the tile on the config's arch (the families'
  /// rule, model::engine_scale_block_check), or nullopt.
  static std::optional<std::string> scale_block_error(const model::KernelConfig& cfg) {
    using P = model::ScaleBlockProblem;
    const model::ScaleBlockCheck c = model::engine_scale_block_check(cfg);
    if (c.problem == P::none) return std::nullopt;
    const model::ScaleBlock& b = cfg.scale_block;
    const std::string written = "{\"a\": [" + std::to_string(b.a_m) + ", " + std::to_string(b.a_k) +
                                "], \"b\": [" + std::to_string(b.b_n) + ", " +
                                std::to_string(b.b_k) + "]}";
    if (c.problem == P::k_blocks_differ)
      return written + ": A's block K " + std::to_string(b.a_k) + " and B's block K " +
             std::to_string(b.b_k) +
             " differ; allowed: one K for both (the scale config has one ScaleGranularityK)";
    const std::string tile =
        std::to_string(cfg.m) + "x" + std::to_string(cfg.n) + "x" + std::to_string(cfg.k);
    const std::string t = std::to_string(c.tile), g = std::to_string(c.granularity);
    const char* swapped = cfg.swap_ab ? " (with swap_ab: A's block on N, B's on M)" : "";
    std::string reason;
    switch (c.problem) {
      case P::m_not_dividing:
        reason = "tile M " + t + " is not a multiple of the M granularity " + g + swapped;
        break;
      case P::n_not_dividing:
        reason = "tile N " + t + " is not a multiple of the N granularity " + g + swapped;
        break;
      case P::k_not_dividing:
        reason = "tile K " + t + " is not a multiple of the block K " + g;
        break;
      case P::k_not_tile_k:
        reason = "tile K " + t + " differs from the block K " + g;
        break;
      case P::k_not_mma_k:
        reason = "the block K " + g + " is not a multiple of the MMA K 32";
        break;
      case P::cta_smaller:
        reason = "the per-CTA tile M " + t + " (2sm) is below the M granularity " + g;
        break;
      default:
        break;
    }
    std::string allowed;
    if (cfg.arch == 90)
      allowed =
          "blocks whose M and N divide the tile's and whose K equals the tile K, a multiple of 128";
    else if (cfg.arch == 120 || cfg.arch == 121)
      allowed = "blocks whose M and N divide the tile's and whose K equals the tile K";
    else
      allowed = "blocks that divide the tile (M within the per-CTA tile), K a multiple of 32";
    if (c.problem == P::k_not_tile_k && cfg.arch == 90 && cfg.k == c.granularity)
      reason = "the block K " + g + " is not a multiple of 128";
    return written + " does not fit tile " + tile + " on " + model::arch_name(cfg.arch) + ": " +
           reason + "; allowed: " + allowed;
  }

  static bool is_engine_family(const std::string& family) {
    return family_kind(family) == model::FamilyKind::EngineCutlass;
  }
  /// The engine CUTLASS families of the family table, in its order.
  static std::string engine_families() {
    std::string out;
    for (const model::FamilyRow& r : model::family_table())
      if (r.kind == model::FamilyKind::EngineCutlass)
        out += (out.empty() ? "" : ", ") + std::string(r.family->name());
    return out;
  }

  const Value& obj_;
  std::size_t index_;
  bool suggest_;
  bool k_in_bytes_ = false;  ///< tile given as a TensorRT-LLM name ("…x64B")
  /// Where the epilogue object's members are ("epilogue.sf_vec" -> its position), once read.
  std::vector<std::pair<std::string, std::size_t>> epilogue_positions_;
  std::vector<std::pair<std::size_t, FieldError>> errors_;
};

}  // namespace

const std::vector<std::string>& config_field_names() {
  static const std::vector<std::string> k = field_names(config_fields());
  return k;
}

DecodedConfig decode_config(const Value& v, std::size_t index, bool too_large, bool suggest) {
  if (v.kind != Value::Kind::Object) {
    DecodedConfig out;
    out.name = "#" + std::to_string(index);
    out.errors.push_back(
        {"", type_error("a config object {\"tile\": ..., ...} or a CUTLASS kernel name", v)});
    return out;
  }
  if (too_large) {
    DecodedConfig out;
    out.name = "#" + std::to_string(index);
    for (std::size_t i = 0; i < v.keys.size(); ++i)
      if (v.keys[i] == "name" && v.items[i].kind == Value::Kind::String &&
          !v.items[i].text.empty() && v.items[i].text.size() <= kMaxNameBytes &&
          !has_control(v.items[i].text)) {
        out.name = v.items[i].text;
        break;
      }
    out.errors.push_back({"", "config too large: more than " + std::to_string(kMaxValuesPerConfig) +
                                  " JSON values (a config has about 30); it was not read"});
    return out;
  }
  return Decoder(v, index, suggest).run();
}

}  // namespace tilefit::io::detail
