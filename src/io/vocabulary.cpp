#include "tilefit/io/vocabulary.hpp"

#include <iterator>

#include "tilefit/model/attention_vocab.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::io {
namespace {

using K = FieldKind;
using D = Dialect;

constexpr FieldSpec kConfigFields[] = {
    {"name", "string", "label; default `#<index>`", K::name, D::common, "#<index>",
     "the kernel's label (not in the kernel)"},
    {"arch", "string or number",
     "`sm90`, `sm_90a`, `sm120`, `120`, `12.0`, `sm_100f` …; AMD: `gfx942` (`mi300x`, `mi325x`), "
     "`gfx950` (`mi350x`, `mi355x`), by name only; must be in the built-in table",
     K::arch, D::common, "the target's",
     "cutlass::arch::Sm90, Sm100, Sm120 ... / the Triton target"},
    {"kernel", "string",
     "family: `sm120_blockscaled`, `sm120_dense`, `sm90_tma_ws`, `sm100_umma`, `sm80_multistage`; "
     "`engine_fp8_sm89`, `engine_fp8_sm90`, `engine_fp8_sm100`, `engine_fp8_sm120` (with "
     "`launcher`); "
     "`triton_matmul`, `triton_fused_moe`, `triton_block_matmul`, `triton_attention` (no "
     "`tile`: see [Triton attention](attention.md)); default: inferred from arch, "
     "types and `launcher` (a Triton kernel is never inferred: name it)",
     K::kernel, D::common, "inferred from arch, types and launcher",
     "the collective builder / kernel family"},
    {"tile", "`[M,N,K]`, `\"MxNxK\"`, or a TensorRT-LLM name `\"CtaShape128x256x64B\"`",
     "CTA tile in elements (SM100: the MMA tile; Triton: `[BLOCK_SIZE_M, BLOCK_SIZE_N, "
     "BLOCK_SIZE_K]`); integers 1…65536. A trailing `B` means K is in bytes, as in TensorRT-LLM / "
     "FlashInfer enum names: `CtaShape128x256x64B` with nvfp4 is 128×256×128",
     K::tile, D::common, "",
     "TileShape (CUTLASS); BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K (Triton)"},
    {"cluster", "`[x,y,z]`",
     "default `[1,1,1]`; x·y·z CTAs: more than 8 needs the non-portable attribute (warning, up to "
     "16 on sm_90/sm_100/sm_103), beyond that or any cluster before sm_90 is `invalid`",
     K::extents3, D::cutlass, "[1,1,1]", "ClusterShape"},
    {"dtype", "string",
     "shorthand for `a` and `b`; Triton: the dot's operand type — `triton_matmul`: `f16`, `bf16`, "
     "`f32` (a tf32 dot), `e4m3`; `triton_fused_moe`: `bf16`, `f16`, or the engines' "
     "quantisation names `fp8_w8a8` (fp8 weights and activations), `int8_w8a8`, `int8_w8a16`, "
     "`int4_w4a16` (with `engine`: the kernel its launcher runs), `fp8_w8a16`, `float32` (not "
     "modelled); `triton_block_matmul`: `fp8_w8a8` (e4m3) or `int8_w8a8` (s8)",
     K::operand, D::common, "", "ElementA and ElementB; the dot's operand type (Triton)"},
    {"a", "string", "{formats}, or an element type: {operand_elements}", K::operand, D::cutlass,
     "bf16 (e4m3 with launcher)", "ElementA"},
    {"b", "string", "as `a`", K::operand, D::cutlass, "bf16 (e4m3 with launcher)", "ElementB"},
    {"sf_vec", "16 or 32",
     "scale-factor vector size (block-scaled only; implied by `nvfp4` = 16, `mx*` = 32)", K::sf_vec,
     D::cutlass, "16 for nvfp4, 32 for mx*", "SFVecSize"},
    {"c", "string or null",
     "C source (`null` = no C); defaults to `d` (with `launcher`: to the launcher's C, which an "
     "explicit `c` overrides)",
     K::element_or_null, D::cutlass, "d (the launcher's C with launcher)", "ElementC"},
    {"d", "string",
     "D output; default `bf16`. Triton: C's type — `triton_matmul`: `f16`, `bf16`, `f32`, default "
     "as the tutorial (`f16` for f16/e4m3, else the dtype); `triton_fused_moe`: `bf16` or `f16`, "
     "default the activations' type (`bf16` for fp8_w8a8); `triton_block_matmul`: `bf16` "
     "(default), `f16`, `f32`",
     K::element, D::common, "bf16 (Triton: the kernel's default)", "ElementD; C's type (Triton)"},
    {"acc", "string", "accumulator; default `f32`", K::element, D::cutlass, "f32",
     "ElementAccumulator"},
    {"layout", "string",
     "CUTLASS letters for A, B (and C/D): `tn` (default), `tnt`, `tnn`, … (A `t` = K-major; B `n` "
     "= K-major; C/D `t` = row-major)",
     K::layout, D::cutlass, "tn", "LayoutA, LayoutB, LayoutC/D"},
    {"schedule", "string",
     "{schedules} (the basic, non-persistent SM90 `KernelTmaWarpSpecialized*` kernel the engines "
     "use for small M)",
     K::schedule, D::cutlass, "auto", "KernelSchedule"},
    {"epilogue", "string or object",
     "{epilogues}; object form "
     "`{\"variant\": …, \"tile\": [m,n], \"stages_c\": …, \"stages_d\": …, \"sf_vec\": …, \"sf\": "
     "…}`",
     K::epilogue, D::cutlass, "auto", "EpilogueSchedule, EpilogueTile, StagesC/StagesD"},
    {"grouped", "bool", "ptr-array / MoE grouped kernel", K::boolean, D::cutlass, "false",
     "GemmGrouped / ptr-array kernels"},
    {"stages", "`\"auto\"` or integer",
     "`auto` = the builder's `StageCountAutoCarveout<sizeof(CollectiveEpilogue::SharedStorage)>` "
     "rule; integers 1…4096. Triton: `num_stages` (no `auto`); absent: Triton's default 3",
     K::stages, D::common, "auto (Triton: 3)",
     "StageCount / StageCountAutoCarveout; num_stages (Triton)"},
    {"mma", "string",
     "block-scaled instruction: `auto`, `f8f6f4` (fp4/fp6 stored as one byte), `nvf4`", K::mma,
     D::cutlass, "auto", "the block-scaled MMA instruction kind"},
    {"warp", "`[m,n,k]`", "warp tile, `sm80_multistage` and `launcher` configs on sm_89 only",
     K::extents3, D::cutlass, "", "WarpShape (CUTLASS 2.x)"},
    {"swap_ab", "bool",
     "TensorRT-LLM's transposed MoE launch, or an engine's swap_ab config (C/D become "
     "column-major)",
     K::boolean, D::cutlass, "false", "TensorRT-LLM / engine swap_ab launch"},
    {"comment", "string", "free text, ignored", K::text, D::common, "", ""},
    {"description", "string", "free text, ignored", K::text, D::common, "", ""},
    // ---- inference-engine FP8 kernels (issue 11) ----
    {"launcher", "string",
     "`vllm` or `sglang`: whose launcher builds an FP8 kernel (vLLM `cutlass_scaled_mm`, SGLang "
     "`fp8_scaled_mm` / `fp8_blockwise_scaled_mm`) on sm_89, sm_90, sm_100 (sm_103, sm_110) or "
     "sm_120 (sm_121); it decides what the config does not say — C type, fusion tree, epilogue "
     "schedule, tile scheduler (see [Engine configs](cutlass.md#engine-configs)); `a`/`b` default "
     "to `e4m3`",
     K::launcher, D::engine_cutlass, "none",
     "vLLM cutlass_scaled_mm, SGLang fp8_scaled_mm / fp8_blockwise_scaled_mm"},
    {"op", "string",
     "with `launcher`: `scaled_mm` (default; per-tensor or per-token × per-channel scales) or "
     "`blockwise_fp8` (scale blocks `scale_block`; sm_90, sm_100, sm_120); `triton_attention`: "
     "`decode`, `mla_decode`, `unified_2d`, `unified_3d` (vLLM), `extend`, `extend_unified` "
     "(SGLang), `prefill`, `prefix_prefill` (vLLM), default `auto` (inferred from `phase` and the "
     "shape, see [Triton attention](attention.md))",
     K::engine_op, D::engine_cutlass, "scaled_mm", "the engine's GEMM entry point"},
    {"bias", "string or null",
     "with `launcher` and `scaled_mm`: `none` (default), `row` (vLLM `ScaledEpilogueBias`, "
     "SGLang's "
     "bias: a D-typed row of tile N), `column` (vLLM `ScaledEpilogueColumnBias`, with `swap_ab`)",
     K::bias, D::engine_cutlass, "none", "ScaledEpilogueBias / ScaledEpilogueColumnBias"},
    {"scale_block", "`{\"a\": [m,k], \"b\": [n,k]}`",
     "with `blockwise_fp8`: scale blocks of A (activations) and B (weights) as the engine writes "
     "them (`swap_ab` swaps them for the kernel); default `{\"a\": [1, 128], \"b\": [128, 128]}`; "
     "must divide the tile",
     K::scale_block, D::engine_cutlass, "{\"a\": [1, 128], \"b\": [128, 128]}",
     "ScaleGranularityM/N/K"},
    // Triton kernels (issue 12).
    {"num_warps", "integer",
     "Triton: `num_warps`, a power of two up to 32; default 4 (integers 1…1024 are read)",
     K::integer, D::triton, "4", "num_warps"},
    {"group_m", "integer", "Triton: `GROUP_SIZE_M` (index arithmetic only: no shared memory)",
     K::integer, D::triton, "", "GROUP_SIZE_M"},
    {"block_shape", "`[n,k]`",
     "`triton_fused_moe` with `fp8_w8a8`: vLLM's `block_shape` [block_n, block_k] of the "
     "block-wise scales; `triton_block_matmul`: the same (runtime arguments there: no shared "
     "memory)",
     K::extents2, D::triton, "", "vLLM block_shape [block_n, block_k]"},
    {"mul_routed_weight", "bool",
     "`triton_fused_moe`: vLLM's `MUL_ROUTED_WEIGHT` (the MoE's second GEMM; no shared memory)",
     K::boolean, D::triton, "false", "MUL_ROUTED_WEIGHT"},
    {"triton", "string",
     "Triton version the config was tuned with, e.g. `\"3.4.0\"`; analysed with the 3.6 rules, "
     "a warning when it is not 3.6",
     K::version, D::triton, "", "triton.__version__ of the tuned config"},
    {"engine", "string",
     "Triton: whose launcher turns the config into a launch, `vllm` or `sglang`, optionally "
     "pinned to a modelled commit (`vllm@6adad087`, `vllm@000d1458`, `sglang@d6ef6888`; a prefix "
     "of 8+ hex digits); tuned tables: the engine whose folder or name it is, at its newest "
     "modelled commit",
     K::engine, D::triton, "none (launched as written)", "the engine's launcher at that commit"},
    {"tuned", "object",
     "`triton_fused_moe`: what a tuned table adds to the launch, keys as the table writes them: "
     "`USE_TMA`, `num_ctas`, `SPLIT_K`, `waves_per_eu`, `matrix_instr_nonkdim`, `kpack`, and the "
     "file name's `per_channel_quant` (bool); the `config` tilefit writes for a table entry "
     "carries them",
     K::tuned_launch, D::triton, "{}", "the entry's launch keys"},
    // AMD targets (issue 20).
    {"hip_async_copy", "bool",
     "Triton on an AMD target (gfx942, gfx950): `TRITON_HIP_USE_ASYNC_COPY` on (`true`) or off "
     "(`false`); default Triton 3.6's (off); JSON true/false only; on an NVIDIA target an input "
     "error (`--hip-async-copy on` / `off` overrides it)",
     K::boolean, D::triton, "Triton 3.6's (off)", "TRITON_HIP_USE_ASYNC_COPY"},
    // Triton attention (issue 19): `kernel` triton_attention; `launcher` vllm or sglang, `engine`
    // its pin, `op`, `num_warps` and `stages` / `num_stages` are shared rows.
    {"stage", "string",
     "`triton_attention`: which launch of the op, `stage1`, `stage2` (decode), `main`, `reduce` "
     "(unified_3d), or `all` (default: every launch, the verdict is the worst)",
     K::attn_stage, D::attention, "all", "the launch of the op"},
    {"phase", "string",
     "`triton_attention`: `decode`, `prefill` or `extend`: what the engine is running (picks the "
     "op when `op` is left out)",
     K::attn_phase, D::attention, "decode", "the forward mode"},
    {"model", "string",
     "`triton_attention`: a model preset (heads, kv heads, head dims, MLA ranks, sliding window, "
     "sinks from its Hugging Face config), split per rank by `tp`",
     K::attn_model, D::attention, "", "the model's config.json"},
    {"tp", "integer", "`triton_attention` with `model`: tensor-parallel size (default 1)",
     K::integer, D::attention, "1", "tensor_parallel_size"},
    {"q_heads", "integer", "`triton_attention`: query heads per rank", K::integer, D::attention,
     "the model's", "q.shape[1]"},
    {"kv_heads", "integer", "`triton_attention`: kv heads per rank (default `q_heads`)", K::integer,
     D::attention, "q_heads", "k_cache.shape[-2]"},
    {"head_dim", "integer", "`triton_attention`: query/key head size (MLA: nope + rope)",
     K::integer, D::attention, "the model's", "Lk / HEAD_SIZE"},
    {"head_dim_v", "integer", "`triton_attention`: value head size (default `head_dim`)",
     K::integer, D::attention, "head_dim", "Lv"},
    {"kv_lora_rank", "integer",
     "`triton_attention`: MLA latent width (`mla_decode` reads kv_lora_rank + rope_dim)",
     K::integer, D::attention, "", "kv_lora_rank"},
    {"rope_dim", "integer", "`triton_attention`: MLA qk_rope_head_dim", K::count0, D::attention, "",
     "qk_rope_head_dim"},
    {"act_dtype", "string",
     "`triton_attention`: the model's activations, `bf16` (default), `f16`, `f32`", K::attn_dtype,
     D::attention, "bf16", "the query / output dtype"},
    {"kv_dtype", "string",
     "`triton_attention`: the KV cache, `bf16`, `f16`, `f32`, `fp8_e4m3` (`fp8`), `fp8_e5m2`; "
     "default `act_dtype`",
     K::attn_dtype, D::attention, "act_dtype", "--kv-cache-dtype"},
    {"q_dtype", "string",
     "`triton_attention`: the query as the kernel reads it (default `act_dtype`)", K::attn_dtype,
     D::attention, "act_dtype", "q.dtype"},
    {"page_size", "integer",
     "`triton_attention`: KV cache page (block) size; default vLLM 16, SGLang 1", K::integer,
     D::attention, "16 (vLLM), 1 (SGLang)", "block_size / page_size"},
    {"sliding_window", "integer",
     "`triton_attention`: the layer's sliding window (0: none; default the model's)", K::count0,
     D::attention, "the model's (0)", "sliding_window"},
    {"sinks", "bool", "`triton_attention`: attention sinks (gpt-oss)", K::boolean, D::attention,
     "the model's (false)", "sinks"},
    {"logit_cap", "number", "`triton_attention`: logit soft-capping (0: none)", K::number,
     D::attention, "the model's (0)", "logit_cap / softcap"},
    {"alibi", "bool",
     "`triton_attention` vLLM `prefix_prefill`: ALiBi slopes are given (the launcher's "
     "`_fwd_kernel_alibi`)",
     K::boolean, D::attention, "false", "alibi_slopes"},
    {"num_seqs", "integer", "`triton_attention`: sequences in the batch (vLLM's 2D/3D choice)",
     K::integer, D::attention, "1", "num_seqs"},
    {"max_seqlen_q", "integer",
     "`triton_attention`: longest new-token run in the batch (1 for decode)", K::integer,
     D::attention, "1 (decode), 2048", "max_seqlen_q"},
    {"max_seq_len", "integer", "`triton_attention`: longest sequence (vLLM MLA's num_kv_splits)",
     K::integer, D::attention, "4096", "attn_metadata.max_seq_len"},
    {"max_kv_splits", "integer",
     "`triton_attention` SGLang: the `max_kv_splits` the backend passes (stage 2's "
     "MAX_KV_SPLITS; default `--triton-attention-num-kv-splits` 8, raised for MLA)",
     K::integer, D::attention, "8", "triton_attention_num_kv_splits"},
    {"sm_count", "integer", "`triton_attention`: the GPU's SM count (split caps)", K::integer,
     D::attention, "the arch's reference GPU", "multi_processor_count"},
    {"context_len", "integer", "`triton_attention`: the model's context length (SGLang splits)",
     K::integer, D::attention, "the model's", "max_context_len"},
    {"use_pdl", "bool", "`triton_attention` SGLang: programmatic dependent launch (default sm_90+)",
     K::boolean, D::attention, "arch >= sm_90", "is_arch_support_pdl()"},
    {"deterministic", "bool",
     "`triton_attention`: vLLM `VLLM_BATCH_INVARIANT` / SGLang `--enable-deterministic-inference`",
     K::boolean, D::attention, "false", "batch invariance"},
    {"block_m", "integer", "`triton_attention` override: BLOCK_M", K::integer, D::attention,
     "the launcher's", "BLOCK_M"},
    {"block_n", "integer", "`triton_attention` override: BLOCK_N (keys per iteration)", K::integer,
     D::attention, "the launcher's", "BLOCK_N"},
    {"block_h", "integer",
     "`triton_attention` override: BLOCK_H (heads per program, grouped decode)", K::integer,
     D::attention, "the launcher's", "BLOCK_H"},
    {"block_q", "integer", "`triton_attention` override: BLOCK_Q (unified)", K::integer,
     D::attention, "the launcher's", "BLOCK_Q"},
    {"tile_size", "integer", "`triton_attention` override: TILE_SIZE (unified)", K::integer,
     D::attention, "the launcher's", "TILE_SIZE"},
    {"block_dmodel", "integer", "`triton_attention` override: BLOCK_DMODEL", K::integer,
     D::attention, "the launcher's", "BLOCK_DMODEL"},
    {"block_dpe", "integer", "`triton_attention` override: BLOCK_DPE (0: none)", K::count0,
     D::attention, "the launcher's", "BLOCK_DPE"},
    {"block_dv", "integer", "`triton_attention` override: BLOCK_DV", K::integer, D::attention,
     "the launcher's", "BLOCK_DV"},
    {"num_kv_splits", "integer",
     "`triton_attention` override: NUM_KV_SPLITS (vLLM decode), NUM_SEGMENTS_PER_SEQ (vLLM 3D), "
     "MAX_KV_SPLITS (SGLang stage2)",
     K::integer, D::attention, "the launcher's", "num_kv_splits"},
    {"num_stages", "integer",
     "`triton_attention`: `num_stages` of the primary launch (as `stages`)", K::integer,
     D::attention, "the launcher's", "num_stages"},
};

constexpr FieldSpec kTunedEntryFields[] = {
    {"BLOCK_SIZE_M", "integer", "tile M (required)", K::integer},
    {"BLOCK_SIZE_N", "integer", "tile N (required)", K::integer},
    {"BLOCK_SIZE_K", "integer",
     "tile K (required); vLLM clamps it to min(block_shape), SGLang passes it as written",
     K::integer},
    {"GROUP_SIZE_M", "integer", "`group_m`", K::integer},
    {"num_warps", "integer", "`num_warps`; default 4", K::integer},
    {"num_stages", "integer", "`stages`; default 3", K::integer},
    {"SPLIT_K", "integer",
     "as written (vLLM 6adad087 sets it to 1 before it launches fused_moe_kernel; SGLang's "
     "kernels take no SPLIT_K)",
     K::integer},
    {"USE_TMA", "bool",
     "SGLang `_down` tables: tensor-descriptor loads of A and B (popped by the launcher)",
     K::boolean},
    {"num_ctas", "integer", "1 (CUDAOptions' default; L40S tables carry it)", K::integer},
    {"waves_per_eu", "integer", "AMD only (read, ignored on NVIDIA): >= 0", K::count0},
    {"matrix_instr_nonkdim", "integer", "AMD only (read, ignored on NVIDIA): >= 0", K::count0},
    {"kpack", "integer", "AMD only (read, ignored on NVIDIA): 1 or 2", K::integer},
};

constexpr FieldSpec kTunedLaunchFields[] = {
    {"SPLIT_K", "integer", "as the table writes it (vLLM sets it to 1 before the launch)",
     K::integer},
    {"USE_TMA", "bool", "SGLang `_down` tables: tensor-descriptor loads of A and B", K::boolean},
    {"num_ctas", "integer", "1…16 (CUDAOptions' default 1)", K::integer},
    {"waves_per_eu", "integer", "AMD: >= 0", K::count0},
    {"matrix_instr_nonkdim", "integer", "AMD: >= 0", K::count0},
    {"kpack", "integer", "AMD: 1 or 2", K::integer},
    {"per_channel_quant", "bool",
     "the file name's `per_channel_quant=True`: per-token / per-channel scales", K::boolean},
};

constexpr FieldSpec kEpilogueFields[] = {
    {"variant", "string", "{epilogues}", K::epilogue_variant},
    {"tile", "`[m,n]`",
     "explicit epilogue tile (SGLang's SM120 `blockwise_fp8`: the epilogue's CTA tile, its "
     "`PerSmTileShape`)",
     K::extents2},
    {"stages_c", "integer", "override StagesC", K::stage_count},
    {"stages_d", "integer", "override StagesD", K::stage_count},
    {"sf_vec", "16 or 32", "`blockscale_out`: output scale-factor vector size", K::sf_vec},
    {"sf", "string", "`blockscale_out`: output scale-factor type, `ue4m3` or `ue8m0`",
     K::scale_type},
};

constexpr FieldSpec kFileFields[] = {
    {"configs", "array", "the configs", K::configs},
    {"$schema", "string", "a JSON Schema reference, ignored", K::text},
    {"description", "string", "free text, ignored", K::text},
    {"comment", "string", "free text, ignored", K::text},
};

}  // namespace

std::span<const FieldSpec> config_fields() { return kConfigFields; }

const FieldSpec* find_config_field(std::string_view name) {
  for (const FieldSpec& f : kConfigFields)
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<std::size_t> config_field_index(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kConfigFields); ++i)
    if (kConfigFields[i].name == name) return i;
  return std::nullopt;
}

static_assert(std::size(kConfigFields) <= model::FieldMask().size(),
              "Provenance::given holds one bit per config field");

std::string_view dialect_name(Dialect d) {
  switch (d) {
    case Dialect::common:
      return "common";
    case Dialect::cutlass:
      return "CUTLASS";
    case Dialect::engine_cutlass:
      return "engine CUTLASS";
    case Dialect::triton:
      return "Triton";
    case Dialect::attention:
      return "Triton attention";
  }
  return "?";
}
std::span<const FieldSpec> epilogue_fields() { return kEpilogueFields; }
std::span<const FieldSpec> file_fields() { return kFileFields; }
std::span<const FieldSpec> tuned_entry_fields() { return kTunedEntryFields; }
std::span<const FieldSpec> tuned_launch_fields() { return kTunedLaunchFields; }

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::vector<std::string> field_names(std::span<const FieldSpec> fields) {
  std::vector<std::string> out;
  out.reserve(fields.size());
  for (const FieldSpec& f : fields) out.emplace_back(f.name);
  return out;
}

namespace {

template <class E>
std::vector<std::string> names_of(std::span<const model::EnumName<E>> table) {
  std::vector<std::string> out;
  for (const model::EnumName<E>& e : table) out.emplace_back(e.name);
  return out;
}

/// Element types with the alias each is listed with ("e2m1", "fp4", "e2m3", ...), void left out.
std::vector<std::string> element_names() {
  std::vector<std::string> out;
  for (const model::DTypeName& d : model::dtype_names()) {
    if (d.value == model::DType::Void) continue;
    out.emplace_back(d.name);
    if (!d.alias.empty()) out.emplace_back(d.alias);
  }
  return out;
}

}  // namespace

namespace {

std::string ticked(std::string_view name) { return std::string("`").append(name) + "`"; }

template <class E>
std::string ticked_list(std::span<const model::EnumName<E>> table) {
  std::string out;
  for (const model::EnumName<E>& e : table) out += (out.empty() ? "" : ", ") + ticked(e.name);
  return out;
}

/// What a placeholder of a meaning stands for: a list of names from the model's tables.
std::string placeholder_text(std::string_view p) {
  if (p == "schedules") return ticked_list(model::schedule_names());
  if (p == "epilogues") return ticked_list(model::epilogue_names());
  std::string out;
  if (p == "formats") {
    for (const model::OperandFormat& f : model::operand_formats())
      out += (out.empty() ? "" : ", ") + ticked(f.name);
  } else if (p == "operand_elements") {
    for (const model::DTypeName& d : model::dtype_names()) {
      if (!d.operand) continue;
      out += (out.empty() ? "" : ", ") + ticked(d.name);
      if (!d.alias.empty()) out += " (" + ticked(d.alias) + ")";
    }
  }
  return out;
}

}  // namespace

std::string field_meaning(const FieldSpec& f) {
  std::string out;
  std::string_view m = f.meaning;
  for (std::size_t open; (open = m.find('{')) != std::string_view::npos;) {
    const std::size_t close = m.find('}', open);
    const std::string text = close == std::string_view::npos
                                 ? ""
                                 : placeholder_text(m.substr(open + 1, close - open - 1));
    if (text.empty()) {  // not a placeholder ("{\"variant\": …}")
      out += m.substr(0, open + 1);
      m.remove_prefix(open + 1);
      continue;
    }
    out += m.substr(0, open);
    out += text;
    m.remove_prefix(close + 1);
  }
  return out + std::string(m);
}

std::vector<std::string> allowed_names(FieldKind kind) {
  switch (kind) {
    case K::schedule:
      return names_of(model::schedule_names());
    case K::epilogue:
    case K::epilogue_variant:
      return names_of(model::epilogue_names());
    case K::mma:
      return names_of(model::mma_names());
    case K::scale_type: {
      std::vector<std::string> out;
      for (const model::DTypeName& d : model::dtype_names())
        if (d.scale_factor) out.emplace_back(d.name);
      return out;
    }
    case K::kernel: {
      std::vector<std::string> out;
      for (const model::KernelFamily* f : model::families()) out.emplace_back(f->name());
      return out;
    }
    case K::launcher:
      return names_of(model::launcher_names());
    case K::engine: {
      std::vector<std::string> out{"vllm", "sglang"};
      for (const model::EngineReleaseInfo& r : model::engine_releases())
        out.push_back(model::engine_release_text(r.release));
      return out;
    }
    case K::engine_op: {
      std::vector<std::string> out = names_of(model::engine_op_names());
      for (const model::EnumName<model::AttnOp>& o : model::attn_op_names())
        out.emplace_back(o.name);
      return out;
    }
    case K::attn_stage:
      return names_of(model::attn_stage_names());
    case K::attn_phase:
      return names_of(model::attn_phase_names());
    case K::attn_model: {
      std::vector<std::string> out;
      for (const model::AttnPreset& p : model::attn_presets()) out.emplace_back(p.name);
      return out;
    }
    case K::attn_dtype:
      return {"bf16", "f16", "f32", "fp8_e4m3", "fp8", "fp8_e5m2"};
    case K::bias:
      return names_of(model::bias_names());
    case K::element:
    case K::element_or_null:
      return element_names();
    case K::operand: {
      std::vector<std::string> out;
      for (const model::OperandFormat& f : model::operand_formats()) out.emplace_back(f.name);
      for (const model::DTypeName& d : model::dtype_names())
        if (d.operand) out.emplace_back(d.name);
      return out;
    }
    default:
      return {};
  }
}

std::string config_table_markdown() {
  std::string out = "| field | type | meaning |\n|---|---|---|\n";
  for (const FieldSpec& f : kConfigFields)
    out += "| `" + std::string(f.name) + "` | " + std::string(f.type) + " | " + field_meaning(f) +
           " |\n";
  return out;
}

}  // namespace tilefit::io
