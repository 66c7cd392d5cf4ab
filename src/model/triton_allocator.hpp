// Triton 3.6's shared-memory allocator (lib/Analysis/Allocation.cpp:405-587, at acd8104), for
// the handful of buffers the Triton GEMM kernels have: offsets are assigned by calculateStarts,
// then a first-fit graph colouring moves interfering buffers up until none interfere; the
// kernel's `ttg.shared` (CompiledKernel.metadata["shared"]) is the largest end.
#pragma once

#include <array>
#include <cstdint>

#include "tilefit/model/bytes.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model::triton {

/// One buffer: size, alignment, live range [start, end) in abstract program points (only their
/// order matters), and the component its bytes are attributed to.
struct Buffer {
  Bytes size;
  Bytes align;
  int start, end;
  Component part;
  Bytes offset;  ///< set by allocate()
};

struct Buffers {
  static constexpr int kMax = 24;  // the attention kernels place up to 20 (bit masks: < 32)
  int n = 0;
  std::array<Buffer, kMax> b;  ///< the first n
  void add(Bytes size, Bytes align, int start, int end, Component part) {
    if (size > 0 && n < kMax) b[n++] = {size, align, start, end, part, 0};
  }
};

/// Assigns every buffer's offset (in place, as Triton does) and returns the total: the largest
/// offset + size (0 without buffers).
Bytes allocate(Buffers& bufs);
/// The same, always through the general algorithm (allocate() takes a shortcut for the common
/// shape; the tests compare the two).
Bytes allocate_general(Buffers& bufs);
Bytes allocate_impl(Buffers& bufs, bool shortcut);

}  // namespace tilefit::model::triton
