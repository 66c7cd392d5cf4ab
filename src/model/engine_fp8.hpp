// What the engine FP8 families share: the launcher's decisions (C type, fusion tree, layouts),
// the checks every engine kernel makes, and the blockwise scale-block rules as diagnostics.
//
// Sources (MODEL.md of the fp8 research, §1-§2): vLLM vllm-project/vllm@1051220e,
// csrc/libtorch_stable/quantization/w8a8/cutlass/ (c3x/scaled_mm_sm{90,100,120}_fp8_dispatch.cuh,
// c3x/scaled_mm_blockwise_sm{90,100,120}_fp8_dispatch.cuh (sm100 @0f17ee06), scaled_mm_c2x.cuh,
// scaled_mm_c2x_sm89_fp8_dispatch.cuh) and csrc/cutlass_extensions/epilogue/ (@00c11f4d);
// SGLang sgl-project/sglang sgl-kernel/csrc/gemm/fp8_gemm_kernel.cu@04ec0bc2,
// fp8_blockwise_gemm_kernel.cu@b227f632, python/sglang/jit_kernel/csrc/gemm/fp8_blockwise/
// fp8_blockwise_scaled_mm_sm120.cuh@9ee53c76. CUTLASS paths relative to include/cutlass/ of
// 4.7.0 (commit 7107b05).
#pragma once

#include <string>

#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// The C type the launcher passes to the epilogue builder (ElementC):
///  * an explicit `c` overrides it (`c: null` = the older vLLM wrapper c3x/scaled_mm.cuh:
///    cutlass_3x_gemm, ElementC = void);
///  * sm_89 (CUTLASS 2.x): vLLM float (scaled_mm_c2x.cuh:cutlass_2x_gemm, `float` with
///    AlignmentCD 4), SGLang the output type (fp8_gemm_kernel.cu:DeviceGemmFp8RowwiseSm89,
///    ElementC = ElementOutput, 128-bit alignment);
///  * vLLM scaled_mm on SM90 / SM100: ElementD (cutlass_3x_gemm_sm90_fp8 / _sm100_fp8:
///    `using ElementC = ElementD_;`), although C is never read — it turns on the epilogue's
///    C/D sharing (ReuseSmemC) and its larger StagesC;
///  * everything else void (vLLM SM120 cutlass_3x_gemm_sm120, every blockwise wrapper
///    "ElementC = void // TODO: support bias", SGLang everywhere).
DType engine_c_type(const KernelConfig& cfg);

/// `cfg` as the launcher instantiates it: C = engine_c_type(cfg), C/D column-major exactly
/// with swap_ab (LayoutD_Transpose; the reader already sets cd_row_major from swap_ab).
KernelConfig engine_resolved(const KernelConfig& cfg);

/// FusionCallbacks::SharedStorage of the engine's epilogue visitor tree for a CTA tile N of
/// `cta_n`. Sm90EVT<Node, Children...> = Sm90TreeVisitor : Sm90VisitorImpl<Children..., Node>
/// stores tuple<Children::SharedStorage..., Node::SharedStorage>
/// (epilogue/fusion/sm90_visitor_tma_warpspecialized.hpp:485, 711, 895-900, 971-974,
/// 1065-1069), and cute::tuple stores no empty member (cute/container/tuple.hpp:71-130), so the
/// storage is the struct of the non-empty leaves in tree order:
///   scaled_mm: Sm90EVT<mul(D), ColBroadcast(scale_a), Sm90EVT<mul, RowBroadcast(scale_b), AccFetch>>
///     Sm90RowBroadcast<0, Tile, float> (vLLM: Sm90RowOrScalarBroadcast, same member):
///       array_aligned<float, CTA_N>  (fusion/sm90_visitor_load_tma_warpspecialized.hpp:1377-1379;
///       vLLM broadcast_load_epilogue_c3x.hpp:Sm90RowOrScalarBroadcast::SharedStorage)
///     bias "row" (vLLM ScaledEpilogueBias, SGLang's bias): + Sm90RowBroadcast<0, Tile, ElementD>:
///       array_aligned<ElementD, CTA_N>
///     Sm90ColBroadcast / ColOrScalarBroadcast (scale_a, bias "column"), AccFetch, Compute:
///       empty (L1642; vLLM `struct SharedStorage { }`)
///   blockwise_fp8: LinearCombination (vLLM) / Sm90EVT<Sm90AccFetch> (SGLang): empty, 1 B.
/// The rows are not padded by themselves; the epilogue's TensorStorage rounds to the C/D
/// buffer's swizzle alignment.
Field engine_fusion(const KernelConfig& cfg, long long cta_n);

/// Checks every engine kernel makes, whatever the arch: a launcher is given, A and B are e4m3,
/// D is bf16 or f16, the engines' fixed layouts, no grouped/ptr-array kernel, no block-scaled
/// MMA, bias only with scaled_mm, and the launcher has an `op` kernel on cfg.arch.
void engine_common_checks(const KernelConfig& cfg, Findings& why);

/// The blockwise scale-block rules of cfg.arch (engine_scale_block_check) as an error.
void engine_scale_block_checks(const KernelConfig& cfg, Findings& why);

/// Why an engine family claims `cfg`.
Diagnostic engine_claim_reason(const KernelConfig& cfg, int sm);

/// engine_c_from_launcher, when the launcher (not the config) chose C's type and C is not void.
void note_c_from_launcher(Findings& why, const KernelConfig& cfg, DType c, bool reuse_smem_c);

/// What every engine family shares, over the base its layout uses (LaidOutFamily<...>,
/// Sm120Family<...>): it models the configs that name a launcher, on the archs its kernels run
/// on (runs_on), and says so with engine_claim_reason.
template <class Base>
class EngineFamily : public Base {
 public:
  bool claims(const KernelConfig& cfg, int sm) const final {
    return cfg.launcher != Launcher::None && this->runs_on(sm);
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const final {
    return engine_claim_reason(cfg, sm);
  }
};

/// Appends the engine's entry point to `k` ("vLLM cutlass_scaled_mm: ", "SGLang
/// fp8_blockwise_scaled_mm: ").
void engine_entry_point(KernelDescription& k, const KernelConfig& cfg);

/// Appends the fusion's storage to `k` ("Sm90RowBroadcast scale row 512 B + bias row 256 B",
/// "empty fusion (1 B)").
void engine_fusion_text(KernelDescription& k, const KernelConfig& cfg, long long cta_n);

}  // namespace tilefit::model
