#include "tilefit/io/vocabulary.hpp"

#include "io/suggest.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::io {
namespace {

using K = FieldKind;

constexpr FieldSpec kConfigFields[] = {
    {"name", "string", "label; default `#<index>`", K::name},
    {"arch", "string or number",
     "`sm90`, `sm_90a`, `sm120`, `120`, `12.0`, `sm_100f` …; must be in the built-in table", K::arch},
    {"kernel", "string",
     "family: `sm120_blockscaled`, `sm120_dense`, `sm90_tma_ws`, `sm100_umma`, `sm80_multistage`; "
     "`engine_fp8_sm89`, `engine_fp8_sm90`, `engine_fp8_sm100`, `engine_fp8_sm120` (with `launcher`); "
     "`triton_matmul`, `triton_fused_moe`; default: inferred from arch, types and `launcher` (a "
     "Triton kernel is never inferred: name it)",
     K::kernel},
    {"tile", "`[M,N,K]`, `\"MxNxK\"`, or a TensorRT-LLM name `\"CtaShape128x256x64B\"`",
     "CTA tile in elements (SM100: the MMA tile; Triton: `[BLOCK_SIZE_M, BLOCK_SIZE_N, "
     "BLOCK_SIZE_K]`); integers 1…65536. A trailing `B` means K is in bytes, as in TensorRT-LLM / "
     "FlashInfer enum names: `CtaShape128x256x64B` with nvfp4 is 128×256×128",
     K::tile},
    {"cluster", "`[x,y,z]`", "default `[1,1,1]`; x·y·z CTAs: more than 8 needs the non-portable attribute (warning, up to 16 on sm_90/sm_100/sm_103), beyond that or any cluster before sm_90 is `invalid`", K::extents3},
    {"dtype", "string",
     "shorthand for `a` and `b`; Triton: the dot's operand type — `triton_matmul`: `f16`, `bf16`, "
     "`f32` (a tf32 dot), `e4m3`; `triton_fused_moe`: `bf16`, `f16`, `fp8_w8a8` (vLLM's fp8 "
     "weights and activations)",
     K::operand},
    {"a", "string",
     "`nvfp4`, `mxfp4`, `mxfp6`, `mxfp8`, or an element type: `e2m1` (`fp4`), `e2m3`, `e3m2` "
     "(`fp6`), `e4m3` (`fp8`), `e5m2`, `bf16`, `f16`, `f32`, `tf32`, `s8`, `u8`",
     K::operand},
    {"b", "string", "as `a`", K::operand},
    {"sf_vec", "16 or 32",
     "scale-factor vector size (block-scaled only; implied by `nvfp4` = 16, `mx*` = 32)", K::sf_vec},
    {"c", "string or null",
     "C source (`null` = no C); defaults to `d` (with `launcher`: to the launcher's C, which an "
     "explicit `c` overrides)",
     K::element_or_null},
    {"d", "string",
     "D output; default `bf16`. Triton: C's type — `triton_matmul`: `f16`, `bf16`, `f32`, default "
     "as the tutorial (`f16` for f16/e4m3, else the dtype); `triton_fused_moe`: `bf16` or `f16`, "
     "default the activations' type (`bf16` for fp8_w8a8)",
     K::element},
    {"acc", "string", "accumulator; default `f32`", K::element},
    {"layout", "string",
     "CUTLASS letters for A, B (and C/D): `tn` (default), `tnt`, `tnn`, … (A `t` = K-major; B `n` "
     "= K-major; C/D `t` = row-major)",
     K::layout},
    {"schedule", "string",
     "`auto`, `cooperative`, `pingpong`, `1sm`, `2sm`, `multistage`, `ws` (the basic, "
     "non-persistent SM90 `KernelTmaWarpSpecialized*` kernel the engines use for small M)",
     K::schedule},
    {"epilogue", "string or object",
     "`auto`, `tma`, `nosmem`, `blockscale_out`, `trtllm_default`, `finalize`; object form "
     "`{\"variant\": …, \"tile\": [m,n], \"stages_c\": …, \"stages_d\": …, \"sf_vec\": …, \"sf\": …}`",
     K::epilogue},
    {"grouped", "bool", "ptr-array / MoE grouped kernel", K::boolean},
    {"stages", "`\"auto\"` or integer",
     "`auto` = the builder's `StageCountAutoCarveout<sizeof(CollectiveEpilogue::SharedStorage)>` "
     "rule; integers 1…4096. Triton: `num_stages` (no `auto`); absent: Triton's default 3",
     K::stages},
    {"mma", "string",
     "block-scaled instruction: `auto`, `f8f6f4` (fp4/fp6 stored as one byte), `nvf4`", K::mma},
    {"warp", "`[m,n,k]`", "warp tile, `sm80_multistage` and `launcher` configs on sm_89 only", K::extents3},
    {"swap_ab", "bool",
     "TensorRT-LLM's transposed MoE launch, or an engine's swap_ab config (C/D become column-major)",
     K::boolean},
    {"comment", "string", "free text, ignored", K::text},
    {"description", "string", "free text, ignored", K::text},
    // ---- inference-engine FP8 kernels (issue 11) ----
    {"launcher", "string",
     "`vllm` or `sglang`: whose launcher builds an FP8 kernel (vLLM `cutlass_scaled_mm`, SGLang "
     "`fp8_scaled_mm` / `fp8_blockwise_scaled_mm`) on sm_89, sm_90, sm_100 (sm_103, sm_110) or "
     "sm_120 (sm_121); it decides what the config does not say — C type, fusion tree, epilogue "
     "schedule, tile scheduler (see [Engine configs](#engine-configs)); `a`/`b` default to `e4m3`",
     K::launcher},
    {"op", "string",
     "with `launcher`: `scaled_mm` (default; per-tensor or per-token × per-channel scales) or "
     "`blockwise_fp8` (scale blocks `scale_block`; sm_90, sm_100, sm_120)",
     K::engine_op},
    {"bias", "string or null",
     "with `launcher` and `scaled_mm`: `none` (default), `row` (vLLM `ScaledEpilogueBias`, SGLang's "
     "bias: a D-typed row of tile N), `column` (vLLM `ScaledEpilogueColumnBias`, with `swap_ab`)",
     K::bias},
    {"scale_block", "`{\"a\": [m,k], \"b\": [n,k]}`",
     "with `blockwise_fp8`: scale blocks of A (activations) and B (weights) as the engine writes "
     "them (`swap_ab` swaps them for the kernel); default `{\"a\": [1, 128], \"b\": [128, 128]}`; "
     "must divide the tile",
     K::scale_block},
    // Triton kernels (issue 12).
    {"num_warps", "integer",
     "Triton: `num_warps`, a power of two up to 32; default 4 (integers 1…1024 are read)",
     K::integer},
    {"group_m", "integer", "Triton: `GROUP_SIZE_M` (index arithmetic only: no shared memory)",
     K::integer},
    {"block_shape", "`[n,k]`",
     "`triton_fused_moe` with `fp8_w8a8`: vLLM's `block_shape` [block_n, block_k] of the "
     "block-wise scales",
     K::extents2},
    {"mul_routed_weight", "bool",
     "`triton_fused_moe`: vLLM's `MUL_ROUTED_WEIGHT` (the MoE's second GEMM; no shared memory)",
     K::boolean},
    {"triton", "string",
     "Triton version the config was tuned with, e.g. `\"3.4.0\"`; analysed with the 3.6 rules, "
     "a warning when it is not 3.6",
     K::version},
};

constexpr FieldSpec kTunedEntryFields[] = {
    {"BLOCK_SIZE_M", "integer", "tile M (required)", K::integer},
    {"BLOCK_SIZE_N", "integer", "tile N (required)", K::integer},
    {"BLOCK_SIZE_K", "integer", "tile K (required); clamped to min(block_shape) as vLLM does", K::integer},
    {"GROUP_SIZE_M", "integer", "`group_m`", K::integer},
    {"num_warps", "integer", "`num_warps`; default 4", K::integer},
    {"num_stages", "integer", "`stages`; default 3", K::integer},
    {"SPLIT_K", "integer", "1 (later vLLM default configs carry it; no split-K in fused_moe_kernel)", K::integer},
};

constexpr FieldSpec kEpilogueFields[] = {
    {"variant", "string", "`auto`, `tma`, `nosmem`, `blockscale_out`, `trtllm_default`, `finalize`",
     K::epilogue_variant},
    {"tile", "`[m,n]`",
     "explicit epilogue tile (SGLang's SM120 `blockwise_fp8`: the epilogue's CTA tile, its "
     "`PerSmTileShape`)",
     K::extents2},
    {"stages_c", "integer", "override StagesC", K::stage_count},
    {"stages_d", "integer", "override StagesD", K::stage_count},
    {"sf_vec", "16 or 32", "`blockscale_out`: output scale-factor vector size", K::sf_vec},
    {"sf", "string", "`blockscale_out`: output scale-factor type, `ue4m3` or `ue8m0`", K::scale_type},
};

constexpr FieldSpec kFileFields[] = {
    {"configs", "array", "the configs", K::configs},
    {"$schema", "string", "a JSON Schema reference, ignored", K::text},
    {"description", "string", "free text, ignored", K::text},
    {"comment", "string", "free text, ignored", K::text},
};

}  // namespace

std::span<const FieldSpec> config_fields() { return kConfigFields; }
std::span<const FieldSpec> epilogue_fields() { return kEpilogueFields; }
std::span<const FieldSpec> file_fields() { return kFileFields; }
std::span<const FieldSpec> tuned_entry_fields() { return kTunedEntryFields; }

std::vector<std::string> field_names(std::span<const FieldSpec> fields) {
  std::vector<std::string> out;
  out.reserve(fields.size());
  for (const FieldSpec& f : fields) out.emplace_back(f.name);
  return out;
}

std::vector<std::string> allowed_names(FieldKind kind) {
  switch (kind) {
    case K::schedule: return detail::split_choices(model::schedule_choices());
    case K::epilogue:
    case K::epilogue_variant: return detail::split_choices(model::epilogue_choices());
    case K::mma: return detail::split_choices(model::mma_choices());
    case K::scale_type: return {"ue4m3", "ue8m0"};
    case K::kernel: return detail::split_choices(model::family_choices());
    case K::launcher: return detail::split_choices(model::launcher_choices());
    case K::engine_op: return detail::split_choices(model::engine_op_choices());
    case K::bias: return detail::split_choices(model::bias_choices());
    case K::element:
    case K::element_or_null: return detail::split_choices(model::dtype_choices());
    case K::operand: return detail::split_choices(model::operand_choices());
    default: return {};
  }
}

std::string config_table_markdown() {
  std::string out = "| field | type | meaning |\n|---|---|---|\n";
  for (const FieldSpec& f : kConfigFields)
    out += "| `" + std::string(f.name) + "` | " + std::string(f.type) + " | " + std::string(f.meaning) + " |\n";
  return out;
}

}  // namespace tilefit::io
