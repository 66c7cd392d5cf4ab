// Triton 3.6 on gfx942 / gfx950: the MFMA dot operands of a load that is not pipelined
// (triton_amd_operands.hpp; docs/dev/triton-amd-model.md §3b). Python reference:
// tools/amd/reference/amd_operands.py.
#include "triton_amd_operands.hpp"

#include <algorithm>
#include <array>

#include "triton_gemm.hpp"
#include "triton_layout.hpp"

namespace tilefit::model::triton::amd {

int log2_of(long long x) {
  int r = 0;
  while ((1LL << (r + 1)) <= x) ++r;
  return r;
}

Blocked blocked_64(const std::array<long long, 2>& shape, const std::array<long long, 2>& spt,
                   int contig_dim, int num_warps) {
  const int i = contig_dim, j = 1 - contig_dim;
  const long long threads = 64LL * num_warps;
  const long long tpc = std::clamp(threads, 1LL, std::max(1LL, shape[i] / spt[i]));
  const long long tpw_i = std::clamp(tpc, 1LL, 64LL);
  const long long wpc_i = std::clamp(tpc / tpw_i, 1LL, static_cast<long long>(num_warps));
  Blocked blk;
  blk.rank = 2;
  blk.order = {i, j};
  blk.spt[i] = log2_of(spt[i]);
  blk.spt[j] = log2_of(spt[j]);
  blk.tpw[i] = log2_of(tpw_i);
  blk.tpw[j] = log2_of(64 / tpw_i);
  blk.wpc[i] = log2_of(wpc_i);
  blk.wpc[j] = log2_of(num_warps / wpc_i);
  return blk;
}

namespace {

/// The coalesced layout of a K-contiguous [rows, cols] load (contig_dim: 1 for A [BM, BK], 0
/// for B [BK, BN]) with 64-lane wavefronts: sizePerThread along K = min(16 B / element, K,
/// max(numel / (64·W), 1)) (Coalesce, CoalesceUtils.cpp), then blocked_64.
Flat coalesced_64(long long rows, long long cols, int contig_dim, int bits, int num_warps) {
  const std::array<long long, 2> shape{rows, cols};
  std::array<long long, 2> spt{1, 1};
  const long long by_align = 16 / std::max(bits / 8, 1);
  spt[contig_dim] =
      std::min({by_align, shape[contig_dim], std::max(rows * cols / (64LL * num_warps), 1LL)});
  return blocked_layout(blocked_64(shape, spt, contig_dim, num_warps),
                        {log2_of(rows), log2_of(cols)}, 2);
}

/// The blocked layout ConvertTritonToTritonGPU gives a tt.dot's [M, N] result (TritonDotPattern,
/// lib/Conversion/TritonToTritonGPU/TritonToTritonGPUPass.cpp; stored versions nearest 3.6):
/// sizePerThread 2x2 when numel / (64 · num_warps) >= 4, 4x4 when >= 16, else 1x1 (each at most
/// the extent), order [1, 0]. An FMA dot keeps it (checked on every FMA dump of run D1: e.g.
/// 64x16 with 2 warps [2, 2] / [8, 8] / [2, 1]; 256x64 with 8 warps [4, 4] / [4, 16] / [8, 1]).
Blocked fma_parent(long long m, long long n, int num_warps) {
  const long long per = m * n / (64LL * num_warps);
  const long long s = per >= 16 ? 4 : per >= 4 ? 2 : 1;
  return blocked_64({m, n}, {std::min(s, m), std::min(s, n)}, 1, num_warps);
}

}  // namespace

Mfma choose_mfma(int arch, long long bm, long long bn, long long bk, int in_bits, bool int8,
                 int forced_non_k, int kpack, int num_warps) {
  Mfma m;
  // chooseMfmaInstruction (AccelerateAMDMatmul.cpp): matrix_instr_nonkdim when set, else 32 when
  // min(M, N) >= 32, 16 when it is 16..31, none below (FMA).
  const long long mn = std::min(bm, bn);
  m.non_k = forced_non_k != 0 ? forced_non_k : mn >= 32 ? 32 : mn >= 16 ? 16 : 0;
  if (m.non_k != 16 && m.non_k != 32) {
    m.non_k = 0;
    return m;
  }
  const bool m32 = m.non_k == 32;
  // kBase, the elements one lane holds for one instruction (MfmaGroup.cpp's table; kBase = kDim
  // / 2 for 32x32, kDim / 4 for 16x16):
  //   CDNA3: 16-bit 32x32x8 / 16x16x16: 4; 8-bit 32x32x16 / 16x16x32: 8.
  //   CDNA4: 16-bit 32x32x16 / 16x16x32: 8 (32x32x8 / 16x16x16, kBase 4, when BK is smaller);
  //          int8 32x32x32 / 16x16x64: 16 (else the CDNA3 ones, 8); fp8 operands take the
  //          scaled V_MFMA_*_F8F6F4 (32x32x64 / 16x16x128, kBase 32, operand kWidth 32 / 2)
  //          when BK is a multiple of its K (BlockedToMFMA: withScale on mfmaVersion 4, else
  //          the unscaled fp8 ones, kBase 8).
  int k_base = 0;
  if (arch == kGfx942) {
    k_base = in_bits == 16 ? 4 : 8;
  } else if (in_bits == 16) {
    k_base = bk >= (m32 ? 16 : 32) ? 8 : 4;
  } else if (int8) {
    k_base = bk >= (m32 ? 32 : 64) ? 16 : 8;
  } else {
    k_base = bk % (m32 ? 64 : 128) == 0 ? 16 : 8;
  }
  // kWidth = kBase · kPack (kpack forced to 1 on gfx950 by HIPOptions).
  m.k_width = k_base * (arch == kGfx950 ? 1 : std::max(kpack, 1));
  // warpsPerTile, case 3 (mfma_warps, triton_amd_tma.cpp)
  const MfmaWarps w = mfma_warps(bm, bn, num_warps, m.non_k);
  m.warps_m = w.m;
  m.warps_n = w.n;
  return m;
}

bool operand_cvt_needs_lds(const Mfma& m, int op, long long bm, long long bn, long long bk,
                           int in_bits, int num_warps) {
  const std::array<int, 2> warps{log2_of(m.warps_m), log2_of(m.warps_n)};
  const int nk = log2_of(m.non_k), kw = log2_of(m.k_width);
  if (op == 0)
    return cvt_needs_smem(coalesced_64(bm, bk, 1, in_bits, num_warps),
                          mfma_dot_operand_layout(0, nk, kw, warps, {log2_of(bm), log2_of(bk)}));
  return cvt_needs_smem(coalesced_64(bk, bn, 0, in_bits, num_warps),
                        mfma_dot_operand_layout(1, nk, kw, warps, {log2_of(bk), log2_of(bn)}));
}

const char* unpipelined_operands(Decisions& d, int forced_non_k, int kpack, bool int8, int stages,
                                 bool* stage1_ok) {
  *stage1_ok = false;
  // gfx942 leaves a load below 32 bits per thread in the loop (triton_amd.cpp
  // operand_pipelined); at num_stages 1 both are.
  const bool narrow = d.cc == kGfx942 && (!d.a_can_pipeline || !d.b_can_pipeline);
  const bool needed = stages < 2 || narrow;
  const Mfma m =
      choose_mfma(d.cc, d.bm, d.bn, d.bk, d.in_bits, int8, forced_non_k, kpack, d.num_warps);
  if (m.non_k == 0)
    return needed ? "an operand load left in the loop with matrix_instr_nonkdim other than 16 or "
                    "32 (its MFMA dot-operand layout)"
                  : nullptr;
  d.a_reg_smem = operand_cvt_needs_lds(m, 0, d.bm, d.bn, d.bk, d.in_bits, d.num_warps) ? 1 : 0;
  d.b_reg_smem = operand_cvt_needs_lds(m, 1, d.bm, d.bn, d.bk, d.in_bits, d.num_warps) ? 1 : 0;
  // Block-quantised kernels whose scale conversion is live in the same loop: where its scratch
  // sits relative to the operands' in-loop allocations was not measured (no such row).
  if (d.scale_cvt > 0 && (d.a_reg_smem == 1 || d.b_reg_smem == 1))
    return needed ? "an operand load left in the loop together with a scale conversion "
                    "(block-quantised kernels: their liveness not measured)"
                  : nullptr;
  *stage1_ok = true;
  return nullptr;
}

int fma_fallback(long long bm, long long bn, long long bk, int in_bits, int forced_non_k) {
  // chooseMfmaInstruction (third_party/amd/lib/TritonAMDGPUTransforms/AccelerateAMDMatmul.cpp):
  // mDim = nDim = matrix_instr_nonkdim when set, else 32 when min(M, N) >= 32, 16 when 16..31,
  // none below (no fp8 / int8 / 16-bit MFMA of M or N below 16 on CDNA3 / CDNA4 serves these
  // tiles: failure, FMA). MfmaIntrinsic::selectFor (MfmaGroup.cpp) takes the largest-K
  // instruction with K <= BK, else the smallest; a BK that is not a multiple of its kDim fails
  // (data duplication) — also with a forced nonkdim in 3.6 (measured: 32x64x16 fp8 with
  // matrix_instr_nonkdim 16 compiles to an FMA dot on both targets, rows m0177; the stored
  // versions after 0072ae0b drop the `enforcedNonKDim == 0 &&` of the check). On CDNA4 the
  // scaled fp8 instructions (kDim 64 / 128) are tried first and fall back to the unscaled ones.
  // The smallest kDim: 8-bit 16 (32x32x16) / 32 (16x16x32); 16-bit 8 (32x32x8) / 16 (16x16x16).
  // Block extents are powers of two, so BK is a multiple of the chosen kDim unless it is below
  // the smallest.
  const long long mn = std::min(bm, bn);
  if (forced_non_k != 0 && forced_non_k != 16 && forced_non_k != 32) return -1;
  if (forced_non_k != 0 && mn < 16) return -1;
  const int non_k = forced_non_k != 0 ? forced_non_k : mn >= 32 ? 32 : mn >= 16 ? 16 : 0;
  if (non_k == 0) return 1;
  const long long k_min = (in_bits == 8 ? 16 : 8) * (non_k == 16 ? 2 : 1);
  return bk < k_min ? 1 : 0;
}

void fma_dot(Decisions& d, int out_bits) {
  // AccelerateBlocked::tryLegalizeFMA (AccelerateAMDMatmul.cpp): fp8 x fp8 -> f32 is no legal
  // FMA form (only f16 / f32 operands of one type, or v_dot's f16 -> f32 / i8 -> i32), so the
  // operands and the accumulator are cast to the common type, f32 (the widest, 32 bits): each
  // operand is loaded in its coalesced layout, tt.fp_to_fp'd to f32 there, and converted to
  // #ttg.dot_op<{opIdx, parent = #blocked}> (dumps: fp_to_fp on the load's #blocked, then
  // local_alloc of the f32 tile + local_load into the dot operand). The pipeliner gives those
  // loads no LDS buffer: their user is the cast, not a dot-operand conversion, so LowerLoops'
  // getSharedEncIfAllUsersAreDotEnc gives no shared encoding and createStreamOps leaves them in
  // registers (dumps: no multi-buffered allocation at any num_stages, async copy on or off).
  // The conversion needs shared memory when cvtNeedsSharedMemory (ReduceDataDuplication): the
  // FMA operand holds all of K in each thread, so a load that spreads K over lanes needs it.
  d.amd_fma = true;
  const Blocked parent = fma_parent(d.bm, d.bn, d.num_warps);
  const int lm = log2_of(d.bm), ln = log2_of(d.bn), lk = log2_of(d.bk);
  if (cvt_needs_smem(coalesced_64(d.bm, d.bk, 1, d.in_bits, d.num_warps),
                     fma_dot_operand_layout(0, parent, {lm, lk})))
    d.amd_fma_a = d.bm * d.bk * 4;
  if (cvt_needs_smem(coalesced_64(d.bk, d.bn, 0, d.in_bits, d.num_warps),
                     fma_dot_operand_layout(1, parent, {lk, ln})))
    d.amd_fma_b = d.bk * d.bn * 4;
  // The epilogue: the [BM, BN] result, cast to out_bits in the dot's layout, is converted to the
  // store's coalesced layout (N-contiguous: min(16 B / element, BN, numel / threads) per thread);
  // AMD's scratch function (third_party/amd/lib/Analysis/AMDGPUAllocation.cpp
  // getConvertLayoutScratchInBytes, no padding attribute in the dumps) gives it the swizzled
  // conversion scratch of lib/Analysis/Allocation.cpp (no ldmatrix / stmatrix tiles on AMD).
  d.amd_fma_c =
      cvt_scratch_if_needed(blocked_layout(parent, {lm, ln}, 2),
                            coalesced_64(d.bm, d.bn, 1, out_bits, d.num_warps), out_bits, 0) *
      (out_bits / 8);
}

}  // namespace tilefit::model::triton::amd
