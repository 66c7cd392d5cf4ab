#include "triton_allocator.hpp"

#include <algorithm>

namespace tilefit::model::triton {
namespace {

constexpr int kInfinity = 1 << 30;

bool intersects(int a0, int a1, int b0, int b1) { return a0 < b1 && b0 < a1; }
bool intersects(Bytes a0, Bytes a1, Bytes b0, Bytes b1) { return a0 < b1 && b0 < a1; }

Bytes align_to(Bytes x, Bytes a) { return a <= 1 ? x : (x + a - 1) / a * a; }

/// A pending (offset, live range) of calculateStarts' multimap, with its insertion order.
struct Triple {
  Bytes offset = 0;
  int r0 = 0, r1 = 0;
  int seq = 0;
};

}  // namespace

Bytes allocate(Buffers& bufs) {
  const int n = bufs.n;
  if (n == 0) return 0;
  // Buffers sorted by size, largest first, stable (Allocation.cpp:428-433).
  std::array<int, Buffers::kMax> order{};
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.begin() + n,
                   [&](int x, int y) { return bufs.b[x].size > bufs.b[y].size; });
  std::array<Buffer*, Buffers::kMax> bs{};
  for (int i = 0; i < n; ++i) bs[i] = &bufs.b[order[i]];

  // calculateStarts (Allocation.cpp:439-497): a multimap offset -> live range, starting at
  // {0: [0, inf)}. Pop the smallest offset (ties in insertion order); the first pending buffer
  // whose range meets the popped range and no other pending range goes there, aligned; its end
  // and the left/right remainders of the range are pushed back.
  constexpr int kMaxTriples = 64;
  std::array<Triple, kMaxTriples> triples{};
  int nt = 0, seq = 0;
  triples[nt++] = {0, 0, kInfinity, seq++};
  std::array<bool, Buffers::kMax> placed{};
  int pending = n;
  for (int guard = 0; pending > 0 && nt > 0 && guard < 100000; ++guard) {
    int best = 0;
    for (int t = 1; t < nt; ++t)
      if (triples[t].offset < triples[best].offset ||
          (triples[t].offset == triples[best].offset && triples[t].seq < triples[best].seq))
        best = t;
    const Triple cur = triples[best];
    triples[best] = triples[--nt];
    int found = -1;
    for (int i = 0; i < n && found < 0; ++i) {
      if (placed[i]) continue;
      const Buffer& b = *bs[i];
      bool ok = intersects(b.start, b.end, cur.r0, cur.r1);
      for (int t = 0; t < nt && ok; ++t) ok = !intersects(triples[t].r0, triples[t].r1, b.start, b.end);
      if (ok) found = i;
    }
    if (found < 0) continue;
    Buffer& b = *bs[found];
    b.offset = align_to(cur.offset, b.align);
    if (nt < kMaxTriples)
      triples[nt++] = {b.offset + b.size, std::max(cur.r0, b.start), std::min(cur.r1, b.end), seq++};
    if (cur.r0 < b.start && nt < kMaxTriples) triples[nt++] = {cur.offset, cur.r0, b.end, seq++};
    if (b.end < cur.r1 && nt < kMaxTriples) triples[nt++] = {cur.offset, b.start, cur.r1, seq++};
    placed[found] = true;
    --pending;
  }

  // Then (Allocation.cpp:428-433, 542-587): build the interference graph (live ranges and
  // [offset, offset + size) both intersect), colour it first-fit in size order (the first buffer
  // colour 0), move every buffer of another colour above the buffers it interferes with, and
  // repeat until nothing interferes. The total is the largest end.
  auto interference = [&](std::array<unsigned, Buffers::kMax>& g) {
    bool any = false;
    for (int i = 0; i < n; ++i) {
      g[i] = 0;
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        const Buffer& x = *bs[i];
        const Buffer& y = *bs[j];
        if (intersects(x.start, x.end, y.start, y.end) &&
            intersects(x.offset, x.offset + x.size, y.offset, y.offset + y.size)) {
          g[i] |= 1u << j;
          any = true;
        }
      }
    }
    return any;
  };
  std::array<unsigned, Buffers::kMax> g{};
  interference(g);
  Bytes total = 0;
  for (int round = 0; round < 64; ++round) {
    std::array<int, Buffers::kMax> colour{};
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
    total = 0;
    for (int i = 0; i < n; ++i) {
      Buffer& x = *bs[i];
      Bytes new_offset = 0;
      for (unsigned m = g[i]; m != 0; m &= m - 1) {
        const Buffer& y = *bs[__builtin_ctz(m)];
        new_offset = std::max(new_offset, y.offset + y.size);
      }
      if (colour[i] != 0) x.offset = align_to(new_offset, x.align);
      total = std::max(total, x.offset + x.size);
    }
    if (!interference(g)) break;
  }
  return total;
}

}  // namespace tilefit::model::triton
