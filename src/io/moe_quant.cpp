#include "io/moe_quant.hpp"

#include <cstdint>

#include "io/json_fields.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit::io::detail {

namespace {

using Quant = model::KernelConfig::TunedLaunch::Quant;

/// The engines' fused-MoE dtype strings (engine_tables.cpp: what vLLM's and SGLang's loaders
/// write) and the quantisation each names. "float8" (vLLM's H100 "dtype=float8" tables, never
/// loaded) is read as the fp8_w8a8 kernel it was tuned for; "bf16" as the unquantised kernel.
struct MoeQuantName {
  std::string_view name;
  Quant quant;
};
constexpr MoeQuantName kMoeQuantNames[] = {
    {"fp8_w8a8", Quant::Fp8W8a8},     {"int8_w8a8", Quant::Int8W8a8},
    {"int8_w8a16", Quant::Int8W8a16}, {"int4_w4a16", Quant::Int4W4a16},
    {"fp8_w8a16", Quant::Other},      {"float32", Quant::Other},
    {"float8", Quant::Fp8W8a8},       {"bf16", Quant::Bf16},
};

}  // namespace

void apply_moe_quant(std::string_view dtype, bool per_channel, model::KernelConfig& cfg) {
  Quant q = dtype.empty() ? Quant::None : Quant::Other;
  for (const MoeQuantName& n : kMoeQuantNames)
    if (n.name == dtype) q = n.quant;
  cfg.tuned.quant = q;
  cfg.tuned.per_channel_quant = per_channel;
  // vLLM 000d1458 (and a plain config) runs fp8_w8a8 per-tensor or block-wise: fp8 e4m3 A and B;
  // it has no kernel for the others (unmodelled_dtype names them).
  cfg.fp8_w8a8 = dtype == "fp8_w8a8" && !per_channel;
  cfg.a = cfg.b =
      model::Operand{cfg.fp8_w8a8 ? model::DType::E4M3 : model::DType::BF16, model::DType::Void, 0};
  cfg.unmodelled_dtype.clear();
  if (!cfg.fp8_w8a8 && !dtype.empty())
    cfg.unmodelled_dtype = std::string(dtype) + (per_channel ? " per_channel_quant" : "");
}

const std::vector<std::string>& moe_quant_names() {
  // The names a config writes: not the aliases "float8" and "bf16".
  static const std::vector<std::string> k = {"fp8_w8a8",   "int8_w8a8", "int8_w8a16",
                                             "int4_w4a16", "fp8_w8a16", "float32"};
  return k;
}

std::string moe_quant_text(const model::KernelConfig& cfg) {
  switch (cfg.tuned.quant) {
    case Quant::None:
    case Quant::Bf16:
      return "";
    case Quant::Fp8W8a8:
      return "fp8_w8a8";
    case Quant::Int8W8a8:
      return "int8_w8a8";
    case Quant::Int8W8a16:
      return "int8_w8a16";
    case Quant::Int4W4a16:
      return "int4_w4a16";
    case Quant::Other:
      // The name as read (unmodelled_dtype: "fp8_w8a16", "float32"; " per_channel_quant" aside).
      return cfg.unmodelled_dtype.substr(0, cfg.unmodelled_dtype.find(' '));
  }
  return "";
}

bool decode_launch_key(std::string_view f, const Value& x, model::KernelConfig& cfg,
                       std::string& error) {
  if (f == "SPLIT_K") {
    // Read as written: what the launcher does with it is the model's (the triton_fused_moe
    // family: vLLM 6adad087 sets it to 1, SGLang's kernels take no SPLIT_K).
    if (auto v = integer_in(x, 1, model::kMaxTileExtent))
      cfg.tuned.split_k = static_cast<int>(*v);
    else
      error = x.is_number() ? value_error(x, "SPLIT_K", "integers 1..65536")
                            : type_error("an integer", x, "integers 1..65536");
  } else if (f == "USE_TMA") {
    // SGLang's _down tables (fused_moe.py:404-409 pops it for the down GEMM's a_use_tma and
    // b_use_tma).
    if (x.kind == Value::Kind::Bool)
      cfg.tuned.use_tma = x.boolean;
    else
      error = type_error("true or false", x, "true, false");
  } else if (f == "num_ctas") {
    // CUDAOptions.num_ctas (third_party/nvidia/backend/compiler.py:110, default 1); a cluster
    // has at most 16 CTAs.
    if (auto c = integer_in(x, 1, 16))
      cfg.tuned.num_ctas = static_cast<int>(*c);
    else
      error = x.is_number() ? value_error(x, "num_ctas", "integers 1..16")
                            : type_error("an integer", x, "integers 1..16");
  } else if (f == "waves_per_eu" || f == "matrix_instr_nonkdim" || f == "kpack") {
    // ROCm's HIPOptions (third_party/amd/backend/compiler.py): kpack 1 or 2, the others
    // non-negative integers. Read and kept; an NVIDIA target ignores them (a warning).
    const bool kpack = f == "kpack";
    const std::int64_t lo = kpack ? 1 : 0, hi = kpack ? 2 : (std::int64_t{1} << 31) - 1;
    const std::string allowed =
        kpack ? std::string("1 or 2") : std::string("non-negative integers");
    if (const auto r = integer_in(x, lo, hi)) {
      auto& slot = f == "waves_per_eu"           ? cfg.tuned.waves_per_eu
                   : f == "matrix_instr_nonkdim" ? cfg.tuned.matrix_instr_nonkdim
                                                 : cfg.tuned.kpack;
      slot = static_cast<int>(*r);
    } else {
      error = x.is_number() ? value_error(x, f, allowed) : type_error("an integer", x, allowed);
    }
  } else {
    return false;
  }
  return true;
}

}  // namespace tilefit::io::detail
