#include "engine_fp8.hpp"

#include <string>

namespace tilefit::model {
namespace {

bool sm100_class(int sm) { return sm == 100 || sm == 103 || sm == 110; }
bool sm120_class(int sm) { return sm == 120 || sm == 121; }

}  // namespace

// ---- public: what the reader checks --------------------------------------------------------

std::string_view engine_family_for(int sm) {
  // vLLM compiles cutlass_scaled_mm for sm_89 (c2x), sm_90a, the sm_100 family (10.x, 11.0 with
  // family-specific targets) and sm_120 / sm_121; SGLang's sgl-kernel likewise.
  if (sm == 89) return "engine_fp8_sm89";
  if (sm == 90) return "engine_fp8_sm90";
  if (sm100_class(sm)) return "engine_fp8_sm100";
  if (sm120_class(sm)) return "engine_fp8_sm120";
  return "";
}

std::string_view engine_arch_choices() {
  return "sm_89, sm_90, sm_100, sm_103, sm_110, sm_120, sm_121";
}

bool engine_has_kernel(Launcher launcher, EngineOp op, int sm) {
  if (launcher == Launcher::None || engine_family_for(sm).empty()) return false;
  // Neither engine has a CUTLASS 2.x blockwise kernel: vLLM's blockwise dispatch exists for
  // SM90/SM100/SM120 only (c3x/scaled_mm_blockwise_sm*_fp8_dispatch.cuh), SGLang's
  // fp8_blockwise_scaled_mm checks sm_version >= 90 (fp8_blockwise_gemm_kernel.cu).
  return !(op == EngineOp::BlockwiseFp8 && sm == 89);
}

ScaleGranularity engine_scale_granularity(const KernelConfig& cfg) {
  const ScaleBlock& b = cfg.scale_block;
  ScaleGranularity g{b.a_m, b.b_n, b.a_k};
  if (cfg.swap_ab) {
    g.m = b.b_n;
    g.n = b.a_m;
  }
  return g;
}

ScaleBlockCheck engine_scale_block_check(const KernelConfig& cfg) {
  using P = ScaleBlockProblem;
  if (cfg.scale_block.a_k != cfg.scale_block.b_k)
    return {P::k_blocks_differ, cfg.scale_block.a_k, cfg.scale_block.b_k};
  const ScaleGranularity g = engine_scale_granularity(cfg);
  const long long M = cfg.m, N = cfg.n, K = cfg.k;
  auto divides = [](long long tile, long long gran) {
    return gran > 0 && gran <= tile && tile % gran == 0;
  };
  if (cfg.arch == 90) {
    // static_assert((M % ScaleGranularityM) == 0, "FP8 scaling granularity must evenly divide
    // tile shape along M.") and along N (gemm/collective/builders/sm90_gmma_builder.inl:1151-1152).
    if (!divides(M, g.m)) return {P::m_not_dividing, M, g.m};
    if (!divides(N, g.n)) return {P::n_not_dividing, N, g.n};
    // sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp:127-135: K % gK == 0,
    // gK % 32 == 0 (the FP8 GMMA's K), ScalePromotionInterval = gK / 32 a multiple of 4, >= K/32
    // and a multiple of K/32: together K == gK with gK a multiple of 128.
    if (K != g.k || g.k % 128 != 0) return {P::k_not_tile_k, K, g.k};
    return {};
  }
  if (sm100_class(cfg.arch)) {
    // gemm/collective/sm100_mma_warpspecialized_blockwise_scaling.hpp:132-143: each tile extent
    // a multiple of (and not below) its granularity, gK a multiple of the MMA K (32 for f8f6f4);
    // L158-160 (and the builder, sm100_blockwise_umma_builder.inl:388-390): the per-CTA tile
    // (M / 2 for 2SM) not below the granularity.
    if (!divides(M, g.m)) return {P::m_not_dividing, M, g.m};
    if (!divides(N, g.n)) return {P::n_not_dividing, N, g.n};
    if (!divides(K, g.k)) return {P::k_not_dividing, K, g.k};
    if (g.k % 32 != 0) return {P::k_not_mma_k, K, g.k};
    const long long cta_m = cfg.schedule == Schedule::Sm2 ? M / 2 : M;
    if (cta_m < g.m) return {P::cta_smaller, cta_m, g.m};
    return {};
  }
  if (sm120_class(cfg.arch)) {
    // static_asserts "Scale Granularity M/N must evenly divide the tile shape M/N." and "Scale
    // Granularity K must be equal to the tile shape K." (sm120_blockwise_mma_builder.inl:199-201).
    if (!divides(M, g.m)) return {P::m_not_dividing, M, g.m};
    if (!divides(N, g.n)) return {P::n_not_dividing, N, g.n};
    if (K != g.k) return {P::k_not_tile_k, K, g.k};
    return {};
  }
  return {};
}

// ---- the families' shared decisions --------------------------------------------------------

DType engine_c_type(const KernelConfig& cfg) {
  if (cfg.c_given) return cfg.c;
  if (cfg.arch == 89) return cfg.launcher == Launcher::Vllm ? DType::F32 : cfg.d;
  if (cfg.launcher == Launcher::Vllm && cfg.op == EngineOp::ScaledMm &&
      (cfg.arch == 90 || sm100_class(cfg.arch)))
    return cfg.d;
  return DType::Void;
}

KernelConfig engine_resolved(const KernelConfig& cfg) {
  KernelConfig r = cfg;
  r.c = engine_c_type(cfg);
  return r;
}

Field engine_fusion(const KernelConfig& cfg, long long cta_n) {
  if (cfg.op != EngineOp::ScaledMm) return empty_member(Component::Fusion);
  const Field scale = array_aligned(Component::ScaleRow, 4 * cta_n);
  if (cfg.bias != Bias::Row) return make_struct({scale});
  return make_struct(
      {scale, array_aligned(Component::BiasRow, bits_to_bytes(Bytes{bits(cfg.d)} * cta_n))});
}

void engine_fusion_text(KernelDescription& k, const KernelConfig& cfg, long long cta_n) {
  if (cfg.op != EngineOp::ScaledMm) {
    k.add(KernelText::engine_fusion_empty);
    return;
  }
  k.add(KernelText::engine_fusion_scale_row).bytes("bytes", round_up(4 * cta_n, 16));
  if (cfg.bias == Bias::Row)
    k.add(KernelText::engine_fusion_bias_row)
        .bytes("bytes", round_up(bits_to_bytes(Bytes{bits(cfg.d)} * cta_n), 16));
  if (cfg.bias == Bias::Column) k.add(KernelText::engine_fusion_column_bias);
}

void engine_common_checks(const KernelConfig& cfg, Findings& why) {
  if (cfg.launcher == Launcher::None) {
    why.reject([&] {
      return diag(Code::engine_needs_launcher).name("family", engine_family_for(cfg.arch));
    });
    return;
  }
  if (!engine_has_kernel(cfg.launcher, cfg.op, cfg.arch))
    why.reject([&] {
      return diag(Code::engine_no_kernel)
          .name("launcher", launcher_name(cfg.launcher))
          .name("op", engine_op_name(cfg.op))
          .arch("arch", cfg.arch);
    });
  // vLLM: TORCH_CHECK(a.dtype() == torch::kFloat8_e4m3fn) in the c3x/c2x dispatchers
  // (static_assert(std::is_same<InType, cutlass::float_e4m3_t>())); SGLang:
  // TORCH_CHECK(mat_a.scalar_type() == torch::kFloat8_e4m3fn) (fp8_gemm_kernel.cu:fp8_scaled_mm).
  if (cfg.a.block_scaled() || cfg.b.block_scaled() || cfg.a.elem != DType::E4M3 ||
      cfg.b.elem != DType::E4M3)
    why.reject(
        [&] { return diag(Code::engine_operand_type).operand("a", cfg.a).operand("b", cfg.b); });
  // vLLM: TORCH_CHECK(out.dtype() == torch::kBFloat16 || torch::kFloat16); SGLang:
  // "out_dtype must be Half or BFloat16" (fp8_gemm_kernel.cu, fp8_blockwise_gemm_kernel.cu).
  if (cfg.d != DType::BF16 && cfg.d != DType::F16)
    why.reject([&] { return diag(Code::engine_output_type).dtype("d", cfg.d); });
  // A row-major, B column-major (both K-major); D row-major, column-major with swap_ab
  // (LayoutD_Transpose) — the engines have no other layouts.
  if (!cfg.a_k_major || !cfg.b_k_major || cfg.cd_row_major == cfg.swap_ab)
    why.reject([] { return diag(Code::engine_layout); });
  if (cfg.grouped) why.reject([] { return diag(Code::engine_grouped); });
  if (cfg.mma != Mma::Auto) why.reject([&] { return diag(Code::engine_mma).mma("mma", cfg.mma); });
  if (cfg.warp && cfg.arch != 89) why.reject([] { return diag(Code::warp_tile_sm80_only); });
  // vLLM's blockwise wrappers: "ElementC = void // TODO: support bias"; SGLang's blockwise
  // GEMM takes no bias either.
  if (cfg.op == EngineOp::BlockwiseFp8 && cfg.bias != Bias::None)
    why.reject([&] { return diag(Code::engine_blockwise_bias).name("bias", bias_name(cfg.bias)); });
  for (int c : cfg.cluster)
    if (c < 1) why.reject([] { return diag(Code::cluster_extent_min); });
  if (cfg.m <= 0 || cfg.n <= 0 || cfg.k <= 0)
    why.reject([] { return diag(Code::tile_extents_positive); });
}

void engine_scale_block_checks(const KernelConfig& cfg, Findings& why) {
  if (cfg.op != EngineOp::BlockwiseFp8) return;
  const ScaleBlockCheck c = engine_scale_block_check(cfg);
  using P = ScaleBlockProblem;
  switch (c.problem) {
    case P::none:
      return;
    case P::k_blocks_differ:
      why.reject([&] {
        return diag(Code::engine_scale_k_blocks_differ)
            .integer("a_k", c.tile)
            .integer("b_k", c.granularity);
      });
      return;
    case P::m_not_dividing:
    case P::n_not_dividing:
    case P::k_not_dividing:
      why.reject([&] {
        const char* axis = c.problem == P::m_not_dividing   ? "M"
                           : c.problem == P::n_not_dividing ? "N"
                                                            : "K";
        return diag(Code::engine_scale_granularity)
            .arch("arch", cfg.arch)
            .name("axis", axis)
            .integer("tile", c.tile)
            .integer("granularity", c.granularity);
      });
      return;
    case P::k_not_tile_k:
      why.reject([&] {
        return diag(Code::engine_scale_k)
            .arch("arch", cfg.arch)
            .integer("tile_k", c.tile)
            .integer("scale_k", c.granularity);
      });
      return;
    case P::k_not_mma_k:
      why.reject([&] { return diag(Code::engine_scale_k_mma).integer("scale_k", c.granularity); });
      return;
    case P::cta_smaller:
      why.reject([&] {
        return diag(Code::engine_scale_cta)
            .integer("cta_m", c.tile)
            .integer("scale_m", c.granularity);
      });
      return;
  }
}

Diagnostic engine_claim_reason(const KernelConfig& cfg, int sm) {
  return diag(Code::claim_engine_fp8)
      .arch("arch", sm)
      .name("launcher", launcher_name(cfg.launcher))
      .name("op", engine_op_name(cfg.op));
}

void engine_entry_point(KernelDescription& k, const KernelConfig& cfg) {
  const bool vllm = cfg.launcher == Launcher::Vllm;
  if (cfg.op == EngineOp::BlockwiseFp8)
    k.add(vllm ? KernelText::engine_vllm_blockwise : KernelText::engine_sglang_blockwise);
  else
    k.add(vllm ? KernelText::engine_vllm_scaled_mm : KernelText::engine_sglang_scaled_mm);
}

void note_c_from_launcher(Findings& why, const KernelConfig& cfg, DType c, bool reuse_smem_c) {
  if (cfg.c_given || c == DType::Void) return;
  why.note([&] {
    return diag(Code::engine_c_from_launcher)
        .dtype("c", c)
        .name("launcher", launcher_name(cfg.launcher))
        .flag("reuse", reuse_smem_c);
  });
}

}  // namespace tilefit::model
