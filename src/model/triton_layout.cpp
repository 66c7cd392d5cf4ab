#include "triton_layout.hpp"

#include <algorithm>
#include <optional>

namespace tilefit::model::triton {
namespace {

// =============================================================================================
// Building layouts.
//
// Every layout the two kernels use is a product of identity1D and zeros1D layouts
// (LinearLayout::operator*, lib/Tools/LinearLayout.cpp:704-760): each basis has exactly one
// non-zero out-dimension component, and the product shifts a factor's components by the size the
// out-dimension already has. So a layout is built here by appending bases in the order Triton's
// products append them, with one running log2 size per out-dimension, and then fitted to the
// tensor's shape as combineCtaCgaWithShape does (LinearLayoutConversions.cpp:1267-1304):
//   ensureLayoutNotSmallerThan (lib/Tools/LayoutUtils.cpp:115-134): for each out-dimension, in the
//     layout's out-dimension order, that is smaller than the shape, multiply by
//     identity1D(shape/size, "register", dim) — i.e. append register bases;
//   ensureLayoutNotLargerThan (LayoutUtils.cpp:39-108): for each out-dimension that is larger,
//     zero the largest components until it fits. With one component per basis and each power of
//     two present once per dimension, that zeroes exactly the components >= the shape. With
//     broadcastRegisters = false (LinearEncodingAttr::toLinearLayout, Dialect.cpp:1116-1130) the
//     register bases are removed instead of zeroed.
// =============================================================================================

struct Basis {
  int dim;  ///< -1: a zero basis
  std::uint32_t v;
};

struct Builder {
  std::array<int, 2> out_order{0, 1};  ///< the order out-dimensions appear in the product
  int nout = 2;
  std::array<int, 2> cur{0, 0};  ///< log2 size of each out-dimension so far
  std::array<int, kInDims> n{};
  std::array<std::array<Basis, kMaxBases>, kInDims> bases;  ///< first n[in] meaningful

  void push(int in, int dim, std::uint32_t v) {
    if (n[in] < kMaxBases) bases[in][n[in]++] = {dim, v};
  }
  /// `* identity1D(2^log2size, in, dim)`.
  void identity(int in, int dim, int log2size) {
    for (int i = 0; i < log2size; ++i) push(in, dim, std::uint32_t{1} << (cur[dim] + i));
    cur[dim] += log2size;
  }
  /// `* zeros1D(2^count, in, dim)`: bases that map to 0 (out size stays 1).
  void zeros(int in, int count) {
    for (int i = 0; i < count; ++i) push(in, -1, 0);
  }

  /// Fits the layout to `shape` (log2 per dimension) and flattens it. `drop` >= 0: the layout is
  /// a slice's parent, built for a shape that is 1 along `drop`; that dimension is removed and the
  /// register bases that became zero are dropped (SliceEncodingAttr, LinearLayoutConversions.cpp:
  /// 1014-1036). `broadcast_registers`: ensureLayoutNotLargerThan's flag.
  Flat finish(const std::array<int, 2>& shape, int rank, bool broadcast_registers, int drop) {
    for (int k = 0; k < nout; ++k) {
      const int d = out_order[k];
      if (shape[d] > cur[d]) identity(kReg, d, shape[d] - cur[d]);
    }
    Flat f;
    const int keep = drop < 0 ? -1 : 1 - drop;
    f.dim = drop >= 0 ? shape[keep] : (rank == 2 ? shape[0] + shape[1] : shape[0]);
    for (int in = 0; in < kInDims; ++in) {
      for (int i = 0; i < n[in]; ++i) {
        Basis x = bases[in][i];
        if (x.dim >= 0 && x.v >= (std::uint32_t{1} << shape[x.dim])) {
          if (in == kReg && !broadcast_registers) continue;  // removed
          x = {-1, 0};                                       // zeroed
        }
        std::uint32_t flat = 0;
        if (x.dim >= 0) {
          if (drop >= 0)
            flat = x.dim == keep ? x.v : 0;
          else
            flat = x.dim == 0 ? x.v : x.v << shape[0];
        }
        if (drop >= 0 && in == kReg && flat == 0) continue;
        f.push(in, flat);
      }
    }
    return f;
  }
};

/// NVIDIA MMA layouts (nvidiaMmaTile + NvidiaMmaEncodingAttr::toLinearLayout,
/// LinearLayoutConversions.cpp:901-966), rank 2, kWidth 2: out-dimensions (dim1, dim0);
///   identity1D(2, reg, dim1) * identity1D(4, lane, dim1) * identity1D(8, lane, dim0)
///   * identity1D(2, reg, dim0) * identity1D(N/8, reg, dim1)     (N = 8 for v2, instrN for v3)
/// then the warps: identityStandardND(warp, warpsPerCTA, order) with order [1,0] for v2 (dim1's
/// warps first) and [0,1] for v3 (dim0's first).
Builder mma_builder(const Accumulator& a) {
  Builder b;
  b.out_order = {1, 0};
  int n_log2 = 3;
  if (a.version == 3) n_log2 = __builtin_ctz(static_cast<unsigned>(a.instr_n));
  b.identity(kReg, 1, 1);
  b.identity(kLane, 1, 2);
  b.identity(kLane, 0, 3);
  b.identity(kReg, 0, 1);
  b.identity(kReg, 1, n_log2 - 3);
  if (a.version == 2) {
    b.identity(kWarp, 1, a.warps[1]);
    b.identity(kWarp, 0, a.warps[0]);
  } else {
    b.identity(kWarp, 0, a.warps[0]);
    b.identity(kWarp, 1, a.warps[1]);
  }
  return b;
}

/// The tcgen05 accumulator as it is read back from tensor memory: the default 32x32b TMEM load
/// layout (getDefaultLayoutForTmemLdSt, lib/Dialect/TritonNvidiaGPU/IR/Dialect.cpp:134-336)
/// composed with tensorMemoryToLinearLayout (LinearLayoutConversions.cpp:1038-1128) for an fp32
/// accumulator in TensorMemoryEncoding(blockM = 128 if BM >= 128 else 64, blockN = min(BN, 256)),
/// one CTA, 4 or 8 warps — in closed form (MODEL.md §7.5, checked against dumped #ttg.linear
/// layouts). Out-dimensions (dim0, dim1); t = log2(num_warps / 4):
///   blockM 128: columns c = [dim1 1, 2, .., blockN/2] + [dim0 128, .. for BM/128 > 1]
///               + [dim1 blockN, .. for BN/blockN > 1]; registers = the first |c| - t of c;
///               lanes = dim0 1..16; warps = dim0 32, 64, then the rest of c.
///   blockM 64:  c = [dim1 1, .., BN/2]; m = |c| - t; registers = c[0 : m-1];
///               lanes = dim0 1..8, then c[m-1]; warps = dim0 16, 32, then c[m:].
Builder tmem_builder(const Accumulator& a) {
  Builder b;
  b.out_order = {0, 1};
  const int bm = a.bm_log2, bn = a.bn_log2;
  const int block_n = std::min(bn, 8);
  const int t = a.num_warps >= 8 ? 1 : 0;
  std::array<Basis, kMaxBases> col;
  int nc = 0;
  auto add = [&](int dim, std::uint32_t v) {
    if (nc < kMaxBases) col[nc++] = {dim, v};
  };
  for (int i = 0; i < block_n; ++i) add(1, std::uint32_t{1} << i);
  if (bm >= 7) {
    for (int i = 0; i < bm - 7; ++i) add(0, std::uint32_t{128} << i);
    for (int i = 0; i < bn - block_n; ++i) add(1, std::uint32_t{1} << (block_n + i));
    const int nreg = nc - t;
    for (int i = 0; i < nreg; ++i) b.push(kReg, col[i].dim, col[i].v);
    for (int i = 0; i < 5; ++i) b.push(kLane, 0, std::uint32_t{1} << i);
    b.push(kWarp, 0, 32);
    b.push(kWarp, 0, 64);
    for (int i = nreg; i < nc; ++i) b.push(kWarp, col[i].dim, col[i].v);
  } else {
    for (int i = 0; i < bn - block_n; ++i) add(1, std::uint32_t{1} << (block_n + i));
    const int m = nc - t;
    for (int i = 0; i + 1 < m; ++i) b.push(kReg, col[i].dim, col[i].v);
    for (int i = 0; i < 4; ++i) b.push(kLane, 0, std::uint32_t{1} << i);
    if (m >= 1) b.push(kLane, col[m - 1].dim, col[m - 1].v);
    b.push(kWarp, 0, 16);
    b.push(kWarp, 0, 32);
    for (int i = std::max(m, 0); i < nc; ++i) b.push(kWarp, col[i].dim, col[i].v);
  }
  b.cur = {bm, bn};
  return b;
}

// =============================================================================================
// GF(2) helpers of lib/Tools/GenericSwizzling.cpp. They depend only on the unique reduced
// row-echelon form with pivot = lowest set bit; the order of the bases they return matters
// (callers truncate), and is Triton's.
// =============================================================================================

/// A short list of vectors.
struct Vecs {
  static constexpr int kCap = 48;
  int n = 0;
  std::array<std::uint32_t, kCap> v;  ///< first n meaningful
  void push(std::uint32_t x) {
    if (n < kCap) v[n++] = x;
  }
  bool contains(std::uint32_t x) const {
    for (int i = 0; i < n; ++i)
      if (v[i] == x) return true;
    return false;
  }
  void truncate(int k) {
    if (k < n) n = k < 0 ? 0 : k;
  }
  void append(const Vecs& o) {
    for (int i = 0; i < o.n; ++i) push(o.v[i]);
  }
};

Vecs vecs_of(const std::uint32_t* p, int n) {
  Vecs r;
  for (int i = 0; i < n; ++i) r.push(p[i]);
  return r;
}

/// Row-echelon form keyed by the lowest set bit.
struct Echelon {
  std::array<std::uint32_t, 32> row;  ///< meaningful where piv has the bit
  std::uint32_t piv = 0;              ///< bit p: row[p] is the row with lowest bit p

  void add(std::uint32_t v) {
    while (v != 0) {
      const int lb = __builtin_ctz(v);
      if ((piv >> lb) & 1u) {
        v ^= row[lb];
      } else {
        row[lb] = v;
        piv |= std::uint32_t{1} << lb;
        return;
      }
    }
  }
  /// Clears every other pivot's bit from each row (the unique reduced form).
  void reduce() {
    for (std::uint32_t ps = piv; ps != 0; ps &= ps - 1) {
      const int p = __builtin_ctz(ps);
      std::uint32_t higher = piv & ~((std::uint32_t{2} << p) - 1);
      for (; higher != 0; higher &= higher - 1) {
        const int q = __builtin_ctz(higher);
        if ((row[p] >> q) & 1u) row[p] ^= row[q];
      }
    }
  }
};

/// nullspaceBasis (GenericSwizzling.cpp:69): one vector per free column, in column order.
Vecs nullspace_basis(const Vecs& vectors, int dim) {
  Echelon e;
  for (int i = 0; i < vectors.n; ++i) e.add(vectors.v[i]);
  e.reduce();
  Vecs out;
  for (int free = 0; free < dim; ++free) {
    if ((e.piv >> free) & 1u) continue;
    std::uint32_t vec = std::uint32_t{1} << free;
    for (std::uint32_t ps = e.piv; ps != 0; ps &= ps - 1) {
      const int p = __builtin_ctz(ps);
      if ((e.row[p] >> free) & 1u) vec ^= std::uint32_t{1} << p;
    }
    out.push(vec);
  }
  return out;
}

bool is_pow2(std::uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

/// Population count without a library call (the build does not assume -mpopcnt).
inline int popcount(std::uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return static_cast<int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/// intersectionBasis (GenericSwizzling.cpp:218): the fast path when both lists are powers of two
/// (no zero vector), else the nullspace of the two nullspaces.
Vecs intersection_basis(const Vecs& b1, const Vecs& b2, int dim) {
  bool pow2 = true;
  for (int i = 0; i < b1.n && pow2; ++i) pow2 = is_pow2(b1.v[i]);
  for (int i = 0; i < b2.n && pow2; ++i) pow2 = is_pow2(b2.v[i]);
  if (pow2) {
    std::uint32_t m2 = 0;
    for (int i = 0; i < b2.n; ++i) m2 |= b2.v[i];
    Vecs out;
    for (int i = 0; i < b1.n; ++i)
      if (b1.v[i] & m2) out.push(b1.v[i]);
    return out;
  }
  Vecs both = nullspace_basis(b1, dim);
  both.append(nullspace_basis(b2, dim));
  return nullspace_basis(both, dim);
}

/// rank of the span of `v`.
int rank_of(const Vecs& v) {
  Echelon e;
  for (int i = 0; i < v.n; ++i) e.add(v.v[i]);
  return popcount(e.piv);
}

/// |intersectionBasis(seg, tile, dim)|, as bankConflicts uses it. On the fast path (both lists
/// powers of two) it is the entries of seg found in tile; otherwise the nullspace of the two
/// nullspaces is a basis of span(seg) ∩ span(tile), so its size is that intersection's
/// dimension: rank(seg) - rank(seg projected off span(tile)) when tile is made of unit vectors
/// (always, for these layouts), else rank(seg) + rank(tile) - rank(seg ∪ tile).
int intersection_size(const Vecs& seg, int& seg_rank, const Vecs& tile) {
  bool seg_pow2 = true, tile_pow2 = true;
  std::uint32_t tile_mask = 0;
  for (int i = 0; i < seg.n && seg_pow2; ++i) seg_pow2 = is_pow2(seg.v[i]);
  for (int i = 0; i < tile.n; ++i) {
    tile_pow2 = tile_pow2 && is_pow2(tile.v[i]);
    tile_mask |= tile.v[i];
  }
  if (seg_pow2 && tile_pow2) {
    int count = 0;
    for (int i = 0; i < seg.n; ++i)
      if (seg.v[i] & tile_mask) ++count;
    return count;
  }
  if (seg_rank < 0) seg_rank = rank_of(seg);
  if (tile_pow2) {
    Echelon e;
    for (int i = 0; i < seg.n; ++i) e.add(seg.v[i] & ~tile_mask);
    return seg_rank - popcount(e.piv);
  }
  Vecs both = seg;
  both.append(tile);
  return seg_rank + rank_of(tile) - rank_of(both);
}

/// A set of non-zero vectors (Python's set() in the reference): the powers of two as a bit mask,
/// the others listed. Layout bases are almost always powers of two.
struct VecSet {
  std::uint32_t pow2 = 0;
  Vecs other;
  void add(std::uint32_t x) {
    if (x == 0) return;
    if (is_pow2(x))
      pow2 |= x;
    else if (!other.contains(x))
      other.push(x);
  }
  void add(const Vecs& v) {
    for (int i = 0; i < v.n; ++i) add(v.v[i]);
  }
  bool contains(std::uint32_t x) const { return is_pow2(x) ? (pow2 & x) != 0 : other.contains(x); }
  /// The members not in `o`, ascending.
  Vecs minus_sorted(const VecSet& o) const {
    Vecs r;
    for (std::uint32_t m = pow2 & ~o.pow2; m != 0; m &= m - 1) r.push(m & (~m + 1));
    for (int i = 0; i < other.n; ++i)
      if (!o.other.contains(other.v[i])) r.push(other.v[i]);
    std::sort(r.v.begin(), r.v.begin() + r.n);
    return r;
  }
};

/// computeSegment (GenericSwizzling.cpp:144-189), with the two banks as sets (0 left out).
Vecs compute_segment(const VecSet& src, const VecSet& dst, int dim, int len) {
  Vecs segment;
  for (int b = 0; b < dim; ++b) {
    const std::uint32_t x = std::uint32_t{1} << b;
    if (!(src.pow2 & x) && !(dst.pow2 & x)) segment.push(x);
  }
  if (segment.n >= len) {
    segment.truncate(len);
    return segment;
  }
  Vecs a = src.minus_sorted(dst), bb = dst.minus_sorted(src);
  if (a.n > bb.n) std::swap(a, bb);
  const int lbc = std::min(std::max(0, len - a.n - segment.n), a.n);
  for (int i = lbc; i < a.n; ++i) segment.push(a.v[i] ^ bb.v[i]);
  for (int i = 0; i < lbc; ++i) segment.push(a.v[i]);
  for (int i = 0; i < lbc; ++i) segment.push(bb.v[i]);
  segment.truncate(len);
  return segment;
}

// =============================================================================================
// invertAndCompose (lib/Tools/LinearLayout.cpp:1023-1100), for flattened layouts: for every basis
// of B, the in-coordinates of A holding the same element. In-dimensions whose bases are identical
// in both map to themselves; the rest is lstsq: the greedily independent columns of A (register,
// lane, warp order) and the target expressed as their XOR (free columns 0).
// =============================================================================================

/// A's in-coordinates as one bit set: register basis i at bit i, lane basis i at bit 32 + i,
/// warp basis i at bit 48 + i (a layout has 5 lane bases and at most 5 warp bases here).
struct Coords {
  std::uint64_t bits;
  std::uint32_t m(int d) const {
    return d == kReg ? static_cast<std::uint32_t>(bits)
                     : static_cast<std::uint32_t>((bits >> (d == kLane ? 32 : 48)) & 0xFFFFu);
  }
};
constexpr int kCoordShift[kInDims] = {0, 32, 48};

struct Composed {
  bool ok = true;
  std::array<int, kInDims> n{};
  std::array<std::array<Coords, kMaxBases>, kInDims> c;  ///< first n[d] meaningful
};

bool same_bases(const Flat& a, const Flat& b, int d) {
  if (a.n[d] != b.n[d]) return false;
  for (int i = 0; i < a.n[d]; ++i)
    if (a.b[d][i] != b.b[d][i]) return false;
  return true;
}

/// The lstsq half of invertAndCompose: A's columns eliminated once, then any of B's bases can be
/// expressed in A's coordinates. Layout bases are almost always single bits, which go straight
/// into the pivot table.
struct Solver {
  std::array<bool, kInDims> ident{};
  std::array<std::uint32_t, 32> pvec;
  std::array<std::uint64_t, 32> pmask;
  std::uint32_t has = 0;
  bool ok = true;

  Solver(const Flat& B, const Flat& A) {
    if (A.n[kLane] > 16 || A.n[kWarp] > 16) {  // never: 32 lanes, at most 32 warps
      ok = false;
      return;
    }
    for (int d = 0; d < kInDims; ++d) ident[d] = same_bases(A, B, d);
    for (int d = 0; d < kInDims; ++d) {
      if (ident[d]) continue;
      for (int i = 0; i < A.n[d]; ++i) {
        std::uint32_t vec = A.b[d][i];
        std::uint64_t mask = std::uint64_t{1} << (kCoordShift[d] + i);
        while (vec != 0) {
          const int lb = __builtin_ctz(vec);
          if (!((has >> lb) & 1u)) {
            pvec[lb] = vec;
            pmask[lb] = mask;
            has |= std::uint32_t{1} << lb;
            break;
          }
          vec ^= pvec[lb];
          mask ^= pmask[lb];
        }
      }
    }
  }

  /// B's basis i of in-dimension d, in A's coordinates; false when it is not in A's image.
  bool solve(const Flat& B, int d, int i, Coords& r) const {
    if (ident[d]) {
      r.bits = std::uint64_t{1} << (kCoordShift[d] + i);
      return true;
    }
    std::uint32_t vec = B.b[d][i];
    r.bits = 0;
    while (vec != 0) {
      const int lb = __builtin_ctz(vec);
      if (!((has >> lb) & 1u)) return false;
      vec ^= pvec[lb];
      r.bits ^= pmask[lb];
    }
    return true;
  }
};

Composed invert_and_compose(const Flat& B, const Flat& A) {
  Composed out;
  const Solver solver(B, A);
  if (!solver.ok) {
    out.ok = false;
    return out;
  }
  for (int d = 0; d < kInDims; ++d) {
    out.n[d] = B.n[d];
    for (int i = 0; i < B.n[d]; ++i)
      if (!solver.solve(B, d, i, out.c[d][i])) out.ok = false;  // never for these layouts
  }
  return out;
}

// =============================================================================================
// cvtNeedsSharedMemory (lib/Analysis/Utility.cpp:946-1006).
// =============================================================================================

/// minimalCvtLayout: comp = dst.invertAndCompose(src), quotiented by block (always empty here),
/// warp and lane, stopping at the first in-dimension that cannot be removed. An in-dimension d can
/// be removed when (a) comp maps d onto itself as the identity, (b) no other remaining in-dimension
/// maps into d, (c) d maps into no other remaining dimension. Returns the remaining dimensions as
/// a bit set (bit kReg always set).
unsigned minimal_cvt(const Flat& src, const Flat& dst, const Solver& comp, bool& ok) {
  ok = comp.ok;
  if (!ok) return 0;
  // comp: dst's bases in src's coordinates.
  std::array<std::array<Coords, kMaxBases>, kInDims> c;
  for (int d = 0; d < kInDims; ++d)
    for (int i = 0; i < dst.n[d]; ++i)
      if (!comp.solve(dst, d, i, c[d][i])) ok = false;  // never for these layouts
  if (!ok) return 0;
  unsigned remaining = (1u << kReg) | (1u << kLane) | (1u << kWarp);
  for (int d : {kWarp, kLane}) {
    const int nd = dst.n[d];
    bool can = nd == src.n[d];
    for (int i = 0; i < nd && can; ++i) can = c[d][i].m(d) == (std::uint32_t{1} << i);
    for (int o = 0; o < kInDims && can; ++o) {
      if (o == d || !((remaining >> o) & 1u)) continue;
      for (int i = 0; i < dst.n[o] && can; ++i) can = c[o][i].m(d) == 0;
      for (int i = 0; i < nd && can; ++i) can = c[d][i].m(o) == 0;
    }
    if (!can) break;
    remaining &= ~(1u << d);
  }
  return remaining;
}

/// The number of mixed (register, lane) transpositions of getWarpLayoutConvertDecomposition
/// (lib/Analysis/Utility.cpp:257-420) for an intra-warp conversion: pad the register and lane bases
/// of both sides to equal counts, P = S.invertAndCompose(T) on them, fix points for bases zero on
/// both sides, pair the remaining zero bases, then walk the cycles of P and count the returns from
/// a lane to a register.
int mixed_transpositions(const Flat& src, const Flat& dst) {
  const Flat s0 = remove_broadcast_regs(src), d0 = remove_broadcast_regs(dst);
  const int nreg = std::max(s0.n[kReg], d0.n[kReg]);
  const int nlane = std::max(s0.n[kLane], d0.n[kLane]);
  auto pad = [&](const Flat& f) {
    Flat p;
    p.dim = f.dim;
    for (int i = 0; i < nreg; ++i) p.push(kReg, i < f.n[kReg] ? f.b[kReg][i] : 0);
    for (int i = 0; i < nlane; ++i) p.push(kLane, i < f.n[kLane] ? f.b[kLane][i] : 0);
    return p;
  };
  const Flat S = pad(s0), T = pad(d0);
  const Composed P = invert_and_compose(S, T);
  if (!P.ok) return 99;
  // pb[dim][i] = {register component, lane component}
  std::array<std::array<std::array<std::uint32_t, 2>, kMaxBases>, 2> pb{};
  const int count[2] = {S.n[kReg], S.n[kLane]};
  for (int dn = 0; dn < 2; ++dn)
    for (int i = 0; i < count[dn]; ++i) pb[dn][i] = {P.c[dn][i].m(kReg), P.c[dn][i].m(kLane)};
  std::array<std::pair<int, int>, 2 * kMaxBases> src_free{}, dst_free{};
  int nsf = 0, ndf = 0;
  for (int dn = 0; dn < 2; ++dn) {
    for (int i = 0; i < count[dn]; ++i) {
      const std::uint32_t sv = S.b[dn][i], tv = T.b[dn][i];
      if (sv == 0 && tv == 0)
        pb[dn][i][dn] = std::uint32_t{1} << i;
      else if (sv == 0)
        src_free[nsf++] = {dn, i};
      else if (tv == 0)
        dst_free[ndf++] = {dn, i};
    }
  }
  for (int k = 0; k < std::min(nsf, ndf); ++k)
    pb[src_free[k].first][src_free[k].second][dst_free[k].first] = std::uint32_t{1}
                                                                   << dst_free[k].second;
  std::array<std::array<bool, kMaxBases>, 2> visited{};
  int mixed = 0;
  for (int dn = 0; dn < 2; ++dn) {
    for (int i = 0; i < count[dn]; ++i) {
      if (visited[dn][i]) continue;
      const std::pair<int, int> entry{dn, i};
      std::pair<int, int> cur = entry;
      int reg_end = -1;
      for (int guard = 1;; ++guard) {
        if (guard > 100) return 99;
        visited[cur.first][cur.second] = true;
        const auto& vec = pb[cur.first][cur.second];
        std::pair<int, int> nxt{-1, -1};
        for (int ni = 0; ni < 2; ++ni)
          if (vec[ni] != 0) nxt = {ni, 31 - __builtin_clz(vec[ni])};
        if (nxt.first < 0) return 99;
        if (nxt.second >= count[nxt.first]) return 99;
        if (cur.first == kLane && nxt.first == kReg) reg_end = nxt.second;
        if (reg_end >= 0) {
          ++mixed;
          reg_end = -1;
        }
        cur = nxt;
        if (cur == entry) break;
      }
    }
  }
  return mixed;
}

// =============================================================================================
// optimalSwizzling (lib/Tools/GenericSwizzling.cpp).
// =============================================================================================

/// LocalMemOpTile {laneContig, laneAddr} (lib/Conversion/TritonGPUToLLVM/Utility.cpp:42-73).
struct MemTile {
  int ncontig = 0;
  std::array<int, 3> contig{};
  int naddr = 0;
  std::array<int, 3> addr{};
};
constexpr MemTile kLdStShared{0, {}, 3, {0, 1, 2}};       ///< ld.shared / st.shared
constexpr MemTile kLdStMatrix{2, {0, 1}, 3, {2, 3, 4}};   ///< ldmatrix / stmatrix
constexpr MemTile kLdStMatrixT{3, {2, 3, 4}, 2, {0, 1}};  ///< .trans variants (16-bit)

struct Swizzle {
  int reps = 0;
  Vecs segment;
};

/// The core of optimalSwizzling (GenericSwizzling.cpp:389-455) with buildReps (:102-142): only
/// the segment (for bank conflicts) and the number of reps (the scratch size) are needed.
/// `regs_s`, `regs_d`: the register bases of the two layouts as sets.
Swizzle swizzle_core(int dim, const VecSet& regs_s, const VecSet& regs_d, int bits, const Vecs& vb,
                     const Vecs& tile_s, const Vecs& tile_d, int leave_reps) {
  VecSet bank_s, bank_d;
  bank_s.add(vb);
  bank_s.add(tile_s);
  bank_d.add(vb);
  bank_d.add(tile_d);
  const long long x = (1LL << vb.n) * bits;
  int len_b = 0;
  if (1024 / x >= 1) len_b = 63 - __builtin_clzll(static_cast<unsigned long long>(1024 / x));
  len_b = std::min(len_b, dim - vb.n);
  const int len_s = dim - len_b - vb.n;
  const Vecs seg = compute_segment(bank_s, bank_d, dim, len_s);
  Swizzle out;
  int leave = leave_reps;
  for (int i = 0; i < seg.n; ++i) {
    const std::uint32_t v = seg.v[i];
    if (regs_s.contains(v) && regs_d.contains(v)) {
      if (leave > 0) {
        --leave;
        out.segment.push(v);
      } else {
        ++out.reps;
      }
    } else {
      out.segment.push(v);
    }
  }
  return out;
}

/// The same core when every vector involved is a single bit (or 0): the layouts here always
/// give that, and the sets of computeSegment and buildReps become bit masks. Equivalent to
/// swizzle_core: tests/triton_model_test.cpp compares cvt_scratch_elems with
/// cvt_scratch_elems_general, which never takes this path.
Swizzle swizzle_core_bits(int dim, std::uint32_t regs_s, std::uint32_t regs_d, int bits,
                          std::uint32_t vb, int nvb, std::uint32_t tile_s, std::uint32_t tile_d,
                          int leave_reps) {
  const std::uint32_t bank_s = vb | tile_s, bank_d = vb | tile_d;
  const long long x = (1LL << nvb) * bits;
  int len_b = 0;
  if (1024 / x >= 1) len_b = 63 - __builtin_clzll(static_cast<unsigned long long>(1024 / x));
  len_b = std::min(len_b, dim - nvb);
  const int len = dim - len_b - nvb;
  // computeSegment: the unit vectors in neither bank, then (when short) pairs A[i] ^ B[i] of
  // the bank-only vectors, then the first lbc of each.
  Vecs seg;
  const std::uint32_t all = dim >= 32 ? ~0u : (std::uint32_t{1} << dim) - 1;
  const std::uint32_t free = all & ~(bank_s | bank_d);
  for (std::uint32_t m = free; m != 0 && seg.n < len; m &= m - 1) seg.push(m & (~m + 1));
  if (seg.n < len) {
    std::uint32_t a = bank_s & ~bank_d, b = bank_d & ~bank_s;
    if (popcount(a) > popcount(b)) std::swap(a, b);
    const int na = popcount(a);
    const int lbc = std::min(std::max(0, len - na - seg.n), na);
    std::array<std::uint32_t, 32> av, bv;
    int i = 0;
    for (std::uint32_t m = a; m != 0; m &= m - 1) av[i++] = m & (~m + 1);
    i = 0;
    for (std::uint32_t m = b; m != 0 && i < 32; m &= m - 1) bv[i++] = m & (~m + 1);
    for (int k = lbc; k < na; ++k) seg.push(av[k] ^ bv[k]);
    for (int k = 0; k < lbc; ++k) seg.push(av[k]);
    for (int k = 0; k < lbc; ++k) seg.push(bv[k]);
    seg.truncate(len);
  }
  // buildReps: a segment vector that is a register of both layouts is a rep, after the first
  // leave_reps of them.
  Swizzle out;
  int leave = leave_reps;
  for (int k = 0; k < seg.n; ++k) {
    const std::uint32_t v = seg.v[k];
    if (is_pow2(v) && (regs_s & v) && (regs_d & v)) {
      if (leave > 0) {
        --leave;
        out.segment.push(v);
      } else {
        ++out.reps;
      }
    } else {
      out.segment.push(v);
    }
  }
  return out;
}

/// 2^|intersectionBasis(segment, tile)| - 1 for a tile of unit vectors (and zeros) with bit
/// mask `tm`: the count of segment entries in the tile when both are all powers of two, else the
/// dimension of span(segment) ∩ span(tile) = rank(segment) - rank(segment off tm).
int conflicts_bits(const Vecs& seg, std::uint32_t tm, bool tile_has_zero) {
  bool seg_pow2 = true;
  int count = 0;
  for (int i = 0; i < seg.n; ++i) {
    seg_pow2 = seg_pow2 && is_pow2(seg.v[i]);
    if (seg.v[i] & tm) ++count;
  }
  if (!(seg_pow2 && !tile_has_zero)) {
    Echelon full, off;
    for (int i = 0; i < seg.n; ++i) {
      full.add(seg.v[i]);
      off.add(seg.v[i] & ~tm);
    }
    count = popcount(full.piv) - popcount(off.piv);
  }
  return (1 << count) - 1;
}

/// Lazily computed per-pair inputs of optimalSwizzlingTile: both compositions and both orders of
/// the register intersection (the two calls differ only in which side is "a").
struct TileContext {
  TileContext(const Flat& src, const Flat& dst) : s(src), d(dst) {}
  const Flat& s;
  const Flat& d;
  /// [0]: a = s, b = d; [1]: a = d, b = s. Built when first needed.
  std::optional<Solver> solver[2];
  bool have_vb[2] = {false, false};
  Vecs vb[2];
};

/// optimalSwizzlingTile (GenericSwizzling.cpp:310-387). `swap` false: a = src, b = dst.
/// cvt = b.invertAndCompose(a) is needed only for b's contiguous lanes.
bool swizzle_tile(TileContext& ctx, int n_reg_a, int n_reg_b, const MemTile& ta, const MemTile& tb,
                  bool swap, Vecs& result) {
  if (n_reg_a < n_reg_b) return swizzle_tile(ctx, n_reg_b, n_reg_a, tb, ta, !swap, result);
  const Flat& a = swap ? ctx.d : ctx.s;
  const Flat& b = swap ? ctx.s : ctx.d;
  const int k = swap ? 1 : 0;
  if (!ctx.have_vb[k]) {
    ctx.vb[k] = intersection_basis(vecs_of(a.b[kReg].data(), a.n[kReg]),
                                   vecs_of(b.b[kReg].data(), b.n[kReg]), a.dim);
    ctx.have_vb[k] = true;
  }
  const Vecs& vb = ctx.vb[k];
  if (vb.n < n_reg_b) return false;
  for (int i = 0; i < ta.ncontig; ++i)
    if (ta.contig[i] >= a.n[kLane] || a.b[kLane][ta.contig[i]] == 0) return false;
  for (int i = 0; i < tb.ncontig; ++i)
    if (tb.contig[i] >= b.n[kLane] || b.b[kLane][tb.contig[i]] == 0) return false;
  if (!ctx.solver[k]) ctx.solver[k].emplace(b, a);
  const Solver& cvt = *ctx.solver[k];
  if (!cvt.ok) return false;
  Coords c;
  for (int i = 0; i < n_reg_a - n_reg_b; ++i)
    if (!cvt.solve(b, kLane, tb.contig[i], c) || c.m(kReg) == 0) return false;
  if (ta.ncontig > 0) {
    const int off = tb.ncontig - ta.ncontig;
    for (int i = 0; i < ta.ncontig; ++i)
      if (!cvt.solve(b, kLane, tb.contig[off + i], c) ||
          c.m(kLane) != (std::uint32_t{1} << ta.contig[i]))
        return false;
  }
  result.n = 0;
  for (int i = 0; i < n_reg_b; ++i) result.push(vb.v[i]);
  for (int i = 0; i < tb.ncontig; ++i) result.push(b.b[kLane][tb.contig[i]]);
  return true;
}

/// getTile (GenericSwizzling.cpp:627-652): 3 - |laneAddr| registers not in the vector basis, then
/// the address lanes.
bool get_tile(const MemTile& t, const Flat& f, const Vecs& vb, Vecs& tile) {
  int need = 3 - t.naddr;
  for (int i = 0; i < f.n[kReg] && need > 0; ++i) {
    if (!vb.contains(f.b[kReg][i])) {
      tile.push(f.b[kReg][i]);
      --need;
    }
  }
  if (need > 0) return false;
  for (int i = 0; i < t.naddr; ++i) tile.push(f.b[kLane][t.addr[i]]);
  return true;
}

/// optimalSwizzlingLdSt (GenericSwizzling.cpp:456-596), when no instruction tile fits.
Swizzle swizzle_ldst(const Flat& s, const Flat& d, int bits) {
  const int dim = s.dim;
  const Vecs reg_s = vecs_of(s.b[kReg].data(), s.n[kReg]);
  const Vecs reg_d = vecs_of(d.b[kReg].data(), d.n[kReg]);
  Vecs vb = intersection_basis(reg_s, reg_d, dim);
  const int maxv = 31 - __builtin_clz(static_cast<unsigned>(128 / bits));
  vb.truncate(maxv);
  if ((1LL << vb.n) * bits < 32) {
    const int per_bank = 31 - __builtin_clz(static_cast<unsigned>(32 / bits));
    Vecs warp_s, warp_d;
    for (int i = 0; i < s.n[kWarp]; ++i)
      if (s.b[kWarp][i] != 0) warp_s.push(s.b[kWarp][i]);
    for (int i = 0; i < d.n[kWarp]; ++i)
      if (d.b[kWarp][i] != 0) warp_d.push(d.b[kWarp][i]);
    auto without_vb = [&](const Vecs& r) {
      Vecs o;
      for (int i = 0; i < r.n; ++i)
        if (!vb.contains(r.v[i])) o.push(r.v[i]);
      return o;
    };
    const Vecs rsw = intersection_basis(without_vb(reg_s), warp_d, dim);
    const Vecs rdw = intersection_basis(without_vb(reg_d), warp_s, dim);
    const Vecs* largest;
    if (rsw.n == rdw.n && rsw.n > 0) {
      const std::uint32_t min_s = *std::min_element(rsw.v.begin(), rsw.v.begin() + rsw.n);
      const std::uint32_t min_d = *std::min_element(rdw.v.begin(), rdw.v.begin() + rdw.n);
      largest = min_s < min_d ? &rsw : &rdw;
    } else {
      largest = rsw.n > rdw.n ? &rsw : &rdw;
    }
    vb.append(*largest);
    if (vb.n < per_bank) vb.append(intersection_basis(warp_s, warp_d, dim));
    for (int i = 0; vb.n < per_bank && (i < warp_s.n || i < warp_d.n); ++i) {
      if (i < warp_s.n && !vb.contains(warp_s.v[i])) vb.push(warp_s.v[i]);
      if (vb.n < per_bank && i < warp_d.n && !vb.contains(warp_d.v[i])) vb.push(warp_d.v[i]);
    }
    vb.truncate(per_bank);
  }
  const long long vec_bits = (1LL << vb.n) * bits / 32;
  const int log2vec =
      vec_bits > 1 ? 63 - __builtin_clzll(static_cast<unsigned long long>(vec_bits)) : 0;
  Vecs ts, td;
  for (int i = 0; i < s.n[kLane] - log2vec; ++i) ts.push(s.b[kLane][i]);
  for (int i = 0; i < d.n[kLane] - log2vec; ++i) td.push(d.b[kLane][i]);
  VecSet regs_s, regs_d;
  regs_s.add(reg_s);
  regs_d.add(reg_d);
  return swizzle_core(dim, regs_s, regs_d, bits, vb, ts, td, 0);
}

/// optimalSwizzling (GenericSwizzling.cpp:598-712): every (source tile, destination tile) pair of
/// instructions that optimalSwizzlingTile accepts is tried; the one with the fewest bank
/// conflicts (read-1)+(write-1) wins, ties to more reps (:700-709); none → optimalSwizzlingLdSt.
Swizzle optimal_swizzling(const Flat& s, const Flat& d, const MemTile* src_tiles, int nsrc,
                          const MemTile* dst_tiles, int ndst, int bits,
                          std::optional<Solver>&& d_in_s, bool allow_bits = true) {
  const int total = 31 - __builtin_clz(static_cast<unsigned>(128 / bits));
  TileContext ctx(s, d);
  ctx.solver[0] = std::move(d_in_s);
  VecSet regs_s, regs_d;
  for (int i = 0; i < s.n[kReg]; ++i) regs_s.add(s.b[kReg][i]);
  for (int i = 0; i < d.n[kReg]; ++i) regs_d.add(d.b[kReg][i]);
  bool found = false;
  int best_conflicts = 0, best_reps = 0;
  Swizzle best;
  for (int is = 0; is < nsrc; ++is) {
    const MemTile& ts = src_tiles[is];
    for (int id = 0; id < ndst; ++id) {
      const MemTile& td = dst_tiles[id];
      Vecs vb;
      if (!swizzle_tile(ctx, total - ts.ncontig, total - td.ncontig, ts, td, false, vb)) continue;
      Vecs tile_s, tile_d;
      if (!get_tile(ts, s, vb, tile_s) || !get_tile(td, d, vb, tile_d)) continue;
      const int leave = std::min(ts.ncontig + ts.naddr - 3, td.ncontig + td.naddr - 3);
      // Single-bit vectors (always, for these layouts): bit-mask arithmetic.
      std::uint32_t vbm = 0, tsm = 0, tdm = 0;
      bool single = allow_bits && regs_s.other.n == 0 && regs_d.other.n == 0;
      bool zero_s = false, zero_d = false;
      for (int i = 0; i < vb.n && single; ++i) {
        single = is_pow2(vb.v[i]);
        vbm |= vb.v[i];
      }
      for (int i = 0; i < tile_s.n && single; ++i) {
        single = tile_s.v[i] == 0 || is_pow2(tile_s.v[i]);
        zero_s = zero_s || tile_s.v[i] == 0;
        tsm |= tile_s.v[i];
      }
      for (int i = 0; i < tile_d.n && single; ++i) {
        single = tile_d.v[i] == 0 || is_pow2(tile_d.v[i]);
        zero_d = zero_d || tile_d.v[i] == 0;
        tdm |= tile_d.v[i];
      }
      Swizzle sw;
      int conflicts;
      if (single) {
        sw = swizzle_core_bits(s.dim, regs_s.pow2, regs_d.pow2, bits, vbm, vb.n, tsm, tdm, leave);
        conflicts =
            conflicts_bits(sw.segment, tsm, zero_s) + conflicts_bits(sw.segment, tdm, zero_d);
      } else {
        sw = swizzle_core(s.dim, regs_s, regs_d, bits, vb, tile_s, tile_d, leave);
        // bankConflicts (GenericSwizzling.cpp:243-261): 2^|segment ∩ tile| - 1 per side.
        int seg_rank = -1;  // computed when needed
        const int write = (1 << intersection_size(sw.segment, seg_rank, tile_s)) - 1;
        const int read = (1 << intersection_size(sw.segment, seg_rank, tile_d)) - 1;
        conflicts = read + write;
      }
      if (!found || conflicts < best_conflicts ||
          (conflicts == best_conflicts && sw.reps > best_reps)) {
        found = true;
        best_conflicts = conflicts;
        best_reps = sw.reps;
        best = sw;
      }
    }
  }
  if (!found) return swizzle_ldst(s, d, bits);
  return best;
}

}  // namespace

Flat remove_broadcast_regs(const Flat& f) {
  Flat r = f;
  r.n[kReg] = 0;
  for (int i = 0; i < f.n[kReg]; ++i)
    if (f.b[kReg][i] != 0) r.b[kReg][r.n[kReg]++] = f.b[kReg][i];
  return r;
}

Flat blocked_layout(const Blocked& blk, const std::array<int, 2>& shape, int rank) {
  Builder b;
  b.nout = rank;
  b.out_order = rank == 2 ? blk.order : std::array<int, 2>{0, 1};
  // identityStandardND(register, spt, order) * identityStandardND(lane, tpw, order)
  //   * identityStandardND(warp, wpc, order)          (LinearLayoutConversions.cpp:849-858)
  for (int in = 0; in < kInDims; ++in) {
    const std::array<int, 2>& x = in == kReg ? blk.spt : in == kLane ? blk.tpw : blk.wpc;
    for (int k = 0; k < rank; ++k) b.identity(in, b.out_order[k], x[b.out_order[k]]);
  }
  return b.finish(shape, rank, true, -1);
}

Flat accumulator_layout(const Accumulator& acc, const std::array<int, 2>& shape) {
  if (acc.version == 5) {
    Builder b = tmem_builder(acc);
    return b.finish(shape, 2, false, -1);
  }
  Builder b = mma_builder(acc);
  return b.finish(shape, 2, true, -1);
}

Flat accumulator_slice(const Accumulator& acc, int dim, int n) {
  std::array<int, 2> pshape{};
  pshape[dim] = 0;
  pshape[1 - dim] = n;
  Builder b = acc.version == 5 ? tmem_builder(acc) : mma_builder(acc);
  return b.finish(pshape, 2, acc.version != 5, dim);
}

Flat dot_operand_layout(int op_idx, int k_width_log2, const std::array<int, 2>& warps,
                        const std::array<int, 2>& shape) {
  // nvidiaDotToLinearLayout (LinearLayoutConversions.cpp:969-996) for an Ampere parent:
  // A: tile [16, 8·kWidth], order [1,0]; B: tile [8·kWidth, 8], order [0,1]; with inner = order[0]
  // and outer = order[1], m = tile[outer], n = tile[inner]:
  //   identity1D(kW, reg, inner) * identity1D(4, lane, inner) * identity1D(8, lane, outer)
  //   * identity1D(m/8, reg, outer) * identity1D(n/(4·kW), reg, inner)
  // then the warps for d in [1, 0]: zeros along K (broadcastedDotOperandLayout,
  // LinearLayoutConversions.cpp:282-316),
  // identity along M (A) or N (B).
  Builder b;
  const int inner = op_idx == 0 ? 1 : 0;
  const int outer = 1 - inner;
  b.out_order = {inner, outer};
  const int m_log2 = op_idx == 0 ? 4 : 3;  // tile[outer]
  const int n_log2 = 3 + k_width_log2;     // tile[inner] = 8·kWidth
  b.identity(kReg, inner, k_width_log2);
  b.identity(kLane, inner, 2);
  b.identity(kLane, outer, 3);
  b.identity(kReg, outer, m_log2 - 3);
  b.identity(kReg, inner, n_log2 - 2 - k_width_log2);
  const int k_dim = op_idx == 0 ? 1 : 0;
  for (int d : {1, 0}) {
    if (d == k_dim)
      b.zeros(kWarp, warps[d]);
    else
      b.identity(kWarp, d, warps[d]);
  }
  return b.finish(shape, 2, true, -1);
}

Flat mfma_dot_operand_layout(int op_idx, int non_k_log2, int k_width_log2,
                             const std::array<int, 2>& warps, const std::array<int, 2>& shape) {
  Builder b;
  const int k_dim = op_idx == 0 ? 1 : 0;
  const int nk_dim = 1 - k_dim;
  b.out_order = {k_dim, nk_dim};  // tileLayout.transposeOuts({dimK, dimNonK})
  b.identity(kReg, k_dim, k_width_log2);
  b.identity(kLane, nk_dim, non_k_log2);
  b.identity(kLane, k_dim, 6 - non_k_log2);  // warpSize 64
  const int k_tile = 6 - non_k_log2 + k_width_log2;
  if (shape[k_dim] > k_tile) b.identity(kReg, k_dim, shape[k_dim] - k_tile);
  b.identity(kWarp, 1, warps[1]);
  b.identity(kWarp, 0, warps[0]);
  return b.finish(shape, 2, true, -1);
}

Flat fma_dot_operand_layout(int op_idx, const Blocked& parent, const std::array<int, 2>& shape) {
  Builder b;
  const int k_dim = op_idx == 0 ? 1 : 0;
  b.out_order = parent.order;  // repOrder = order for a blocked parent
  for (int in = 0; in < kInDims; ++in) {
    const std::array<int, 2>& x = in == kReg ? parent.spt : in == kLane ? parent.tpw : parent.wpc;
    for (int k = 0; k < 2; ++k) {
      const int d = parent.order[k];
      if (in == kReg)
        b.identity(kReg, d, d == k_dim ? shape[d] : x[d]);
      else if (d == k_dim)
        b.zeros(in, x[d]);
      else
        b.identity(in, d, x[d]);
    }
  }
  return b.finish(shape, 2, true, -1);
}

namespace {

/// cvtNeedsSharedMemory with a prepared dst.invertAndCompose(src).
bool needs_smem(const Flat& src, const Flat& dst, const Solver& comp) {
  bool ok = true;
  const unsigned remaining = minimal_cvt(src, dst, comp, ok);
  if (!ok) return true;
  if (remaining == (1u << kReg)) return false;
  if (remaining == ((1u << kReg) | (1u << kLane))) return mixed_transpositions(src, dst) >= 2;
  return true;
}

}  // namespace

bool cvt_needs_smem(const Flat& src, const Flat& dst) {
  return needs_smem(src, dst, Solver(dst, src));
}

namespace {
bool has_broadcast_regs(const Flat& f) {
  for (int i = 0; i < f.n[kReg]; ++i)
    if (f.b[kReg][i] == 0) return true;
  return false;
}
}  // namespace

namespace {

std::int64_t scratch_elems(const Flat& s, const Flat& d, int bits, int cc,
                           std::optional<Solver>&& solver, bool allow_bits = true) {
  // getSrcDstTiles (lib/Conversion/TritonGPUToLLVM/Utility.cpp:42-73) with NVIDIA's
  // TargetInfo (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/TargetInfo.h:30-31): ldmatrix from
  // cc 75, stmatrix from cc 90; matrix tiles for elements of at most 32 bits, .trans for 16.
  MemTile src_tiles[3] = {kLdStShared}, dst_tiles[3] = {kLdStShared};
  int ns = 1, nd = 1;
  const bool ld = cc >= 75, st = cc >= 90;
  if (bits <= 32) {
    if (st) src_tiles[ns++] = kLdStMatrix;
    if (ld) dst_tiles[nd++] = kLdStMatrix;
  }
  if (bits == 16) {
    if (st) src_tiles[ns++] = kLdStMatrixT;
    if (ld) dst_tiles[nd++] = kLdStMatrixT;
  }
  const Swizzle sw =
      optimal_swizzling(s, d, src_tiles, ns, dst_tiles, nd, bits, std::move(solver), allow_bits);
  return (std::int64_t{1} << s.dim) >> sw.reps;
}

}  // namespace

std::int64_t cvt_scratch_elems(const Flat& src, const Flat& dst, int bits, int cc) {
  Flat s_copy, d_copy;
  const Flat* sp = &src;
  const Flat* dp = &dst;
  if (has_broadcast_regs(src)) sp = &(s_copy = remove_broadcast_regs(src));
  if (has_broadcast_regs(dst)) dp = &(d_copy = remove_broadcast_regs(dst));
  return scratch_elems(*sp, *dp, bits, cc, std::nullopt);
}

std::int64_t cvt_scratch_elems_general(const Flat& src, const Flat& dst, int bits, int cc) {
  return scratch_elems(remove_broadcast_regs(src), remove_broadcast_regs(dst), bits, cc,
                       std::nullopt, false);
}

std::int64_t cvt_scratch_if_needed(const Flat& src, const Flat& dst, int bits, int cc) {
  if (has_broadcast_regs(src) || has_broadcast_regs(dst)) {
    if (!cvt_needs_smem(src, dst)) return 0;
    return cvt_scratch_elems(src, dst, bits, cc);
  }
  // Without broadcast registers both questions use the same dst.invertAndCompose(src).
  std::optional<Solver> comp(std::in_place, dst, src);
  if (!needs_smem(src, dst, *comp)) return 0;
  return scratch_elems(src, dst, bits, cc, std::move(comp));
}

}  // namespace tilefit::model::triton
