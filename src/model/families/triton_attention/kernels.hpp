// The program structure of each attention kernel, as far as Triton 3.6's shared memory depends
// on it (kernels.cpp): the tiles its tl.dot's multiply, which loads sit in the KV loop and how
// their addresses are formed, the reductions of the kernels without a tl.dot, and what the
// epilogue stores. Built from an AttnLaunch (the constexprs by the kernel signature's names);
// the rules that turn it into buffers are in kernel_model.cpp.
#pragma once

#include <string_view>

#include "launch.hpp"

namespace tilefit::model::attention {

/// How a kernel computes attention.
enum class Shape : unsigned char {
  TwoDot,     ///< flash attention: S = Q·K^T (+ Qpe·Kpe^T), softmax, acc += P·V in a KV loop
  VectorDot,  ///< decode without tl.dot: one query row, tl.sum(q * k) and tl.sum(p * v)
  Combine,    ///< stage 2 / reduce_segments: the splits' partial results combined
};

struct AttnProgram {
  Shape shape = Shape::TwoDot;
  // ---- TwoDot: the tiles (powers of two) -------------------------------------------------
  long long m = 0;    ///< query rows of a program (BLOCK_H, BLOCK_M)
  long long d = 0;    ///< Q·K^T contraction (BLOCK_DMODEL, HEAD_SIZE_PADDED)
  long long dpe = 0;  ///< the second Q·K^T dot's contraction (MLA rope part, BLOCK_DPE); 0: none
  long long n = 0;    ///< KV tile (BLOCK_N, TILE_SIZE)
  long long dv = 0;   ///< P·V output width (BLOCK_DV)
  /// MLA (IS_MLA): V is tl.trans(K) of the same load, no V load.
  bool v_from_k = false;
  /// KV loops of the kernel (SGLang extend and vLLM prefix_prefill: a paged prefix loop and a
  /// loop over the new tokens); each has its own buffers, never live together.
  int loops = 1;
  /// Loops whose K/V addresses come from a per-iteration index load (page table / kv_indices /
  /// block table): that load is one indirection level above K and V.
  int paged_loops = 0;
  /// K is loaded [d, n] (K-contiguous along d: offs_d[:, None]) — true for every kernel here.
  /// The most elements a thread may access together along the head dimension of the Q / K / V
  /// / output tiles, from the pointers' divisibility (0: no limit but 16 bytes). A kernel that
  /// adds `head * stride_h` with the runtime stride Lk of a contiguous [tokens, heads, Lk]
  /// tensor gets the stride's specialisation: divisibility 16 when Lk % 16 == 0, else 1
  /// (JITFunction's specialize_impl marks only multiples of 16; AxisInfo then gives the
  /// pointer's contiguous runs no alignment), so the Coalesce pass takes one element per
  /// thread (TTGIR, run V: SGLang context_attention_fwd head 72, sizePerThread [1, 1]).
  long long vec_cap = 0;
  // ---- VectorDot / Combine --------------------------------------------------------------
  long long vec_n = 0;   ///< BLOCK_N of the vector decode
  long long vec_d = 0;   ///< BLOCK_DMODEL
  long long vec_dv = 0;  ///< BLOCK_DV
  // ---- common ----------------------------------------------------------------------------
  int q_bits = 16, kv_bits = 16, out_bits = 16;
  /// Bits of the values the epilogue stores (the output pointer's element type; stage 1 of the
  /// split decodes stores f32 partial results).
  int store_bits = 16;
  std::string_view kernel_name;
};

/// The program of `launch`, or false (with `missing` naming the first absent constexpr).
bool program_of(const AttnLaunch& launch, AttnProgram& p, std::string_view& missing);

}  // namespace tilefit::model::attention
