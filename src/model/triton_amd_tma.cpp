// Triton 3.6 on gfx942 / gfx950: SGLang's USE_TMA down GEMM (tensor-descriptor loads), declared
// in triton_gemm.hpp (namespace amd); docs/dev/triton-amd-model.md §6.
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
#include "triton_amd_operands.hpp"
#include "triton_gemm.hpp"
#include "triton_layout.hpp"

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

const char* tma_unmodelled(const KernelConfig& cfg, int num_warps) {
  // Measured with num_warps 2, 4 and 8 (run T: every rule below on both targets).
  if (num_warps < 2 || num_warps > 8)
    return "tensor-descriptor loads with num_warps other than 2, 4 or 8 (SGLang USE_TMA: not "
           "measured)";
  // The MFMA as chooseMfmaInstruction picks it (AccelerateAMDMatmul.cpp): matrix_instr_nonkdim
  // when set, else 32 when min(BM, BN) >= 32, else 16; B's dot-operand layout is derived for
  // 16 and 32 only.
  const int forced = cfg.tuned.matrix_instr_nonkdim.value_or(0);
  if (forced != 0 && forced != 16 && forced != 32)
    return "tensor-descriptor loads with matrix_instr_nonkdim other than 16 or 32 (SGLang "
           "USE_TMA)";
  return nullptr;
}

void tma_operands(Decisions& d, int forced_non_k, int kpack) {
  // Which loads the pipeliner buffers. The rewritten pointers are built from the descriptors'
  // runtime strides, so AxisInfo knows no contiguity: every load moves one element per vector,
  // 8 or 16 bits. gfx942's small-load filter (operand_pipelined, triton_amd.cpp: width < 32 is
  // "too small for pipelining") leaves both loads in the loop at every num_stages (dumps: one
  // scf.for body, no multi-buffered allocation, async copy on or off); gfx950 pipelines them
  // from num_stages 2 on, like its other narrow loads.
  d.amd_tma = true;
  const Mfma m =
      choose_mfma(d.cc, d.bm, d.bn, d.bk, d.in_bits, false, forced_non_k, kpack, d.num_warps);
  // gfx950, pipelined: A is one nbuf x [BM, BK] buffer. B [1, BN, BK] takes the dot operand's
  // own layout when every MFMA warp is along N (each warp owns its BN / num_warps columns: the
  // TTGIR's B load is already #linear = the reshape / trans of dot_op<opIdx 1>) and is
  // prefetched in registers (the loop carries num_stages - 1 B tensors), never through LDS;
  // with warps along M the operand is replicated across warps and B gets its own nbuf x
  // [BN, BK] buffer as well (run T: every gfx950 row, both switch values).
  d.amd_tma_b_lds = m.warps_m > 1;
  // Nothing pipelined (gfx942, or num_stages 1 on gfx950): A's blocked load is transposed in
  // registers (amdg.in_thread_transpose) and goes through one [BM, BK] local_alloc to its dot
  // operand (d.a_tile); B's 3-D load, in the BlockedEncodingAttr::get layout of a tensor
  // without contiguity (sizePerThread 1, order [0, 1, 2]: the lanes along N first, then the
  // warps, K last; lib/Dialect/TritonGPU/IR/Dialect.cpp), is converted to the dot operand's
  // #linear layout by a ttg.convert_layout whose scratch is the swizzled conversion scratch
  // (third_party/amd/lib/Analysis/AMDGPUAllocation.cpp getConvertLayoutScratchInBytes ->
  // lib/Analysis/Allocation.cpp). Its leading extent 1 changes no basis, so the [BK, BN] view
  // of the two layouts gives the same scratch. A's alloc, B's conversion and a scale
  // conversion are live one after another (dumps: all at offset 0): their maximum.
  if (m.non_k == 0) return;  // FMA fallback: declined by plan()
  const Blocked src = blocked_64({d.bk, d.bn}, {1, 1}, 1, d.num_warps);
  const int lk = log2_of(d.bk), ln = log2_of(d.bn);
  const Flat from = blocked_layout(src, {lk, ln}, 2);
  const Flat to = mfma_dot_operand_layout(1, log2_of(m.non_k), log2_of(m.k_width),
                                          {log2_of(m.warps_m), log2_of(m.warps_n)}, {lk, ln});
  d.amd_tma_b_cvt = cvt_scratch_if_needed(from, to, d.in_bits, 0) * (d.in_bits / 8);
}

}  // namespace tilefit::model::triton::amd
