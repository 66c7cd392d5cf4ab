#include "triton_layout.hpp"

#include <algorithm>

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
  int dim = -1;  ///< -1: a zero basis
  std::uint32_t v = 0;
};

struct Builder {
  std::array<int, 2> out_order{0, 1};  ///< the order out-dimensions appear in the product
  int nout = 2;
  std::array<int, 2> cur{0, 0};        ///< log2 size of each out-dimension so far
  std::array<int, kInDims> n{};
  std::array<std::array<Basis, kMaxBases>, kInDims> bases{};

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
          x = {-1, 0};                                        // zeroed
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
  std::array<Basis, kMaxBases> col{};
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
  int n = 0;
  std::array<std::uint32_t, 64> v{};
  void push(std::uint32_t x) {
    if (n < 64) v[n++] = x;
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
  std::array<std::uint32_t, 32> row{};
  std::uint32_t piv = 0;  ///< bit p: row[p] is the row with lowest bit p

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

/// intersectionBasis (GenericSwizzling.cpp:218): the fast path when both lists are powers of two
/// (no zero vector), else the nullspace of the two nullspaces.
Vecs intersection_basis(const Vecs& b1, const Vecs& b2, int dim) {
  bool pow2 = true;
  for (int i = 0; i < b1.n && pow2; ++i) pow2 = is_pow2(b1.v[i]);
  for (int i = 0; i < b2.n && pow2; ++i) pow2 = is_pow2(b2.v[i]);
  if (pow2) {
    Vecs out;
    for (int i = 0; i < b1.n; ++i)
      if (b1.v[i] != 0 && b2.contains(b1.v[i])) out.push(b1.v[i]);
    return out;
  }
  Vecs both = nullspace_basis(b1, dim);
  both.append(nullspace_basis(b2, dim));
  return nullspace_basis(both, dim);
}

/// computeSegment (GenericSwizzling.cpp:144-189).
Vecs compute_segment(const Vecs& bank_src, const Vecs& bank_dst, int dim, int len) {
  Vecs src, dst;  // as sets, without 0
  for (int i = 0; i < bank_src.n; ++i)
    if (bank_src.v[i] != 0 && !src.contains(bank_src.v[i])) src.push(bank_src.v[i]);
  for (int i = 0; i < bank_dst.n; ++i)
    if (bank_dst.v[i] != 0 && !dst.contains(bank_dst.v[i])) dst.push(bank_dst.v[i]);
  Vecs segment;
  for (int b = 0; b < dim; ++b) {
    const std::uint32_t x = std::uint32_t{1} << b;
    if (!src.contains(x) && !dst.contains(x)) segment.push(x);
  }
  if (segment.n >= len) {
    segment.truncate(len);
    return segment;
  }
  Vecs a, bb;
  for (int i = 0; i < src.n; ++i)
    if (!dst.contains(src.v[i])) a.push(src.v[i]);
  for (int i = 0; i < dst.n; ++i)
    if (!src.contains(dst.v[i])) bb.push(dst.v[i]);
  std::sort(a.v.begin(), a.v.begin() + a.n);
  std::sort(bb.v.begin(), bb.v.begin() + bb.n);
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

struct Coords {
  std::array<std::uint32_t, kInDims> m{};  ///< bit i of m[d]: A's basis i of in-dimension d
};

struct Composed {
  bool ok = true;
  std::array<int, kInDims> n{};
  std::array<std::array<Coords, kMaxBases>, kInDims> c{};
};

bool same_bases(const Flat& a, const Flat& b, int d) {
  if (a.n[d] != b.n[d]) return false;
  for (int i = 0; i < a.n[d]; ++i)
    if (a.b[d][i] != b.b[d][i]) return false;
  return true;
}

Composed invert_and_compose(const Flat& B, const Flat& A) {
  Composed out;
  std::array<bool, kInDims> ident{};
  for (int d = 0; d < kInDims; ++d) ident[d] = same_bases(A, B, d);
  std::array<std::uint32_t, 32> pvec{};
  std::array<Coords, 32> pmask{};
  std::uint32_t has = 0;
  for (int d = 0; d < kInDims; ++d) {
    if (ident[d]) continue;
    for (int i = 0; i < A.n[d]; ++i) {
      std::uint32_t vec = A.b[d][i];
      Coords mask;
      mask.m[d] = std::uint32_t{1} << i;
      while (vec != 0) {
        const int lb = __builtin_ctz(vec);
        if ((has >> lb) & 1u) {
          vec ^= pvec[lb];
          for (int k = 0; k < kInDims; ++k) mask.m[k] ^= pmask[lb].m[k];
        } else {
          pvec[lb] = vec;
          pmask[lb] = mask;
          has |= std::uint32_t{1} << lb;
          break;
        }
      }
    }
  }
  for (int d = 0; d < kInDims; ++d) {
    out.n[d] = B.n[d];
    for (int i = 0; i < B.n[d]; ++i) {
      Coords r;
      if (ident[d]) {
        r.m[d] = std::uint32_t{1} << i;
      } else {
        std::uint32_t vec = B.b[d][i];
        while (vec != 0) {
          const int lb = __builtin_ctz(vec);
          if (!((has >> lb) & 1u)) {
            out.ok = false;  // B's image is not inside A's (never for these layouts)
            break;
          }
          vec ^= pvec[lb];
          for (int k = 0; k < kInDims; ++k) r.m[k] ^= pmask[lb].m[k];
        }
      }
      out.c[d][i] = r;
    }
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
unsigned minimal_cvt(const Flat& src, const Flat& dst, bool& ok) {
  const Composed comp = invert_and_compose(dst, src);
  ok = comp.ok;
  unsigned remaining = (1u << kReg) | (1u << kLane) | (1u << kWarp);
  for (int d : {kWarp, kLane}) {
    const int nd = dst.n[d];
    bool can = nd == src.n[d];
    for (int i = 0; i < nd && can; ++i) can = comp.c[d][i].m[d] == (std::uint32_t{1} << i);
    for (int o = 0; o < kInDims && can; ++o) {
      if (o == d || !((remaining >> o) & 1u)) continue;
      for (int i = 0; i < dst.n[o] && can; ++i) can = comp.c[o][i].m[d] == 0;
      for (int i = 0; i < nd && can; ++i) can = comp.c[d][i].m[o] == 0;
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
    for (int i = 0; i < count[dn]; ++i) pb[dn][i] = {P.c[dn][i].m[kReg], P.c[dn][i].m[kLane]};
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
    pb[src_free[k].first][src_free[k].second][dst_free[k].first] =
        std::uint32_t{1} << dst_free[k].second;
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
constexpr MemTile kLdStShared{0, {}, 3, {0, 1, 2}};   ///< ld.shared / st.shared
constexpr MemTile kLdStMatrix{2, {0, 1}, 3, {2, 3, 4}};  ///< ldmatrix / stmatrix
constexpr MemTile kLdStMatrixT{3, {2, 3, 4}, 2, {0, 1}}; ///< .trans variants (16-bit)

struct Swizzle {
  int reps = 0;
  Vecs segment;
};

/// The core of optimalSwizzling (GenericSwizzling.cpp:389-455) with buildReps (:102-142): only
/// the segment (for bank conflicts) and the number of reps (the scratch size) are needed.
Swizzle swizzle_core(const Flat& s, const Flat& d, int bits, const Vecs& vb, const Vecs& tile_s,
                     const Vecs& tile_d, int leave_reps) {
  const int dim = s.dim;
  Vecs bank_s = vb, bank_d = vb;
  bank_s.append(tile_s);
  bank_d.append(tile_d);
  const long long x = (1LL << vb.n) * bits;
  int len_b = 0;
  if (1024 / x >= 1) len_b = 63 - __builtin_clzll(static_cast<unsigned long long>(1024 / x));
  len_b = std::min(len_b, dim - vb.n);
  const int len_s = dim - len_b - vb.n;
  const Vecs seg = compute_segment(bank_s, bank_d, dim, len_s);
  Swizzle out;
  int leave = leave_reps;
  const Vecs src_regs = vecs_of(s.b[kReg].data(), s.n[kReg]);
  const Vecs dst_regs = vecs_of(d.b[kReg].data(), d.n[kReg]);
  for (int i = 0; i < seg.n; ++i) {
    const std::uint32_t v = seg.v[i];
    if (src_regs.contains(v) && dst_regs.contains(v)) {
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

/// Lazily computed per-pair inputs of optimalSwizzlingTile: both compositions and both orders of
/// the register intersection (the two calls differ only in which side is "a").
struct TileContext {
  TileContext(const Flat& src, const Flat& dst) : s(src), d(dst) {}
  const Flat& s;
  const Flat& d;
  bool have[2] = {false, false};
  Composed cvt[2];  ///< [0]: d in s's coordinates (a = s), [1]: s in d's (a = d)
  bool have_vb[2] = {false, false};
  Vecs vb[2];
};

/// optimalSwizzlingTile (GenericSwizzling.cpp:310-387). `swap` false: a = src, b = dst.
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
  Vecs vb = ctx.vb[k];
  if (vb.n < n_reg_b) return false;
  vb.truncate(n_reg_b);
  for (int i = 0; i < ta.ncontig; ++i)
    if (ta.contig[i] >= a.n[kLane] || a.b[kLane][ta.contig[i]] == 0) return false;
  for (int i = 0; i < tb.ncontig; ++i)
    if (tb.contig[i] >= b.n[kLane] || b.b[kLane][tb.contig[i]] == 0) return false;
  if (!ctx.have[k]) {
    ctx.cvt[k] = invert_and_compose(b, a);
    ctx.have[k] = true;
  }
  const Composed& cvt = ctx.cvt[k];
  if (!cvt.ok) return false;
  for (int i = 0; i < n_reg_a - n_reg_b; ++i)
    if (cvt.c[kLane][tb.contig[i]].m[kReg] == 0) return false;
  if (ta.ncontig > 0) {
    const int off = tb.ncontig - ta.ncontig;
    for (int i = 0; i < ta.ncontig; ++i)
      if (cvt.c[kLane][tb.contig[off + i]].m[kLane] != (std::uint32_t{1} << ta.contig[i]))
        return false;
  }
  result = vb;
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
  const int log2vec = vec_bits > 1 ? 63 - __builtin_clzll(static_cast<unsigned long long>(vec_bits)) : 0;
  Vecs ts, td;
  for (int i = 0; i < s.n[kLane] - log2vec; ++i) ts.push(s.b[kLane][i]);
  for (int i = 0; i < d.n[kLane] - log2vec; ++i) td.push(d.b[kLane][i]);
  return swizzle_core(s, d, bits, vb, ts, td, 0);
}

/// optimalSwizzling (GenericSwizzling.cpp:598-712): every (source tile, destination tile) pair of
/// instructions that optimalSwizzlingTile accepts is tried; the one with the fewest bank
/// conflicts (read-1)+(write-1) wins, ties to more reps (:700-709); none → optimalSwizzlingLdSt.
Swizzle optimal_swizzling(const Flat& s, const Flat& d, const MemTile* src_tiles, int nsrc,
                          const MemTile* dst_tiles, int ndst, int bits) {
  const int dim = s.dim;
  const int total = 31 - __builtin_clz(static_cast<unsigned>(128 / bits));
  TileContext ctx(s, d);
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
      Swizzle sw = swizzle_core(s, d, bits, vb, tile_s, tile_d, leave);
      const int write = (1 << intersection_basis(sw.segment, tile_s, dim).n) - 1;
      const int read = (1 << intersection_basis(sw.segment, tile_d, dim).n) - 1;
      const int conflicts = read + write;
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
  // then the warps for d in [1, 0]: zeros along K (broadcastedDotOperandLayout, :282-316),
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

bool cvt_needs_smem(const Flat& src, const Flat& dst) {
  bool ok = true;
  const unsigned remaining = minimal_cvt(src, dst, ok);
  if (!ok) return true;
  if (remaining == (1u << kReg)) return false;
  if (remaining == ((1u << kReg) | (1u << kLane))) return mixed_transpositions(src, dst) >= 2;
  return true;
}

std::int64_t cvt_scratch_elems(const Flat& src, const Flat& dst, int bits, int cc) {
  const Flat s = remove_broadcast_regs(src), d = remove_broadcast_regs(dst);
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
  const Swizzle sw = optimal_swizzling(s, d, src_tiles, ns, dst_tiles, nd, bits);
  return (std::int64_t{1} << s.dim) >> sw.reps;
}

}  // namespace tilefit::model::triton
