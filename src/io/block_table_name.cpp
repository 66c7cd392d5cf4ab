#include "io/block_table_name.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "io/name_parts.hpp"

namespace tilefit::io::detail {
namespace {

// N={N},K={K},device_name={device},dtype={dtype},block_shape=[{block_n},{block_k}].json
//   vLLM 6adad087 get_w8a8_block_fp8_configs (quantization/utils/fp8_utils.py:836) writes
//   block_shape=[128,128]; its get_w8a8_block_int8_configs (int8_utils.py:334) and SGLang
//   d6ef6888's fp8 and int8 readers (fp8_kernel.py:1253, int8_kernel.py:338) write
//   block_shape=[128, 128] (with a space). Other dtypes (SGLang's fp8_w8a8_channelwise, vLLM's
//   fp8_w8a8_per_token with input_dtype=… and out_dtype=… parts) are read; no modelled kernel
//   loads them.
constexpr std::string_view kGrammar =
    "N={n},K={k},device_name={name},dtype={fp8_w8a8|int8_w8a8|…},block_shape=[{n},{k}]"
    "[,input_dtype={t}][,out_dtype={t}].json";

bool take(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// A positive whole number of at most 9 digits, without a sign or leading zeros.
bool positive_number(std::string_view v, long long* out = nullptr) {
  if (v.empty() || v.size() > 9 || v.front() == '0') return false;
  long long x = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
    x = x * 10 + (c - '0');
  }
  if (out) *out = x;
  return true;
}

/// "[128,128]" or "[128, 128]" -> {128, 128}; anything else (a third number, letters, a zero,
/// other brackets) -> nullopt.
std::optional<std::array<long long, 2>> block_shape_of(std::string_view v) {
  if (!take(v, "[") || v.empty() || v.back() != ']') return std::nullopt;
  v.remove_suffix(1);
  const std::size_t comma = v.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  std::string_view n = v.substr(0, comma), k = v.substr(comma + 1);
  take(k, " ");
  std::array<long long, 2> out{};
  if (!positive_number(n, &out[0]) || !positive_number(k, &out[1])) return std::nullopt;
  return out;
}

}  // namespace

bool is_block_table_name(std::string_view base) {
  return base.size() > 7 && base.substr(0, 2) == "N=" && base.substr(base.size() - 5) == ".json";
}

std::string_view block_table_grammar() { return kGrammar; }

BlockTableName parse_block_table_name(std::string_view base) {
  BlockTableName out;
  base.remove_suffix(5);  // ".json"
  auto fail = [&](std::string_view part, std::string why) {
    out.error_part = std::string(part);
    out.error = std::move(why);
    out.matches = false;
    return out;
  };
  const std::vector<std::string_view> parts = name_parts(base);
  std::set<std::string_view> seen;
  std::string input_dtype, out_dtype;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) return fail(part, "not a key=value part");
    const std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
    static constexpr std::string_view kLeading[] = {"N", "K", "device_name"};
    if (i < 3 && key != kLeading[i])
      return fail(part, "expected " + std::string(kLeading[i]) +
                            "=… here (the name begins N=…,K=…,device_name=…)");
    if (!seen.insert(key).second) return fail(part, "given twice");
    if (key == "N" || key == "K") {
      long long x = 0;
      if (!positive_number(value, &x)) return fail(part, "not a positive whole number");
      (key == "N" ? out.n : out.k) = x;
    } else if (key == "device_name") {
      if (value.empty()) return fail(part, "empty device name");
      out.device_name = std::string(value);
    } else if (key == "dtype") {
      if (value.empty()) return fail(part, "empty dtype");
      out.dtype = std::string(value);
    } else if (key == "block_shape") {
      out.block_shape = block_shape_of(value);
      out.sglang_spelling = value.find(", ") != std::string_view::npos;
      if (!out.block_shape)
        return fail(part,
                    "not a block shape; allowed: [N,K] or [N, K] with positive whole numbers");
    } else if (key == "input_dtype" || key == "out_dtype") {
      if (value.empty()) return fail(part, "empty " + std::string(key));
      (key == "input_dtype" ? input_dtype : out_dtype) = std::string(value);
    } else {
      return fail(part,
                  "unknown part; allowed: N, K, device_name, dtype, block_shape, input_dtype, "
                  "out_dtype");
    }
  }
  if (parts.size() < 3) return fail(base, "incomplete: it needs N=…,K=…,device_name=…");
  if (!seen.count("dtype"))
    return fail(base, "no dtype=… part: the engines name every block table by its quantisation");
  // The modelled kernels take their tables by dtype and block shape alone; a name that also
  // gives input or output types is another kernel's (vLLM's per-token form): read, not modelled.
  if (!input_dtype.empty()) out.dtype += ",input_dtype=" + input_dtype;
  if (!out_dtype.empty()) out.dtype += ",out_dtype=" + out_dtype;
  out.matches = true;
  return out;
}

void apply_block_table_name(std::string_view dtype,
                            const std::optional<std::array<long long, 2>>& block_shape, bool sglang,
                            model::KernelConfig& cfg) {
  cfg.family = "triton_block_matmul";
  cfg.fp8_w8a8 = false;
  cfg.unmodelled_dtype.clear();
  if (dtype == "fp8_w8a8") {
    cfg.fp8_w8a8 = true;
    cfg.a = cfg.b = model::Operand{model::DType::E4M3, model::DType::Void, 0};
  } else if (dtype == "int8_w8a8") {
    cfg.a = cfg.b = model::Operand{model::DType::S8, model::DType::Void, 0};
  } else {
    cfg.a = cfg.b = model::Operand{model::DType::E4M3, model::DType::Void, 0};
    cfg.unmodelled_dtype = std::string(dtype);
  }
  // C has the model's dtype (vLLM TritonFp8BlockScaledMMKernel passes self.config.out_dtype,
  // kernels/linear/scaled_mm/triton.py:166-180; SGLang the layer's output dtype): bf16 for the
  // models these tables are tuned for. f16 gives the same shared memory.
  cfg.c = cfg.d = model::DType::BF16;
  if (block_shape) cfg.block_shape = block_shape;
  // SGLang's fp8 reader replaces a BLOCK_SIZE_K below block_k that does not divide it (on CUDA)
  // by block_k (get_w8a8_block_fp8_configs, fp8_kernel.py:1266-1273); its int8 reader and
  // vLLM's readers pass the entry unchanged.
  if (sglang && cfg.fp8_w8a8 && block_shape) {
    const long long block_k = (*block_shape)[1];
    if (cfg.k < block_k && block_k % cfg.k != 0) {
      cfg.tuned_block_k = cfg.k;
      cfg.k = block_k;
    }
  }
}

}  // namespace tilefit::io::detail
