// Triton 3.6's shared memory of the attention kernels (issue 19): kernel_smem() turns one
// AttnLaunch (the kernel, its constexprs, dtypes, num_warps, num_stages) and a target into the
// buffers Triton's allocator places, with the shared rule libraries of the GEMM families
// (src/model/triton_layout.* for register layouts and convert scratch, triton_allocator.* for
// the placement). docs/dev/triton-attention-model.md states the rules and what they rest on.
//
// Paths of Triton are relative to triton-lang/triton at acd81049917c62aa156fff2669ae25664048ac77
// (the 3.6.0 wheel's sources, docs/dev/triton-model.md "Source version").
#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <utility>

#include "kernels.hpp"
#include "launch.hpp"
#include "model/triton_allocator.hpp"
#include "model/triton_gemm.hpp"
#include "model/triton_layout.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::model::attention {
namespace {

using triton::Buffers;
using triton::Flat;

int log2i(long long x) {
  return x <= 1 ? 0 : 63 - __builtin_clzll(static_cast<unsigned long long>(x));
}
bool pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }

/// TRITON_MAX_TENSOR_NUMEL (python/triton/language/_utils.py).
constexpr long long kMaxTensorNumel = 1 << 20;

// Abstract program points of the allocator's live ranges (only their order matters): before
// the KV loop, the loop body's points in program order, the epilogue.
constexpr int kQ = 5, kLoop = 10, kLoopEnd = 100, kEpilogue = 150;

// ---------------------------------------------------------------------------------------------
// Register layouts of the loads (the Coalesce pass: lib/Dialect/TritonGPU/Transforms/
// CoalesceUtils.cpp:17-93 with Transforms/Utility.cpp getNumElementsPerThread) — as
// src/model/triton_gemm.cpp computes them for the GEMM kernels (docs/dev/triton-model.md §3), with
// its BlockedEncodingAttr builder (triton::blocked_get).
// ---------------------------------------------------------------------------------------------

long long per_thread(long long numel, long long contig, int bits, int num_warps) {
  const long long by_align = 16 / std::max(bits / 8, 1);
  long long per = std::min({by_align, contig, static_cast<long long>(128 / std::max(bits, 1))});
  return std::min(per, std::max(numel / (32LL * num_warps), 1LL));
}

/// The coalesced blocked layout of a [rows, cols] access contiguous along `contig_dim`.
triton::Blocked coalesced(long long rows, long long cols, int contig_dim, int bits, int w) {
  const std::array<long long, 2> shape{rows, cols};
  std::array<long long, 2> spt{1, 1};
  spt[contig_dim] = per_thread(rows * cols, shape[contig_dim], bits, w);
  return triton::blocked_get(2, shape, spt, {contig_dim, 1 - contig_dim}, w);
}
Flat flat(const triton::Blocked& b, long long rows, long long cols) {
  return triton::blocked_layout(b, {log2i(rows), log2i(cols)}, 2);
}

// ---------------------------------------------------------------------------------------------
// The MMA of the two dots (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp
// getMMAVersionSafe / warpsPerTileV2; lib/Analysis/Utility.cpp supportMMA).
// ---------------------------------------------------------------------------------------------

struct Mma {
  int version = 2;                   ///< 2 mma.sync, 3 wgmma, 5 tcgen05
  std::array<long long, 2> warps{};  ///< warpsPerCTA of the accumulators (v2)
};

/// Both dots of a chained pair get the same MMA: warpsPerTileV2 with a chained dot puts every
/// warp along the larger of the dot's M and N (`shape[0] >= shape[1] ? {W, 1} : {1, W}`),
/// and the second dot reuses the first's warpsPerCTA (AccelerateMatmul.cpp warpsPerTileV2).
/// wgmma (sm_90) needs num_warps % 4 == 0, M % 64 == 0 and K >= 256 / bits of every dot;
/// tcgen05 (sm_100/103) num_warps 4 or 8 and M % 64 == 0 (supportMMA).
Mma mma_of(const AttnProgram& p, int cc, int w, int dot_bits) {
  Mma m;
  // The PV dot [m, dv] is rewritten first (measured: warpsPerCTA follows m vs dv, e.g. [1, 8]
  // for vLLM's prefill 128x128 with head 512, [8, 1] for head 128), the QK dot reuses it.
  m.warps = p.m >= p.dv ? std::array<long long, 2>{w, 1} : std::array<long long, 2>{1, w};
  const bool hopper = cc >= 90 && cc < 100, blackwell = cc >= 100 && cc < 110;
  const long long kmin = 256 / dot_bits;
  const bool ks = p.d >= kmin && p.n >= kmin && (p.dpe == 0 || p.dpe >= kmin);
  if (hopper && w % 4 == 0 && p.m % 64 == 0 && ks) m.version = 3;
  if (blackwell && (w == 4 || w == 8) && p.m % 64 == 0 && ks) m.version = 5;
  return m;
}

/// Scratch bytes of a ttg.convert_layout when it needs shared memory (0 when it stays in
/// registers or is a warp shuffle): lib/Analysis/Utility.cpp cvtNeedsSharedMemory with the
/// swizzled scratch size of lib/Tools/GenericSwizzling.cpp (triton_layout.hpp).
Bytes cvt_bytes(const Flat& src, const Flat& dst, int bits, int cc) {
  return triton::cvt_scratch_if_needed(src, dst, bits, cc) * (bits / 8);
}

/// tt.reduce's scratch (lib/Analysis/Utility.cpp ReduceOpHelper): a reduction along `axis` whose
/// unique data spans `warps_axis` warps goes through shared memory, srcShape with the axis
/// replaced by that warp count, 4-byte (f32) elements; within a warp it needs none.
Bytes reduce_bytes(long long rows, long long cols, int axis, long long warps_axis) {
  if (warps_axis <= 1) return 0;
  return (axis == 0 ? warps_axis * cols : rows * warps_axis) * 4;
}

/// tt.trans of a register tensor: the same linear layout with the out-dimensions swapped
/// (inferTransOpEncoding, lib/Dialect/TritonGPU/IR/Dialect.cpp); `dim0_log2` is log2 of the
/// first out-dimension before the transposition (as src/model/triton_gemm.cpp's transposed()).
Flat transposed(const Flat& f, int dim0_log2) {
  Flat t = f;
  const int dim1_log2 = f.dim - dim0_log2;
  const std::uint32_t low = (1u << dim0_log2) - 1;
  for (int in = 0; in < triton::kInDims; ++in)
    for (int i = 0; i < f.n[in]; ++i)
      t.b[in][i] = (f.b[in][i] >> dim0_log2) | ((f.b[in][i] & low) << dim1_log2);
  return t;
}

/// NVMMASharedEncodingAttr's swizzle from the contiguous bytes of a row (TritonGPUAttrDefs.td
/// 420-451) and its alignment 128 * max(swizzle / 16, 1) (as src/model/triton_gemm.cpp).
Bytes nvmma_align(long long contig_bytes) {
  int swizzle = 0;
  if (contig_bytes >= 128 && contig_bytes % 128 == 0)
    swizzle = 128;
  else if (contig_bytes >= 64 && contig_bytes % 64 == 0)
    swizzle = 64;
  else if (contig_bytes >= 32 && contig_bytes % 32 == 0)
    swizzle = 32;
  return 128 * (swizzle != 0 ? swizzle / 16 : 1);
}

/// tcgen05's second dot takes P = softmax(S).to(dot type) as its A operand. The
/// TritonNvidiaGPUPromoteLHSToTMem pass (lib/Dialect/TritonNvidiaGPU/Transforms/
/// PromoteLHSToTMem.cpp, LHSToTMem::matchAndRewrite; nearest stored version 02f9694c) moves a
/// 16- or 32-bit A operand from its local_alloc to tensor memory and refuses other widths ("We
/// don't currently support fp8"): an 8-bit P (SGLang's p.to(v.dtype) with an fp8 cache) stays
/// a local_alloc of M x N bytes, NVMMA-shared. A promoted P needs no shared memory unless its
/// register layout is not TMEM-compatible: with 8 warps and blockM 128, OptimizeTMemLayouts.cpp
/// TMemLoadReducePattern gives the QK tmem_load (which feeds the softmax's reductions along N)
/// the split-long-M layout (getTmemLoadLayoutSplitLongM: the second warpgroup along M, i.e.
/// the default 32x32b layout with its lane bit 4 (row 16) and warp bit 2 (column N/2)
/// exchanged), and LHSToTMem converts P back to getTmemCompatibleLayout — a
/// convert_layout through shared memory, live until the tmem_alloc (TTGIR dumps: 4096 B for
/// 128x128 and 128x64 f16).
struct PTmem {
  Bytes smem_p = 0;     ///< the 8-bit P's local_alloc
  Bytes cvt = 0;        ///< the convert scratch before the tmem_alloc
  Bytes alpha_cvt = 0;  ///< the [M, 1] rescale factor's conversion to the accumulator layout
  Bytes p_align = 16;
};
PTmem tcgen05_p_operand(long long m, long long n, int p_bits, int w, int cc) {
  PTmem r;
  if (p_bits != 16 && p_bits != 32) {
    r.smem_p = m * n * p_bits / 8;
    r.p_align = nvmma_align(n * p_bits / 8);
    return r;
  }
  if (w != 8 || m < 128) return r;
  triton::Accumulator acc;
  acc.version = 5;
  acc.bm_log2 = 7;
  acc.bn_log2 = log2i(n);
  acc.num_warps = w;
  const Flat dflt = triton::accumulator_layout(acc, {log2i(m), log2i(n)});
  Flat split = dflt;
  if (split.n[triton::kLane] == 5 && split.n[triton::kWarp] == 3)
    std::swap(split.b[triton::kLane][4], split.b[triton::kWarp][2]);
  r.cvt = cvt_bytes(split, dflt, p_bits, cc);
  const Flat d1 = triton::accumulator_layout(acc, {log2i(m), 0});
  Flat s1 = d1;
  if (s1.n[triton::kLane] == 5 && s1.n[triton::kWarp] == 3)
    std::swap(s1.b[triton::kLane][4], s1.b[triton::kWarp][2]);
  r.alpha_cvt = cvt_bytes(s1, d1, 32, cc);
  return r;
}

struct Ctx {
  const AttnLaunch& l;
  const AttnProgram& p;
  int cc, w, s;
};

/// SGLang's grouped decode kernel computes the rope part in the query's type: qpe stays as
/// loaded and the cache's kpe is cast to it, qk += tl.dot(qpe, kpe.to(qpe.dtype))
/// (decode_attention.py:489-491, 530), where its extend kernel casts qpe to the cache's type
/// (extend_attention.py:450). Qpe's shared copy has q's element size; the plain kpe cast is
/// hoisted after the operand's local_load (OptimizeDotOperands.cpp HoistLayoutConversion), so
/// kpe's copy keeps the cache's element size. Returns {qpe bytes, kpe copy bytes} per element.
std::pair<int, int> sglang_decode_pe_bytes(const AttnLaunch& l, int db, int kb) {
  if (l.kernel != AttnKernel::SglangDecodeGroupedStage1) return {db, db};
  return {bits(l.q_dtype) / 8, kb};
}

/// An 8-bit wgmma's B operand must be K-major: AccelerateMatmul.cpp getSharedMemoryMMAOperand
/// allows a transposed operand only for f16 / bf16 ("In MMAV3 tranpose is only supported for
/// f16 and bf16", nearest stored version 00479070; opIdx 1 then takes order {0, 1}). V,
/// loaded [BLOCK_N, BLOCK_DV] contiguous along BLOCK_DV, gets a shared layout contiguous along
/// BLOCK_N: the register -> shared copy has one consecutive byte, and AssignLatencies.cpp
/// isPipeliningBeneficial refuses a load whose local_alloc copy moves fewer than 4
/// (getCopyVecBytes, "At least 4 bytes need to be consecutive for cp.async"; 020b1b05). V is
/// then a tt.load + local_alloc in the loop at every num_stages, and its kv_indices copy is not
/// buffered either (the walk stops at the refused load). TTGIR dumps of SGLang's
/// `_fwd_kernel_unified` with an fp8 cache on sm_90: K 2x128x64xf8 buffered, V 64x128xf8 a
/// local_alloc (#nvmma_shared transposed) at the PV dot. K [D, N] and Kpe are contiguous along
/// their K dimension already.
bool wgmma_8bit_v_unbuffered(int mma_version, int dot_bits, bool v_from_k) {
  return mma_version == 3 && dot_bits == 8 && !v_from_k;
}

/// The page-table load gets a copy per layout it is used in (K's `[None, :]`, V's `[:, None]`,
/// Kpe's) only because RemoveLayoutConversions may rematerialise it: a load of fewer elements
/// than the CTA has threads is cheap (lib/Dialect/TritonGPU/Transforms/Utility.cpp
/// isExpensiveLoadOrStore, "Tensor of pointers has more threads than elements"). A [BLOCK_N]
/// index tile with BLOCK_N >= 32 * num_warps stays one load whose buffer every use reads
/// (TTGIR: SGLang `_fwd_kernel_unified` BLOCK_N 128, 4 warps, S 4 on sm_121: one 1x128xi64
/// buffer, local_load into K's and V's slice layouts).
bool index_load_shared(long long n, int w) { return n >= 32LL * w; }

/// How many buffers the page-table load gets: one per distinct layout among the buffered loads
/// whose addresses it feeds — K's `[None, :]` (a slice of K's [D, N] layout), Kpe's (a slice
/// of the [Dpe, N] layout: another one unless the two tiles' coalesced layouts agree) and V's
/// `[:, None]` — each a rematerialised copy of the cheap load (index_load_shared); a refused
/// load's index is not walked (AssignLatencies.cpp loadOpsToIndirectionLevel). The kernels all
/// index that way: SGLang's grouped decode kv_loc[None, :] / kv_loc[:, None]
/// (decode_attention.py:499-513, 548-557; page_id / tok_in_p likewise with PAGE_SIZE > 1),
/// `_fwd_kernel_unified`'s offs_kv_loc (extend_attention.py:1026-1075), vLLM's block tables
/// (triton_decode_attention.py:370-420, the unified kernel's). TTGIR dumps: two 1x32xi64 for
/// SGLang's Qwen3 decode on sm_121 at S 3 (K, V); three 1x64xi64 for `_fwd_kernel_unified` D 128
/// / DPE 64 on sm_80 … sm_121 at S 3 and 4 (K, Kpe, V); vLLM's MLA decode with an fp8 cache (K
/// cast, so buffered; V = trans(K)) two 1x32xi32 on sm_121 at S 4 (K, Kpe), its bf16 one
/// only Kpe's (one 1x32xi32 on sm_89 at S 3).
int index_copies(const AttnProgram& p, int w, bool k_pipe, bool kpe_pipe, bool v_pipe) {
  if (index_load_shared(p.n, w)) return 1;
  bool kpe_own = kpe_pipe && p.dpe > 0;
  if (kpe_own && k_pipe) {
    const triton::Blocked k = coalesced(p.d, p.n, 0, p.kv_bits, w);
    const triton::Blocked kpe = coalesced(p.dpe, p.n, 0, p.kv_bits, w);
    kpe_own = !(k.spt == kpe.spt && k.tpw == kpe.tpw && k.wpc == kpe.wpc && k.order == kpe.order);
  }
  return std::max(1, int(k_pipe) + int(kpe_own) + int(v_pipe));
}

/// An fp8 V tile that mma.sync promotes to f16 (mmav2SupportsFp8Operands false: every
/// capability but 89 and 120, AccelerateMatmul.cpp) and that is neither buffered nor cast with a
/// scale: the dot operand's conversion of the raw load is hoisted above the promotion
/// (OptimizeDotOperands.cpp HoistLayoutConversion), so the tile goes through shared memory in
/// the cache's type right after its load and is dead before P's copy (measured on sm_121: the
/// 32x64 f8 V local_alloc + local_load directly after its tt.load, then tt.fp_to_fp in the
/// dot-operand layout; P's local_alloc reuses its offset).
bool promoted_raw_v(bool promoted, bool v_from_k, bool v_pipe, bool kv_cast, bool v_masked) {
  return promoted && !v_from_k && !v_pipe && !kv_cast && !v_masked;
}

/// Where the V tile's shared copy becomes live. vLLM's unified kernel casts both tiles right
/// after their loads, K = _cast_kv_tile(K_load, ...) and V = _cast_kv_tile(V_load, ...)
/// (triton_unified_attention.py:492-493), before the QK dot (540): with a scaled cast
/// (KV_QUANT_MODE 1, _cast_kv_tile 51-54) both cast copies are allocated there and live
/// together (measured: the K and V copies at adjacent offsets on sm_89/90/100/120 without a
/// sliding window). Unbuffered uncast tiles (num_stages 1) likewise: K_load and V_load are
/// both local_alloc'ed before the QK dot (measured on sm_121 and sm_89). With a sliding window
/// V is masked later (V = tl.where(sw_mask_v, V, 0.0)), the masked tile being the PV dot's
/// operand, allocated with P. Elsewhere V's copy is made for the PV dot.
int v_copy_start(const AttnLaunch& l, bool v_masked, int k0, int pv) {
  if (l.kernel == AttnKernel::VllmUnified && !v_masked) return k0;
  return pv;
}

/// vLLM prefix_prefill's `_fwd_kernel_alibi` (prefix_prefill.py:497-775) has two loops. The
/// cache loop's K and V addresses use the page size and x as runtime arguments (block_size, x:
/// 510-511, `(offs_d[:, None] // x) ... + (offs_d[:, None] % x)` and `% block_size`: 606-617),
/// so the axis analysis sees no contiguity: one element per thread, below the 32 bits
/// AssignLatencies.cpp needs for an async copy — nothing in that loop is buffered (measured: the
/// K and V tiles as local_alloc copies in the loop at num_stages 4). The new-token loop reads the
/// dense K / V in q's type (k_ptrs, v_ptrs: 675-690, 702-760) without a cast, no page table.
struct AlibiLoop {
  bool unbuffered = false, dense = false;
};
AlibiLoop alibi_loop(const AttnLaunch& l, int loop) {
  AlibiLoop a;
  if (l.kernel != AttnKernel::VllmPrefixPrefillAlibi) return a;
  a.unbuffered = loop == 0;
  a.dense = loop == 1;
  return a;
}

/// vLLM prefix_prefill's `_fwd_kernel` (prefix_prefill.py:107-495): its second loop, over the
/// new tokens (369-475), reads K and V from the dense K / V tensors in q's type
/// (`k = tl.load(k_ptrs + ...)`, `v = tl.load(v_ptrs + ...)`: 388-392, 456-460) — no fp8 cast
/// and no block table, unless KV_FROM_CACHE re-reads the paged cache (395-415). With an fp8
/// cache that loop's K/V are 16-bit, buffered by the pipeliner as loaded (each a plain load
/// feeding its dot: one buffer more with wgmma / tcgen05, LowerLoops.cpp
/// loadRequiresAdditionalBuffer), as `_fwd_kernel_alibi`'s new-token loop (TTGIR dumps on
/// sm_89/90/100/120/121: 2x64x64xbf16 K and V buffers at num_stages 2 beside an e4m3 cache).
bool prefix_dense_loop(const AttnLaunch& l, int loop) {
  return l.kernel == AttnKernel::VllmPrefixPrefill && loop == 1 &&
         l.get("KV_FROM_CACHE").value_or(0) == 0;
}

/// mma.sync's operand layout takes kWidth from the narrowest type an operand was converted from
/// (AccelerateMatmul.cpp: the dot-operand encodings get kWidth = 32 / that bit width): in
/// `_fwd_kernel_alibi` with an fp8 cache the cache loop's dots read K and V cast from 8-bit
/// loads (kWidth 4), the new-token loop's dots 16-bit ones (kWidth 2), so Q, shared by both
/// loops' QK dots, gets a second local_alloc in the other encoding, live until the cache loop
/// ends (measured on sm_89, sm_120, sm_121: two Q copies, #shared vec 8 and vec 16).
bool alibi_second_q(const AttnLaunch& l, int mma_version, bool kv_cast) {
  return l.kernel == AttnKernel::VllmPrefixPrefillAlibi && mma_version == 2 && kv_cast &&
         bits(l.kv_dtype) == 8;
}

/// SGLang's extend kernels put the body of a KV loop under `if not SKIP_TILE:` when a tile can
/// be skipped — a sliding window or a custom mask (extend_attention.py:395-399 and 553-557 for
/// _fwd_kernel's prefix and extend loops, 1020-1024 for _fwd_kernel_unified). The dots then sit
/// in an scf.if, not in the loop's body: AssignLatencies.cpp loadOpsToIndirectionLevel starts
/// its search only from the dots among `forOp.getBody()`'s own ops (nearest stored version
/// 020b1b05; Triton 3.6 keeps that walk), so nothing in such a loop is pipelined, and the
/// q.to(k.dtype) cast, computed inside the if, is not hoisted before the loop: its copy lives
/// at the QK dot only (TTGIR dumps of SGLang extend with SLIDING_WINDOW_SIZE 128 on sm_100).
/// `prefix` is the loop over the cached prefix (_fwd_kernel's first loop).
bool skip_tile_gated(const AttnLaunch& l, bool prefix) {
  const bool sw = l.get("SLIDING_WINDOW_SIZE").value_or(-1) > 0;
  const bool mask = l.get("USE_CUSTOM_MASK").value_or(0) != 0;
  if (l.kernel == AttnKernel::SglangExtendUnified) return sw || mask;
  if (l.kernel != AttnKernel::SglangExtend) return false;
  if (prefix) return sw || (mask && l.get("SKIP_PREFIX_CUSTOM_MASK").value_or(0) == 0);
  return sw || mask;
}

/// sm_75's FMA dots read every operand through a local_alloc + local_load of its f32 copy
/// (the extf to f32 of the FMA path, then the dot-operand conversion decomposed into shared
/// memory), placed right before the dot. Where a loop's body is not gated, LICM
/// (passes.common.add_licm in third_party/nvidia/backend/compiler.py) hoists Q's extf and
/// local_alloc (loop-invariant) out of the loop, so Q's copy is live with K's (MLIR's
/// moveLoopInvariantCode, mlir/lib/Transforms/Utils/LoopInvariantCodeMotionUtils.cpp, visits
/// the loop region's own ops, and those whose operands become invariant). Under SGLang's
/// `if not SKIP_TILE:` (skip_tile_gated) the dots and their operands sit in the scf.if, which
/// LICM does not enter: Q's copy is made and read in the if, dead before K's local_alloc
/// (TTGIR dumps on sm_75, e.g. SLIDING_WINDOW_SIZE 1024: Q 32x256xf32, K 256x32xf32, P, V all
/// at offset 0, one after the other). True when every KV loop the kernel runs is gated.
bool fma_every_loop_gated(const AttnLaunch& l) {
  if (l.kernel == AttnKernel::SglangExtendUnified) return skip_tile_gated(l, false);
  if (l.kernel != AttnKernel::SglangExtend) return false;
  const bool prefix = l.get("SKIP_PREFIX").value_or(0) == 0;
  const bool extend = l.get("SKIP_EXTEND").value_or(0) == 0;
  return (prefix || extend) && (!prefix || skip_tile_gated(l, true)) &&
         (!extend || skip_tile_gated(l, false));
}

/// SGLang `_fwd_kernel`'s prefix loop reads its page table once per tile, kv_loc =
/// tl.load(kv_indices + ...) as a [BLOCK_N] int64 vector (extend_attention.py:401; with
/// PAGE_SIZE > 1 page_id / tok_in_p from it, :417-418), used as kv_loc[None, :] for K's and
/// kv_loc[:, None] for V's addresses, whose layouts are K's and V's coalesced ones. The load
/// gets the 1-D coalesced layout (32 lanes x num_warps along BLOCK_N). RemoveLayoutConversions'
/// backward rematerialization would reload it in each consumer's layout, but a load of at
/// least numWarps * threadsPerWarp elements is "expensive" (lib/Dialect/TritonGPU/Transforms/
/// Utility.cpp isExpensiveLoadOrStore, as every stored version has it): then the conversions
/// of the index vector to K's and V's slice layouts stay, through shared memory (TTGIR dumps:
/// a 1x128 / 128x1 xi64 convert_layout, 1024 B, before the K / V loads, with 2 and 4 warps
/// and BLOCK_N 128, or 2 warps and BLOCK_N 64; none where BLOCK_N < 32 * num_warps). When
/// the pipeliner buffers the index load itself (num_stages > 2, idx_pipe) the local_load reads
/// it in the consumers' layouts and no conversion is left (TTGIR at num_stages 3). Returns the
/// larger of the two scratches (they are not live together).
Bytes sglang_kv_index_cvt(const AttnLaunch& l, const AttnProgram& p, int w, int cc,
                          bool idx_buffered) {
  if (l.kernel != AttnKernel::SglangExtend || idx_buffered || p.n < 32LL * w) return 0;
  const Flat src_k = flat(coalesced(1, p.n, 1, 64, w), 1, p.n);
  const Flat dst_k = flat(coalesced(p.d, p.n, 0, p.kv_bits, w), 1, p.n);
  const Flat src_v = flat(coalesced(p.n, 1, 0, 64, w), p.n, 1);
  const Flat dst_v = flat(coalesced(p.n, p.dv, 1, p.kv_bits, w), p.n, 1);
  return std::max(cvt_bytes(src_k, dst_k, 64, cc), cvt_bytes(src_v, dst_v, 64, cc));
}

/// An FMA dot's result layout (sm_75): TritonDotPattern (lib/Conversion/TritonToTritonGPU/
/// TritonToTritonGPUPass.cpp) gives the dot a blocked layout with sizePerThread 2 x 2 when the
/// result has at least 4 elements per thread, 4 x 4 from 16, else 1 x 1 (each at most the
/// extent), order [1, 0], BlockedEncodingAttr::get's threads and warps (TTGIR, run V: [16, 32]
/// with 4 warps: [2, 2] / [2, 16] / [4, 1]; [8, 128]: [2, 2] / [1, 32] / [2, 2]).
triton::Blocked fma_dot_result(long long rows, long long cols, int w) {
  const long long per = rows * cols / (32LL * w);
  const long long spt = per >= 16 ? 4 : per >= 4 ? 2 : 1;
  return triton::blocked_get(2, {rows, cols}, {std::min(spt, rows), std::min(spt, cols)}, {1, 0},
                             w);
}

/// The K loop of a two-dot kernel: its buffers at num_stages `s`.
/// Returns whether the pipeliner buffers any load (num_stages matters).
bool two_dot(const Ctx& c, Buffers& bufs) {
  const AttnProgram& p = c.p;
  // The dots' operand type: vLLM casts K/V to q's type ((k.to(f32) * k_scale).to(q.dtype),
  // triton_decode_attention.py:389; _cast_kv_tile in triton_unified_attention.py; prefix_prefill.py
  // :282); SGLang casts q to the cache's type (q.to(k.dtype): decode_attention.py:483,
  // extend_attention.py:256, 692).
  const bool sglang = c.l.kernel == AttnKernel::SglangDecodeGroupedStage1 ||
                      c.l.kernel == AttnKernel::SglangExtend ||
                      c.l.kernel == AttnKernel::SglangExtendUnified;
  const DType dot_t = sglang ? c.l.kv_dtype : c.l.q_dtype;
  // A cast with a scale, (x.to(f32) * scale).to(t), keeps the loaded tile in registers and the
  // cast copy is what the dot reads from shared memory; a plain x.to(t) of a load feeding a dot
  // is moved after the dot operand's conversion (OptimizeDotOperands.cpp HoistLayoutConversion)
  // and costs nothing. vLLM's unified kernel scales only in KV_QUANT_MODE 1.
  const bool scaled =
      c.l.kernel == AttnKernel::VllmDecodeGroupedStage1 ||
      c.l.kernel == AttnKernel::VllmPrefixPrefill ||
      c.l.kernel == AttnKernel::VllmPrefixPrefillAlibi ||
      (c.l.kernel == AttnKernel::VllmUnified && c.l.get("KV_QUANT_MODE").value_or(0) == 1);
  const bool kv_cast = c.l.kv_dtype != dot_t && scaled;
  // sm_75: Triton 3.6 has no mma for Turing (getMMAVersionSafe / supportMMA): the dots are FMA
  // dots on f32 operands (TTGIR: dot_op parents are #blocked, inputPrecision = tf32), and the
  // software pipeliner does not run below sm_80 (backend/compiler.py make_ttgir).
  const bool fma = c.cc < 80;
  const int dot_bits = fma ? 32 : bits(dot_t);
  const Mma mma = mma_of(p, c.cc, c.w, dot_bits);
  const int kb = p.kv_bits / 8;
  // fp8 dots of mma.sync are promoted to f16 in registers except on sm_89 and sm_120
  // (AccelerateMatmul.cpp mmav2SupportsFp8Operands, docs/dev/triton-model.md §2): the operands that
  // are computed, not loaded (the cast Q, P), reach shared memory as f16.
  const bool promoted = !fma && mma.version == 2 && dot_bits == 8 && c.cc != 89 && c.cc != 120;
  const int db0 = promoted ? 2 : dot_bits / 8;
  const int db = db0;
  const Bytes k_tile = p.d * p.n, kpe_tile = p.dpe * p.n, v_tile = p.n * p.dv;

  if (fma && fma_every_loop_gated(c.l)) {
    // Each operand's copy alone, in the dots' order (fma_every_loop_gated).
    bufs.add(p.m * p.d * db, 16, 20, 21, Component::A);
    bufs.add(k_tile * db, 16, 21, 22, Component::B);
    bufs.add(p.m * p.dpe * db, 16, 22, 23, Component::A);
    bufs.add(kpe_tile * db, 16, 23, 24, Component::B);
    bufs.add(p.m * p.n * db, 16, 30, 31, Component::LayoutConversion);
    bufs.add(v_tile * db, 16, 31, 32, Component::B);
    return false;
  }
  if (fma && bits(dot_t) == 32) {
    // f32 tiles (vLLM with f32 activations, e.g. Gemma on a T4): the FMA dot takes them as
    // they are, no extf. The conversion of each operand to its dot-operand layout sits right
    // after the value's definition, so its local_alloc is there and its local_load at the dot
    // (ReduceDataDuplication.cpp: the alloc + load pair replaces the convert_layout where it
    // stands): a loaded tile's copy is live from its load to its dot, and an operand whose
    // layout already is the dot-operand layout has none (cvtNeedsSharedMemory). TTGIR dumps on
    // sm_75 (run V): vLLM unified's K_load and V_load local_alloc'ed right after their loads at
    // the loop's head (triton_unified_attention.py:473-490), both live at the QK dot; with a
    // sliding window the PV dot's V is the tl.where result, made after P (:597); vLLM decode's
    // v loaded after the QK dot (triton_decode_attention.py:412-424) and live with P; a V
    // whose coalesced load puts every warp along the head (Dv >= 128 x W) needs no copy. P's
    // copy is made where P is computed, before acc *= alpha[:, None], whose [M, 1] rescale
    // factor goes from the QK result's layout to the accumulator's (through shared memory when
    // warps exchange rows: TTGIR tensor<8x1xf32, #blocked3> -> #blocked5, 32 B).
    const std::array<int, 2> s_mn{log2i(p.m), log2i(p.n)}, s_mdv{log2i(p.m), log2i(p.dv)};
    const triton::Blocked s_par = fma_dot_result(p.m, p.n, c.w);
    const triton::Blocked acc_par = fma_dot_result(p.m, p.dv, c.w);
    auto copy = [&](const Flat& src, int op_idx, const triton::Blocked& parent,
                    const std::array<int, 2>& shape) {
      return triton::cvt_needs_smem(src, triton::fma_dot_operand_layout(op_idx, parent, shape));
    };
    const bool q_copy =
        copy(flat(coalesced(p.m, p.d, 1, 32, c.w), p.m, p.d), 0, s_par, {log2i(p.m), log2i(p.d)});
    const bool k_copy =
        copy(flat(coalesced(p.d, p.n, 0, 32, c.w), p.d, p.n), 1, s_par, {log2i(p.d), log2i(p.n)});
    const bool v_copy = copy(flat(coalesced(p.n, p.dv, 1, 32, c.w), p.n, p.dv), 1, acc_par,
                             {log2i(p.n), log2i(p.dv)});
    const bool p_copy = copy(triton::blocked_layout(s_par, s_mn, 2), 0, acc_par, s_mn);
    const Bytes alpha = cvt_bytes(triton::blocked_layout(s_par, {s_mn[0], 0}, 2),
                                  triton::blocked_layout(acc_par, {s_mdv[0], 0}, 2), 32, c.cc);
    const bool v_masked =
        c.l.kernel == AttnKernel::VllmUnified && c.l.get("SLIDING_WINDOW").value_or(0) > 0;
    const bool v_at_head = c.l.kernel == AttnKernel::VllmUnified && !v_masked;
    if (q_copy) {
      bufs.add(p.m * p.d * db, 16, 20, 33, Component::A);
      bufs.add(p.m * p.dpe * db, 16, 20, 33, Component::A);
    }
    if (k_copy) {
      bufs.add(k_tile * db, 16, 21, 24, Component::B);
      bufs.add(kpe_tile * db, 16, 24, 25, Component::B);
    }
    if (v_copy) bufs.add(v_tile * db, 16, v_at_head ? 22 : v_masked ? 30 : 26, 32, Component::B);
    if (p_copy) bufs.add(p.m * p.n * db, 16, 28, 32, Component::LayoutConversion);
    bufs.add(alpha, 16, 29, 30, Component::LayoutConversion);
    return false;
  }
  if (fma) {
    // Every operand is a local_alloc + local_load in the loop (ReduceDataDuplication). Q's and
    // Qpe's copies, hoisted before the loop (fma_every_loop_gated's LICM), stay live through
    // the whole body: K, the reduction, P and V each sit beside them, one after another (TTGIR
    // dumps on sm_75 with BLOCK_M > head_dim, where P outgrows K: SGLang context_attention_fwd
    // 128x64 Q at offset 0, K, P 128x32xf32 and V at 32768; prefix_prefill's new-token loop
    // P 64x64xf32 at 0 under Q at 16384; run Y, tools/attention/README.md).
    bufs.add(p.m * p.d * db, 16, 20, 33, Component::A);
    bufs.add(p.m * p.dpe * db, 16, 20, 33, Component::A);
    bufs.add(k_tile * db, 16, 21, 23, Component::B);
    bufs.add(kpe_tile * db, 16, 24, 25, Component::B);
    bufs.add(p.m * p.n * db, 16, 30, 31, Component::LayoutConversion);
    bufs.add(v_tile * db, 16, 31, 32, Component::B);
    bufs.add(reduce_bytes(p.m, p.n, 1, 1), 128, 26, 27, Component::LayoutConversion);
    return false;
  }

  // ---- which loads the pipeliner buffers (Pipeliner/AssignLatencies.cpp) -------------------
  // Loads that feed a tl.dot are candidates when every user can take a shared encoding
  // (canHaveSharedEncoding): MLA's K without a cast feeds both the QK dot and tl.trans for the
  // PV dot, so it is not buffered (its Kpe is); a cast K (fp8 cache) has one user, the cast,
  // and is buffered raw. A load of fewer than 32 bits per thread is not; every kept load gets
  // latency num_stages - 1 and, with mma.sync, that many copies.
  const long long vec_k = p.vec_cap > 0
                              ? std::min(p.vec_cap, per_thread(p.d * p.n, p.d, p.kv_bits, c.w))
                              : per_thread(p.d * p.n, p.d, p.kv_bits, c.w);
  const bool can = c.s > 1 && vec_k * p.kv_bits >= 32;
  const bool k_pipe = can && (!p.v_from_k || kv_cast);
  const bool kpe_pipe = can && p.dpe > 0;
  const bool v_pipe = can && !p.v_from_k;
  // The page-table (block-table, kv_indices) load the K/V addresses come from is one
  // indirection level up: kept when num_stages - 1 > 1, and then every kept load's latency is
  // (num_stages - 1) / 2 (loadOpsToIndirectionLevel, assignLatencies). It is buffered too, one
  // [BLOCK_N] i32 buffer per use (the K and the V address), as measured.
  // (MLA's uncast K is not buffered, its Kpe is: the index still feeds a buffered load)
  const bool idx_pipe = (k_pipe || kpe_pipe || v_pipe) && p.paged_loops > 0 && c.s - 1 > 1;
  const int latency = idx_pipe ? (c.s - 1) / 2 : c.s - 1;
  // tcgen05 (sm_100/103): the operands are NVMMA-shared (aligned 128 B x swizzle / 16,
  // lib/Dialect/TritonGPU/IR/Dialect.cpp; docs/dev/triton-model.md §4.2), each MMA waits on an
  // mbarrier (8 B, TritonNvidiaGPU MMAv5 lowering), and a buffered operand keeps one more copy
  // (the MMA's wait sits one stage later, LowerLoops.cpp).
  const bool v5 = mma.version == 5;
  // wgmma (sm_90): a load whose local_alloc the warp_group_dot reads itself gets one buffer more
  // (the async wgmma still reads it while the next copy lands: loadRequiresAdditionalBuffer,
  // Pipeliner/LowerLoops.cpp:419-444, 494-497, as the GEMM families, triton_gemm.cpp); a tile
  // cast in registers first (vLLM's scaled fp8 K/V) is read by the cast, not the MMA.
  const bool v3_direct = mma.version == 3 && !kv_cast;
  const int nbuf = v5 || v3_direct ? latency + 1 : latency;
  auto al = [&](long long contig_bytes) -> Bytes { return v5 ? nvmma_align(contig_bytes) : 16; };

  // Q (and Qpe): the first dots' A operands, loaded once; their shared copies live across the
  // loop (local_alloc before it, local_load in it).
  // With two loops Q serves both (until the last loop's end), except SGLang's prefix-loop
  // copy q.to(k.dtype) when that is another type (then only the first loop).
  const int loops_n = std::max(p.loops, 1);
  const bool q_first_only =
      c.l.kernel == AttnKernel::SglangExtend && loops_n == 2 && c.l.q_dtype != dot_t;
  const int q_end = q_first_only ? kLoopEnd : kLoop + (loops_n - 1) * 200 + kLoopEnd - kLoop;
  // The first loop's index in the kernel (SGLang extend without its prefix loop starts with
  // the extend loop).
  const bool first_is_prefix =
      c.l.kernel != AttnKernel::SglangExtend || c.l.get("SKIP_PREFIX").value_or(0) == 0;
  // A cast Q computed under SKIP_TILE's if stays in the first loop (skip_tile_gated).
  const bool q_in_loop = sglang && c.l.q_dtype != dot_t && skip_tile_gated(c.l, first_is_prefix);
  const auto [qpe_b, kpe_copy_b] = sglang_decode_pe_bytes(c.l, db, kb);
  if (!q_in_loop) {
    bufs.add(p.m * p.d * db, al(p.d * db), kQ, q_end, Component::A);
    bufs.add(p.m * p.dpe * qpe_b, al(p.dpe * qpe_b), kQ + 1, q_end, Component::A);
  }
  if (alibi_second_q(c.l, mma.version, kv_cast))
    bufs.add(p.m * p.d * db, 16, kQ, kLoopEnd, Component::A);

  const int loops = std::max(p.loops, 1);
  // SGLang's extend kernel: the second loop runs over the new tokens (K_Extend / V_Extend, in
  // the activation type, contiguous) with tl.dot(q, k) — q itself, no cast (extend_attention.py
  // :394): its own copy of Q when the prefix loop's q.to(k.dtype) differs, live across both.
  const bool extend2 = c.l.kernel == AttnKernel::SglangExtend && loops == 2;
  if (extend2 && c.l.q_dtype != dot_t) {
    const int qb = bits(c.l.q_dtype) / 8;
    bufs.add(p.m * p.d * qb, al(p.d * qb), kQ - 1, kLoop + 200 + kLoopEnd - kLoop, Component::A);
    // and of Qpe: the extend loop's tl.dot(qpe, kpe) (extend_attention.py:580) reads qpe itself
    bufs.add(p.m * p.dpe * qb, al(p.dpe * qb), kQ - 1, kLoop + 200 + kLoopEnd - kLoop,
             Component::A);
  }
  // mma.sync and wgmma read A from registers: the conversion of Q to the dot-operand layout
  // (a local_alloc + local_load) is hoisted above the cast (OptimizeDotOperands.cpp
  // HoistLayoutConversion), to Q as loaded before the loop: a copy in q's type across the
  // loop (TTGIR: 128x64 bf16 swizzled_shared before the gated loop on sm_90); with two loops
  // it is a buffer of its own beside the extend loop's (another swizzle), live over the first
  // loop (TTGIR, sm_121). tcgen05 needs A in shared memory as the dot's type, so its cast copy
  // stays in the loop.
  const bool q_hoisted = q_in_loop && !v5;
  if (q_hoisted) {
    const int qb = bits(c.l.q_dtype) / 8;
    bufs.add(p.m * p.d * qb, al(p.d * qb), kQ, q_end, Component::A);
    bufs.add(p.m * p.dpe * qb, al(p.dpe * qb), kQ + 1, q_end, Component::A);
  }
  const Bytes kb0 = kb;
  const int latency0 = latency, nbuf0 = nbuf;
  const bool idx0 = idx_pipe;
  const bool k_pipe0 = k_pipe, kpe_pipe0 = kpe_pipe, v_pipe0 = v_pipe, kv_cast0 = kv_cast;
  bool any_pipe = false;
  for (int li = 0; li < loops; ++li) {
    const int base = kLoop + li * 200;  // loops one after the other: disjoint ranges
    const int end = base + kLoopEnd - kLoop;
    // The loop's own types and buffering (the extend loop: q's type, not paged; the ALiBi
    // kernel's loops: alibi_loop).
    const AlibiLoop alibi = alibi_loop(c.l, li);
    const bool dense = alibi.dense || prefix_dense_loop(c.l, li);
    const bool ext = (extend2 && li == 1) || dense;
    const bool kv_cast = kv_cast0 && !dense;
    const int kb = ext ? bits(c.l.q_dtype) / 8 : static_cast<int>(kb0);
    // AssignLatencies works loop by loop: a loop without a page-table load (the new tokens'
    // loop) has no indirection level and its loads take num_stages - 1.
    const bool unpaged = ext || (li >= p.paged_loops && p.paged_loops > 0);
    const bool idx_pipe_l = unpaged ? false : idx0;
    const int latency = unpaged ? c.s - 1 : latency0;
    const int nbuf = ext       ? (v5 || mma.version == 3 ? c.s : c.s - 1)
                     : unpaged ? (v5 || v3_direct ? c.s : c.s - 1)
                               : nbuf0;
    const int db = ext ? bits(c.l.q_dtype) / 8 : db0;
    const bool gated = skip_tile_gated(c.l, li == 0 && first_is_prefix);
    const bool unbuf = gated || alibi.unbuffered;
    const bool k_pipe = k_pipe0 && !unbuf, kpe_pipe = kpe_pipe0 && !unbuf;
    // (the loop's own dot type: SGLang's extend loop and the dense loops dot in q's type)
    const bool v_pipe =
        v_pipe0 && !unbuf &&
        !wgmma_8bit_v_unbuffered(mma.version, ext ? bits(c.l.q_dtype) : dot_bits, p.v_from_k);
    const bool idx_pipe = idx_pipe_l && !gated;
    any_pipe = any_pipe || k_pipe || kpe_pipe || v_pipe;
    if (k_pipe) bufs.add(nbuf * k_tile * kb, kv_cast ? 16 : al(p.d * kb), base, end, Component::B);
    if (kpe_pipe)
      bufs.add(nbuf * kpe_tile * kb, kv_cast ? 16 : al(p.dpe * kb), base + 1, end, Component::B);
    // tcgen05 in SGLang's _fwd_kernel (num_stages > 1, an ungated loop): an MMA is pipelined
    // (made asynchronous, its completion wait moved a stage later: AssignLatencies' MMA
    // latencies, LowerLoops.cpp) where nothing in its iteration reads its result. The QK dot's
    // result feeds the softmax at once: asynchronous only beside a pipelined K (its wait
    // follows the buffered load). The PV dot differs by loop: the prefix loop's
    // `acc * re_scale[:, None] + tl.dot(p, v) * v_scale` reads the product in the iteration
    // (extend_attention.py:503-504), the extend loop's `acc * re_scale[:, None] + tl.dot(p, v)`
    // accumulates in tensor memory, read only by the next iteration's rescale (:625), so only
    // the extend loop's PV MMA is asynchronous. A buffered V keeps one more copy for the
    // asynchronous MMA only (TTGIR, SGLang extend D 64, 4 warps, S 2 on sm_100: the prefix
    // loop's V 1x64x64 beside K 2x64x64 and one 2x1xi64 barrier array, the extend loop's K
    // and V both 2x; run V).
    const bool sg = v5 && c.l.kernel == AttnKernel::SglangExtend && c.s > 1 && !gated;
    const bool ext_loop = first_is_prefix ? li == 1 : li == 0;
    const bool qk_async = sg ? (k_pipe || kpe_pipe) : (k_pipe || v_pipe);
    const bool pv_async = sg ? ext_loop : (k_pipe || v_pipe);
    if (v_pipe)
      bufs.add((sg && !pv_async ? nbuf - 1 : nbuf) * v_tile * kb, kv_cast ? 16 : al(p.dv * kb),
               base + 2, end, Component::B);
    // SGLang's kv_indices are int64, vLLM's block tables / req_to_tokens int32; one buffer per
    // layout the index is used in (index_copies).
    if (idx_pipe && li < p.paged_loops) {
      const int uses = index_copies(p, c.w, k_pipe, kpe_pipe, v_pipe);
      for (int u = 0; u < uses; ++u)
        bufs.add(latency * p.n * (sglang ? 8 : 4), 16, base + 3 + u, end, Component::B);
    }
    if (li == 0 && li < p.paged_loops)
      bufs.add(sglang_kv_index_cvt(c.l, p, c.w, c.cc, idx_pipe), 128, base + 4, base + 5,
               Component::LayoutConversion);
    // In-loop copies the dots read: K (cast, or not buffered) until the QK dot; with MLA also
    // V = tl.trans(K) from the same value — a second copy (cast) or a layout conversion
    // (uncast) live with it; Kpe after K's; V (cast or not buffered) with P.
    const int k0 = base + 20, pv = base + 30;
    if (q_in_loop && li == 0 && !q_hoisted) {
      bufs.add(p.m * p.d * db, al(p.d * db), k0, k0 + 2, Component::A);
      bufs.add(p.m * p.dpe * db, al(p.dpe * db), k0 + 3, k0 + 4, Component::A);
    }
    if (kv_cast)
      bufs.add(k_tile * db, al(p.d * db), k0, k0 + 2, Component::B);
    else if (!k_pipe)
      bufs.add(k_tile * kb, al(p.d * kb), k0, k0 + 2, Component::B);
    if (v5) {
      // A pipelined loop makes both MMAs asynchronous: each completion mbarrier becomes a
      // 2-entry array allocated before the loop (numStages = waitStage - mmaStage + 1,
      // LowerLoops.cpp:709-790, as triton_gemm.cpp; TTGIR: 2x1xi64 at S 2 and S 4).
      // (SGLang's _fwd_kernel: each MMA by its own rule, above)
      const bool async = qk_async || pv_async;
      if (qk_async)
        bufs.add(16, 16, base + 5, end, Component::KernelBarriers);
      else
        bufs.add(8, 8, k0 + 1, k0 + 2, Component::KernelBarriers);
      if (pv_async)
        bufs.add(16, 16, base + 6, end, Component::KernelBarriers);
      else
        bufs.add(8, 8, pv + 1, pv + 2, Component::KernelBarriers);
      // with DPE a third MMA, tl.dot(qpe, kpe), and its barrier array (TTGIR: three
      // 2x1xi64 for SGLang's _fwd_kernel_unified D 128 / DPE 64 at S 3)
      if (async && p.dpe > 0) bufs.add(16, 16, base + 7, end, Component::KernelBarriers);
      const PTmem pt = tcgen05_p_operand(p.m, p.n, db * 8, c.w, c.cc);
      // An 8-bit P stays in shared memory; in a pipelined loop its buffer is allocated before
      // the loop (a mutable local_alloc written by a local_store each iteration, as the
      // barriers), live through the body: with the softmax's reduction scratch too (TTGIR,
      // SGLang _fwd_kernel_unified fp8 on sm_100, BLOCK_M 64, 8 warps, S 2: %p 64x64xf8
      // mutable before the loop, the reductions' 512 B beside it; run V).
      if (pt.smem_p > 0)
        bufs.add(pt.smem_p, pt.p_align, async ? base + 8 : pv, async ? end : pv + 2,
                 Component::LayoutConversion);
      // Pipelined, P's tensor memory is hoisted out of the loop and written by a tmem_store,
      // which takes the split-long-M layout as it is (HoistTMEMAlloc.cpp; TTGIR at S 2: no
      // convert_layout of P): no scratch.
      if (pt.cvt > 0 && !async) bufs.add(pt.cvt, 128, pv, pv + 1, Component::LayoutConversion);
      // The rescale alpha[:, None] (a slice of the split-long-M layout) meets the accumulator's
      // default tmem layout: a [M, 1] f32 convert_layout after the QK dot (TTGIR: 512 B for
      // M 128), while the pipelined K/V buffers are live.
      if (pt.alpha_cvt > 0)
        bufs.add(pt.alpha_cvt, 128, k0 + 5, k0 + 6, Component::LayoutConversion);
    }
    if (p.v_from_k) {
      if (kv_cast)
        bufs.add(v_tile * db, 16, k0, pv + 2, Component::B);
      else {
        // V = tl.trans(K) in the PV dot's B-operand layout: a convert_layout of the loaded K
        // ([d, n] contiguous along d) to the transposed dot-operand layout (TTGIR: #linear).
        const std::array<int, 2> wl{log2i(mma.warps[0]), log2i(mma.warps[1])};
        const Flat src = flat(coalesced(p.d, p.n, 0, p.kv_bits, c.w), p.d, p.n);
        const Flat dst = transposed(triton::dot_operand_layout(1, log2i(std::max(32 / dot_bits, 1)),
                                                               wl, {log2i(p.n), log2i(p.dv)}),
                                    log2i(p.n));
        bufs.add(cvt_bytes(src, dst, p.kv_bits, c.cc), 128, k0 + 1, k0 + 2,
                 Component::LayoutConversion);
      }
    }
    if (p.dpe > 0 && (!kpe_pipe || kv_cast))
      bufs.add(kpe_tile * (kv_cast ? db : kpe_copy_b), 16, k0 + 3, k0 + 4, Component::B);
    // vLLM's unified kernel with a sliding window masks V (V = tl.where(sw_mask_v, V, 0.0),
    // triton_unified_attention.py): the masked tile is the PV dot's operand, a copy of its own.
    const bool v_masked =
        c.l.kernel == AttnKernel::VllmUnified && c.l.get("SLIDING_WINDOW").value_or(0) > 0;
    // SGLang extend's new-token loop multiplies q and the bf16/f16 K_Extend / V_Extend
    // (extend_attention.py:568, 580, 624-625): its dots are not fp8, nothing is promoted, and
    // its V copy is the PV dot's operand, live with P (TTGIR dumps, MLA fp8 extend on sm_90 /
    // sm_100 / sm_121: the 64x512 bf16 V local_alloc live with P's).
    if (sg && pv_async && !v_pipe && !p.v_from_k) {
      // The asynchronous PV MMA of an unbuffered V: the expander peels the first iteration
      // (its V copy made before the loop) and carries V's copy to the next iteration's wait, so
      // both copies, the peeled one and the loop's, live through the loop, beside K's (TTGIR,
      // SGLang extend D 72 (BLOCK_DMODEL 128) on sm_100 at S 2 / 4: three KV loops, the last
      // with Q, two 64x128 V copies and K at 0 / 16384 / 49152 / 32768; run V).
      bufs.add(2 * v_tile * kb, al(p.dv * kb), base, end, Component::B);
    } else if (promoted_raw_v(promoted && !ext, p.v_from_k, v_pipe, kv_cast, v_masked)) {
      bufs.add(v_tile * kb, 16, base + 22, base + 23, Component::B);
    } else if (!p.v_from_k && (!v_pipe || kv_cast || v_masked)) {
      // The loaded tile keeps the cache's type (an fp8 V stays fp8 even where mma.sync promotes
      // the computed operands); vLLM's scaled cast makes a copy in the dot type. So does a
      // masked fp8 V that mma.sync promotes (vLLM unified with an fp8 query and an fp8 cache
      // and a sliding window: V = tl.where(sw_mask_v, V, 0.0), an arith.select, then the
      // promotion's fp_to_fp to f16): HoistLayoutConversion moves the dot-operand conversion
      // above elementwise ops only up to a load, and canHoistDotOpEncV2 refuses arith.select
      // (lib/Dialect/TritonGPU/Transforms/OptimizeDotOperands.cpp), so the conversion stays
      // after the cast and the copy is f16 (TTGIR dumps on sm_90 / sm_100 with BLOCK_M 16 / 32,
      // run V: V 32x256xf16 local_alloc after the select and the fp_to_fp).
      const int vb = kv_cast || (promoted && v_masked && !ext) ? db : kb;
      // An fp8 dot that mma.sync promotes (AccelerateMatmul.cpp: the operands are upcast to
      // f16 in registers) reads V through its local_load and upcast before P exists: V's copy
      // ends before P's local_alloc (TTGIR dumps: P at V's offset, SGLang extend fp8 on sm_90).
      bufs.add(v_tile * vb, al(p.dv * vb), v_copy_start(c.l, v_masked, k0, pv),
               promoted && !ext ? pv + 1 : pv + 2, Component::B);
    }
    bool p_early = false;  // P's copy starts before the row sum (below)
    // P: the first dot's accumulator, cast to the dot type, becomes the PV dot's A operand:
    // a local_alloc + local_load when that conversion needs shared memory
    // (ReduceDataDuplication.cpp with cvtNeedsSharedMemory) — with every warp along M
    // (warpsPerTileV2 of a chained dot, M >= N) it stays in registers.
    {
      triton::Accumulator acc;
      acc.version = 2;
      acc.warps = {log2i(mma.warps[0]), log2i(mma.warps[1])};
      const Flat src = triton::accumulator_layout(acc, {log2i(p.m), log2i(p.n)});
      const Flat dst = triton::dot_operand_layout(0, log2i(std::max(32 / dot_bits, 1)), acc.warps,
                                                  {log2i(p.m), log2i(p.n)});
      // P.to(V.dtype) is a no-op when the dot type is f32 (tf32 mma.sync on f32 activations):
      // the copy's source is then P = exp(...) itself, defined before the row sum, and
      // ReorderInstructions moves a local_alloc right after its source's definition
      // (lib/Dialect/TritonGPU/Transforms/ReorderInstructions.cpp, "alloc(load)" walk; Triton
      // 3.6): P's copy is live across tl.sum(P, 1)'s scratch, after the row max's (TTGIR: vLLM
      // unified f32 on sm_80, BLOCK_M 16, TILE_SIZE 16: P 16x16xf32 at the row max's offset,
      // the row sum's scratch beside it; run V). A cast P is converted at the dot, after both.
      if (mma.version == 2 && triton::cvt_needs_smem(src, dst)) {
        p_early = db * 8 == 32;
        bufs.add(p.m * p.n * db, 16, p_early ? base + 25 : pv + 1, pv + 2,
                 Component::LayoutConversion);
      }
    }
    // softmax: tl.max / tl.sum along the KV axis, across the warps that split it. wgmma: the
    // QK dot heads a chain of dots, so warpsPerTileV3 puts every warp along M
    // (AccelerateMatmul.cpp warpsPerTileV3, TTGIR: warpsPerCTA = [W, 1] for the QK #mma even
    // where the PV dot's is [4, 2]) and the reductions stay within the warps.
    // tcgen05: the QK tmem_load layout (triton_layout.cpp tmem_builder) gives every row to
    // one warp with 4 warps, and with 8 the split-long-M layout (blockM 128) does too; with
    // blockM 64 and 8 warps the second warpgroup takes the upper half of the columns.
    // mma.sync: the warps with unique data along N, an instruction's 8 columns each
    // (ReduceOpHelper::getInterWarpSizeWithUniqueData, lib/Analysis/Utility.cpp): a 16-wide
    // tile over 4 warps along N spans 2 (TTGIR: tl.sum's scratch 128 B for [16, 16] f32 under
    // warpsPerCTA [1, 4]; vLLM unified f32 on sm_80, TILE_SIZE 16; run V).
    const long long warps_n = mma.version == 5 ? (c.w == 8 && p.m < 128 ? 2 : 1)
                              : mma.version == 2
                                  ? std::min<long long>(mma.warps[1], std::max(1LL, p.n / 8))
                                  : mma.warps[1];
    // (the row max's scratch, then the row sum's; one buffer where P's copy is not between)
    if (mma.version != 3) {
      bufs.add(reduce_bytes(p.m, p.n, 1, warps_n), 128, base + 24, base + 25,
               Component::LayoutConversion);
      if (p_early)
        bufs.add(reduce_bytes(p.m, p.n, 1, warps_n), 128, base + 26, base + 27,
                 Component::LayoutConversion);
    }
  }
  // The epilogue: the accumulator [m, dv] converted to the store's coalesced layout. wgmma: the
  // PV dot heads no chain, so its warps are warpsPerTileV3's and its N mmaVersionToInstrShape's
  // (triton_gemm.hpp warps_v3, v3_instr_n; TTGIR: [8, 1] n 128 for 128x128 with 8 warps,
  // [4, 2] n 64 for 64x128).
  if (mma.version == 2 || mma.version == 3) {
    triton::Accumulator acc;
    acc.version = mma.version;
    const std::array<long long, 2> wv = mma.version == 3 ? triton::warps_v3(p.m, c.w) : mma.warps;
    acc.warps = {log2i(wv[0]), log2i(wv[1])};
    if (mma.version == 3) acc.instr_n = triton::v3_instr_n(p.m, p.dv, c.w);
    const Flat src = triton::accumulator_layout(acc, {log2i(p.m), log2i(p.dv)});
    triton::Blocked store = coalesced(p.m, p.dv, 1, p.store_bits, c.w);
    if (p.vec_cap > 0 && (1LL << store.spt[1]) > p.vec_cap)
      store = triton::blocked_get(2, {p.m, p.dv}, {1, p.vec_cap}, {1, 0}, c.w);
    const Flat dst = flat(store, p.m, p.dv);
    // after the last loop (loops run one after the other, 200 points apart)
    const int epi = kEpilogue + (loops - 1) * 200;
    bufs.add(cvt_bytes(src, dst, p.store_bits, c.cc), 128, epi, epi + 1,
             Component::LayoutConversion);
  }
  return any_pipe;
}

/// The decode kernel without tl.dot (triton_decode_attention.py:69-207): k [BLOCK_N,
/// BLOCK_DMODEL] in its coalesced layout, qk = tl.sum(q * k, 1) (within a warp: the row is
/// split over lanes), tl.max(qk, 0) and tl.sum(p, 0) over the warps, tl.sum(p[:, None] * v, 0)
/// across the warps that split BLOCK_N, and the [BLOCK_DV] result converted to the store's
/// layout. The loop has no tl.dot: nothing is pipelined (AssignLatencies.cpp
/// loadOpsToIndirectionLevel starts from the dots; `range` carries no num_stages attribute).
void vector_dot(const Ctx& c, Buffers& bufs) {
  const AttnProgram& p = c.p;
  const triton::Blocked kl = coalesced(p.vec_n, p.vec_d, 1, p.kv_bits, c.w);
  const triton::Blocked vl = coalesced(p.vec_n, p.vec_dv, 1, p.kv_bits, c.w);
  const long long wk0 = 1LL << kl.wpc[0], wv0 = 1LL << vl.wpc[0];
  bufs.add(reduce_bytes(p.vec_n, 1, 0, wk0), 128, 20, 21, Component::LayoutConversion);
  bufs.add(reduce_bytes(p.vec_n, p.vec_dv, 0, wv0), 128, 30, 31, Component::LayoutConversion);
}

/// reduce_segments' result: acc = tl.sum(segm_output, axis=0) keeps the slice (dim 0) of
/// segm_output's coalesced [NUM_SEGMENTS, HEAD_SIZE_PADDED] f32 layout (SliceEncodingAttr: the
/// parent built for a shape 1 along dim 0, its zero register bases dropped,
/// LinearLayoutConversions.cpp:1014-1036); it is cast to the output type and stored through
/// output_ptr + tl.arange(0, HEAD_SIZE_PADDED) (triton_unified_attention.py reduce_segments),
/// whose coalesced 1-D layout can hold more elements per thread (16 B of the output type
/// against 16 B of f32): the convert_layout after the truncf goes through shared memory then
/// (TTGIR: tensor<512xbf16> slice -> #blocked sizePerThread [8], allocation.offset 0, 1024 B
/// for HEAD_SIZE 512 with 2 warps). Live after the reduction, not with its scratch.
Bytes combine_store_cvt(const AttnProgram& p, int w, int cc) {
  const triton::Blocked parent = coalesced(p.vec_n, p.vec_dv, 1, 32, w);
  const Flat acc = triton::remove_broadcast_regs(flat(parent, 1, p.vec_dv));
  const Flat store = flat(coalesced(1, p.vec_dv, 1, p.store_bits, w), 1, p.vec_dv);
  return cvt_bytes(acc, store, p.store_bits, cc);
}

/// One tl.dot's contraction extent with its operands' bits, as semantic.py dot checks it.
struct DotK {
  const char* block;
  long long value;
  int bits;
};

/// The K extents of the two-dot kernels' tl.dot's with their operand bits. vLLM casts K / V to
/// q's type (every dot in q's type). SGLang casts to the cache's type: q.to(k.dtype),
/// qpe.to(kpe.dtype) and p.to(v.dtype) (extend_attention.py:430, 450, 503-504 in _fwd_kernel's
/// prefix loop; 1055, 1075, 1129-1130 in _fwd_kernel_unified; decode_attention.py:487 q_k and
/// 577 p.to(v.dtype)); the grouped decode's rope dot is in q's type, tl.dot(qpe,
/// kpe.to(qpe.dtype)) (:530), and _fwd_kernel's extend loop uses q, k, v as they are
/// (extend_attention.py:568, 580, 624-625): the narrower of its loops' types counts.
std::array<DotK, 3> dot_k_extents(const AttnLaunch& l, const AttnProgram& p) {
  const int qb = p.q_bits, cb = p.kv_bits;
  int qk = qb, rope = qb, pv = qb;
  switch (l.kernel) {
    case AttnKernel::SglangDecodeGroupedStage1:
      qk = pv = cb;
      break;
    case AttnKernel::SglangExtendUnified:
      qk = rope = pv = cb;
      break;
    case AttnKernel::SglangExtend:
      if (p.paged_loops > 0) qk = rope = pv = p.loops > 1 ? std::min(qb, cb) : cb;
      break;
    default:
      break;
  }
  return {{{"BLOCK_DMODEL", p.d, qk}, {"BLOCK_DPE", p.dpe, rope}, {"BLOCK_N", p.n, pv}}};
}

/// The registers the widest wgmma of a two-dot kernel needs at once, against what a thread can
/// have. A warp_group_dot's m64nNk instruction takes its whole f32 accumulator fragment as
/// operands, 64 x N / 128 threads = N / 2 registers, with N from mmaVersionToInstrShape
/// (triton_gemm.hpp v3_instr_n; TTGIR: n 64 for the QK dot 128x128 and n 128 for the PV dot
/// 128x256 with 16 warps), plus its operands: the PV dot's A (P, computed) from registers, a
/// 64 x 32 B fragment = 4 registers, and a 64-bit shared-memory descriptor for B (2); the QK
/// dot two descriptors. A thread gets at most 65536 / (32 x num_warps) of the SM's 64 K
/// registers, and never more than 255 (CUDA C Programming Guide, compute capability table).
struct WgmmaRegs {
  const char* dot = nullptr;  ///< the dot that does not fit, or nullptr
  int instr_n = 0, acc = 0, need = 0, limit = 0;
};
WgmmaRegs wgmma_registers(const AttnLaunch& l, const AttnProgram& p, int cc) {
  WgmmaRegs r;
  if (p.shape != Shape::TwoDot || cc < 80) return r;
  const bool sglang = l.kernel == AttnKernel::SglangDecodeGroupedStage1 ||
                      l.kernel == AttnKernel::SglangExtend ||
                      l.kernel == AttnKernel::SglangExtendUnified;
  const int w = l.num_warps;
  if (mma_of(p, cc, w, bits(sglang ? l.kv_dtype : l.q_dtype)).version != 3) return r;
  r.limit = std::min(255, 65536 / (32 * w));
  const std::array<std::tuple<const char*, long long, int>, 2> dots{
      {{"P.V", p.dv, 4 + 2}, {"Q.K", p.n, 2 + 2}}};
  for (const auto& [name, n, operands] : dots) {
    const int instr_n = triton::v3_instr_n(p.m, n, w);
    const int acc = instr_n / 2;
    if (acc + operands > r.limit) {
      r.dot = name;
      r.instr_n = instr_n;
      r.acc = acc;
      r.need = acc + operands;
      return r;
    }
  }
  return r;
}

}  // namespace

void decline(KernelSmem& r, Findings& why, const AttnLaunch& l, std::string_view what) {
  why.reject([&] {
    return diag(Code::attn_unmodelled).name("kernel", kernel_function(l.kernel)).name("what", what);
  });
  r.invalid = true;
  r.unmodelled = true;
}

KernelSmem kernel_smem(const AttnLaunch& l, int arch, Findings& why) {
  KernelSmem r;
  const std::string kname(kernel_function(l.kernel));
  if (arch < 75 || arch >= 130) {
    why.reject([&] { return diag(Code::attn_arch_unknown).arch("arch", arch); });
    r.invalid = true;
    return r;
  }
  AttnProgram p;
  std::string_view missing;
  if (!program_of(l, p, missing)) {
    why.reject([&] {
      return diag(Code::attn_missing_constexpr).name("kernel", kname).name("name", missing);
    });
    r.invalid = true;
    return r;
  }
  const int w = l.num_warps, s = std::max(l.num_stages, 1);
  if (!pow2(w) || w > 32) {
    why.reject(
        [&] { return diag(Code::attn_num_warps).name("kernel", kname).integer("num_warps", w); });
    r.invalid = true;
  }
  // fp8e4nv from capability 89 on (third_party/nvidia/backend/compiler.py:186-190).
  const std::array<std::pair<const char*, DType>, 3> tensors{
      {{"q", l.q_dtype}, {"kv", l.kv_dtype}, {"out", l.out_dtype}}};
  for (const auto& [name, t] : tensors)
    if (arch < 89 && (t == DType::E4M3 || t == DType::E5M2) && !r.invalid) {
      why.reject([&, name = name] {
        return diag(Code::attn_fp8_needs_sm89)
            .name("kernel", kname)
            .name("tensor", name)
            .arch("arch", arch);
      });
      r.invalid = true;
    }
  if (p.shape == Shape::TwoDot) {
    const std::array<std::pair<const char*, long long>, 5> blocks{{{"BLOCK_M", p.m},
                                                                   {"BLOCK_DMODEL", p.d},
                                                                   {"BLOCK_N", p.n},
                                                                   {"BLOCK_DV", p.dv},
                                                                   {"BLOCK_DPE", p.dpe}}};
    for (const auto& [name, v] : blocks)
      if ((v != 0 || std::string_view(name) != "BLOCK_DPE") && !pow2(v) && !r.invalid) {
        why.reject([&, name = name, v = v] {
          return diag(Code::attn_block_not_power_of_two)
              .name("kernel", kname)
              .name("block", name)
              .integer("value", v);
        });
        r.invalid = true;
      }
    for (const auto& [name, v, dot_bits] : dot_k_extents(l, p)) {
      const long long kmin = dot_bits == 8 ? 32 : 16;
      if (v != 0 && v < kmin && !r.invalid) {
        why.reject([&, name = name, v = v, dot_bits = dot_bits] {
          return diag(Code::attn_dot_min)
              .name("kernel", kname)
              .name("block", name)
              .integer("value", v)
              .integer("min", kmin)
              .integer("bits", dot_bits);
        });
        r.invalid = true;
      }
    }
    for (const auto& [name, numel] : std::array<std::pair<const char*, long long>, 3>{
             {{"K", p.d * p.n}, {"V", p.n * p.dv}, {"Q", p.m * p.d}}})
      if (numel > kMaxTensorNumel && !r.invalid) {
        why.reject([&, name = name, numel = numel] {
          return diag(Code::attn_tensor_too_large)
              .name("kernel", kname)
              .name("block", name)
              .integer("numel", numel);
        });
        r.invalid = true;
      }
  }
  // An fp8 e4m3 -> bf16 cast in the kernel (SGLang's grouped MLA decode kpe.to(qpe.dtype),
  // decode_attention.py:530; vLLM unified's plain _cast_kv_tile, triton_unified_attention.py:55)
  // compiles on sm_89: FpToFpOpConversion picks Fp8E4M3Nv_to_Bf16(computeCapability >= 90)
  // (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ElementwiseOpToLLVM.cpp, getConversionFunc),
  // the path through f32 below sm_90 (cvt.rn.bf16.f32), the cvt.bf16.f16 one from sm_90 on. The
  // table is a function-local static built on a process's first fp8 conversion, so a process
  // that compiled one for sm_90 first emits cvt.bf16.f16 for a later sm_89 compile too, which
  // ptxas refuses; a fresh process compiles it (tools/attention/README.md "Run V").
  if (!r.invalid)
    if (const WgmmaRegs wr = wgmma_registers(l, p, arch); wr.dot != nullptr) {
      why.reject([&] {
        return diag(Code::attn_wgmma_registers)
            .name("kernel", kname)
            .name("dot", wr.dot)
            .integer("instr_n", wr.instr_n)
            .integer("need", wr.need)
            .integer("acc", wr.acc)
            .integer("limit", wr.limit)
            .integer("num_warps", w);
      });
      r.invalid = true;
    }
  if (r.invalid) return r;

  Buffers bufs;
  const Ctx c{l, p, arch, w, s};
  bool pipelines = false;
  switch (p.shape) {
    case Shape::TwoDot:
      pipelines = two_dot(c, bufs);
      break;
    case Shape::VectorDot:
      vector_dot(c, bufs);
      break;
    case Shape::Combine:
      // reduce_segments (triton_unified_attention.py): segm_output [NUM_SEGMENTS_PER_SEQ,
      // HEAD_SIZE_PADDED] f32 in its coalesced layout, tl.sum over the segments (axis 0)
      // through shared memory when warps split that axis; stage 2 of the split decodes
      // reduces nothing (a loop over the splits on [BLOCK_DV] vectors): no shared memory.
      if (p.vec_n > 1) {
        const triton::Blocked b = coalesced(p.vec_n, p.vec_dv, 1, 32, w);
        bufs.add(reduce_bytes(p.vec_n, p.vec_dv, 0, 1LL << b.wpc[0]), 128, 20, 21,
                 Component::LayoutConversion);
        bufs.add(combine_store_cvt(p, w, arch), 128, 30, 31, Component::LayoutConversion);
      }
      break;
  }
  // num_stages matters when another stage count would buffer differently: a two-dot loop
  // whose K load can be buffered.
  const long long vec_k = p.vec_cap > 0
                              ? std::min(p.vec_cap, per_thread(p.d * p.n, p.d, p.kv_bits, w))
                              : per_thread(p.d * p.n, p.d, p.kv_bits, w);
  r.stages_matter =
      p.shape == Shape::TwoDot && arch >= 80 && (pipelines || vec_k * p.kv_bits >= 32);
  if (!r.stages_matter)
    why.note([&] {
      return diag(Code::attn_stages_no_effect).name("kernel", kname).integer("stages", s);
    });

  const Bytes total = triton::allocate(bufs);
  // The breakdown: the buffers live at the peak (triton_gemm.cpp's rule).
  int best_point = -1;
  Bytes best_sum = -1;
  for (int i = 0; i < bufs.n; ++i) {
    const int t = bufs.b[i].start;
    Bytes top = 0, sum = 0;
    for (int j = 0; j < bufs.n; ++j)
      if (bufs.b[j].start <= t && t < bufs.b[j].end) {
        top = std::max(top, bufs.b[j].offset + bufs.b[j].size);
        sum += bufs.b[j].size;
      }
    if (top == total && sum > best_sum) {
      best_sum = sum;
      best_point = t;
    }
  }
  Field f;
  f.size = total;
  f.align = 16;
  Bytes attributed = 0;
  for (int i = 0; i < bufs.n && best_point >= 0; ++i) {
    const triton::Buffer& b = bufs.b[i];
    if (b.start <= best_point && best_point < b.end) {
      f.parts[static_cast<int>(b.part)] += b.size;
      f.mask |= 1u << static_cast<int>(b.part);
      attributed += b.size;
    }
  }
  if (total > attributed) {
    f.parts[static_cast<int>(Component::Padding)] += total - attributed;
    f.mask |= 1u << static_cast<int>(Component::Padding);
  }
  r.storage.kernel = f;
  return r;
}

}  // namespace tilefit::model::attention
