// C++ object layout, as nvcc lays out CUTLASS's SharedStorage structs, with every byte
// attributed to a named component so that a breakdown always sums to the total.
//
// Rules (Itanium C++ ABI; see docs/dev/cutlass-smem-model.md §1.1):
//   struct: members in declaration order, each at round_up(offset, align(member));
//           align(struct) = max(member aligns, base aligns, alignas);
//           sizeof(struct) = round_up(end of last member, align(struct)).
//   union:  sizeof = round_up(max member size, max member align).
//   alignas(N) on a member raises its alignment to max(N, natural) and keeps its size.
//   An empty class used as a data member is 1 byte, alignment 1 (CUTLASS uses no
//   [[no_unique_address]] in these structs); an empty *base* (cute::aligned_struct<A>)
//   costs 0 bytes and only raises the alignment — modelled by make_struct's min_align.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "tilefit/model/bytes.hpp"

namespace tilefit::model {

/// Where a byte of shared memory goes. The breakdown reports one entry per component.
enum class Component : int {
  A,                 ///< mainloop A stage buffers
  B,                 ///< mainloop B stage buffers
  SFA,               ///< scale factors of A (block-scaled)
  SFB,               ///< scale factors of B (block-scaled)
  MainloopBarriers,  ///< mainloop pipeline full/empty barriers (16 B per stage)
  EpilogueC,         ///< epilogue C (source) stage buffers
  EpilogueD,         ///< epilogue D (output) stage buffers
  EpilogueCD,        ///< one buffer shared by C and D (ReuseSmemC)
  Fusion,            ///< epilogue fusion storage (bias rows, scale-factor scratch, empty = 1 B)
  ScaleRow,          ///< engine EVT: the per-channel scale row broadcast (float x tile N)
  BiasRow,           ///< engine EVT: the bias row broadcast (D type x tile N)
  EpilogueBarriers,  ///< epilogue load pipeline barriers (16 B per C stage)
  KernelBarriers,    ///< load-order, math-WG-order, accumulator, TMEM barriers
  Scheduler,         ///< tile-scheduler pipelines and responses
  Tensormaps,        ///< TMA descriptors kept in shared memory (ptr-array kernels)
  TmemPointer,       ///< SM100 TMEM base pointer
  ScaleBuffers,      ///< Triton: block-scale buffers (fused_moe fp8 block-wise b_scale)
  LayoutConversion,  ///< Triton: ttg.convert_layout scratch (the epilogue's, the scales')
  Padding,           ///< alignment padding (between members and at struct ends)
  Count
};

inline constexpr int kComponentCount = static_cast<int>(Component::Count);

/// Stable key of a component, used in JSON output and the table.
std::string_view component_key(Component c);

/// A C++ object: size, alignment, and how its bytes split over components.
struct Field {
  Bytes size = 0;
  Bytes align = 1;
  std::array<Bytes, kComponentCount> parts{};
  /// Bit c set when parts[c] may be non-zero: merging touches only these (most objects have
  /// one to three components), which keeps the layout arithmetic cheap.
  std::uint32_t mask = 0;

  Bytes part(Component c) const { return parts[static_cast<int>(c)]; }
};

/// The same object without its breakdown: size and alignment only. Every layout in the model is
/// written once, as a template over the object type, and computed either way: Field when the
/// breakdown is wanted, Extent for the max_stages search and sweeps (about 10x cheaper).
struct Extent {
  Bytes size = 0;
  Bytes align = 1;
};

/// A leaf object of `size` bytes and alignment `align`, all attributed to `c`.
template <class F = Field>
F leaf(Component c, Bytes size, Bytes align);
template <>
Field leaf<Field>(Component c, Bytes size, Bytes align);
template <>
inline Extent leaf<Extent>(Component, Bytes size, Bytes align) {
  return {size, align};
}

/// `alignas(a)` on a member: alignment max(a, natural), size unchanged.
Field with_align(Field f, Bytes a);
inline Extent with_align(Extent f, Bytes a) { return {f.size, f.align > a ? f.align : a}; }

/// Moves every byte of `f` (padding included) to component `c`.
Field relabel(Field f, Component c);
inline Extent relabel(Extent f, Component) { return f; }

/// A struct of `members` in order; `min_align` models empty aligned bases and alignas on
/// the struct. Padding between members and at the end is attributed to Padding.
Field make_struct(std::initializer_list<Field> members, Bytes min_align = 1);
inline Extent make_struct(std::initializer_list<Extent> members, Bytes min_align = 1) {
  Bytes offset = 0, align = min_align;
  for (const Extent& m : members) {
    offset = round_up(offset, m.align) + m.size;
    if (m.align > align) align = m.align;
  }
  return {round_up(offset, align), align};
}

/// A union: the largest member's components (the first among equals) plus padding.
Field make_union(std::initializer_list<Field> members);
inline Extent make_union(std::initializer_list<Extent> members) {
  Bytes size = 0, align = 1;
  for (const Extent& m : members) {
    if (m.size > size) size = m.size;
    if (m.align > align) align = m.align;
  }
  return {round_up(size, align), align};
}

/// `f` without its breakdown (Extent), or `f` itself (Field).
template <class F>
F as(const Field& f);
template <>
inline Field as<Field>(const Field& f) {
  return f;
}
template <>
inline Extent as<Extent>(const Field& f) {
  return {f.size, f.align};
}

/// An empty class as a data member: 1 byte, alignment 1, attributed to `c`.
template <class F = Field>
F empty_member(Component c) {
  return leaf<F>(c, 1, 1);
}

/// `cute::array_aligned<T,N>` and `cute::ArrayEngine<T,N>` for byte-multiple T
/// (cute/container/array_aligned.hpp:40, cute/tensor_impl.hpp:71-80):
/// round_up(bytes, 16), alignment 16. A zero-length one is an empty alignas(16) class: 16 B
/// (what an SM120 SFA array of a 64-row tile costs; measured: 64x128x128 pingpong, 95232 B).
template <class F = Field>
F array_aligned(Component c, Bytes bytes);
template <>
Field array_aligned<Field>(Component c, Bytes bytes);
template <>
inline Extent array_aligned<Extent>(Component, Bytes bytes) {
  return {bytes == 0 ? 16 : round_up(bytes, 16), 16};
}

/// `cute::ArrayEngine<T,N>` for sub-byte T (cute/container/array_subbyte.hpp:409-412):
/// ceil(bits / 8) bytes of uint8_t, alignment 1 (an empty class, 1 B, when bits == 0).
template <class F = Field>
F array_subbyte(Component c, Bytes bits) {
  return bits == 0 ? leaf<F>(c, 1, 1) : leaf<F>(c, bits_to_bytes(bits), 1);
}

/// ArrayEngine of `count` elements of `bits` each: array_subbyte when bits % 8 != 0,
/// array_aligned otherwise.
template <class F = Field>
F array_engine(Component c, Bytes count, int bits) {
  if (bits % 8 != 0) return array_subbyte<F>(c, count * bits);
  return array_aligned<F>(c, count * (bits / 8));
}

/// Pipeline barrier storage of `stages` stages: full[S] + empty[S] ClusterBarriers of 8 B
/// (pipeline/sm90_pipeline.hpp:271-283, 766-778, 1005-1018) = 16·S, alignment 8.
/// For S = 0 PipelineTransactionAsync holds two empty cute::array<…,0>: 2 bytes, align 1.
template <class F = Field>
F pipeline_barriers(Component c, Bytes stages) {
  return stages == 0 ? leaf<F>(c, 2, 1) : leaf<F>(c, 16 * stages, 8);
}

}  // namespace tilefit::model
