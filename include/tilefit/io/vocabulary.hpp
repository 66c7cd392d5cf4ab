// The config vocabulary, in one place: every field a config file may hold, its type as the
// README writes it, what it means, and what kind of value it takes. The decoder's list of known
// fields and its did-you-mean candidates, the README's "Config format" table (a test compares
// them) and the JSON Schema of `tilefit schema` all come from these tables. Allowed values and
// their aliases come from the model's own name tables (model::schedule_names(),
// model::dtype_names() and friends: tilefit/model/enum_table.hpp); nothing is split out of prose.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilefit::io {

/// What a field's value is (the decoder reads it, the schema describes it).
enum class FieldKind {
  name,              ///< a string label
  text,              ///< free text (comment, description, $schema)
  arch,              ///< "sm90", "sm_120a", 90, "9.0", ...
  kernel,            ///< a family name
  tile,              ///< [M, N, K], "MxNxK" or a TensorRT-LLM "CtaShape…B" name
  extents3,          ///< [x, y, z] or "XxYxZ" (cluster, warp)
  extents2,          ///< [m, n] or "MxN" (epilogue tile)
  operand,           ///< an operand format or element type
  element,           ///< an element type
  element_or_null,   ///< an element type or null (no C source)
  sf_vec,            ///< 16 or 32
  layout,            ///< "tn", "tnt", ...
  schedule,          ///< a Schedule
  epilogue,          ///< a variant name or an epilogue object
  epilogue_variant,  ///< a variant name
  boolean,
  stages,       ///< "auto" or an integer
  stage_count,  ///< an integer (epilogue stages)
  mma,          ///< an Mma
  scale_type,   ///< ue4m3 or ue8m0
  configs,      ///< the file's array of configs
  // ---- inference-engine FP8 kernels (issue 11) ----
  launcher,     ///< vllm or sglang
  engine_op,    ///< scaled_mm or blockwise_fp8
  bias,         ///< none, row or column
  scale_block,  ///< {"a": [m, k], "b": [n, k]}
  // ---- Triton kernels (issue 12) ----
  integer,       ///< a positive integer (num_warps, group_m)
  version,       ///< a version string ("3.6.0")
  engine,        ///< an engine release: "vllm", "sglang@d6ef6888" (model::parse_engine_release)
  tuned_launch,  ///< {"USE_TMA": …, "num_ctas": …, …}: a tuned entry's launch keys
  // ---- Triton attention (issue 19) ----
  attn_stage,  ///< all, stage1, stage2, main, reduce
  attn_phase,  ///< decode, prefill, extend
  attn_model,  ///< a model preset ("kimi-k2")
  attn_dtype,  ///< bf16, f16, f32, fp8_e4m3 (fp8), fp8_e5m2
  count0,      ///< an integer >= 0 (sliding_window, block_dpe)
  number,      ///< a number >= 0 (logit_cap)
};

/// Whose field it is: every kind's, or one kind of family's (that kind's dialect). The decoder
/// refuses a field of another dialect ("applies only to CUTLASS kernels", "applies only to
/// Triton kernels", "applies only to engine-built kernels") from these rows.
enum class Dialect {
  common,   ///< every config (name, arch, kernel, tile, dtype, d, stages, free text)
  cutlass,  ///< CUTLASS kernels, plain or engine-built (model::FamilyKind::Cutlass, EngineCutlass)
  engine_cutlass,  ///< engine-built CUTLASS kernels (model::FamilyKind::EngineCutlass)
  triton,          ///< Triton kernels (model::FamilyKind::Triton)
  attention,       ///< the triton_attention family (issue 19)
};

/// "common", "CUTLASS", "engine CUTLASS", "Triton", "Triton attention".
std::string_view dialect_name(Dialect d);

struct FieldSpec {
  std::string_view name;
  std::string_view type;     ///< as the README's "type" column writes it
  std::string_view meaning;  ///< the README's "meaning" column, with {placeholders} (field_meaning)
  FieldKind kind;
  Dialect dialect = Dialect::common;
  std::string_view default_value = {};  ///< what an absent field means ("" for required/none)
  std::string_view mirrors = {};        ///< the kernel source's name for it ("TileShape", ...)
};

/// The row of config field `name`, or nullptr.
const FieldSpec* find_config_field(std::string_view name);
/// The position of config field `name` in config_fields() (what Provenance::given's bits count).
std::optional<std::size_t> config_field_index(std::string_view name);

/// The fields of one config, in the README's order.
std::span<const FieldSpec> config_fields();
/// The fields of an epilogue object ({"variant": ..., "tile": ...}).
std::span<const FieldSpec> epilogue_fields();
/// The top-level members of a config file object.
std::span<const FieldSpec> file_fields();
/// The fields of one entry of a vLLM/SGLang tuned fused-MoE file ({"BLOCK_SIZE_M": ..., ...}).
std::span<const FieldSpec> tuned_entry_fields();
/// The keys of a config's "tuned" object: a tuned entry's launch keys (tuned_entry_fields()
/// beyond the tile, warps, stages and GROUP_SIZE_M) and the file name's per_channel_quant.
std::span<const FieldSpec> tuned_launch_fields();

/// The names of `fields`, in order (the decoder's known keys and did-you-mean candidates).
std::vector<std::string> field_names(std::span<const FieldSpec> fields);

/// `names` joined by ", " (the "allowed:" list of an error).
std::string join_names(const std::vector<std::string>& names);

/// The allowed names of a choice kind (schedule, epilogue_variant, mma, scale_type, kernel,
/// element, operand, launcher, engine_op, bias), listed aliases included, read from the model's
/// name tables (and, for kernel, the family table) in their order.
std::vector<std::string> allowed_names(FieldKind kind);

/// The field's meaning as the README and the schema write it: `meaning` with its placeholders
/// ({schedules}, {epilogues}, {formats}, {operand_elements}) replaced by the names of the model's
/// tables, in backticks ("`auto`, `cooperative`, ...").
std::string field_meaning(const FieldSpec& f);

/// The README's "Config format" table (header and one row per config field).
std::string config_table_markdown();

}  // namespace tilefit::io
