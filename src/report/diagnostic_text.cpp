// One message per diagnostic code (include/tilefit/model/diagnostic_codes.def), with the CUTLASS
// or Triton source each one cites.
#include "tilefit/report/diagnostic_text.hpp"

#include <string_view>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::report {
namespace {

using model::Code;
using model::Diagnostic;
using model::DiagValue;
using model::ValueKind;

/// The values of one diagnostic, as text: v("tile_n") -> "96", B("smem_bytes") -> "102400 B".
class Values {
 public:
  explicit Values(const Diagnostic& d) : d_(d) {}
  std::string v(std::string_view key) const {
    const DiagValue* x = d_.find(key);
    return x ? value_text(*x) : "?";
  }
  std::string B(std::string_view key) const { return v(key) + " B"; }
  long long n(std::string_view key) const { return d_.number(key); }
  bool on(std::string_view key) const { return d_.number(key) != 0; }
  std::string_view t(std::string_view key) const { return d_.text(key); }
  /// A stage count as its family spells it.
  std::string spelled(std::string_view key) const {
    const DiagValue* x = d_.find(key);
    return x ? spell_stages(x->param, x->number) : "?";
  }

 private:
  const Diagnostic& d_;
};

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// What the builder's budget leaves out, by family (builder_budget_gap's `unbudgeted`).
std::string unbudgeted_phrase(std::string_view id) {
  if (id == "sm90")
    return "the kernel pipelines and the padding of the tensor block to the epilogue's swizzle "
           "alignment";
  if (id == "sm120_blockscaled_grouped")
    return "4 mainloop and 3 epilogue tensormaps where it reserves 2, scheduler_response[8], the "
           "load-order barrier, and the 1 KiB alignment of the tensor block and of the struct";
  if (id == "sm120_blockscaled")
    return "the scheduler's 144 B where it reserves 96, the kernel pipelines, and the 1 KiB "
           "header that alignas(1024) on A/B forces";
  if (id == "sm120_dense_grouped")
    return "any scheduler, tensormap or kernel pipeline storage: the SM120 dense builder reserves "
           "nothing for them";
  if (id == "sm120_dense")
    return "the 96 B scheduler, the kernel pipelines and the 1 KiB header forced by alignas(1024): "
           "the SM120 dense builder reserves nothing";
  const std::string sm100 =
      "the padding that aligns the kernel's `tensors` to max(128, epilogue swizzle alignment) "
      "after the pipelines";
  if (id == "sm100") return sm100;
  if (id == "sm100_grouped")
    return sm100 + ", and 4 more copies of the epilogue's 256 B tensormaps (tensormaps[5]; the "
                   "builder's 128·T·5 covers the mainloop descriptors only)";
  return std::string(id);
}

/// "the builder picks 3 stages but the kernel then needs " / "StageCount<3> needs ".
std::string over_limit_head(const Values& x) {
  const std::string what = x.on("builder_pick")
                               ? "the builder picks " + x.v("stages") + " stages but the kernel then needs "
                               : x.spelled("stages") + " needs ";
  return what + x.B("smem_bytes") + " > " + x.B("limit_bytes") + " (over by " + x.B("over_bytes") + "): ";
}

std::string thread_map_failure(std::string_view id) {
  if (id == "narrower") return "the tile is narrower than one 128-bit access per warp thread row";
  if (id == "vector_length") return "\"Shape must be divisible by vector length.\"";
  if (id == "warp_arrangement") return "\"ShapeInAccesses must be divisible by WarpThreadArrangement.\"";
  if (id == "iterations") return "\"Number of iterations must be non-zero\"";
  return std::string(id);
}

std::string epilogue_map_message(const Values& x) {
  const std::string_view f = x.t("failure");
  if (f == "column_iterations")
    return "the epilogue's output thread map has no column iteration (" + x.v("warps") +
           " warps share each 8-row slice of a " + x.v("tile_n") +
           "-wide tile; static_assert \"ThreadMap::Iterations::kColumn must be > 0\", "
           "epilogue/threadblock/predicated_tile_iterator.h:103)";
  const std::string where = " (" + x.v("warps") + " warps share each 8-row slice; " +
                            "epilogue/threadblock/output_tile_thread_map.h:260-262)";
  if (f == "iteration_count_column")
    return "the epilogue's output thread map fails static_assert \"Iteration Count Column must "
           "be > 0\"" + where;
  if (f == "too_many_elements")
    return "the epilogue's output thread map fails static_assert \"Accessing too many elements "
           "per access\"" + where;
  return "the epilogue's output thread map fails static_assert \"Iteration Count Row must be "
         "> 0\"" + where + ": use fewer warps along N or a wider tile";
}

std::string family_list() { return model::family_choices(); }

/// "vLLM" / "SGLang" for a launcher name value.
std::string engine_name(std::string_view launcher) {
  if (launcher == "vllm") return "vLLM";
  if (launcher == "sglang") return "SGLang";
  return std::string(launcher);
}

/// The engine family of a claim_engine_fp8 diagnostic's arch.
std::string engine_family_of(const Values& x) {
  return std::string(model::engine_family_for(static_cast<int>(x.n("arch"))));
}

/// Which static_assert an engine_scale_granularity diagnostic quotes, by arch.
std::string scale_granularity_source(const Values& x) {
  const long long sm = x.n("arch");
  if (sm == 90)
    return "static_assert \"FP8 scaling granularity must evenly divide tile shape along " + x.v("axis") +
           ".\", sm90_gmma_builder.inl:1151-1152";
  if (sm == 120 || sm == 121)
    return "static_assert \"Scale Granularity " + x.v("axis") + " must evenly divide the tile shape " +
           x.v("axis") + ".\", sm120_blockwise_mma_builder.inl:199-200";
  return "static_assert \"Scale Granularity " + x.v("axis") +
         " must divide Tile Shape\", sm100_mma_warpspecialized_blockwise_scaling.hpp:132-142";
}

}  // namespace

std::string spell_stages(model::StageParam param, long long stages) {
  switch (param) {
    case model::StageParam::cutlass_stage_count: return "StageCount<" + std::to_string(stages) + ">";
    case model::StageParam::cutlass_kstages: return "kStages = " + std::to_string(stages);
    case model::StageParam::triton_num_stages: return "num_stages " + std::to_string(stages);
  }
  return std::to_string(stages);
}

std::string value_text(const DiagValue& v) {
  switch (v.kind) {
    case ValueKind::integer:
    case ValueKind::bytes:
    case ValueKind::stages:
    case ValueKind::flag: return std::to_string(v.number);
    case ValueKind::arch: return model::arch_name(static_cast<int>(v.number));
    case ValueKind::dtype: return std::string(model::dtype_name(static_cast<model::DType>(v.number)));
    case ValueKind::operand: return model::operand_name(model::unpack_operand(v.number));
    case ValueKind::schedule: return std::string(model::schedule_name(static_cast<model::Schedule>(v.number)));
    case ValueKind::epilogue:
      return std::string(model::epilogue_name(static_cast<model::EpilogueVariant>(v.number)));
    case ValueKind::mma: return std::string(model::mma_name(static_cast<model::Mma>(v.number)));
    case ValueKind::name: return v.text;
  }
  return "?";
}

std::string message(const Diagnostic& d) {
  const Values x(d);
  switch (d.code) {
    // ---- family ------------------------------------------------------------------------
    case Code::family_given: return "given in the config";
    case Code::claim_sm120_blockscaled:
      return "inferred: " + x.v("arch") + " with block-scaled operands (" + x.v("a") + " x " + x.v("b") +
             "): the SM120 block-scaled builder (OpClassBlockScaledTensorOp)";
    case Code::claim_sm120_dense:
      return "inferred: " + x.v("arch") + " with non-block-scaled operands (" + x.v("a") + " x " +
             x.v("b") + "): the SM120 dense builder (OpClassTensorOp)";
    case Code::claim_sm90_gmma:
      return "inferred: " + x.v("arch") + " with " + x.v("a") + " x " + x.v("b") +
             ": the SM90 GMMA builder (TMA warp-specialized)";
    case Code::claim_sm100_umma:
      return "inferred: " + x.v("arch") + ": UMMA kernel (CUTLASS 3.x sm100 " +
             (x.on("block_scaled") ? "block-scaled " : "") + "builder)";
    case Code::claim_sm80_no_3x_builder:
      return "inferred: " + x.v("arch") +
             " has no CUTLASS 3.x collective builder: the 2.x multistage device::Gemm";
    case Code::claim_sm80_warp_tile: return "inferred: a warp tile is given (CUTLASS 2.x multistage)";
    case Code::claim_sm80_multistage_schedule: return "inferred: schedule 'multistage'";
    case Code::no_family:
      return "no modelled CUTLASS kernel family builds " + x.v("a") + " x " + x.v("b") + " for " +
             x.v("arch") + " (families: " + family_list() + ")";
    case Code::unknown_family: return "unknown family '" + x.v("family") + "'";
    case Code::family_not_on_arch: return "family " + x.v("family") + " does not run on " + x.v("arch");

    // ---- target ------------------------------------------------------------------------
    case Code::arch_overridden:
      return "arch " + x.v("arch") + " from the config is overridden by --arch " + x.v("target_arch");
    case Code::limits_from_device:
      return "limits from device " + x.v("device") + " (" + x.v("device_name") + ")";
    case Code::arch_mismatch:
      return "config arch " + x.v("arch") + " differs from device " + x.v("device") + " (" +
             x.v("device_name") + ", " + x.v("device_arch") +
             "): its kernel cannot run there; drop \"arch\" or use --arch to ask what-if";
    case Code::cluster_unsupported:
      return "a cluster of " + x.v("cluster_size") + " CTAs: " + x.v("arch") +
             " has no thread-block clusters (only 1x1x1 launches; clusters need sm_90 or later)";
    case Code::cluster_too_large:
      return "a cluster of " + x.v("cluster_size") + " CTAs: " + x.v("arch") + " launches at most " +
             x.v("max_size") + " per cluster (" + x.v("portable_size") +
             " portably; cudaLaunchKernelEx fails with cudaErrorInvalidClusterSize)";
    case Code::cluster_non_portable:
      return "a cluster of " + x.v("cluster_size") + " CTAs is beyond the portable " +
             x.v("portable_size") + ": the kernel must set cudaFuncAttributeNonPortableClusterSizeAllowed"
             " (up to " + x.v("max_size") + " on " + x.v("arch") +
             "; cudaOccupancyMaxPotentialClusterSize says what a device allows)";

    // ---- stages and capacity -----------------------------------------------------------
    case Code::auto_stages_below_minimum:
      return "the builder's automatic stage count is " + x.v("stages") + " ((" + x.v("builder_capacity") +
             " - " + x.v("carveout") + ") / " + x.v("stage_bytes") +
             " B per stage): the collective's static_assert(Stages >= " + x.v("min_stages") +
             ") fails at compile time";
    case Code::stages_below_minimum:
      return "stages = " + x.v("stages") + ": the collective requires Stages >= " + x.v("min_stages") +
             " (static_assert \"Specialization requires Stages set to value " + x.v("min_stages") +
             " or more.\")";
    case Code::over_limit_initialize:
      return over_limit_head(x) +
             "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails and "
             "GemmUniversalAdapter::initialize() returns kErrorInternal";
    case Code::over_limit_static_assert:
      return over_limit_head(x) +
             "CUTLASS's device-side static_assert \"SMEM usage exceeded capacity\" rejects it at "
             "compile time";
    case Code::over_limit_launch_2x:
      return over_limit_head(x) +
             "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails when the "
             "2.x device::Gemm launches it (run() returns kErrorInternal)";
    case Code::over_limit_out_of_resources:
      return over_limit_head(x) +
             "it compiles, then Triton raises OutOfResources (\"out of resource: shared memory\") "
             "when it loads the kernel, before launch";
    case Code::builder_budget_gap: {
      std::string m = "the builder budgets " + x.B("budget_bytes") + " (epilogue carve-out " +
                      x.v("carveout") + " + " + x.v("stages") + " x " + x.v("stage_bytes") + " per stage";
      if (x.n("reserved_bytes") > 0) m += " + " + x.v("reserved_bytes") + " reserved";
      m += ") against its " + x.B("capacity_bytes") + " constant, but the real SharedStorage is " +
           x.B("smem_bytes") + ": " + x.B("gap_bytes") + " it does not count";
      if (!x.t("unbudgeted").empty()) m += " (" + unbudgeted_phrase(x.t("unbudgeted")) + ")";
      return m;
    }
    case Code::no_stage_count_fits: {
      std::string m = "even " + x.spelled("stages") + " needs " + x.B("smem_bytes") + " > " +
                      x.B("limit_bytes") + "; ";
      if (x.n("smaller_k") == 0) return m + "choose a smaller tile";
      if (x.on("smaller_k_auto"))
        return m + "tile K = " + x.v("smaller_k") + " fits: the builder then picks " +
               x.v("smaller_k_stages") + " stages and the kernel needs " + x.B("smaller_k_bytes");
      return m + "tile K = " + x.v("smaller_k") + " fits with " + x.spelled("smaller_k_stages") + " (" +
             x.B("smaller_k_bytes") + ")";
    }
    case Code::max_stages_fit:
      return x.spelled("stages") + " needs " + x.B("smem_bytes") + " and fits (" + x.B("spare_bytes") +
             " spare)";
    case Code::more_stages_fit:
      if (x.on("builder_pick"))
        return "up to " + x.v("max_stages") + " stages fit; the builder picks " + x.v("stages") +
               " (an explicit " + x.spelled("max_stages") + " needs " + x.B("smem_bytes") + ")";
      return "up to " + x.v("max_stages") + " stages fit (" + x.spelled("max_stages") + " needs " +
             x.B("smem_bytes") + ")";
    case Code::capacity_differs:
      return "CUTLASS sizes stages against its " + x.B("capacity_bytes") +
             " constant; this target allows " + x.B("limit_bytes") + " per block";

    // ---- shared ------------------------------------------------------------------------
    case Code::tile_extents_positive: return "tile extents must be positive";
    case Code::cluster_extent_min: return "cluster extents must be >= 1";
    case Code::warp_tile_sm80_only: return "a warp tile applies to sm80_multistage kernels only";
    case Code::swap_ab_sm120_moe_only: return "swap_ab is modelled for the TensorRT-LLM SM120 MoE kernels only";
    case Code::mma_nvf4_is_block_scaled: return "mma \"nvf4\" is a block-scaled instruction";
    case Code::reuse_smem_c_stages:
      return "ReuseSmemC needs StagesD <= StagesC (sm90_epilogue_tma_warpspecialized.hpp:170-172)";
    case Code::trtllm_epilogue_needs_grouped:
      return "epilogue \"" + x.v("epilogue") +
             "\" is TensorRT-LLM's MoE grouped GEMM epilogue: set \"grouped\": true";

    // ---- sm90_tma_ws -------------------------------------------------------------------
    case Code::sm90_block_scaled_operand:
      return "block-scaled operands are not an SM90 GMMA type (use sm100_umma or sm120_blockscaled)";
    case Code::sm90_operand_type:
      return "operand " + x.v("operand") + " is not an SM90 GMMA type (bf16, f16, tf32/f32, e4m3, e5m2, s8, u8)";
    case Code::sm90_k_major_required:
      return "8-bit and 32-bit operands must be K-major on SM90 (layout \"tn\")";
    case Code::sm90_schedule:
      return "schedule \"" + x.v("schedule") + "\" is not an SM90 TMA schedule; allowed: auto, cooperative, pingpong";
    case Code::sm90_cooperative_tile_m:
      return "the cooperative kernel requires tile M >= 128 (static_assert, "
             "sm90_gemm_tma_warpspecialized_cooperative.hpp:374-375); use pingpong for M = 64";
    case Code::sm90_tile_m_multiple_of_64:
      return "tile M must be a multiple of 64 (one GMMA warp group covers 64 rows)";
    case Code::sm90_epilogue_variant:
      return "epilogue \"" + x.v("epilogue") +
             "\" is not modelled for sm90_tma_ws; allowed: auto (no-smem), tma, nosmem";
    case Code::sm90_epilogue_tile_shape:
      return "an explicit SM90 epilogue tile needs M = " + x.v("epilogue_m") +
             (x.on("pingpong") ? " (pingpong)" : " (cooperative)") +
             " and N a multiple of 16 (sm90_builder.inl:154-165)";
    case Code::sm90_epilogue_tile_divides:
      return "epilogue tile " + x.v("epilogue_m") + "x" + x.v("epilogue_n") + " must divide the CTA tile";
    case Code::sm90_epilogue_no_swizzle_atom:
      return "no swizzle atom divides the epilogue tile's contiguous extent (" + x.v("extent") +
             " elements; ss_smem_selector)";
    case Code::sm90_auto_epilogue_is_nosmem:
      return "epilogue auto on SM90 is the no-smem epilogue (EpilogueScheduleAuto, "
             "sm90_builder.inl:581-641); name \"tma\" for the TMA epilogue";

    // ---- sm120 -------------------------------------------------------------------------
    case Code::sm120_tn_only:
      return "SM120 builders support TN layouts only (A K-major \"t\", B K-major \"n\")";
    case Code::sm120_cluster:
      return "SM120 kernels need cluster 1x1x1 (the builder static_asserts on the cluster shape)";
    case Code::sm120_tile_n_min: return "tile N must be >= 8 on SM120";
    case Code::sm120_cooperative_tile_m:
      return "the cooperative kernel requires tile M >= 128 (static_assert in "
             "sm90_gemm_tma_warpspecialized_cooperative.hpp:374 / "
             "sm90_gemm_array_tma_warpspecialized_cooperative.hpp:443, which SM120 reuses); "
             "use \"schedule\": \"pingpong\" for M = 64";
    case Code::sm120_pingpong_tile_n: return "the pingpong schedule needs tile N >= 16 on SM120";
    case Code::sm120_schedule:
      return "schedule \"" + x.v("schedule") + "\" is not an SM120 schedule; allowed: auto, cooperative, pingpong";
    case Code::sm120_needs_block_scaled:
      return "sm120_blockscaled needs block-scaled operands (nvfp4, mxfp4, mxfp6, mxfp8); got " +
             x.v("a") + " x " + x.v("b");
    case Code::sm120_scale_factors_differ:
      return "A and B scale factors must match in type and vector size (" + x.v("a") + " vs " + x.v("b") + ")";
    case Code::sm120_nvf4_needs_fp4:
      return "mma \"nvf4\" (MXF4/NVF4 instruction) needs fp4 (e2m1) A and B";
    case Code::sm120_blockscaled_tile_n:
      return "tile N = " + x.v("tile_n") +
             ": SM120 block-scaled needs N <= 128 or a multiple of 128 (the SFB layout covers "
             "max(N,128) rows in 128-row blocks; cute's \"Shape Divisibility Condition\", "
             "sm120_blockscaled_mma_tma.hpp:214)";
    case Code::sm120_blockscaled_tile_m:
      return "tile M = " + x.v("tile_m") +
             ": SM120 block-scaled needs M <= 128 or a multiple of 128 (SFA is tiled in 128-row "
             "blocks; cute's \"Shape Divisibility Condition\", sm120_blockscaled_mma_tma.hpp:309-314)";
    case Code::sm120_blockscaled_tile_k_sf:
      return "tile K = " + x.v("tile_k") + ": scale-factor vector " + x.v("sf_vec") +
             " needs K a multiple of " + x.v("k_multiple") +
             " (the SF atom spans 4 scale factors along K; K/Vs/4 = 0 gives an empty SF layout, "
             "sm120_blockscaled_mma_tma.hpp:214)";
    case Code::sm120_blockscaled_mix8bit_k:
      return "tile K = " + x.v("tile_k") +
             ": sub-byte operands on the MXF8F6F4 path need K a multiple of 128 (\"TileSize and "
             "MNK Major does not met with MMA Mix 8-bit TMA load requirement\", "
             "sm120_blockscaled_mma_builder.inl:129; the check: sm1xx_common.inl:203)";
    case Code::sm120_dense_block_scaled: return "block-scaled operands use the sm120_blockscaled family";
    case Code::sm120_dense_f8f6f4_only:
      return "SM120 dense builder supports F8F6F4 operands only (fp8/fp6/fp4), got " + x.v("a") +
             " x " + x.v("b") +
             ": static_assert \"SM120 TmaWarpSpecialized builder currently only supports F8F6F4 "
             "MMA.\" (sm120_mma_builder.inl:80-81); CUTLASS has no SM120 3.x builder for 16-bit "
             "operands — use sm80_multistage kernels";
    case Code::sm120_no_nosmem_epilogue:
      return "epilogue \"nosmem\": the SM120 epilogue builder has no no-smem schedule; it accepts "
             "EpilogueScheduleAuto and the TMA schedules only (sm120_builder.inl:485-491)";
    case Code::sm120_epilogue_tile_divides:
      return "epilogue tile " + x.v("epilogue_m") + "x" + x.v("epilogue_n") + " must divide the CTA tile " +
             x.v("tile_m") + "x" + x.v("tile_n") + " (sm120_compute_tile_shape_or_override)";
    case Code::sm120_epilogue_no_swizzle_atom:
      return "no shared-memory swizzle atom divides the epilogue tile's contiguous extent of " +
             x.v("extent") + " elements (ss_smem_selector, sm90_common.inl:270-325)";

    // ---- sm100_umma --------------------------------------------------------------------
    case Code::sm100_schedule:
      return "schedule \"" + x.v("schedule") + "\" is not an SM100 UMMA schedule (auto, 1sm, 2sm)";
    case Code::sm100_blockscaled_both_operands:
      return "block-scaled GEMM needs scale factors on both A and B (" + x.v("a") + " x " + x.v("b") + ")";
    case Code::sm100_blockscaled_sf_type_mismatch:
      return "static_assert \"Scale factor types for A and B should be the same.\" (sm1xx_common.inl:527)";
    case Code::sm100_blockscaled_sf_vec_mismatch:
      return "static_assert \"Scale factor vector size for A and B should be the same.\" "
             "(sm1xx_common.inl:528)";
    case Code::sm100_blockscaled_types:
      return "block-scaled SM100 UMMA takes fp4/fp6/fp8 data types (sm1xx_common.inl:548-)";
    case Code::sm100_mxf8f6f4_scale_factors:
      return "the MXF8F6F4 instruction needs ue8m0 scale factors with vector size 32 (static_assert "
             "\"MX_F4F6F8 only supports ue8m0 SF type\" / \"Incorrect SfVectorSize for MX_F4F6F8\", "
             "sm1xx_common.inl:556-600)";
    case Code::sm100_mxf4_fp4_only:
      return "the MXF4/NVF4 instruction takes fp4 x fp4 only (sm1xx_common.inl:603-620)";
    case Code::sm100_mxf4_k_major:
      return "MXF4/NVF4 needs K-major A and B: static_assert \"Only MMA.MXF8F6F4 supports non-K "
             "major inputs\" (sm100_blockscaled_umma_builder.inl:159)";
    case Code::sm100_mxf4_sf_vec: return "MXF4/NVF4 scale-factor vector size must be 16 or 32";
    case Code::sm100_auto_even_cluster_tile_m:
      return "auto schedule with an even cluster M needs MMA tile M 128 or 256: static_assert "
             "\"Unsupported M dimension for TileShape_MNK.\" (sm1xx_common.inl:710-716)";
    case Code::sm100_blockscaled_tile_m: {
      const bool two = x.on("two_sm");
      return std::string("block-scaled ") + (two ? "2SM" : "1SM") + " MMA tile M = " + x.v("tile_m") +
             ": must be " + (two ? "256" : "128") +
             " (static_assert \"Invalid TileShape_M.\", sm100_common.inl:" + (two ? "888" : "827") + ")";
    }
    case Code::sm100_blockscaled_tile_n:
      return "block-scaled MMA tile N = " + x.v("tile_n") +
             ": must be 64, 128, 192 or 256 (static_assert \"Invalid TileShape_N.\", sm100_common.inl:831, 892)";
    case Code::sm100_blockscaled_instr_k:
      return "tile K = " + x.v("tile_k") + " is not a multiple of the instruction K " + x.v("instr_k") +
             " (CUTE_STATIC_ASSERT_V(evenly_divides(TileShape, tile_shape(TiledMma))), "
             "sm100_blockscaled_mma_warpspecialized.hpp:124)";
    case Code::sm100_blockscaled_sf_k:
      return "tile K = " + x.v("tile_k") + " is not a multiple of 4 x sf_vec = " + x.v("k_multiple") +
             ": the scale-factor smem layout holds K/Vs/4 blocks of 4 "
             "(cutlass/detail/sm100_blockscaled_layout.hpp:143-146; doc P5)";
    case Code::sm100_unpacked_f4f6:
      return std::string("fp4/fp6 operands unpacked to 8 bits in smem need K % 128 == 0 (K-major) "
                         "or M/N % 128 (") +
             (x.on("two_sm") ? "N % 256 for 2SM" : "1SM") +
             ") when MN-major: static_assert \"TileSize and MNK Major does not met with MMA Mix "
             "8-bit TMA load requirement\" (sm100_umma_builder.inl:217, "
             "sm100_blockscaled_umma_builder.inl:168; the check: sm1xx_common.inl:203-364)";
    case Code::sm100_dense_types:
      return "dense SM100 UMMA takes tf32/f32, f16, bf16, s8 or u8 with A == B, or fp8/fp6/fp4 on "
             "both sides; got " + x.v("a") + " x " + x.v("b") +
             " (static_assert \"Unsupported data type for ElementA\", sm100_umma_builder.inl:146)";
    case Code::sm100_2sm_tile_m:
      return "2SM MMA tile M = " + x.v("tile_m") +
             ": must be 128 or 256 (static_assert \"Invalid TileShape_M.\", sm100_common.inl:375)";
    case Code::sm100_2sm_tile_n:
      return "2SM MMA tile N = " + x.v("tile_n") + ": must be a multiple of " + x.v("n_multiple") +
             " between " + x.v("n_multiple") + " and 256 (cute/arch/mma_sm100_umma.hpp:555, 1093)";
    case Code::sm100_1sm_tile_m:
      return "1SM MMA tile M = " + x.v("tile_m") +
             ": must be 64 or 128 (static_assert \"Invalid TileShape_M.\", sm100_common.inl:309)";
    case Code::sm100_1sm_tile_n:
      return "1SM MMA tile N = " + x.v("tile_n") +
             ": must be a multiple of 8 up to 256 (static_assert \"Invalid TileShape_N.\", "
             "sm100_common.inl:312)";
    case Code::sm100_instr_k:
      return "tile K = " + x.v("tile_k") + " is not a multiple of the UMMA instruction K " +
             x.v("instr_k") + " for " + x.v("a");
    case Code::sm100_accumulator_stages:
      return "static_assert \"Accumulator pipeline stage count must be positive.\" "
             "(sm100_umma_builder.inl:268)";
    case Code::sm100_2sm_cluster:
      return "2SM MMA with cluster M = " + x.v("cluster_m") +
             ": static_assert \"Cluster shape not divisible by MMA size\" (sm100_common.inl:241)";
    case Code::sm100_grouped_auto_mainloop:
      return "grouped: KernelScheduleAuto builds the non-ptr-array mainloop; modelled as " +
             x.v("kernel") + " (pass it explicitly)";
    case Code::sm100_family_modelled_as_sm100:
      return "modelled as the ArchTag Sm100 kernels (same 232448 B capacity); SM103-specific "
             "builders (e.g. ultra nvfp4) are not modelled";
    case Code::sm100_auto_epilogue_mismatch:
      return std::string("EpilogueScheduleAuto picks TmaWarpSpecialized") +
             (x.on("epilogue_2sm") ? "2Sm" : "1Sm") + " (cluster M " + x.v("cluster_m") + ", MMA M " +
             x.v("tile_m") + ", sm100_builder.inl:1698-1715) while the mainloop is " +
             (x.on("mainloop_2sm") ? "2SM" : "1SM") +
             "; pass epilogue \"tma\" to pair the matching epilogue";
    case Code::sm100_grouped_auto_epilogue:
      return "grouped: EpilogueScheduleAuto would give the non-ptr-array TmaWarpSpecialized "
             "epilogue, which has no TensorMapStorage for the ptr-array kernel; modelled as "
             "PtrArrayTmaWarpSpecialized";
    case Code::sm100_trtllm_epilogue:
      return "epilogue \"" + x.v("epilogue") +
             "\" is a TensorRT-LLM SM120 MoE epilogue; SM100 UMMA kernels take auto, tma, nosmem or "
             "blockscale_out";
    case Code::sm100_epilogue_2sm_cluster:
      return "2SM epilogue with cluster M = " + x.v("cluster_m") +
             ": static_assert \"schedule + cluster mismatch\" (sm100_builder.inl:1174)";
    case Code::sm100_void_d: return "D = void (no output tensor) is not modelled for SM100 epilogues";
    case Code::sm100_epilogue_empty_cta_tile:
      return "the per-CTA tile " + x.v("cta_m") + "x" + x.v("cta_n") + " is empty";
    case Code::sm100_nosmem_fp6:
      return "no-smem epilogue with an fp6 D: static_assert \"Output element requires TMA\" "
             "(sm100_builder.inl:1478)";
    case Code::sm100_epilogue_tile_n_multiple_of_8:
      return "epilogue tile N = " + x.v("epilogue_n") +
             " is not a multiple of 8: static_assert \"Unsupported tile shape\" (sm100_builder.inl:1063)";
    case Code::sm100_epilogue_tile_with_auto:
      return "an explicit epilogue tile with the auto epilogue schedule: static_assert \"Don't "
             "specify epilogue tile with auto schedule\" (sm100_builder.inl:1718)";
    case Code::sm100_epilogue_cta_n_min:
      return "CTA tile N = " + x.v("cta_n") + " is below the epilogue's minimum N (" + x.v("min_n") +
             "): static_assert \"CTA tile too small\" (sm100_builder.inl:1047)";
    case Code::sm100_epilogue_tile_divides:
      return "epilogue tile " + x.v("epilogue_m") + "x" + x.v("epilogue_n") + " does not divide the CTA tile " +
             x.v("cta_m") + "x" + x.v("cta_n") + " (shape_div in sm100_builder.inl:1254)";
    case Code::sm100_epilogue_stages_min:
      return "epilogue StagesC = " + x.v("stages_c") + ", StagesD = " + x.v("stages_d") +
             ": static_assert \"StagesC/StagesD must be >= 1\" "
             "(sm100_epilogue_tma_warpspecialized.hpp:139-140)";
    case Code::sm100_reuse_smem_c:
      return "ReuseSmemC with StagesD " + x.v("stages_d") + " > StagesC " + x.v("stages_c") +
             ": static_assert \"Smem reuse requirements not met\" "
             "(sm100_epilogue_tma_warpspecialized.hpp:165-168)";
    case Code::sm100_epilogue_atom_extents:
      return "epilogue smem atom: the TMA-contiguous tile extents " + x.v("mn_extent") + " x " +
             x.v("k_extent") +
             " must be multiples of 8 (static_assert \"BLK_MN0/BLK_K0 must be a multiple of 8.\", "
             "gemm/collective/builders/sm100_common.inl:86-87)";
    case Code::sm100_epilogue_column_major_32bit:
      return "epilogue smem atom: a column-major 32-bit C/D needs the epilogue tile M (" +
             x.v("epilogue_m") +
             ") to be a multiple of 32 (SW128_32B is the only MN-major atom for 4-byte elements, "
             "sm100_common.inl:91-93)";
    case Code::sm100_epilogue_no_swizzle_atom:
      return "epilogue smem atom: no UMMA swizzle atom divides the contiguous extent " + x.v("extent") +
             " of " + x.v("bits") +
             "-bit elements (static_assert in sm100_smem_selector, sm100_common.inl:109-131)";
    case Code::sm100_blockscale_out_sf_vec:
      return "blockscale_out needs the output scale-factor vector size sf_vec = 16 or 32, got " + x.v("sf_vec");
    case Code::sm100_blockscale_out_tile_n:
      return "blockscale_out: epilogue tile N = " + x.v("epilogue_n") + " with sf_vec " + x.v("sf_vec") +
             ": static_assert \"EpilogueTileN should be divisible by SFVecSize\" / 1, 2, 4 or 8 vectors "
             "(sm100_visitor_store_tma_warpspecialized.hpp:111-116)";
    case Code::sm100_blockscale_out_sf_type:
      return "blockscale_out needs an output scale-factor type sf = ue4m3 or ue8m0";

    // ---- sm80_multistage ---------------------------------------------------------------
    case Code::sm80_block_scaled:
      return "CUTLASS 2.x device::Gemm has no block-scaled operands (" + x.v("a") + " x " + x.v("b") + ")";
    case Code::sm80_operand_types:
      return "operands " + x.v("a") + " x " + x.v("b") +
             ": not an Sm80 tensor-op combination of this family (f16, bf16, f32, tf32, s8, u8; "
             "f16/bf16 x s8/u8 mixed input)";
    case Code::sm80_accumulator:
      return "accumulator " + x.v("acc") + ": the Sm80 " + x.v("a") + " x " + x.v("b") +
             " MMA accumulates in " + x.v("allowed");
    case Code::sm80_output_type:
      return "output D " + x.v("d") +
             ": not an element type of the 2.x tensor-op epilogue (f16, bf16, f32, s32, s8, u8, e4m3, e5m2)";
    case Code::sm80_c_differs_from_d:
      return "C " + x.v("c") + " differs from D " + x.v("d") +
             ": device::Gemm has one ElementC for the source C and the output D";
    case Code::sm80_cluster:
      return "CUTLASS 2.x kernels have no thread-block clusters (cluster must be 1x1x1)";
    case Code::sm80_grouped:
      return "grouped: CUTLASS 2.x GemmGrouped (problem-visitor storage) is not modelled";
    case Code::sm80_schedule:
      return "schedule " + x.v("schedule") + " is a 3.x kernel schedule; this family takes 'auto' or 'multistage'";
    case Code::sm80_epilogue:
      return "epilogue: the 2.x kernel has only DefaultEpilogueTensorOp ('auto', no epilogue tile or stages)";
    case Code::sm80_mma: return "mma " + x.v("mma") + " is an SM120 block-scaled option";
    case Code::sm80_swap_ab: return "swap_ab is TensorRT-LLM's SM90/SM120 MoE launch option";
    case Code::sm80_one_stage:
      return "stages = 1: MmaMultistage has no static_assert on Stages, but with one stage it emits "
             "cp.async.wait_group -1 and refills the stage it is reading "
             "(gemm/threadblock/mma_multistage.h:370-489): not a working kernel; use >= 2";
    case Code::sm80_extents_positive: return "tile and warp extents must be positive";
    case Code::sm80_tile_not_divisible_by_warp: {
      std::string m = "tile " + x.v("tile_m") + "x" + x.v("tile_n") + "x" + x.v("tile_k") +
                      " is not divisible by the warp tile " + x.v("warp_m") + "x" + x.v("warp_n") +
                      "x" + x.v("warp_k");
      if (!x.on("in_k_only"))
        m += " (static_assert \"Threadblock-scoped GEMM should be divisible by warp-scoped GEMM "
             "size.\", gemm/threadblock/default_mma_core_sm80.h:1414-1416)";
      else
        m += " in K (kPartitionsK = K / Wk, gemm/kernel/default_gemm.h:370, would drop part of "
             "every K slice)";
      if (x.on("default_warp"))
        m += "; no warp tile was given, so device::Gemm's default WarpShape 64x64x64 "
             "(gemm/device/default_gemm_configuration.h:468) applies: give `warp`";
      return m;
    }
    case Code::sm80_warp_k_iterations:
      return "warp K = " + x.v("warp_k") + " gives " + x.v("iterations") + " warp-level MMAs of K = " +
             x.v("instr_k") +
             " per stage; MmaBase needs an even count of at least 2 (static_asserts, "
             "gemm/threadblock/mma_base.h:128-133)";
    case Code::sm80_warp_tile_instruction:
      return "warp tile " + x.v("warp_m") + "x" + x.v("warp_n") + "x" + x.v("warp_k") +
             " is not a multiple of the " + x.v("instr_m") + "x" + x.v("instr_n") + "x" + x.v("instr_k") +
             " tensor-op instruction";
    case Code::sm80_too_many_threads:
      return std::to_string(x.n("threads") / 32) + " warps = " + x.v("threads") +
             " threads per CTA; a CTA has at most 1024";
    case Code::sm80_crosswise_k:
      return "operand " + x.v("operand") + ": tile K = " + x.v("tile_k") +
             " is wider than one 128-byte shared-memory line (at most " + x.v("max_k") + " " +
             x.v("dtype") +
             " elements; static_assert \"kCrosswise should be no large than one shared memory "
             "cache line.\", layout/tensor_op_multiplicand_sm75.h:92-94)";
    case Code::sm80_operand_thread_map:
      return "operand " + x.v("operand") + ": the cp.async global-load thread map (" + x.v("threads") +
             " threads) fails static_assert " + thread_map_failure(x.t("failure")) +
             " (transform/pitch_linear_thread_map.h:250-300)";
    case Code::sm80_epilogue_thread_map: return epilogue_map_message(x);
    case Code::sm80_default_stages:
      return "CUTLASS 2.x has no automatic stage count: device::Gemm's Stages defaults to "
             "DefaultGemmConfiguration<OpClassTensorOp, Sm80>::kStages = 3 "
             "(gemm/device/default_gemm_configuration.h:470)";
    case Code::sm80_default_warp:
      return "no warp tile given: device::Gemm's default WarpShape 64x64x64 "
             "(gemm/device/default_gemm_configuration.h:468)";
    case Code::sm80_two_stage_pipelined:
      return "Stages = 2 selects DefaultMma's two-stage MmaPipelined mainloop "
             "(gemm/threadblock/default_mma.h:190-258), not cp.async MmaMultistage";
    case Code::sm80_column_major_output:
      return "column-major C/D: device::Gemm runs the transposed row-major kernel "
             "(gemm/device/gemm.h:572-630), so B is the M-side operand";
    case Code::sm80_f32_two_stage_half:
      return "f32 x f32 with 2 stages: DefaultMma<float, ..., 2> (gemm/threadblock/default_mma.h:260-320) "
             "uses OpMultiplyAddFastF16 and stores A and B as half_t in shared memory";
    case Code::sm80_union_epilogue_larger:
      return "mainloop (" + x.B("mainloop_bytes") + ") and epilogue (" + x.B("epilogue_bytes") +
             ") share one union (gemm/kernel/gemm.h:139-142); the kernel requests the larger";

    // ---- triton_matmul, triton_fused_moe (issue 12) ------------------------------------
    // Paths relative to the Triton repository at acd8104 (the 3.6.0 wheel's sources).
    case Code::triton_dtype:
      return x.v("kernel") + " has no " + quoted(x.v("dtype")) + " variant; allowed dtypes: " + x.v("allowed");
    case Code::triton_output_dtype:
      return "d = " + x.v("d") + " is not modelled for " + x.v("kernel") + "; allowed: " + x.v("allowed");
    case Code::triton_unmodelled_dtype:
      return "dtype " + x.v("dtype") +
             " is not modelled: vLLM and SGLang run it with another kernel (int8_w8a16, int4_w4a16: "
             "fused_moe_kernel_gptq_awq or a CUDA kernel; int8_w8a8: an int8 tl.dot); tilefit checks "
             "the bf16/f16 and fp8_w8a8 fused_moe_kernel";
    case Code::triton_num_warps:
      return "num_warps " + x.v("num_warps") +
             ": Triton needs a power of two (CUDAOptions asserts \"num_warps must be a power of 2\", "
             "third_party/nvidia/backend/compiler.py) and at most 32 (1024 threads per block)";
    case Code::triton_block_not_power_of_two:
      return x.v("block") + " = " + x.v("value") +
             " is not a power of two: tl.arange and block tensors need power-of-two extents "
             "(validate_block_shape, python/triton/language/_utils.py)";
    case Code::triton_tensor_too_large:
      return x.v("tensor") + " has " + x.v("numel") +
             " elements, more than TRITON_MAX_TENSOR_NUMEL = 1048576 (validate_block_shape, "
             "python/triton/language/_utils.py)";
    case Code::triton_fp8_needs_sm89:
      return "fp8 e4m3 (fp8e4nv) is not supported on " + x.v("arch") +
             ": Triton enables it from sm_89 on (third_party/nvidia/backend/compiler.py:186-190; "
             "python/triton/language/core.py:573 raises)";
    case Code::triton_dot_k_min:
      return "BLOCK_SIZE_K = " + x.v("tile_k") + ": tl.dot needs K >= " + x.v("min_k") + " for " +
             x.v("bits") + "-bit operands (python/triton/language/semantic.py:1528 with min_dot_size, "
             "third_party/nvidia/backend/compiler.py:19-31)";
    case Code::triton_version_differs:
      return "tuned with Triton " + x.v("version") +
             ": analysed with Triton 3.6's rules (another version's pipeliner and layouts may "
             "allocate differently)";
    case Code::triton_default_num_stages:
      return "no num_stages given: Triton's default " + x.spelled("stages") +
             " (CUDAOptions, third_party/nvidia/backend/compiler.py:107-109)";
    case Code::triton_default_num_warps:
      return "no num_warps given: Triton's default num_warps " + x.v("num_warps") +
             " (CUDAOptions, third_party/nvidia/backend/compiler.py:107-109)";
    case Code::triton_block_k_clamped:
      return "BLOCK_SIZE_K " + x.v("block_k") + " is clamped to " + x.v("tile_k") +
             " = min(block_shape [" + x.v("block_n") + ", " + x.v("block_k_scale") +
             "]), as vLLM's and SGLang's invoke_fused_moe_kernel do before the launch";
    case Code::triton_block_shape_ignored:
      return "block_shape applies to fp8_w8a8 only: the " + x.v("dtype") +
             " kernel has no block scales (ignored)";
    case Code::triton_arch_unmeasured:
      return x.v("arch") +
             " follows the rules read from Triton's source; no config was measured on it (measured: "
             "sm_80, sm_86, sm_89, sm_90, sm_100, sm_120, sm_121)";
    case Code::triton_mma_fallback: {
      const std::string_view why = x.t("reason");
      std::string reason;
      if (why == "num_warps")
        reason = "num_warps " + x.v("num_warps") +
                 (x.t("instruction") == "wgmma" ? " is not a multiple of 4" : " is not 4 or 8");
      else if (why == "tile_m")
        reason = "BLOCK_SIZE_M " + x.v("tile_m") + " is not a multiple of 64";
      else if (why == "tile_n")
        reason = "BLOCK_SIZE_N " + x.v("tile_n") + " is not a multiple of 16";
      else
        reason = "BLOCK_SIZE_K " + x.v("tile_k") + " is below " + x.v("min_k");
      return x.v("arch") + " cannot use " + x.v("instruction") + " here: " + reason +
             " (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:34-70, "
             "lib/Analysis/Utility.cpp:863-928); tl.dot runs as mma.sync with a cp.async pipeline "
             "of num_stages - 1 buffers";
    }
    case Code::triton_fp8_promoted:
      return x.v("arch") +
             " has no fp8 mma.sync: Triton converts the fp8 operands to f16 in registers "
             "(AccelerateMatmul.cpp:906-944); shared memory still holds fp8";
    case Code::triton_operand_not_pipelined:
      return x.v("operand") + "'s loads are " + x.v("bits_per_thread") +
             " bits per thread (< 32): the pipeliner does not multi-buffer it "
             "(Pipeliner/AssignLatencies.cpp:100-148, LowerLoops.cpp:472-497); " +
             (x.on("smem") ? "it is staged through shared memory once per iteration"
                           : "its conversion to the dot operand stays in registers");
    case Code::triton_epilogue_dominates:
      return "the epilogue's convert_layout of the accumulator needs " + x.B("epilogue_bytes") +
             " of scratch, more than the K loop's " + x.B("loop_bytes") +
             ": it sets smem_bytes, and fewer stages do not lower it "
             "(lib/Analysis/Allocation.cpp:178, 206-208)";
    case Code::tuned_device_arch:
      return "device_name " + x.v("device_name") + " in the file name is " + x.v("product") + " (" +
             x.v("arch") + "): analysed for it; --arch or --device checks the table for another GPU";
    case Code::tuned_device_other_target: {
      std::string m = "tuned on " + x.v("device_name");
      if (x.n("tuned_arch") != 0) m += " (" + x.v("product") + ", " + x.v("tuned_arch") + ")";
      return m + "; checked for " + x.v("target_arch");
    }

    // ---- inference-engine FP8 kernels (issue 11) ---------------------------------------
    case Code::claim_engine_fp8:
      return "inferred: launcher " + engine_name(x.t("launcher")) + " with op " + x.v("op") + " on " + x.v("arch") +
             ": the engine's own kernel (" + engine_family_of(x) + ")";
    case Code::engine_needs_launcher:
      return "family " + x.v("family") +
             " models engine-built kernels: give \"launcher\" (vllm or sglang) to say whose";
    case Code::engine_no_kernel:
      return engine_name(x.t("launcher")) + " has no " + x.v("op") + " kernel for " + x.v("arch") +
             " (the engines' blockwise FP8 GEMMs start at sm_90; CUTLASS 2.x on sm_89 is scaled_mm only)";
    case Code::engine_operand_type:
      return "the engines' FP8 kernels take e4m3 A and B (" + x.v("a") + " x " + x.v("b") +
             " given; vLLM static_assert(std::is_same<InType, cutlass::float_e4m3_t>()), "
             "SGLang TORCH_CHECK(mat_a.scalar_type() == torch::kFloat8_e4m3fn))";
    case Code::engine_output_type:
      return "output " + x.v("d") + ": the engines build bf16 and f16 outputs only "
             "(\"out_dtype must be Half or BFloat16\")";
    case Code::engine_layout:
      return "the engines' layouts are fixed: A row-major, B column-major (layout \"tn\"), D row-major, "
             "column-major only with swap_ab (LayoutD_Transpose)";
    case Code::engine_grouped:
      return "the engines' scaled_mm and blockwise kernels are not grouped (no ptr-array schedule)";
    case Code::engine_mma:
      return "mma " + x.v("mma") + ": the engines' FP8 kernels are not block-scaled (use auto)";
    case Code::engine_blockwise_bias:
      return "bias " + x.v("bias") + ": the engines' blockwise kernels have no bias "
             "(vLLM: \"ElementC = void // TODO: support bias\")";
    case Code::engine_schedule:
      return "schedule " + quoted(x.v("schedule")) + ": the engines' " + x.v("op") + " kernels on " +
             x.v("arch") + " name one of " + x.v("allowed");
    case Code::engine_epilogue_variant:
      return "epilogue " + quoted(x.v("epilogue")) + " is not an epilogue the engines build on " + x.v("arch") +
             "; allowed: " + x.v("allowed");
    case Code::engine_scale_k_blocks_differ:
      return "scale blocks of A (K " + x.v("a_k") + ") and B (K " + x.v("b_k") +
             ") must share K: the scale config has one ScaleGranularityK";
    case Code::engine_scale_granularity:
      return "tile " + x.v("axis") + " = " + x.v("tile") + " is not a multiple of the scale granularity " +
             x.v("granularity") + " (" + scale_granularity_source(x) + ")";
    case Code::engine_scale_k:
      return "tile K = " + x.v("tile_k") + " with scale granularity K " + x.v("scale_k") + ": " +
             (x.n("arch") == 90
                  ? "K must equal the granularity, a multiple of 128 (static_asserts K % ScaleGranularityK == 0, "
                    "\"ScalePromotionInterval must be a multiple of 4.\", \"... greater than or equal to the "
                    "number of stages of the MMA atom.\", sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:127-135)"
                  : "static_assert \"Scale Granularity K must be equal to the tile shape K.\" "
                    "(sm120_blockwise_mma_builder.inl:201)");
    case Code::engine_scale_k_mma:
      return "scale granularity K " + x.v("scale_k") + " is not a multiple of the MMA K 32 (static_assert "
             "\"Scale Granularity K must be divisible by MMA_K\", sm100_mma_warpspecialized_blockwise_scaling.hpp:143)";
    case Code::engine_scale_cta:
      return "per-CTA tile M = " + x.v("cta_m") + " is below the scale granularity " + x.v("scale_m") +
             " (static_assert \"Scale Granularity must be smaller than or equal to the tile shape\", "
             "sm100_blockwise_umma_builder.inl:388)";
    case Code::engine_sm90_blockwise_ws:
      return "SM90 blockwise FP8 has no basic (non-persistent) kernel: the builder is enabled for "
             "KernelTmaWarpSpecialized{Cooperative,Pingpong}FP8Blockwise only (sm90_gmma_builder.inl:1078-1088)";
    case Code::engine_sm90_blockwise_stages:
      return "StageCount<" + x.v("stages") + ">: SM90 blockwise FP8 takes only the automatic count (error: no "
             "instance of function template \"compute_stage_count_with_blockwise_scale\" matches the "
             "argument list, sm90_gmma_builder.inl:1154; only the StageCountAutoCarveout overload exists, L87-107)";
    case Code::engine_sm90_blockwise_tile_m:
      return "tile M = " + x.v("tile_m") + ": SM90 blockwise FP8 needs tile M 128 or 256 (static_assert(NumSplitsM{} == 1 "
             "|| NumSplitsM{} == 2), NumSplitsM = M / 128, sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:208-209)";
    case Code::engine_sm100_tile_n:
      return std::string(x.on("two_sm") ? "2SM" : "1SM") + " MMA tile N = " + x.v("tile_n") +
             ": must be a multiple of 8 up to 256 (static_assert \"Invalid TileShape_N.\", sm100_common.inl:" +
             (x.on("two_sm") ? "379" : "313") + ")";
    case Code::engine_sm89_warp_and_stages:
      return std::string("the engines' sm_89 (CUTLASS 2.x) kernels are instantiated with a ") +
             (!x.on("warp") && !x.on("stages") ? "warp tile and a stage count"
              : !x.on("warp")                 ? "warp tile"
                                              : "stage count") +
             ": give " + (!x.on("warp") && !x.on("stages") ? "\"warp\" and \"stages\"" : !x.on("warp") ? "\"warp\"" : "\"stages\"") +
             " (2.x has no automatic stage count)";
    case Code::engine_sm89_swap_ab:
      return "the engines' sm_89 (CUTLASS 2.x) kernels have no swap_ab variant";
    case Code::engine_sm89_void_c:
      return "c null: the sm_89 visitor kernel always has an ElementC (vLLM float, SGLang the output type)";
    case Code::engine_c_from_launcher:
      return engine_name(x.t("launcher")) + " passes ElementC = " + x.v("c") + " although it never reads C" +
             (x.on("reuse") ? ": the epilogue shares one C/D buffer (ReuseSmemC) with StagesC > StagesD, "
                              "more shared memory than a void C; \"c\": null models the C-less wrapper"
                            : "");
    case Code::engine_ws_tensor_union:
      return "the basic KernelTmaWarpSpecialized kernel is not persistent: mainloop and epilogue tensors "
             "share one union (sm90_gemm_tma_warpspecialized.hpp:119-128), though the builder still carves "
             "the whole epilogue out of the stage budget";
    case Code::engine_sm120_epilogue_cta_tile:
      return "SGLang builds this epilogue on its PerSmTileShape " + x.v("epilogue_cta_m") + "x" +
             x.v("epilogue_cta_n") + " (epilogue.tile) with EpilogueTileAuto, not on the mainloop tile "
             "(fp8_blockwise_scaled_mm_sm120.cuh: launch_sm120_fp8_blockwise_scaled_mm)";
  }
  return std::string(model::code_name(d.code));
}

}  // namespace tilefit::report
