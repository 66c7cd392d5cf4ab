// What the two Triton families (triton_matmul, triton_fused_moe) share: Triton 3.6's decisions for
// a K-looped tl.dot kernel whose A and B are K-contiguous loads — which MMA, which loads the
// pipeliner multi-buffers and how deep, what else lives in shared memory (tcgen05 barriers,
// block-scale buffers, layout-conversion scratch) — and the allocator that places it all.
//
// Paths are relative to the Triton repository at acd81049917c62aa156fff2669ae25664048ac77 (the
// sources the 3.6.0 wheel was built from; docs/dev/triton-model.md says how that was
// established). Every rule was first written and validated in a Python reference
// (tools/triton/reference/ref_model.py, MODEL.md) against configs compiled by Triton 3.6.0.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model::triton {

/// What a family tells the shared rules about its kernel.
struct KernelTraits {
  int in_bits = 16;        ///< bits of the dot operands (16 f16/bf16, 32 f32 = tf32, 8 fp8)
  int out_bits = 16;       ///< bits of the values the epilogue converts before the store
  bool fp8 = false;        ///< e4m3 operands (fp8e4nv)
  bool fp8_block = false;  ///< fused_moe block-wise fp8: per-iteration a_scale/b_scale loads
  bool int8 = false;       ///< int8 operands: an int8 tl.dot accumulating in int32 (in_bits 8)
  /// fp8_block: whether a_scale's load may be vectorised. fused_moe gathers a_scale through
  /// offs_token, and the sorted_token_ids load in its slice gives it up to 4 elements per
  /// thread (CoalesceUtils.cpp:64-72); the block-quantised matmuls load As at offs_am *
  /// stride_As_m with nothing contiguous in the slice: 1 element per thread.
  bool a_scale_vectorised = true;
  /// fused_moe_kernel_gptq_awq (vLLM 6adad087 fused_moe.py:65-296, SGLang d6ef6888
  /// fused_moe_triton_kernels.py:92-321): B is not a loaded dot operand but a weight of these
  /// bits (4: two int4 per byte, 8: int8) loaded as [BK, BN] bytes, dequantised in registers with
  /// the in-loop group scales and stored once per iteration as the dot's B (in_bits);
  /// 0: B is a plain dot-operand load.
  int b_dequant_bits = 0;
  /// fused_moe SWAP_AB (vLLM 6adad087 fused_moe.py:535-566, SGLang d6ef6888
  /// fused_moe_triton_kernels.py:566-591): the dot is tl.dot(b, a), [BN, BK] x [BK, BM], both
  /// operands K-contiguous, and its [BN, BM] accumulator is transposed (tl.trans) before the
  /// epilogue; the config's m and n stay the kernel's BLOCK_SIZE_M and BLOCK_SIZE_N.
  bool swap_ab = false;
  /// fused_moe block-wise: b_scale is one scalar per K step, not a [BN] vector (SGLang d6ef6888
  /// fused_moe_triton_kernels.py:497-500 when BLOCK_SIZE_N <= group_n).
  bool b_scale_scalar = false;
  /// Bits of B as loaded when they differ from the dot's (in_bits): fused_moe use_int8_w8a16
  /// loads int8 B and converts it to compute_type before the dot (vLLM 6adad087
  /// fused_moe.py:552-553); 0: in_bits.
  int b_load_elem_bits = 0;
  /// A and B loaded through tensor descriptors (SGLang's USE_TMA) on a target with TMA
  /// (capability >= 90): TMA copies into NVMMA-shared buffers, one mbarrier per buffer.
  bool tma = false;
  /// The same loads below sm_90, where Triton rewrites them to pointer loads
  /// (src/model/triton_gemm.cpp decide_layouts: nothing pipelined, A through one local_alloc, B
  /// through a layout conversion).
  bool tma_pointers = false;
};

/// Triton's decisions for one config (stage-independent), kept in Plan::state.
struct Decisions {
  int cc = 0;
  long long bm = 0, bn = 0, bk = 0;
  int num_warps = 4, in_bits = 16;
  int version = 2;               ///< mma v2 (mma.sync), v3 (wgmma), v5 (tcgen05)
  Bytes a_tile = 0, b_tile = 0;  ///< one copy of A [BM, BK] and B [BK, BN]
  Bytes a_align = 16, b_align = 16;
  bool a_can_pipeline = false, b_can_pipeline = false;  ///< loads of >= 32 bits per thread
  int a_load_bits = 0, b_load_bits = 0;                 ///< bits one thread loads per access
  /// Whether a load that is not pipelined still goes through shared memory (always for
  /// wgmma/tcgen05; for mma v2 only when its conversion to the dot operand needs it): 1, 0, or
  /// -1 when not answered yet (reg_smem() answers it).
  std::int8_t a_reg_smem = -1, b_reg_smem = -1;
  bool fp8_promoted = false;  ///< fp8 operands of mma.sync converted to f16 in registers
  bool fp8_block = false;
  Bytes a_scale_cvt = 0;         ///< in-loop a_scale conversion scratch (0: none)
  Bytes b_scale_cvt = -1;        ///< in-loop b_scale conversion scratch; -1: not answered yet
  Bytes b_scale_buffer = 0;      ///< BN·4: async tcgen05's 1-deep b_scale buffer
  Bytes epilogue_cvt = 0;        ///< the epilogue's conversion scratch (0: none)
  int instr_n = 0;               ///< wgmma N
  int warps_m = 1, warps_n = 1;  ///< the accumulator's warpsPerCTA
  /// Why wgmma/tcgen05 is not used on sm_90/sm_100 (empty: it is, or the arch has neither).
  const char* fallback = "";
  bool int8 = false;               ///< an i8 x i8 -> i32 dot (KernelTraits::int8)
  bool a_scale_vectorised = true;  ///< KernelTraits::a_scale_vectorised
  /// SWAP_AB: bm, bn above are the dot's M and N (the kernel's BLOCK_SIZE_N and BLOCK_SIZE_M),
  /// a_* is the dot's first operand (the kernel's B) and the accumulator is transposed before
  /// the epilogue.
  bool swap_ab = false;
  bool b_scale_scalar = false;  ///< KernelTraits::b_scale_scalar
  /// B converted before a wgmma/tcgen05 dot (KernelTraits::b_load_elem_bits): the bytes of the
  /// converted [BK, BN] copy the MMA reads; 0: none.
  Bytes b_mma_tile = 0;
  bool tma = false;  ///< KernelTraits::tma
  /// KernelTraits::tma_pointers; tma_b_cvt: B's [1, BN, BK] load -> dot operand conversion
  /// scratch (bytes; 0: a warp shuffle).
  bool tma_pointers = false;
  Bytes tma_b_cvt = 0;
  /// KernelTraits::b_dequant_bits. Then b_load_bits / b_can_pipeline describe the weight's load,
  /// b_raw_tile is one copy of it ([BK, BN] bytes) and b_tile the dequantised B the dot reads.
  int b_dequant_bits = 0;
  Bytes b_raw_tile = 0;
  /// AMD targets (is_amd(cc)): the rules of triton_amd.cpp place the buffers.
  bool amd = false;
  /// TRITON_HIP_USE_ASYNC_COPY as compiled (KernelConfig::hip_async_copy, default off).
  bool async_copy = false;
  /// AMD block-quantised kernels: the in-loop scale conversion's scratch (0: none).
  Bytes scale_cvt = 0;
  /// AMD gfx950 with async copy: the bytes of padding a padded_shared operand buffer adds per
  /// 1024 bytes of data (0: the operand's buffer is not padded); amd::buffers() applies it.
  int a_pad_bytes = 0, b_pad_bytes = 0;
  /// AMD fused_moe_kernel_gptq_awq (src/model/triton_amd_dequant.cpp): the weight's own
  /// multi-buffered [BK, BN] bytes per stage (0: the weight stays in registers), the b_scale
  /// [BK, BN] compute-type tile per stage (gfx950: pipelined; 0: in registers), and the
  /// dequantised B stored once per iteration for the dot (0: none).
  Bytes amd_raw_b_stage = 0, amd_scale_stage = 0, amd_dequant_once = 0;
  /// AMD FMA dot (no MFMA instruction fits; src/model/triton_amd_operands.cpp fma_dot): nothing
  /// is multi-buffered; the f32 A [BM, BK] and B [BK, BN] tiles' local_alloc for the FMA
  /// dot-operand layout (0: a register conversion) and the epilogue's C conversion scratch.
  bool amd_fma = false;
  Bytes amd_fma_a = 0, amd_fma_b = 0, amd_fma_c = 0;
  /// AMD SGLang USE_TMA (src/model/triton_amd_tma.cpp tma_operands): the loads rewritten from
  /// tensor descriptors; whether gfx950's pipeliner also buffers B (MFMA warps along M), and
  /// B's [1, BN, BK] blocked -> dot-operand conversion scratch where nothing is pipelined.
  bool amd_tma = false;
  bool amd_tma_b_lds = false;
  Bytes amd_tma_b_cvt = 0;
};

struct Blocked;  // triton_layout.hpp

/// BlockedEncodingAttr's builder (include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td:
/// 813-847) for a rank-1 or rank-2 tensor of `shape` with sizePerThread `spt` (elements, not
/// log2) and `order` (fastest first); also the attention family's coalesced loads.
Blocked blocked_get(int rank, const std::array<long long, 2>& shape,
                    const std::array<long long, 2>& spt, const std::array<int, 2>& order,
                    int num_warps);
/// mmaVersionToInstrShape's wgmma N for a [bm, bn] accumulator with `w` warps.
int v3_instr_n(long long bm, long long bn, int w);
/// warpsPerTileV3 of a dot that heads no chain (AccelerateMatmul.cpp:135-161).
std::array<long long, 2> warps_v3(long long bm, int w);

/// Forgets this thread's memoised layout-conversion answers (for measuring the cold path).
void clear_layout_memo();

/// Does operand `op` (0: A, 1: B), when not pipelined, go through shared memory?
bool reg_smem(const Decisions& d, int op);
/// The in-loop b_scale conversion scratch of a synchronous MMA (fp8 block-wise).
Bytes b_scale_cvt(const Decisions& d);

/// Triton's checks that make the config fail to compile (invalid), as error diagnostics:
/// num_warps, power-of-two blocks, tensor size, fp8 support, tl.dot's minimum K. True when the
/// config is invalid (for these or earlier reasons).
bool reject_invalid(const KernelConfig& cfg, const KernelTraits& k, Findings& why);

/// The stage-independent decisions: every layout-conversion question the kernel's own
/// num_stages (`stages`) needs, answered once. The questions only another stage count can raise
/// (a load that num_stages 1 does not pipeline) are answered when asked.
Decisions decide_layouts(const KernelConfig& cfg, const KernelTraits& k, int stages);

/// num_warps as compiled (CUDAOptions default 4).
int num_warps_of(const KernelConfig& cfg);

/// The kernel's shared memory at num_stages = `stages` (>= 1): the buffers Triton allocates,
/// placed by its allocator. Field: with the breakdown of the buffers live at the peak.
template <class F>
BasicStorage<F> triton_storage(const Decisions& d, int stages);
extern template Storage triton_storage<Field>(const Decisions&, int);
extern template Sizes triton_storage<Extent>(const Decisions&, int);

/// The shared decide(): stage count, invalid reasons, notes, kernel description.
Plan triton_plan(const KernelConfig& cfg, const KernelTraits& k, bool explain, Findings&& why);

struct Buffers;  // triton_allocator.hpp

/// Triton 3.6 on AMD targets (gfx942, gfx950): src/model/triton_amd.cpp, docs/dev/triton-amd-model.md.
/// The rules cover the launches measured to be exact (num_stages >= 2, both operands pipelined,
/// docs/dev/triton-amd-model.md §4); every other launch is declined with triton_amd_unmodelled,
/// never given a guessed size.
namespace amd {
/// HIPOptions' defaults (third_party/amd/backend/compiler.py, class HIPOptions).
constexpr int kDefaultNumWarps = 4;
constexpr int kDefaultNumStages = 2;
/// The AMD plan (triton_plan() hands AMD targets here).
Plan plan(const KernelConfig& cfg, const KernelTraits& k, bool explain, Findings&& why);
/// The kernel's LDS buffers at num_stages = `stages` (1 where Plan::min_stages is 1).
Buffers buffers(const Decisions& d, int stages);
/// fused_moe_kernel_gptq_awq on AMD (src/model/triton_amd_dequant.cpp): fills the amd_* B
/// fields of `d` (a_tile, bm, bn, bk already set); returns why the launch is not modelled, or
/// nullptr when the rules cover it.
const char* dequant_b(const KernelTraits& k, int arch, int num_warps, Decisions& d);

/// fused_moe_kernel_gptq_awq at num_stages 1 (triton_amd_dequant.cpp): nothing is pipelined;
/// sets d.a_reg_smem for A's in-loop conversion (d's tiles, warps set; dequant_b run). Returns
/// why the launch is not covered (nullptr: covered).
const char* dequant_stage1(const KernelTraits& k, int forced_non_k, int kpack, Decisions& d);
/// An MFMA dot's warpsPerCTA (triton_amd_tma.cpp).
struct MfmaWarps {
  int m = 1, n = 1;
};
MfmaWarps mfma_warps(long long m, long long n, int num_warps, int mfma_non_k);
/// SGLang USE_TMA (tensor-descriptor loads rewritten to pointer loads): why the launch is not
/// modelled, or nullptr when tma_operands' rules apply (triton_amd_tma.cpp).
const char* tma_unmodelled(const KernelConfig& cfg, int num_warps);
/// SGLang USE_TMA (d's tiles, warps, in_bits and cc set): sets d.amd_tma, d.amd_tma_b_lds and
/// d.amd_tma_b_cvt (triton_amd_tma.cpp). `forced_non_k`: matrix_instr_nonkdim (0: Triton's
/// choice, else 16 or 32); `kpack` as given.
void tma_operands(Decisions& d, int forced_non_k, int kpack);
}  // namespace amd

/// What both Triton families share: Triton's NVIDIA targets from Ampere on (mma v2 and later),
/// never inferred (a config names its kernel with "kernel"), the layout from the decisions
/// alone. A Triton family says its name, its description and its kernel's types: decide()
/// fills KernelTraits and returns triton_plan().
class TritonFamily : public KernelFamily {
 public:
  /// NVIDIA from sm_80 on, and the AMD targets gfx942 and gfx950 (triton_amd.hpp).
  bool runs_on(int sm) const final { return is_amd(sm) || (sm >= 80 && sm < kGfx942); }
  bool claims(const KernelConfig&, int) const final { return false; }
  Diagnostic claim_reason(const KernelConfig&, int) const final {
    return diag(Code::family_given).name("family", name());
  }
  Storage layout(const KernelConfig&, const Plan& plan, int stages) const final {
    return triton_storage<Field>(plan.state.get<Decisions>(), stages);
  }
  Sizes sizes(const KernelConfig&, const Plan& plan, int stages) const final {
    return triton_storage<Extent>(plan.state.get<Decisions>(), stages);
  }
};

}  // namespace tilefit::model::triton
