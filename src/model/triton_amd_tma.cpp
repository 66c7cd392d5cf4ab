// Triton 3.6 on gfx942 / gfx950: SGLang's USE_TMA down GEMM (tensor-descriptor loads), declared
// in triton_gemm.hpp (namespace amd); docs/triton-amd-model.md §6.
//
// Paths are relative to the Triton repository at acd81049917c62aa156fff2669ae25664048ac77 (the
// 3.6.0 wheel). SGLang d6ef6888 builds the descriptors on ROCm too (support_tensor_descriptor(),
// kernels/ops/moe/fused_moe_triton_kernels.py:32-56; fused_moe.py:738-739, 888-905): A
// [BM, BK] over the sorted activations, B [1, BN, BK] over the [E, N, K] weights. The wheel's
// HIPBackend.make_ttir runs passes.ttir.add_rewrite_tensor_descriptor_to_pointer
// (third_party/amd/backend/compiler.py; lib/Dialect/Triton/Transforms/
// RewriteTensorDescriptorToPointer.cpp): each descriptor load becomes a masked tt.load of the
// block's pointers, built from the descriptor's runtime shape and strides, so no dimension of
// either load is known contiguous and the 3-D B load keeps its [1, BN, BK] shape, reshaped and
// transposed into the dot's [BK, BN] operand.
#include "triton_gemm.hpp"

#include <algorithm>

namespace tilefit::model::triton::amd {

MfmaWarps mfma_warps(long long m, long long n, int num_warps, int mfma_non_k) {
  // warpsPerTile, "Case 3: Regular cases"
  // (third_party/amd/lib/TritonAMDGPUTransforms/AccelerateAMDMatmul.cpp), shapePerWarp =
  // (mDim, nDim) of the chosen MFMA (both mfma_non_k): double the warps along M while the tile
  // has twice as many M instructions per warp as N instructions, else along N; when the warps
  // along N overrun the tile the two counts are swapped. (Cases 1 and 2, chained dots, do not
  // arise in fused_moe_kernel: one tt.dot.)
  long long wm = 1, wn = 1;
  while (wm * wn < num_warps) {
    if (m / (mfma_non_k * 2) / wm >= n / mfma_non_k / wn) {
      if (wm < m / mfma_non_k)
        wm *= 2;
      else
        wn *= 2;
    } else {
      wn *= 2;
    }
  }
  if (wn * mfma_non_k > n) std::swap(wm, wn);
  return {static_cast<int>(wm), static_cast<int>(wn)};
}

const char* tma_unmodelled(const KernelConfig& cfg, int arch, bool async, int num_warps,
                           int in_bits) {
  // gfx942 (measured, run D1: 62 launches): A is one single-buffered local_alloc and B's 3-D
  // blocked -> MFMA-operand convert_layout keeps a scratch of BN·BK·eb or half of it (the
  // optimalSwizzlingLdSt repetitions of lib/Analysis/Allocation.cpp's swizzled conversion
  // scratch). Neither the scratch's repetitions nor why the pipeliner leaves A single-buffered
  // there is derived.
  if (arch != kGfx950)
    return "tensor-descriptor loads on gfx942 (SGLang USE_TMA: the rewritten 3-D B load's "
           "conversion scratch and A's single buffer are not modelled)";
  // Only num_warps 4 is measured (every SGLang USE_TMA table entry of runs A, B, D1).
  if (num_warps != 4)
    return "tensor-descriptor loads on gfx950 with num_warps other than 4 (SGLang USE_TMA)";
  // The MFMA as chooseMfmaInstruction picks it (AccelerateAMDMatmul.cpp): matrix_instr_nonkdim
  // when set, else 32 when min(BM, BN) >= 32, else 16.
  const int forced = cfg.tuned.matrix_instr_nonkdim.value_or(0);
  const int non_k = forced != 0 ? forced : (std::min(cfg.m, cfg.n) >= 32 ? 32 : 16);
  if (non_k != 16 && non_k != 32)
    return "tensor-descriptor loads on gfx950 with matrix_instr_nonkdim other than 16 or 32 "
           "(SGLang USE_TMA)";
  // With all warps along N each warp owns its own BN / num_warps columns of B's dot operand;
  // the rewritten B load then takes the operand's layout itself (the TTGIR's B load is already
  // #linear = the reshape/trans of dot_op<opIdx 1>) and is prefetched in registers (the loop
  // carries num_stages - 1 B tensors), never through LDS. With warps along M (BM = 16, BN = 32,
  // 4 warps: [4, 1]) B's operand is replicated across warps and B is staged in a 3-D shared
  // buffer instead (measured once): not modelled.
  const MfmaWarps wp = mfma_warps(cfg.m, cfg.n, num_warps, non_k);
  if (wp.m != 1)
    return "tensor-descriptor loads on gfx950 with MFMA warps along M (SGLang USE_TMA: B is "
           "staged in LDS)";
  // A's buffers are swizzled in every measured row; a 16-bit A tile large enough for CDNA4's
  // padded async layout (16384 bytes, Utility.cpp composePaddedLayoutForAsyncCopyCDNA4) is not
  // measured.
  if (async && in_bits == 16 && cfg.m * cfg.k * 2 >= 16384)
    return "tensor-descriptor loads on gfx950 with async copy and a 16-bit A tile of 16 KiB "
           "or more (SGLang USE_TMA: padded layout not measured)";
  return nullptr;
}

}  // namespace tilefit::model::triton::amd
