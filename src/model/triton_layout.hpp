// Triton 3.6's linear layouts, as far as the shared-memory model of the Triton families needs
// them: the register layouts of the loads, the MMA accumulators and the dot operands, and the two
// questions Triton asks about a ttg.convert_layout between two of them — does it need shared
// memory, and how much scratch does it get.
//
// Paths are relative to the Triton repository at acd81049917c62aa156fff2669ae25664048ac77 (the
// commit whose Python sources the 3.6.0 wheel matches byte for byte; see
// docs/dev/triton-model.md §"Source version"). The rules were worked out and validated in a
// Python reference (MODEL.md §7, ll.py); this is its port.
//
// A LinearLayout (lib/Tools/LinearLayout.cpp) maps the in-dimensions register, lane, warp and
// block to the out-dimensions dim0, dim1 by XOR of basis vectors: basis i of an in-dimension is
// the image of 1 << i. With num_ctas = 1 the block dimension is always empty, so it is left out.
// Every layout is used flattened to one out-dimension (LinearLayout::flattenOuts,
// LinearLayout.cpp:419-445: earlier out-dimensions are the low bits), so a basis is one integer:
// dim0 | dim1 << log2(size of dim0).
#pragma once

#include <array>
#include <cstdint>

namespace tilefit::model::triton {

/// In-dimensions, in Triton's order (register, lane, warp; block is empty).
enum In : int { kReg = 0, kLane = 1, kWarp = 2, kInDims = 3 };

/// Most bases one in-dimension can have here: Triton's tensors hold at most 2^20 elements
/// (TRITON_MAX_TENSOR_NUMEL, python/triton/language/_utils.py) and a CTA at most 32 warps, so a
/// layout has at most 20 non-zero register bases plus broadcast (zero) ones.
inline constexpr int kMaxBases = 32;

/// A linear layout flattened to one out-dimension of size 2^dim.
struct Flat {
  int dim = 0;
  std::array<int, kInDims> n{};
  /// Only the first n[d] entries of b[d] are meaningful (left uninitialised: layouts are built
  /// and copied often, and this keeps that cheap).
  std::array<std::array<std::uint32_t, kMaxBases>, kInDims> b;

  void push(int in, std::uint32_t v) {
    if (n[in] < kMaxBases) b[in][n[in]++] = v;
  }
};

/// actionRemoveBroadcastedRegs (lib/Tools/LayoutUtils.cpp:271-285): the register bases that are
/// zero are dropped.
Flat remove_broadcast_regs(const Flat& f);

// ---------------------------------------------------------------------------------------------
// Layouts (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp). Extents are log2 values; every
// Triton block extent is a power of two.
// ---------------------------------------------------------------------------------------------

/// A BlockedEncodingAttr (sizePerThread, threadsPerWarp, warpsPerCTA, order) of a rank-1 or
/// rank-2 tensor (LinearLayoutConversions.cpp:849-858).
struct Blocked {
  int rank = 2;
  std::array<int, 2> spt{}, tpw{}, wpc{};  ///< log2, by dimension
  std::array<int, 2> order{0, 1};          ///< fastest-varying dimension first
};
Flat blocked_layout(const Blocked& blk, const std::array<int, 2>& shape, int rank);

/// The accumulator's register layout: an NVIDIA MMA layout (v2 mma.sync, v3 wgmma) or, for
/// tcgen05 (v5), the layout the accumulator is read back from tensor memory with.
struct Accumulator {
  int version = 2;               ///< 2, 3 or 5
  std::array<int, 2> warps{};    ///< log2 warpsPerCTA (v2, v3)
  int instr_n = 8;               ///< v3: the wgmma N (v2: 8)
  int bm_log2 = 0, bn_log2 = 0;  ///< v5: the accumulator tile
  int num_warps = 4;             ///< v5
};
/// The accumulator layout of a [2^shape0, 2^shape1] tensor.
Flat accumulator_layout(const Accumulator& acc, const std::array<int, 2>& shape);
/// SliceEncodingAttr(dim, accumulator) of a 1-D tensor of 2^n elements
/// (LinearLayoutConversions.cpp:1014-1036).
Flat accumulator_slice(const Accumulator& acc, int dim, int n);

/// DotOperandEncodingAttr(op_idx, mma v2 parent, kWidth) of a [2^shape0, 2^shape1] operand
/// (LinearLayoutConversions.cpp:969-996 with broadcastedDotOperandLayout,
/// LinearLayoutConversions.cpp:282-316).
Flat dot_operand_layout(int op_idx, int k_width_log2, const std::array<int, 2>& warps,
                        const std::array<int, 2>& shape);

/// DotOperandEncodingAttr(op_idx, #ttg.amd_mfma parent, kWidth) of a rank-2 [2^shape0, 2^shape1]
/// operand with 64-lane wavefronts and tilesPerWarp 1 (mfmaDotToLinearLayout,
/// LinearLayoutConversions.cpp; read at triton-lang/triton 3666477029's stored version):
///   identity1D(kWidth, reg, K) * identity1D(nonK, lane, nonK-dim) * identity1D(64/nonK, lane, K)
///   * identity1D(K / (64/nonK · kWidth), reg, K)   (when K is larger than one tile)
/// with out-dimensions (K, nonK), then identityStandardND(warp, warpsPerCTA, [1, 0]) (dim1's
/// warps first: getDefaultMmaOrder), fitted to the shape (the warps along K broadcast).
Flat mfma_dot_operand_layout(int op_idx, int non_k_log2, int k_width_log2,
                             const std::array<int, 2>& warps, const std::array<int, 2>& shape);

/// DotOperandEncodingAttr(op_idx, blocked parent) of a rank-2 [2^shape0, 2^shape1] operand: the
/// FMA dot's operand (fmaDotToLinearLayout, LinearLayoutConversions.cpp; read at the stored
/// versions nearest 3.6): identityStandardND(register, parent sizePerThread with the K extent
/// replaced by the whole K, parent order) * broadcastedDotOperandLayout(lane, threadsPerWarp)
/// * broadcastedDotOperandLayout(warp, warpsPerCTA) (the lanes and warps along K broadcast),
/// fitted to the shape.
Flat fma_dot_operand_layout(int op_idx, const Blocked& parent, const std::array<int, 2>& shape);

// ---------------------------------------------------------------------------------------------
// Conversions.
// ---------------------------------------------------------------------------------------------

/// cvtNeedsSharedMemory (lib/Analysis/Utility.cpp:946-1006): false when the conversion stays in
/// registers or is a warp shuffle.
bool cvt_needs_smem(const Flat& src, const Flat& dst);

/// Elements of the scratch buffer a shared-memory conversion gets: numel / 2^|reps| of the
/// swizzling optimalSwizzling chooses (lib/Tools/GenericSwizzling.cpp; Allocation.cpp:32-43 and
/// third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/Allocation.cpp:45-59). `cc` decides which
/// ldmatrix/stmatrix tiles exist (TargetInfo.h:30-31).
std::int64_t cvt_scratch_elems(const Flat& src, const Flat& dst, int bits, int cc);

/// cvt_scratch_elems without the single-bit shortcut of the swizzle search (for the tests).
std::int64_t cvt_scratch_elems_general(const Flat& src, const Flat& dst, int bits, int cc);

/// cvt_scratch_elems when cvt_needs_smem, else 0 (the two questions share their work).
std::int64_t cvt_scratch_if_needed(const Flat& src, const Flat& dst, int bits, int cc);

}  // namespace tilefit::model::triton
