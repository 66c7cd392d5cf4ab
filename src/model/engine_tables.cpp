#include "tilefit/model/engine_tables.hpp"

#include <span>
#include <string>
#include <vector>

#include "tilefit/model/config.hpp"

namespace tilefit::model {
namespace {

/// A table's name, as its engine would have to have written it.
struct TableName {
  bool block_matmul = false;  ///< "N=…,K=…" (block-quantised matmul), else "E=…,N=…" (fused MoE)
  bool down = false;          ///< "_down" before ".json"
  std::string_view device_name, dtype, block_shape, per_channel_quant;
  bool has_device_name = false, has_block_shape = false, has_per_channel_quant = false;
};

/// Splits at the commas outside brackets; nullopt when it is not a tuned table's name.
std::optional<TableName> split_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  constexpr std::string_view kJson = ".json", kDown = "_down";
  if (base.size() <= kJson.size() || !base.ends_with(kJson)) return std::nullopt;
  base.remove_suffix(kJson.size());
  TableName t;
  if (base.starts_with("N=")) {
    t.block_matmul = true;
  } else if (!base.starts_with("E=")) {
    return std::nullopt;
  }
  if (base.ends_with(kDown)) {
    t.down = true;
    base.remove_suffix(kDown.size());
  }
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= base.size(); ++i) {
    if (i < base.size() && base[i] == '[') ++depth;
    if (i < base.size() && base[i] == ']') --depth;
    if (i < base.size() && (base[i] != ',' || depth != 0)) continue;
    const std::string_view part = base.substr(start, i - start);
    start = i + 1;
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
    if (key == "device_name") {
      t.device_name = value;
      t.has_device_name = true;
    } else if (key == "dtype") {
      t.dtype = value;
    } else if (key == "block_shape") {
      t.block_shape = value;
      t.has_block_shape = true;
    } else if (key == "per_channel_quant") {
      t.per_channel_quant = value;
      t.has_per_channel_quant = true;
    }
  }
  return t;
}

// The dtype strings each loader writes (engine_tables.def: table_dtype_never_built).
constexpr std::string_view kBlockMatmulDtypes[] = {"fp8_w8a8", "int8_w8a8"};
constexpr std::string_view kVllmMoeDtypes[] = {"fp8_w8a8", "fp8_w8a16", "int8_w8a16", "int4_w4a16",
                                               "float32"};
constexpr std::string_view kSglangMoeDtypes[] = {"fp8_w8a8", "int8_w8a8", "int4_w4a16",
                                                 "int8_w8a16", "float32"};

bool one_of(std::string_view s, std::span<const std::string_view> set) {
  for (const std::string_view x : set)
    if (s == x) return true;
  return false;
}

std::string joined(std::span<const std::string_view> set) {
  std::string out;
  for (const std::string_view x : set) {
    if (!out.empty()) out += ", ";
    out += x;
  }
  return out;
}

/// "[128, 128]" written as the engine writes it: with or without the space after the comma.
std::string respelled(std::string_view block_shape, bool space) {
  std::string out;
  for (const char c : block_shape) {
    if (c == ' ') continue;
    out += c;
    if (c == ',' && space) out += ' ';
  }
  return out;
}

}  // namespace

std::optional<Diagnostic> lint_table_name(std::string_view path, EngineRelease release) {
  const bool vllm = release == EngineRelease::Vllm6adad087;
  if (!vllm && release != EngineRelease::SglangD6ef6888) return std::nullopt;
  const std::optional<TableName> t = split_name(path);
  if (!t) return std::nullopt;
  const std::string engine = engine_release_text(release);

  // device_name: the GPU's name, never empty (engine_tables.def: table_device_name_empty).
  if (t->has_device_name && t->device_name.empty())
    return diag(Code::table_device_name_empty).name("engine", engine);

  // dtype (table_dtype_never_built).
  const std::span<const std::string_view> dtypes =
      t->block_matmul ? std::span<const std::string_view>(kBlockMatmulDtypes)
      : vllm          ? std::span<const std::string_view>(kVllmMoeDtypes)
                      : std::span<const std::string_view>(kSglangMoeDtypes);
  if (!t->dtype.empty() && !one_of(t->dtype, dtypes))
    return diag(Code::table_dtype_never_built)
        .name("engine", engine)
        .name("dtype", std::string(t->dtype))
        .name("allowed", joined(dtypes) + (t->block_matmul ? "" : ", or none"));

  // Parts vLLM's fused-MoE name never has; SGLang writes per_channel_quant=True only.
  if (t->has_per_channel_quant && (vllm || t->block_matmul || t->per_channel_quant != "True"))
    return diag(Code::table_part_never_built)
        .name("engine", engine)
        .name("part", "per_channel_quant=" + std::string(t->per_channel_quant));
  if (t->down && (vllm || t->block_matmul))
    return diag(Code::table_part_never_built).name("engine", engine).name("part", "_down");

  // block_shape's spelling: a space after the comma or none (table_block_shape_spelling).
  if (t->has_block_shape) {
    // vLLM's fused MoE strips the spaces; vLLM's fp8 block matmul has none, its int8 one has
    // one; SGLang always has one.
    const bool space = vllm ? t->block_matmul && t->dtype == "int8_w8a8" : true;
    const std::string expected = respelled(t->block_shape, space);
    if (expected != t->block_shape)
      return diag(Code::table_block_shape_spelling)
          .name("engine", engine)
          .name("written", std::string(t->block_shape))
          .name("expected", expected);
  }
  return std::nullopt;
}

}  // namespace tilefit::model
