// C++ object layout, as nvcc lays out CUTLASS's SharedStorage structs, with every byte
// attributed to a named component so that a breakdown always sums to the total.
//
// Rules (Itanium C++ ABI; see ../shared/docs/cutlass-smem-model.md §1.1):
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
  A,                  ///< mainloop A stage buffers
  B,                  ///< mainloop B stage buffers
  SFA,                ///< scale factors of A (block-scaled)
  SFB,                ///< scale factors of B (block-scaled)
  MainloopBarriers,   ///< mainloop pipeline full/empty barriers (16 B per stage)
  EpilogueC,          ///< epilogue C (source) stage buffers
  EpilogueD,          ///< epilogue D (output) stage buffers
  EpilogueCD,         ///< one buffer shared by C and D (ReuseSmemC)
  Fusion,             ///< epilogue fusion storage (bias rows, scale-factor scratch, empty = 1 B)
  EpilogueBarriers,   ///< epilogue load pipeline barriers (16 B per C stage)
  KernelBarriers,     ///< load-order, math-WG-order, accumulator, TMEM barriers
  Scheduler,          ///< tile-scheduler pipelines and responses
  Tensormaps,         ///< TMA descriptors kept in shared memory (ptr-array kernels)
  TmemPointer,        ///< SM100 TMEM base pointer
  Padding,            ///< alignment padding (between members and at struct ends)
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

/// A leaf object of `size` bytes and alignment `align`, all attributed to `c`.
Field leaf(Component c, Bytes size, Bytes align);

/// `alignas(a)` on a member: alignment max(a, natural), size unchanged.
Field with_align(Field f, Bytes a);

/// Moves every byte of `f` (padding included) to component `c`.
Field relabel(Field f, Component c);

/// A struct of `members` in order; `min_align` models empty aligned bases and alignas on
/// the struct. Padding between members and at the end is attributed to Padding.
Field make_struct(std::initializer_list<Field> members, Bytes min_align = 1);

/// A union: the largest member's components (the first among equals) plus padding.
Field make_union(std::initializer_list<Field> members);

/// An empty class as a data member: 1 byte, alignment 1, attributed to `c`.
inline Field empty_member(Component c) { return leaf(c, 1, 1); }

/// `cute::array_aligned<T,N>` and `cute::ArrayEngine<T,N>` for byte-multiple T
/// (cute/container/array_aligned.hpp:40, cute/tensor_impl.hpp:71-80):
/// round_up(bytes, 16), alignment 16.
Field array_aligned(Component c, Bytes bytes);

/// `cute::ArrayEngine<T,N>` for sub-byte T (cute/container/array_subbyte.hpp:409-412):
/// ceil(bits / 8) bytes of uint8_t, alignment 1.
Field array_subbyte(Component c, Bytes bits);

/// ArrayEngine of `count` elements of `bits` each: array_subbyte when bits % 8 != 0,
/// array_aligned otherwise.
Field array_engine(Component c, Bytes count, int bits);

/// Pipeline barrier storage of `stages` stages: full[S] + empty[S] ClusterBarriers of 8 B
/// (pipeline/sm90_pipeline.hpp:271-283, 766-778, 1005-1018) = 16·S, alignment 8.
/// For S = 0 PipelineTransactionAsync holds two empty cute::array<…,0>: 2 bytes, align 1.
Field pipeline_barriers(Component c, Bytes stages);

}  // namespace tilefit::model
