#include "triton_allocator.hpp"

#include <algorithm>

namespace tilefit::model::triton {
namespace {

constexpr int kInfinity = 1 << 30;

bool intersects(int a0, int a1, int b0, int b1) { return a0 < b1 && b0 < a1; }
bool intersects(Bytes a0, Bytes a1, Bytes b0, Bytes b1) { return a0 < b1 && b0 < a1; }

/// Alignments are powers of two.
Bytes align_to(Bytes x, Bytes a) { return a <= 1 ? x : (x + a - 1) & ~(a - 1); }

}  // namespace

namespace {

/// The shape most kernels have at num_stages >= 2: every buffer live in the K loop is live
/// across all of it (pipelined operands, tcgen05 barriers, the b_scale buffer: a clique of live
/// ranges), and at most one buffer lives elsewhere (the epilogue's conversion scratch, live with
/// none of them). There calculateStarts stacks the clique in size order, each at the aligned end
/// of the previous, from offset 0, and puts the other buffer at 0 (whichever of the two is
/// larger is placed first, at 0, and the other then starts at 0 too); nothing interferes, so
/// the colouring moves nothing. Returns false when the buffers do not have that shape.
/// tests/triton_model_test.cpp checks this against the general algorithm.
bool allocate_stacked(std::array<Buffer*, Buffers::kMax>& bs, int n, Bytes& total) {
  std::array<int, Buffers::kMax> meets{};
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (intersects(bs[i]->start, bs[i]->end, bs[j]->start, bs[j]->end)) {
        ++meets[i];
        ++meets[j];
      }
  int apart = -1;
  if (n >= 2) {
    for (int i = 0; i < n; ++i) {
      if (meets[i] != 0) continue;
      if (apart >= 0) return false;  // two buffers live with nobody: not this shape
      apart = i;
    }
  }
  const int clique_degree = apart >= 0 ? n - 2 : n - 1;
  for (int i = 0; i < n; ++i)
    if (i != apart && meets[i] != clique_degree) return false;
  Bytes top = 0;
  total = 0;
  for (int i = 0; i < n; ++i) {
    Buffer& b = *bs[i];
    if (i == apart) {
      b.offset = 0;
    } else {
      b.offset = align_to(top, b.align);
      top = b.offset + b.size;
    }
    total = std::max(total, b.offset + b.size);
  }
  return true;
}

}  // namespace

Bytes allocate(Buffers& bufs) { return allocate_impl(bufs, true); }
Bytes allocate_general(Buffers& bufs) { return allocate_impl(bufs, false); }

Bytes allocate_impl(Buffers& bufs, bool shortcut) {
  const int n = bufs.n;
  if (n == 0) return 0;
  // Buffers sorted by size, largest first, stable (Allocation.cpp:428-433).
  std::array<Buffer*, Buffers::kMax> bs;
  for (int i = 0; i < n; ++i) {  // insertion sort: stable, and no allocation
    Buffer* x = &bufs.b[i];
    int j = i;
    for (; j > 0 && bs[j - 1]->size < x->size; --j) bs[j] = bs[j - 1];
    bs[j] = x;
  }
  if (Bytes total = 0; shortcut && allocate_stacked(bs, n, total)) return total;
  // Which buffers' live ranges meet a range, as a bit set over the sorted order.
  auto meeting = [&](int r0, int r1) {
    unsigned m = 0;
    for (int i = 0; i < n; ++i)
      if (intersects(bs[i]->start, bs[i]->end, r0, r1)) m |= 1u << i;
    return m;
  };

  // calculateStarts (Allocation.cpp:439-497): a multimap offset -> live range, starting at
  // {0: [0, inf)}. Pop the smallest offset (ties in insertion order); the first pending buffer
  // whose range meets the popped range and no other pending range goes there, aligned; its end
  // and the left/right remainders of the range are pushed back. Each pending range carries the
  // set of buffers it meets, so a pick is a few bit operations.
  constexpr int kMaxTriples = 64;
  std::array<Bytes, kMaxTriples> t_off;
  std::array<int, kMaxTriples> t_r0, t_r1, t_seq;
  std::array<unsigned, kMaxTriples> t_meets;
  int nt = 0, seq = 0;
  auto push = [&](Bytes off, int r0, int r1) {
    if (nt >= kMaxTriples) return;
    t_off[nt] = off;
    t_r0[nt] = r0;
    t_r1[nt] = r1;
    t_seq[nt] = seq++;
    t_meets[nt] = meeting(r0, r1);
    ++nt;
  };
  push(0, 0, kInfinity);
  unsigned pending = (1u << n) - 1;
  for (int guard = 0; pending != 0 && nt > 0 && guard < 100000; ++guard) {
    int best = 0;
    for (int t = 1; t < nt; ++t)
      if (t_off[t] < t_off[best] || (t_off[t] == t_off[best] && t_seq[t] < t_seq[best])) best = t;
    const Bytes off = t_off[best];
    const int r0 = t_r0[best], r1 = t_r1[best];
    const unsigned meets = t_meets[best];
    --nt;
    t_off[best] = t_off[nt];
    t_r0[best] = t_r0[nt];
    t_r1[best] = t_r1[nt];
    t_seq[best] = t_seq[nt];
    t_meets[best] = t_meets[nt];
    unsigned others = 0;
    for (int t = 0; t < nt; ++t) others |= t_meets[t];
    const unsigned candidates = pending & meets & ~others;
    if (candidates == 0) continue;
    const int found = __builtin_ctz(candidates);
    Buffer& b = *bs[found];
    b.offset = align_to(off, b.align);
    push(b.offset + b.size, std::max(r0, b.start), std::min(r1, b.end));
    if (r0 < b.start) push(off, r0, b.end);
    if (b.end < r1) push(off, b.start, r1);
    pending &= ~(1u << found);
  }

  // Then (Allocation.cpp:428-433, 542-587): build the interference graph (live ranges and
  // [offset, offset + size) both intersect), colour it first-fit in size order (the first buffer
  // colour 0), move every buffer of another colour above the buffers it interferes with, and
  // repeat until nothing interferes. The total is the largest end.
  std::array<unsigned, Buffers::kMax> live;  // live ranges meet
  for (int i = 0; i < n; ++i) live[i] = meeting(bs[i]->start, bs[i]->end) & ~(1u << i);
  std::array<unsigned, Buffers::kMax> g;
  auto interference = [&] {
    bool any = false;
    for (int i = 0; i < n; ++i) {
      g[i] = 0;
      const Bytes x0 = bs[i]->offset, x1 = x0 + bs[i]->size;
      for (unsigned m = live[i]; m != 0; m &= m - 1) {
        const int j = __builtin_ctz(m);
        if (intersects(x0, x1, bs[j]->offset, bs[j]->offset + bs[j]->size)) g[i] |= 1u << j;
      }
      any = any || g[i] != 0;
    }
    return any;
  };
  Bytes total = 0;
  const bool any = interference();
  for (int round = 0; round < 64; ++round) {
    if (round > 0 || any) {
      std::array<int, Buffers::kMax> colour;
      colour.fill(-1);
      colour[0] = 0;
      for (int i = 0; i < n; ++i) {
        unsigned used = 0;
        for (unsigned m = g[i]; m != 0; m &= m - 1) {
          const int j = __builtin_ctz(m);
          if (colour[j] >= 0) used |= 1u << colour[j];
        }
        colour[i] = __builtin_ctz(~used);
      }
      for (int i = 0; i < n; ++i) {
        if (colour[i] == 0) continue;
        Bytes new_offset = 0;
        for (unsigned m = g[i]; m != 0; m &= m - 1) {
          const Buffer& y = *bs[__builtin_ctz(m)];
          new_offset = std::max(new_offset, y.offset + y.size);
        }
        bs[i]->offset = align_to(new_offset, bs[i]->align);
      }
    }
    total = 0;
    for (int i = 0; i < n; ++i) total = std::max(total, bs[i]->offset + bs[i]->size);
    if (!interference()) break;
  }
  return total;
}

}  // namespace tilefit::model::triton
