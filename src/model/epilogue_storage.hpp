// The shared memory of CUTLASS's epilogue collectives, one description for every 3.x family:
// the SM90 TMA collective (which SM120 reuses through its builder), the SM100 TMA collective,
// and the no-smem epilogues of both. The builders' decisions (tile, stages, swizzle atoms,
// reuse) live with each family's epilogue builder (sm90_epilogue.hpp, sm120_epilogue.hpp,
// sm100_epilogue.hpp); this file only lays the decided collective out.
//
//   TMA:           epilogue/collective/sm90_epilogue_tma_warpspecialized.hpp:135-231,
//                  sm100_epilogue_tma_warpspecialized.hpp:130-221
//   ptr-array TMA: sm90_epilogue_array_tma_warpspecialized.hpp:233-253,
//                  sm100_epilogue_array_tma_warpspecialized.hpp:140-229
//   no-smem:       Sm90TmaWarpSpecializedAdapter<DefaultEpilogue> (epilogue/collective/
//                  detail.hpp:269-284); sm100_epilogue_nosmem.hpp:494-498 (EVT),
//                  sm100_epilogue_array_nosmem.hpp:115-120 (legacy), in
//                  Sm100TmaWarpSpecializedAdapter (detail.hpp:559-571)
// docs/dev/cutlass-smem-model.md §2.1-§2.6; pitfalls P3, P10, P17.
#pragma once

#include <array>
#include <optional>

#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// One epilogue collective, as decided by its builder.
struct EpilogueStorage {
  enum class Kind {
    Tma,                ///< TMA warp-specialized: C/D stage buffers, fusion storage, load pipeline
    NoSmemSm90,         ///< SM90 adapter around DefaultEpilogue: empty (1 B) storage
    NoSmemSm100,        ///< SM100 EVT no-smem: { fusion; array_aligned<uint8_t, buffer> } (32 B for
                        ///< the built-in fusions: 1 + 15 + 16)
    NoSmemSm100Legacy,  ///< SM100 ptr-array thread::LinearCombination: empty (1 B)
  };
  Kind kind = Kind::Tma;
  /// The epilogue tile, when the epilogue stages tiles in shared memory (TMA); else none
  /// (Plan::epilogue_tile, what `suggest` shrinks).
  std::optional<std::array<long long, 2>> staged_tile() const {
    if (kind != Kind::Tma) return std::nullopt;
    return std::array<long long, 2>{epi_m, epi_n};
  }
  long long epi_m = 0, epi_n = 0;      ///< epilogue tile
  int stages_c = 0, stages_d = 0;      ///< StagesC, StagesD
  bool reuse_smem_c = false;           ///< ReuseSmemC: C and D share one buffer
  int c_bits = 0;                      ///< bits of the C element in smem (0: void C)
  int d_bits = 0;                      ///< bits of the D element in smem (fp6 held in 8)
  Bytes align_c = 128, align_d = 128;  ///< alignment_for_swizzle of the C / D atoms
  Field fusion = empty_member(Component::Fusion);  ///< FusionCallbacks::SharedStorage
  /// nosmem_sm100: the reduction buffer array_aligned<uint8_t, size(EpilogueTile)> that the
  /// collective allocates when the fusion is a custom EVT (IsReductionBufferNeeded,
  /// sm100_epilogue_nosmem.hpp:482-498; the engines' scaled_mm trees); 0 for the built-in
  /// fusion operations (an empty array_aligned: 16 B).
  Bytes nosmem_buffer_bytes = 0;
  bool ptr_array = false;  ///< ptr-array collective: has a TensorMapStorage
  int descriptors = 2;     ///< TMA descriptors in the ptr-array TensorMapStorage

  /// Computes the Extent forms once (the builders call it when they are done deciding), so that
  /// the stage search does not lay the epilogue out again at every stage count.
  void seal();

  /// CollectiveEpilogue::TensorStorage (the kernel holds it inside its `tensors`):
  ///   no C:       union { empty (1 B); alignas(alignD) ArrayEngine D[SD stages] }
  ///   ReuseSmemC: union { alignas(max) C; alignas(max) D }, both with SC stages strided by the
  ///               larger stage: cosize = stage + (SC − 1) · MaxStageBits / bits
  ///               (sm100 L158-163; on SM90 reuse needs bits(C) == bits(D), where this is SC
  ///               stages of each, L161-167)
  ///   otherwise:  struct { alignas(alignC) C[SC stages]; alignas(alignD) D[SD stages] }
  ///   TensorStorage = struct { collective; FusionStorage }  (an empty fusion is 1 B: P3)
  /// no-smem: 1 B (SM90, SM100 legacy) or { fusion; reduction buffer } (SM100 EVT: 32 B with
  /// the built-in fusions).
  template <class F = Field>
  F tensors() const;

  /// PipelineStorage: PipelineTransactionAsync<StagesC> = 16·SC; no-smem: <0>, 2 B.
  template <class F = Field>
  F pipeline() const;

  /// TensorMapStorage (ptr-array kernels): aligned_struct<128> { TmaDescriptor[descriptors] }
  /// (128 B each, alignas(64)); SM90 no-smem: an empty struct (1 B); SM100 no-smem: the
  /// adapter's EpilogueOp::SharedStorage again (detail.hpp:567).
  template <class F = Field>
  F tensormaps() const;

  /// sizeof(CollectiveEpilogue::SharedStorage): the carve-out the builders count.
  ///   TMA: struct { tensors; [tensormaps (ptr-array)]; pipeline }
  ///   no-smem: 1 B (SM90: default_epilogue.hpp:93; SM100 legacy), 32 B (SM100 EVT).
  template <class F = Field>
  F shared() const;

 private:
  template <class F>
  F lay_tensors() const;
  template <class F>
  F lay_tensormaps() const;
  template <class F>
  F lay_shared() const;

  bool sealed_ = false;
  Extent tensors_{}, tensormaps_{}, shared_{};
};

extern template Field EpilogueStorage::tensors<Field>() const;
extern template Extent EpilogueStorage::tensors<Extent>() const;
extern template Field EpilogueStorage::pipeline<Field>() const;
extern template Extent EpilogueStorage::pipeline<Extent>() const;
extern template Field EpilogueStorage::tensormaps<Field>() const;
extern template Extent EpilogueStorage::tensormaps<Extent>() const;
extern template Field EpilogueStorage::shared<Field>() const;
extern template Extent EpilogueStorage::shared<Extent>() const;

}  // namespace tilefit::model
