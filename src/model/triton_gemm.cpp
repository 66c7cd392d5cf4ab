#include "triton_gemm.hpp"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "triton_allocator.hpp"
#include "triton_layout.hpp"

namespace tilefit::model::triton {
namespace {

int log2i(long long x) {
  return x <= 1 ? 0 : 63 - __builtin_clzll(static_cast<unsigned long long>(x));
}
bool pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }

/// Triton's defaults when a launch does not give them: CUDAOptions(num_warps = 4, num_stages = 3)
/// (third_party/nvidia/backend/compiler.py:107-109).
constexpr int kDefaultNumWarps = 4;
constexpr int kDefaultNumStages = 3;
/// TRITON_MAX_TENSOR_NUMEL (python/triton/language/_utils.py, validate_block_shape).
constexpr long long kMaxTensorNumel = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Register layouts of the loads and the store, as the Coalesce pass picks them
// (lib/Dialect/TritonGPU/Transforms/CoalesceUtils.cpp:17-93, Transforms/Utility.cpp:125
// getNumElementsPerThread; MODEL.md §3). Argument specialisation as in a real call: pointers
// 16-byte aligned, strides multiples of 16 elements, unit strides specialised away, so the
// contiguous dimension allows 16-byte vectors.
// ---------------------------------------------------------------------------------------------

/// sizePerThread along the contiguous dimension:
///   min(16 / bytes, contiguous extent, 128 / bits, max(numel / (32·num_warps), 1)).
long long per_thread(long long numel, long long contig, int bits, int num_warps) {
  const long long by_align = 16 / std::max(bits / 8, 1);
  long long per = std::min({by_align, contig, static_cast<long long>(128 / bits)});
  return std::min(per, std::max(numel / (32LL * num_warps), 1LL));
}

}  // namespace

/// BlockedEncodingAttr's builder (include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td:
/// 813-847): threads and warps go to the dimensions in `order`, the fastest first, as far as
/// each extent / sizePerThread allows; the slowest takes the rest.
Blocked blocked_get(int rank, const std::array<long long, 2>& shape,
                    const std::array<long long, 2>& spt, const std::array<int, 2>& order,
                    int num_warps) {
  std::array<long long, 2> tpw{1, 1}, wpc{1, 1};
  long long rem_lanes = 32, rem_threads = 32LL * num_warps, rem_warps = num_warps;
  long long prev_l = 1, prev_w = 1;
  for (int k = 0; k + 1 < rank; ++k) {
    const int i = order[k];
    long long tpc = std::min(std::max(rem_threads, 1LL), std::max(1LL, shape[i] / spt[i]));
    tpc = std::max(tpc, 1LL);
    tpw[i] = std::min(tpc, rem_lanes);
    wpc[i] = std::min(std::max(tpc / tpw[i], 1LL), rem_warps);
    rem_warps /= wpc[i];
    rem_lanes /= tpw[i];
    rem_threads /= tpc;
    prev_l *= tpw[i];
    prev_w *= wpc[i];
  }
  const int last = order[rank - 1];
  tpw[last] = 32 / prev_l;
  wpc[last] = num_warps / prev_w;
  Blocked b;
  b.rank = rank;
  b.order = order;
  for (int d = 0; d < rank; ++d) {
    b.spt[d] = log2i(spt[d]);
    b.tpw[d] = log2i(tpw[d]);
    b.wpc[d] = log2i(wpc[d]);
  }
  return b;
}

namespace {

/// The coalesced layout of a rank-2 access whose contiguous dimension is `contig_dim`.
Flat coalesced_2d(long long rows, long long cols, int contig_dim, int bits, int num_warps) {
  const std::array<long long, 2> shape{rows, cols};
  std::array<long long, 2> spt{1, 1};
  spt[contig_dim] = per_thread(rows * cols, shape[contig_dim], bits, num_warps);
  const std::array<int, 2> order{contig_dim, 1 - contig_dim};
  return blocked_layout(blocked_get(2, shape, spt, order, num_warps), {log2i(rows), log2i(cols)},
                        2);
}

// ---------------------------------------------------------------------------------------------
// Which MMA (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:34-70 getMMAVersionSafe,
// lib/Analysis/Utility.cpp:863-928 supportMMA; MODEL.md §2).
// ---------------------------------------------------------------------------------------------

/// mma v2 on cc 80-89 and 110-129; wgmma (v3) on 90-99 and tcgen05 (v5) on 100-109 when
///   v3: num_warps % 4 == 0, BM % 64 == 0, BN % 16 == 0, BK >= 256 / bits
///   v5: num_warps in {4, 8}, BK >= 256 / bits, BM % 64 == 0, BN % 16 == 0
/// (fp8 wgmma also needs max_num_imprecise_acc >= 32: 2^30 by default on sm_90,
/// backend/compiler.py:199), else mma v2. `why` names the first condition that fails.
///
/// An i8 x i8 -> i32 dot (`int8`): mma.sync has s8 (m16n8k32, MMAv2.cpp) on every target from
/// sm_80, wgmma has s8 (supportMMA's version-3 type list includes isInteger(8),
/// lib/Analysis/Utility.cpp:895-928), and the dot operands are K-contiguous 8-bit tiles exactly
/// like fp8's (kWidth 4, NVMMA swizzle from BK bytes). tcgen05 is not used for it in 3.6:
/// the version-5 check of supportMMA (Utility.cpp:866-893) does not admit i8 operands (the i8
/// kind of tcgen05 was wired into MMA selection after 3.6), so an int8 dot on sm_100/sm_103
/// falls back to mma.sync — measured on sm_100 and sm_103 (TTGIR `nvidia_mma versionMajor = 2`
/// for _w8a8_block_int8_matmul 64x64x128 w4 s4, 49152 B).
int mma_version(int cc, long long bm, long long bn, long long bk, int bits, int w, bool int8,
                const char** why) {
  *why = "";
  if (cc < 90 || cc >= 110) return 2;
  const bool hopper = cc < 100;
  const long long kmin = 256 / bits;
  if (!hopper && int8)
    *why = "int8";
  else if (hopper ? (w % 4 != 0) : (w != 4 && w != 8))
    *why = "num_warps";
  else if (bm % 64 != 0)
    *why = "tile_m";
  else if (bn % 16 != 0)
    *why = "tile_n";
  else if (bk < kmin)
    *why = "tile_k";
  if (**why != '\0') return 2;
  return hopper ? 3 : 5;
}

/// warpsPerTileV2 (AccelerateMatmul.cpp:72-134), no chained dot.
std::array<long long, 2> warps_v2(long long bm, long long bn, int w) {
  long long reps0 = (bm + 15) / 16, reps1 = (bn + 7) / 8;
  std::array<long long, 2> warps{1, 1};
  while (warps[0] * warps[1] < w) {
    if (reps0 >= reps1) {
      warps[0] *= 2;
      if (reps0 != 1) reps0 /= 2;
    } else {
      warps[1] *= 2;
      reps1 /= 2;
    }
  }
  return warps;
}

}  // namespace

/// mmaVersionToInstrShape for v3 (lib/Dialect/TritonGPU/Transforms/Utility.cpp:40-73): the
/// largest n in 256, 248, ..., 8 that divides BN and is at most max(BN / nW, 8).
int v3_instr_n(long long bm, long long bn, int w) {
  const long long m_w = std::max(bm / 16, 1LL);
  const long long n_w = std::max(w / m_w, 1LL);
  const long long max_n = std::max(bn / n_w, 8LL);
  for (int n = 256; n >= 8; n -= 8)
    if (bn % n == 0 && n <= max_n) return n;
  return 8;
}

/// warpsPerTileV3 (AccelerateMatmul.cpp:135-161).
std::array<long long, 2> warps_v3(long long bm, int w) {
  std::array<long long, 2> ret{4, 1};
  while (ret[0] * ret[1] < w) {
    if (bm > 16 * ret[0])
      ret[0] *= 2;
    else
      ret[1] *= 2;
  }
  return ret;
}

namespace {

/// NVMMASharedEncodingAttr's swizzle for K-contiguous operands with `contig_bytes` along K
/// (TritonGPUAttrDefs.td:420-451) and its alignment 128 · max(swizzle / 16, 1)
/// (lib/Dialect/TritonGPU/IR/Dialect.cpp:2146-2154): 1024, 512, 256 or 128 B.
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

/// The layout of the transposed tensor (tt.trans (1, 0) of a register tensor keeps every
/// element in its thread: TransOp's inferred encoding, lib/Dialect/TritonGPU/IR/Dialect.cpp
/// inferTransOpEncoding, is the same linear layout with the out-dimensions swapped). `dim0_log2`
/// is log2 of the first out-dimension's size before the transposition.
Flat transposed(const Flat& f, int dim0_log2) {
  Flat t = f;
  const int dim1_log2 = f.dim - dim0_log2;
  const std::uint32_t low = (1u << dim0_log2) - 1;
  for (int in = 0; in < kInDims; ++in)
    for (int i = 0; i < f.n[in]; ++i)
      t.b[in][i] = (f.b[in][i] >> dim0_log2) | ((f.b[in][i] & low) << dim1_log2);
  return t;
}

bool is_triton_36(std::string_view v) {
  if (v.substr(0, 3) != "3.6") return false;
  return v.size() == 3 || v[3] < '0' || v[3] > '9';
}

// Live ranges of the buffers, in abstract program points (only their order matters):
// allocated before the K loop and freed after it, inside the loop, after it.
constexpr int kBeforeLoop = 10, kAfterLoop = 100, kInLoop = 40, kEpilogue = 150;

/// fused_moe_kernel_gptq_awq's B (KernelTraits::b_dequant_bits): the weight load and the
/// dequantised operand.
///   * The weight [BK, BN] (bytes) is loaded at stage 0 and read by the dequantisation (a
///     local_load, then shifts, the group scale and a convert), not by the MMA, so a pipelined
///     weight gets num_stages - 1 buffers on every MMA: wgmma's and the asynchronous tcgen05's
///     extra buffer is for loads the MMA reads itself (loadRequiresAdditionalBuffer,
///     Pipeliner/LowerLoops.cpp:419-444; getDefUseStageDiff, LowerLoops.cpp:80-134). Its
///     encoding is SwizzledShared (not an MMA operand): alignment 16. Not pipelined, it stays in
///     registers.
///   * The dequantised B [BK, BN] (compute_type) is a register tensor the dot needs in shared
///     memory: wgmma and tcgen05 read B from there (AccelerateMatmul.cpp getSharedMemoryMMAOperand);
///     for mma.sync the conversion from the dequantisation's blocked layout (the weight load's:
///     one byte per thread along K for int4) to the dot operand is a local_alloc + local_load
///     (ReduceDataDuplication.cpp:31-62). One copy, stored and read inside the iteration, also
///     with an asynchronous tcgen05 MMA (measured: sm_100 rows of vLLM 6adad087 and SGLang
///     d6ef6888, tests/data/engines-gptq-triton-3.6.jsonl).
/// The in-loop b_scale ([BK, BN] bf16, `offs_bn * stride_bsn + (offs_k // group_size)`: one
/// element per thread, 16 bits) and b_zp (uint8, and for int4 `offs_bn // 2`) loads are below 32
/// bits per thread, never pipelined, and stay in registers.
void add_dequant_b(Buffers& bufs, const Decisions& d, int stages, int start, int end) {
  if (stages > 1 && d.b_can_pipeline)
    bufs.add((stages - 1) * d.b_raw_tile, 16, kBeforeLoop + 1, kAfterLoop, Component::B);
  bufs.add(d.b_tile, d.b_align, start, end, Component::B);
}

/// The buffers of the kernel at num_stages = `stages`.
Buffers buffers(const Decisions& d, int stages) {
  if (d.amd) return amd::buffers(d, stages);
  Buffers bufs;
  const bool a_pipe = stages > 1 && d.a_can_pipeline;
  const bool b_pipe = stages > 1 && d.b_can_pipeline;
  // tcgen05: the MMA gets a self-latency (becomes asynchronous) iff it is pipelineable or its
  // operands' state is determined and nothing reads the result in the loop
  // (Pipeliner/AssignLatencies.cpp:151-207, MMAv5PipelineUtility.cpp:87-141, 272-291): with
  // plain accumulation whenever num_stages > 1; fp8 block-wise reads the dot result in the loop
  // (hasLoadsAfterMMA), so only when both operands are pipelined.
  const bool async = d.version == 5 && stages > 1 && ((a_pipe && b_pipe) || !d.fp8_block);
  // Buffers of a pipelined load = the stage distance from the load to its last user
  // (Pipeliner/LowerLoops.cpp:80-134 getDefUseStageDiff, LowerLoops.cpp:455-499): loads at
  // stage 0, the dot at stage num_stages - 1 (ScheduleLoops.cpp:143-238); wgmma adds one
  // (loadRequiresAdditionalBuffer, LowerLoops.cpp:419-444, 494-497); an asynchronous tcgen05
  // MMA's wait one stage later still reads them (LowerLoops.cpp:123-129, 790-800).
  const int nbuf = d.version == 3 ? stages : d.version == 5 && async ? stages : stages - 1;
  // A load that is not pipelined: its local_alloc sits right after its load
  // (ReorderInstructions.cpp:124-136), so A's and B's copies are live together — except with
  // fp8 promoted to f16, where each alloc is followed by its own local_load + fp_to_fp.
  const int a0 = kInLoop, a1 = d.fp8_promoted ? kInLoop + 1 : kInLoop + 3;
  const int b0 = d.fp8_promoted ? kInLoop + 2 : kInLoop + 1, b1 = kInLoop + 3;
  struct Operand {
    bool pipe, reg_smem;
    Bytes tile, align;
    int start, end;
    Component part;
  };
  const Operand ops[2] = {
      {a_pipe, a_pipe || reg_smem(d, 0), d.a_tile, d.a_align, a0, a1,
       d.swap_ab ? Component::B : Component::A},  // SWAP_AB: the dot's A is the kernel's B
      {b_pipe, b_pipe || reg_smem(d, 1), d.b_tile, d.b_align, b0, b1,
       d.swap_ab ? Component::A : Component::B}};
  for (int op = 0; op < 2; ++op) {
    const Operand& o = ops[op];
    if (op == 1 && d.b_dequant_bits > 0) {
      add_dequant_b(bufs, d, stages, b0, b1);
      continue;
    } else if (op == 1 && d.b_mma_tile > 0) {
      // B converted before a wgmma/tcgen05 dot (use_int8_w8a16): the loaded int8 tile feeds the
      // conversion, not the MMA, so a pipelined load keeps num_stages - 1 buffers (no additional
      // wgmma buffer, no wait after an asynchronous MMA: LowerLoops.cpp:80-134, 419-444), and
      // the converted tile is stored once per iteration for the MMA to read (observed on every
      // measured sm_90/sm_100/sm_103 row: + BK·BN bytes over nbuf int8 copies).
      if (o.pipe && stages > 1)
        bufs.add((stages - 1) * o.tile, o.align, kBeforeLoop + op, kAfterLoop, o.part);
      bufs.add(d.b_mma_tile, nvmma_align(d.bk * 2), o.start, o.end, o.part);
      continue;
    }
    if (op == 1 && d.tma_pointers && d.tma_b_cvt > 0)
      // B's conversion scratch, while A's copy is live (decide_layouts).
      bufs.add(d.tma_b_cvt, 128, b0, b0 + 1, o.part);
    if (o.pipe)
      bufs.add(nbuf * o.tile, o.align, kBeforeLoop + op, kAfterLoop, o.part);
    else if (!o.reg_smem)
      continue;  // the conversion to the dot operand stays in the warp: no shared memory
    else if (async)
      // the asynchronous MMA of iteration i is waited for in iteration i + 1 (createBarrierAndWaitOps,
      // LowerLoops.cpp:709-790): two copies live across the loop
      bufs.add(2 * o.tile, o.align, kBeforeLoop + op, kAfterLoop, o.part);
    else
      bufs.add(o.tile, o.align, o.start, o.end, o.part);
  }
  // TMA: one 8-byte mbarrier per buffer of the pipelined copies (LowerLoops.cpp:455-499
  // createTMABarrierAndWait; measured on sm_90, sm_100, sm_103, sm_120: nbuf · 8 B).
  // With fp8 operands that mma.sync promotes, A's and B's copies complete on barriers of their
  // own (their local_loads and conversions are separate, §4.3 of docs/dev/triton-model.md): two
  // arrays (measured on sm_100, sm_103, sm_121: 16-byte aligned, nbuf · 8 B each).
  if (d.tma && stages > 1)
    for (int i = 0; i < (d.fp8_promoted ? 2 : 1); ++i)
      bufs.add(8 * nbuf, 16, kBeforeLoop + 2 + i, kAfterLoop, Component::MainloopBarriers);
  // tcgen05 completion mbarriers (LowerLoops.cpp:709-790, numStages = waitStage - mmaStage + 1):
  // two when the MMA is asynchronous, one otherwise; SwizzledShared, alignment 16.
  if (d.version == 5)
    bufs.add(8 * (async ? 2 : 1), 16, kBeforeLoop + 2, kAfterLoop, Component::MainloopBarriers);
  if (d.fp8_block) {
    // The scales' in-loop conversions live only at their op (alignment 128). With an
    // asynchronous MMA, lowerMMAs runs before lowerLoads (LowerLoops.cpp:1057-1066) and splits the
    // cluster before the tmem_load (LowerLoops.cpp:752-765, Schedule.cpp:108-123): the b_scale
    // load ends one stage before its use (getDefUseStageDiff, LowerLoops.cpp:110-121) and becomes
    // a 1-deep cp.async buffer of BN·4 bytes read back in the needed layout, so no b_scale
    // conversion remains; a_scale is never buffered (observed on every asynchronous row,
    // MODEL.md §5).
    bufs.add(d.a_scale_cvt, 128, kInLoop + 10, kInLoop + 11, Component::LayoutConversion);
    if (async)
      bufs.add(d.b_scale_buffer, 16, kBeforeLoop + 3, kAfterLoop, Component::ScaleBuffers);
    else
      bufs.add(b_scale_cvt(d), 128, kInLoop + 11, kInLoop + 12, Component::LayoutConversion);
  }
  bufs.add(d.epilogue_cvt, 128, kEpilogue, kEpilogue + 1, Component::LayoutConversion);
  return bufs;
}

}  // namespace

int num_warps_of(const KernelConfig& cfg) { return cfg.num_warps.value_or(kDefaultNumWarps); }

bool reject_invalid(const KernelConfig& cfg, const KernelTraits& k, Findings& why) {
  const int w = num_warps_of(cfg);
  // CUDAOptions.__post_init__ asserts "num_warps must be a power of 2"
  // (third_party/nvidia/backend/compiler.py); a CTA has at most 1024 threads.
  if (!pow2(w) || w > 32)
    why.reject([&] { return diag(Code::triton_num_warps).integer("num_warps", w); });
  // tl.arange and every block tensor need power-of-two extents and at most 2^20 elements
  // (validate_block_shape, python/triton/language/_utils.py).
  const std::pair<const char*, long long> blocks[3] = {
      {"BLOCK_SIZE_M", cfg.m}, {"BLOCK_SIZE_N", cfg.n}, {"BLOCK_SIZE_K", cfg.k}};
  bool all_pow2 = true;
  for (const auto& block : blocks) {
    if (!pow2(block.second)) {
      all_pow2 = false;
      why.reject([&] {
        return diag(Code::triton_block_not_power_of_two)
            .name("block", block.first)
            .integer("value", block.second);
      });
    }
  }
  if (all_pow2) {
    const std::pair<const char*, long long> tensors[3] = {
        {"A [BLOCK_SIZE_M, BLOCK_SIZE_K]", cfg.m * cfg.k},
        {"B [BLOCK_SIZE_K, BLOCK_SIZE_N]", cfg.k * cfg.n},
        {"the accumulator [BLOCK_SIZE_M, BLOCK_SIZE_N]", cfg.m * cfg.n}};
    for (const auto& tensor : tensors)
      if (tensor.second > kMaxTensorNumel)
        why.reject([&] {
          return diag(Code::triton_tensor_too_large)
              .name("tensor", tensor.first)
              .integer("numel", tensor.second);
        });
  }
  // fp8e4nv is a supported fp8 type from capability 89 on (backend/compiler.py:186-190);
  // python/triton/language/core.py:573 raises when it is lowered elsewhere. HIPOptions lists
  // fp8e4nv (and e4m3fnuz, fp8e4b8) as supported on every AMD target.
  if (k.fp8 && !is_amd(cfg.arch) && cfg.arch < 89)
    why.reject([&] { return diag(Code::triton_fp8_needs_sm89).arch("arch", cfg.arch); });
  // tl.dot asserts K >= min_dot_size[2] (python/triton/language/semantic.py:1528): 32 for 8-bit
  // operands, 16 otherwise (min_dot_size, backend/compiler.py:19-31). M and N have no minimum.
  // On AMD targets min_dot_size is (1, 1, 1) (third_party/amd/backend/compiler.py
  // get_min_dot_size: an unsupported shape falls back to FMA): no minimum.
  const int kmin = k.in_bits == 8 ? 32 : 16;
  if (!is_amd(cfg.arch) && cfg.k < kmin)
    why.reject([&] {
      return diag(Code::triton_dot_k_min)
          .integer("tile_k", cfg.k)
          .integer("bits", k.in_bits)
          .integer("min_k", kmin);
    });
  return why.invalid();
}

namespace {

// The answers to the layout-conversion questions are memoised per thread. Each is a pure
// function of a few numbers, and the same questions come back constantly: the max_stages
// search, a sweep over num_stages or BLOCK_SIZE_K, the entries of a tuned table that share
// BLOCK_SIZE_M, BLOCK_SIZE_N and num_warps. A direct-mapped table of 128 entries; a collision
// only costs a recomputation. The key holds every input of the question (the accumulator's
// layout is a function of the MMA version, BM, BN and num_warps; the swizzle candidates of
// whether stmatrix exists, cc >= 90).
struct MemoEntry {
  std::uint64_t key = 0;  ///< 0: empty
  Bytes value = 0;
};
constexpr int kMemoSize = 128;
thread_local std::array<MemoEntry, kMemoSize> t_memo;

enum class Question : std::uint64_t {
  Epilogue = 1,
  RegSmemA,
  RegSmemB,
  ScaleA,
  ScaleB,
  ScaleAScalar,  ///< a_scale without a vectorised load (KernelTraits::a_scale_vectorised false)
};

std::uint64_t memo_key(Question q, const Decisions& d, int bits) {
  std::uint64_t k = static_cast<std::uint64_t>(q);
  k = k << 3 | static_cast<std::uint64_t>(d.version);
  k = k << 1 | (d.cc >= 90 ? 1u : 0u);
  k = k << 6 | static_cast<std::uint64_t>(log2i(d.bm));
  k = k << 6 | static_cast<std::uint64_t>(log2i(d.bn));
  k = k << 6 | static_cast<std::uint64_t>(log2i(d.bk));
  k = k << 4 | static_cast<std::uint64_t>(log2i(d.num_warps));
  k = k << 7 | static_cast<std::uint64_t>(bits);
  k = k << 1 | (d.swap_ab ? 1u : 0u);
  k = k << 1 | (d.b_scale_scalar ? 1u : 0u);
  return k;
}

template <class Compute>
Bytes memoised(std::uint64_t key, Compute&& compute) {
  std::uint64_t h = key;  // splitmix64's finaliser: every key bit reaches the index bits
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  MemoEntry& e = t_memo[h & (kMemoSize - 1)];
  if (e.key == key) return e.value;
  const Bytes v = compute();
  e = {key, v};
  return v;
}

/// The accumulator's register layout (MODEL.md §2, §7.5).
Accumulator accumulator_of(const Decisions& d) {
  Accumulator acc;
  acc.version = d.version;
  acc.bm_log2 = log2i(d.bm);
  acc.bn_log2 = log2i(d.bn);
  acc.num_warps = d.num_warps;
  acc.instr_n = d.version == 3 ? d.instr_n : 8;
  acc.warps = {log2i(d.warps_m), log2i(d.warps_n)};
  return acc;
}

/// mma v2: does the blocked -> dot-operand conversion of operand `op` (0: A, 1: B) need shared
/// memory when its load is not pipelined? It becomes a local_alloc + local_load only when it
/// does (ReduceDataDuplication.cpp:31-62); otherwise it is a warp shuffle. kWidth =
/// max(32 / bits, 1) (AccelerateMatmul.cpp:258-297, 431-436). wgmma and tcgen05 always read
/// their operands from shared memory.
bool compute_reg_smem(const Decisions& d, int op) {
  if (d.version != 2) return true;
  const int kw = std::max(32 / d.in_bits, 1);
  const std::array<int, 2> wp{log2i(d.warps_m), log2i(d.warps_n)};
  if (op == 0)
    return cvt_needs_smem(coalesced_2d(d.bm, d.bk, 1, d.in_bits, d.num_warps),
                          dot_operand_layout(0, log2i(kw), wp, {log2i(d.bm), log2i(d.bk)}));
  return cvt_needs_smem(coalesced_2d(d.bk, d.bn, 0, d.in_bits, d.num_warps),
                        dot_operand_layout(1, log2i(kw), wp, {log2i(d.bk), log2i(d.bn)}));
}

/// fused_moe block-wise fp8: a_scale[BM] and b_scale[BN] (f32) are loaded in the loop and
/// multiplied into the dot result (MODEL.md §5). RemoveLayoutConversions keeps a scale's
/// convert_layout only when its load is expensive, numel >= 32·num_warps
/// (Transforms/Utility.cpp:592-610 isExpensiveLoadOrStore); the convert goes from the load's
/// 1-D blocked layout (a_scale: sizePerThread min(4, max(BM / (32·W), 1)) through the 16-byte
/// aligned sorted_token_ids access, CoalesceUtils.cpp:64-72 — 1 when the kernel has no such
/// access, KernelTraits::a_scale_vectorised; b_scale: 1) to a slice of the accumulator, and gets
/// scratch only when it needs shared memory. Returns the scratch bytes of scale `op` (0:
/// a_scale, 1: b_scale), 0 when there is none.
///
/// With SWAP_AB the dot's accumulator is [BN, BM]: a_scale ([BM], `a_scale[None, :]`) is a slice
/// along its dimension 1 and b_scale (`b_scale[:, None]`) along dimension 0 (vLLM 6adad087
/// fused_moe.py:548-549; SGLang swaps the two scales, fused_moe_triton_kernels.py:566-572). A
/// scalar b_scale (b_scale_scalar) needs no conversion.
Bytes compute_scale_cvt(const Decisions& d, int op) {
  if (op == 1 && d.b_scale_scalar) return 0;
  const bool dot_m_side = (op == 0) != d.swap_ab;  // the vector runs along the dot's M
  const long long n = dot_m_side ? d.bm : d.bn;
  const int w = d.num_warps;
  if (n < 32LL * w) return 0;  // not expensive: rematerialised in the needed layout
  const long long a_vec = d.a_scale_vectorised ? std::min(4LL, std::max(n / (32LL * w), 1LL)) : 1;
  Blocked blk;
  blk.rank = 1;
  blk.spt = {op == 0 ? log2i(a_vec) : 0, 0};
  blk.tpw = {5, 0};
  blk.wpc = {log2i(w), 0};
  const Flat src = blocked_layout(blk, {log2i(n), 0}, 1);
  const Flat dst = accumulator_slice(accumulator_of(d), dot_m_side ? 1 : 0, log2i(n));
  return cvt_scratch_if_needed(src, dst, 32, d.cc) * 4;
}

}  // namespace

namespace {

bool memo_reg_smem(const Decisions& d, int op) {
  if (d.version != 2) return true;
  return memoised(memo_key(op == 0 ? Question::RegSmemA : Question::RegSmemB, d, d.in_bits),
                  [&] { return compute_reg_smem(d, op) ? Bytes{1} : Bytes{0}; }) != 0;
}

Bytes memo_scale_cvt(const Decisions& d, int op) {
  const Question q = op == 1                ? Question::ScaleB
                     : d.a_scale_vectorised ? Question::ScaleA
                                            : Question::ScaleAScalar;
  return memoised(memo_key(q, d, 32), [&] { return compute_scale_cvt(d, op); });
}

}  // namespace

void clear_layout_memo() { t_memo.fill(MemoEntry{}); }

bool reg_smem(const Decisions& d, int op) {
  const std::int8_t known = op == 0 ? d.a_reg_smem : d.b_reg_smem;
  return known >= 0 ? known != 0 : memo_reg_smem(d, op);
}

Bytes b_scale_cvt(const Decisions& d) {
  return d.b_scale_cvt >= 0 ? d.b_scale_cvt : memo_scale_cvt(d, 1);
}

Decisions decide_layouts(const KernelConfig& cfg, const KernelTraits& k, int stages) {
  Decisions d;
  const int cc = cfg.arch;
  // SWAP_AB: every rule below sees the dot, [BN, BK] x [BK, BM]; both of its operands are
  // K-contiguous loads as in the unswapped kernel, so only the epilogue and the scales differ.
  const long long bm = k.swap_ab ? cfg.n : cfg.m, bn = k.swap_ab ? cfg.m : cfg.n, bk = cfg.k;
  d.swap_ab = k.swap_ab;
  d.b_scale_scalar = k.b_scale_scalar;
  const int w = num_warps_of(cfg);
  const int ib = k.in_bits, ob = k.out_bits, eb = ib / 8;
  d.cc = cc;
  d.bm = bm;
  d.bn = bn;
  d.bk = bk;
  d.num_warps = w;
  d.in_bits = ib;
  d.fp8_block = k.fp8_block;
  d.int8 = k.int8;
  d.a_scale_vectorised = k.a_scale_vectorised;
  d.version = mma_version(cc, bm, bn, bk, ib, w, k.int8, &d.fallback);
  if (d.version == 2) {
    const auto wp = warps_v2(bm, bn, w);
    d.warps_m = static_cast<int>(wp[0]);
    d.warps_n = static_cast<int>(wp[1]);
  } else if (d.version == 3) {
    d.instr_n = v3_instr_n(bm, bn, w);
    const auto wp = warps_v3(bm, w);
    d.warps_m = static_cast<int>(wp[0]);
    d.warps_n = static_cast<int>(wp[1]);
  }

  // A dot-operand load is pipelined iff it can become a cp.async of >= 4 bytes per thread
  // (Pipeliner/AssignLatencies.cpp:100-148, PipeliningUtility.cpp:380-407, LowerLoops.cpp:472-497);
  // A is [BM, BK] and B is [BK, BN], both contiguous along K.
  // With a B converted before the dot (b_load_elem_bits), B's load and buffers have its own
  // element width.
  const int bb = k.b_load_elem_bits > 0 ? k.b_load_elem_bits : ib;
  const long long pa = per_thread(bm * bk, bk, ib, w);
  const long long pb = per_thread(bk * bn, bk, bb, w);
  d.a_load_bits = static_cast<int>(pa * ib);
  d.b_load_bits = static_cast<int>(pb * bb);
  d.a_can_pipeline = d.a_load_bits >= 32;
  d.b_can_pipeline = d.b_load_bits >= 32;
  // Descriptor loads are pipelined as TMA copies whatever their width (AssignLatencies.cpp
  // treats tt.descriptor_load as a pipelineable load; LowerLoops.cpp lowers it to
  // async_tma_copy_global_to_local into an NVMMA-shared buffer with its mbarrier).
  d.tma = k.tma;
  if (k.tma) d.a_can_pipeline = d.b_can_pipeline = true;
  // Below sm_90 make_ttir rewrites the descriptor loads to masked pointer loads built from the
  // descriptors' runtime shapes and strides (third_party/nvidia/backend/compiler.py,
  // passes.ttir.add_rewrite_tensor_descriptor_to_pointer; lib/Dialect/Triton/Transforms/
  // RewriteTensorDescriptorToPointer.cpp): AxisInfo knows no contiguity, so every thread loads
  // one element (8 or 16 bits) and neither load is pipelined, whatever num_stages (measured: the
  // same shared memory at num_stages 2, 3 and 4).
  d.tma_pointers = k.tma_pointers;
  if (k.tma_pointers) {
    d.a_load_bits = ib;
    d.b_load_bits = bb;
    d.a_can_pipeline = d.b_can_pipeline = false;
  }
  // fp8 operands of an mma.sync are promoted to f16 in registers unless the target has fp8
  // mma.sync: only sm_89 and sm_120 (AccelerateMatmul.cpp:906-944, mmav2SupportsFp8Operands).
  // sm_121 promotes. Shared memory still holds fp8 (OptimizeDotOperands hoists the convert).
  // int8 is never promoted: mma.sync has s8 on every target (decomposeMixedModeDotOp promotes
  // only fp8 element types).
  d.fp8_promoted = d.version == 2 && ib == 8 && !k.int8 && cc != 89 && cc != 120;
  d.a_tile = bm * bk * eb;
  d.b_tile = bk * bn * bb / 8;
  // wgmma and tcgen05 read B from shared memory in the dot's type: a converted B is stored again.
  if (bb != ib && d.version != 2) d.b_mma_tile = bk * bn * eb;
  if (k.b_dequant_bits > 0) {
    // fused_moe_kernel_gptq_awq: B's load is the weight, [BK, BN] bytes along K (stride_bk 1).
    // int8 (`offs_k[:, None] * stride_bk`): contiguous like a plain operand. int4
    // (`(offs_k[:, None] // 2) * stride_bk`, vLLM 6adad087 fused_moe.py:198-204, SGLang d6ef6888
    // fused_moe_triton_kernels.py:174-180): a quotient's contiguity is 1 unless the divisor is 1
    // (lib/Analysis/AxisInfo.cpp, DivOpAxisInfoVisitor::getContiguity), so one byte per thread:
    // 8 bits, never pipelined.
    d.b_dequant_bits = k.b_dequant_bits;
    d.b_raw_tile = bk * bn;
    const long long praw = k.b_dequant_bits == 4 ? 1 : per_thread(bk * bn, bk, 8, w);
    d.b_load_bits = static_cast<int>(praw * 8);
    d.b_can_pipeline = d.b_load_bits >= 32;
  }
  // mma v2 operands use SwizzledSharedEncoding (16 B, TritonGPUAttrDefs.td:35); wgmma/tcgen05
  // read NVMMAShared buffers (Ops.cpp:691-700).
  if (d.version != 2 || k.tma) {
    d.a_align = nvmma_align(bk * eb);
    d.b_align = nvmma_align(bk * bb / 8);
  }

  // Answered now when the kernel's own num_stages needs them; other stage counts (the
  // max_stages search trying num_stages 1) ask reg_smem() / b_scale_cvt(), which answer then.
  if (d.version != 2) {
    d.a_reg_smem = d.b_reg_smem = 1;
  } else if (d.tma_pointers) {
    // The rewritten loads' layouts are BlockedEncodingAttr::get's for sizePerThread 1 (no
    // contiguity; lib/Dialect/TritonGPU/IR/Dialect.cpp): A [BM, BK] with M fastest; B
    // [1, BN, BK] (order [0, 1, 2]: its leading 1 takes no lane or warp, so its [BK, BN] view is
    // the same layout) with N fastest, reshaped and transposed into the dot's [BK, BN] operand.
    // A goes through one local_alloc when its conversion to the dot operand needs shared memory
    // (ReduceDataDuplication.cpp:31-62); B's stays a ttg.convert_layout (the transposed view is
    // a #linear layout, not a blocked one) with the swizzled conversion scratch, allocated while
    // A's copy is live (TTGIR dumps, sm_80 and sm_89: A at 0 and B's scratch after it, or the
    // other way round).
    const int kw = std::max(32 / ib, 1);
    const std::array<int, 2> wp{log2i(d.warps_m), log2i(d.warps_n)};
    const Flat a_src =
        blocked_layout(blocked_get(2, {bm, bk}, {1, 1}, {0, 1}, w), {log2i(bm), log2i(bk)}, 2);
    d.a_reg_smem =
        cvt_needs_smem(a_src, dot_operand_layout(0, log2i(kw), wp, {log2i(bm), log2i(bk)})) ? 1 : 0;
    d.b_reg_smem = 0;
    const Flat b_src =
        blocked_layout(blocked_get(2, {bk, bn}, {1, 1}, {1, 0}, w), {log2i(bk), log2i(bn)}, 2);
    d.tma_b_cvt = cvt_scratch_if_needed(
                      b_src, dot_operand_layout(1, log2i(kw), wp, {log2i(bk), log2i(bn)}), ib, cc) *
                  eb;
  } else if (d.b_dequant_bits > 0) {
    // The dequantised B always goes through shared memory (add_dequant_b).
    d.b_reg_smem = 1;
    if (stages == 1 || !d.a_can_pipeline) d.a_reg_smem = memo_reg_smem(d, 0) ? 1 : 0;
  } else {
    if (stages == 1 || !d.a_can_pipeline) d.a_reg_smem = memo_reg_smem(d, 0) ? 1 : 0;
    if (stages == 1 || !d.b_can_pipeline) d.b_reg_smem = memo_reg_smem(d, 1) ? 1 : 0;
  }
  if (k.fp8_block) {
    d.b_scale_buffer = k.b_scale_scalar ? 0 : (k.swap_ab ? bm : bn) * 4;
    d.a_scale_cvt = memo_scale_cvt(d, 0);
    const bool async_here = d.version == 5 && stages > 1 && d.a_can_pipeline && d.b_can_pipeline;
    if (!async_here) d.b_scale_cvt = memo_scale_cvt(d, 1);
  } else {
    d.b_scale_cvt = 0;
  }

  // The epilogue converts the accumulator ([BM, BN] of the stored type: matmul's C, fused_moe's
  // compute type) to the coalesced store layout (contiguous along N) once, after the loop
  // (lib/Analysis/Allocation.cpp:178, 206-208; size: NVIDIA Allocation.cpp:45-76).
  // SWAP_AB: the [BN, BM] accumulator is transposed first (tl.trans, fused_moe.py:568-569), so
  // the conversion goes from the transposed accumulator layout to the [BM, BN] store layout.
  d.epilogue_cvt = memoised(memo_key(Question::Epilogue, d, ob), [&] {
    const Flat acc = accumulator_layout(accumulator_of(d), {log2i(bm), log2i(bn)});
    if (d.swap_ab)
      return cvt_scratch_if_needed(transposed(acc, log2i(bm)), coalesced_2d(bn, bm, 1, ob, w), ob,
                                   cc) *
             (ob / 8);
    const Flat dst = coalesced_2d(bm, bn, 1, ob, w);
    return cvt_scratch_if_needed(acc, dst, ob, cc) * (ob / 8);
  });
  return d;
}

template <class F>
BasicStorage<F> triton_storage(const Decisions& d, int stages) {
  Buffers bufs = buffers(d, stages);
  const Bytes total = allocate(bufs);
  BasicStorage<F> st;
  Bytes loop_peak = 0;
  for (int i = 0; i < bufs.n; ++i)
    if (bufs.b[i].start < kEpilogue)
      loop_peak = std::max(loop_peak, bufs.b[i].offset + bufs.b[i].size);
  st.mainloop_shared = loop_peak;
  st.epilogue_shared = d.epilogue_cvt;
  if constexpr (std::is_same_v<F, Extent>) {
    st.kernel = {total, 16};
  } else {
    // The breakdown: the buffers live together at the program point where the peak is reached
    // (they interfere, so the allocator gave them disjoint bytes); the rest is alignment.
    int best_point = -1;
    Bytes best_sum = -1;
    for (int p = 0; p < bufs.n; ++p) {
      const int t = bufs.b[p].start;
      Bytes top = 0, sum = 0;
      for (int i = 0; i < bufs.n; ++i) {
        const Buffer& b = bufs.b[i];
        if (b.start <= t && t < b.end) {
          top = std::max(top, b.offset + b.size);
          sum += b.size;
        }
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
      const Buffer& b = bufs.b[i];
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
    st.kernel = f;
  }
  return st;
}

template Storage triton_storage<Field>(const Decisions&, int);
template Sizes triton_storage<Extent>(const Decisions&, int);

namespace {

/// The kernel as Triton compiles it, in a few typed parts (Result::kernel).
KernelDescription describe(const Decisions& d, int stages) {
  const bool a_pipe = stages > 1 && d.a_can_pipeline, b_pipe = stages > 1 && d.b_can_pipeline;
  const bool async = d.version == 5 && stages > 1 && ((a_pipe && b_pipe) || !d.fp8_block);
  const int nbuf = d.version == 3 ? stages : d.version == 5 && async ? stages : stages - 1;
  KernelDescription s;
  if (d.swap_ab) s.add(KernelText::triton_swap_ab);
  if (d.version == 2) {
    s.add(KernelText::triton_mma_v2);
    if (d.fp8_promoted) s.add(KernelText::triton_fp8_promoted);
    if (d.int8) s.add(KernelText::triton_int8);
    s.add(KernelText::triton_warps_close)
        .integer("warps_m", d.warps_m)
        .integer("warps_n", d.warps_n);
  } else if (d.version == 3) {
    s.add(KernelText::triton_mma_v3)
        .integer("instr_n", d.instr_n)
        .integer("warps_m", d.warps_m)
        .integer("warps_n", d.warps_n);
  } else {
    s.add(async ? KernelText::triton_mma_v5_async : KernelText::triton_mma_v5_sync);
  }
  auto operand = [&](const char* name, bool pipe, bool reg_smem) {
    if (pipe)
      s.add(nbuf == 1 ? KernelText::triton_operand_buffer : KernelText::triton_operand_buffers)
          .integer("buffers", nbuf)
          .name("operand", name);
    else if (!reg_smem)
      s.add(KernelText::triton_operand_registers).name("operand", name);
    else if (async)
      s.add(KernelText::triton_operand_copies).name("operand", name);
    else
      s.add(KernelText::triton_operand_staged).name("operand", name);
  };
  if (d.b_dequant_bits > 0) {
    s.add(a_pipe ? KernelText::triton_cp_async : KernelText::then_comma);
    operand("A", a_pipe, a_pipe || reg_smem(d, 0));
    s.add(KernelText::triton_dequant_open).name("weight", d.b_dequant_bits == 4 ? "int4" : "int8");
    if (b_pipe)
      s.add(stages == 2 ? KernelText::triton_weight_buffer : KernelText::triton_weight_buffers)
          .integer("buffers", stages - 1);
    else
      s.add(KernelText::triton_weight_registers);
    s.add(KernelText::triton_dequant_close);
  } else if (a_pipe && b_pipe) {
    s.add(nbuf == 1 ? KernelText::triton_ab_buffer : KernelText::triton_ab_buffers)
        .integer("buffers", nbuf);
  } else {
    s.add(a_pipe || b_pipe ? KernelText::triton_cp_async : KernelText::then_comma);
    operand("A", a_pipe, a_pipe || reg_smem(d, 0));
    s.add(KernelText::then_comma);
    operand("B", b_pipe, b_pipe || reg_smem(d, 1));
  }
  if (d.version == 5) s.add(async ? KernelText::triton_mbarriers_2 : KernelText::triton_mbarrier_1);
  if (d.fp8_block) {
    if (async) s.add(KernelText::triton_b_scale_buffer).bytes("bytes", d.b_scale_buffer);
    const Bytes a = d.a_scale_cvt, b = async ? 0 : b_scale_cvt(d);
    if (a > 0 || b > 0) s.add(KernelText::triton_scale_conversion).bytes("bytes", std::max(a, b));
  }
  if (d.epilogue_cvt > 0)
    s.add(KernelText::triton_epilogue_conversion).bytes("bytes", d.epilogue_cvt);
  return s;
}

}  // namespace

Plan triton_plan(const KernelConfig& cfg, const KernelTraits& k, bool explain, Findings&& why) {
  if (is_amd(cfg.arch)) return amd::plan(cfg, k, explain, std::move(why));
  Plan p;
  p.min_stages = 1;
  p.overflow = Overflow::TritonOutOfResources;
  p.stage_param = StageParam::TritonNumStages;
  // num_stages is not chosen by Triton: absent, the launch compiles with CUDAOptions' default.
  p.auto_stages = false;
  p.stages = cfg.stages.value_or(kDefaultNumStages);

  if (!cfg.triton_version.empty() && !is_triton_36(cfg.triton_version))
    why.note(
        [&] { return diag(Code::triton_version_differs).name("version", cfg.triton_version); });
  if (!cfg.stages)
    why.note([&] {
      return diag(Code::triton_default_num_stages)
          .stages("stages", kDefaultNumStages, p.stage_param);
    });
  if (!cfg.num_warps)
    why.note([&] {
      return diag(Code::triton_default_num_warps).integer("num_warps", kDefaultNumWarps);
    });
  if (cfg.tuned_block_k > 0)
    why.note([&] {
      return diag(Code::triton_block_k_clamped)
          .integer("block_k", cfg.tuned_block_k)
          .integer("tile_k", cfg.k)
          .integer("block_n", cfg.block_shape ? (*cfg.block_shape)[0] : 0)
          .integer("block_k_scale", cfg.block_shape ? (*cfg.block_shape)[1] : 0);
    });
  // ROCm's options (waves_per_eu, matrix_instr_nonkdim, kpack: HIPOptions,
  // third_party/amd/backend/compiler.py) in an entry: kept, ignored by the CUDA backend.
  if (cfg.tuned.waves_per_eu || cfg.tuned.matrix_instr_nonkdim || cfg.tuned.kpack)
    why.note([&] {
      std::string keys;
      const std::pair<const char*, bool> amd[3] = {
          {"waves_per_eu", cfg.tuned.waves_per_eu.has_value()},
          {"matrix_instr_nonkdim", cfg.tuned.matrix_instr_nonkdim.has_value()},
          {"kpack", cfg.tuned.kpack.has_value()}};
      for (const auto& [key, given] : amd)
        if (given) keys += (keys.empty() ? "" : ", ") + std::string(key);
      return diag(Code::triton_amd_keys_ignored).name("keys", keys).arch("arch", cfg.arch);
    });
  if (cfg.arch == 87 || cfg.arch == 103 || cfg.arch == 110)
    why.note([&] { return diag(Code::triton_arch_unmeasured).arch("arch", cfg.arch); });

  reject_invalid(cfg, k, why);
  p.sizes_known = !why.invalid();
  Decisions d;
  if (p.sizes_known) {
    d = decide_layouts(cfg, k, p.stages);
    if (*d.fallback != '\0')
      why.note([&] {
        return diag(Code::triton_mma_fallback)
            .arch("arch", cfg.arch)
            .name("instruction", cfg.arch < 100 ? "wgmma" : "tcgen05")
            .name("reason", d.fallback)
            .integer("num_warps", num_warps_of(cfg))
            .integer("tile_m", cfg.m)
            .integer("tile_n", cfg.n)
            .integer("tile_k", cfg.k)
            .integer("min_k", 256 / k.in_bits);
      });
    if (d.fp8_promoted)
      why.note([&] { return diag(Code::triton_fp8_promoted).arch("arch", cfg.arch); });
    // TMA copies without a pipeline (num_stages 1): not measured.
    if (k.tma && p.stages == 1)
      why.reject([&] {
        return diag(Code::triton_moe_tma_unmodelled)
            .name("engine", engine_release_text(cfg.engine))
            .arch("arch", cfg.arch);
      });
    if (p.stages > 1) {
      for (int op = 0; op < 2; ++op) {
        const bool can = op == 0 ? d.a_can_pipeline : d.b_can_pipeline;
        if (can) continue;
        why.note([&] {
          return diag(Code::triton_operand_not_pipelined)
              .name("operand", op == 0                 ? "A"
                               : d.b_dequant_bits == 4 ? "B's int4 weight"
                               : d.b_dequant_bits == 8 ? "B's int8 weight"
                                                       : "B")
              .integer("bits_per_thread", op == 0 ? d.a_load_bits : d.b_load_bits)
              .flag("smem", reg_smem(d, op));
        });
      }
    }
    if (explain && d.epilogue_cvt > 0) {
      const Sizes st = triton_storage<Extent>(d, p.stages);
      if (st.kernel.size == d.epilogue_cvt && d.epilogue_cvt > st.mainloop_shared)
        why.note([&] {
          return diag(Code::triton_epilogue_dominates)
              .bytes("epilogue_bytes", d.epilogue_cvt)
              .bytes("loop_bytes", st.mainloop_shared);
        });
    }
    if (explain) p.kernel = describe(d, p.stages);
  }
  p.state.store(d);
  p.take(std::move(why));
  return p;
}

}  // namespace tilefit::model::triton
