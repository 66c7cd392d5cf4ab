// Triton 3.6 on gfx942 / gfx950: the MFMA dot operands of an operand load that is not pipelined
// (docs/dev/triton-amd-model.md §3b). Paths are relative to the Triton repository (3.6.0 =
// acd81049917c62aa156fff2669ae25664048ac77; the stored versions read are named where cited).
#pragma once

#include <array>

namespace tilefit::model::triton {
struct Decisions;
struct Blocked;  // triton_layout.hpp
}  // namespace tilefit::model::triton

namespace tilefit::model::triton::amd {

/// floor(log2(x)) for x >= 1 (block extents are powers of two: their exponent).
int log2_of(long long x);

/// BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp 64)
/// (lib/Dialect/TritonGPU/IR/Dialect.cpp) of a rank-2 tensor: from the contiguous dimension
/// `contig_dim`, each takes clamp(threads left, 1, shape / sizePerThread) threads, lanes first;
/// the last dimension the lanes and warps that are left. `spt` in elements.
Blocked blocked_64(const std::array<long long, 2>& shape, const std::array<long long, 2>& spt,
                   int contig_dim, int num_warps);

/// The MFMA encoding AccelerateAMDMatmul gives the dot (BlockedToMFMA::matchAndRewrite).
struct Mfma {
  int non_k = 0;                 ///< mDim = nDim: 16 or 32 (0: no MFMA instruction, FMA fallback)
  int k_width = 0;               ///< the dot operands' kWidth (kBase · kPack)
  int warps_m = 1, warps_n = 1;  ///< warpsPerCTA of the #ttg.amd_mfma layout
};

/// chooseMfmaInstruction + warpsPerTile + kWidth for a [BM, BK] x [BK, BN] dot of `in_bits`
/// operands (int8: i8 x i8 -> i32) on gfx942 (CDNA3, MFMA v3) or gfx950 (CDNA4, MFMA v4).
/// `forced_non_k`: matrix_instr_nonkdim (0: Triton's choice); `kpack`: as compiled (1 on gfx950).
Mfma choose_mfma(int arch, long long bm, long long bn, long long bk, int in_bits, bool int8,
                 int forced_non_k, int kpack, int num_warps);

/// Does the blocked -> MFMA dot-operand convert_layout of operand `op` (0: A [BM, BK], 1: B
/// [BK, BN], both K-contiguous loads) need shared memory (cvtNeedsSharedMemory)? When it does,
/// ReduceDataDuplication turns it into a local_alloc of the whole operand + a local_load.
bool operand_cvt_needs_lds(const Mfma& m, int op, long long bm, long long bn, long long bk,
                           int in_bits, int num_warps);

/// The operands the pipeliner leaves in the loop at num_stages `stages` (all at 1; on gfx942 a
/// load below 32 bits per thread) and at num_stages 1: sets d.a_reg_smem / d.b_reg_smem
/// (operand_cvt_needs_lds; d's tiles, warps, load widths and scale_cvt set). Returns the reason
/// the launch at `stages` is not covered (nullptr: covered); `*stage1_ok`: num_stages 1 is.
const char* unpipelined_operands(Decisions& d, int forced_non_k, int kpack, bool int8, int stages,
                                 bool* stage1_ok);

/// Does the [BM, BK] x [BK, BN] dot of `in_bits` operands fall back to FMA on gfx942 / gfx950
/// (no MFMA instruction: AccelerateAMDMatmul's BlockedToMFMA fails, AccelerateBlocked takes it)?
/// 1: FMA, 0: an MFMA instruction, -1: not derived (a forced matrix_instr_nonkdim other than 16
/// or 32, or one forced with BM or BN below 16).
int fma_fallback(long long bm, long long bn, long long bk, int in_bits, int forced_non_k);

/// The FMA dot of fp8 operands (d's tiles, warps and in_bits set): sets d.amd_fma and its three
/// allocations. `out_bits`: the epilogue's C elements.
void fma_dot(Decisions& d, int out_bits);

}  // namespace tilefit::model::triton::amd
