#include "sm90_epilogue.hpp"

#include <algorithm>

namespace tilefit::model {

Bytes ss_swizzle_alignment(int bits, long long extent) {
  if (bits <= 0) return 128;
  // Atom widths in bits and the alignment each forces (2^(B+M+S) bytes).
  constexpr struct { int width_bits; Bytes align; } kAtoms[] = {
      {1024, 1024}, {512, 512}, {256, 256}, {128, 128}};
  for (const auto& atom : kAtoms) {
    const int elems = atom.width_bits / bits;
    if (elems > 0 && extent % elems == 0) return atom.align;
  }
  return 0;
}

Field tma_epilogue_tensor_storage(const TmaEpilogue& e) {
  const long long tile = e.epi_m * e.epi_n;
  Field collective;
  if (e.c_bits == 0) {
    // sm90_epilogue_tma_warpspecialized.hpp:189-202, void C: union { empty; smem_D }.
    Field d = array_engine(Component::EpilogueD, tile * e.stages_d, e.d_bits);
    collective = make_union({empty_member(Component::EpilogueD), with_align(d, e.align_d)});
  } else if (e.reuse_smem_c) {
    // ReuseSmemC: SmemLayoutD has StagesC stages (L161-167); both aligned to the max.
    const Bytes mx = std::max(e.align_c, e.align_d);
    Field c = array_engine(Component::EpilogueCD, tile * e.stages_c, e.c_bits);
    Field d = array_engine(Component::EpilogueCD, tile * e.stages_c, e.d_bits);
    collective = make_union({with_align(c, mx), with_align(d, mx)});
  } else {
    Field c = array_engine(Component::EpilogueC, tile * e.stages_c, e.c_bits);
    Field d = array_engine(Component::EpilogueD, tile * e.stages_d, e.d_bits);
    collective = make_struct({with_align(c, e.align_c), with_align(d, e.align_d)});
  }
  return make_struct({collective, e.fusion});
}

Field tma_epilogue_pipeline_storage(const TmaEpilogue& e) {
  return pipeline_barriers(Component::EpilogueBarriers, e.stages_c);
}

Field tma_epilogue_tensormaps(const TmaEpilogue& e) {
  // sm90_epilogue_array_tma_warpspecialized.hpp:233-253: one C descriptor and
  // NumEpilogueWarpGroups D descriptors, TmaDescriptor = 128 B, alignas(64), struct align 128.
  return make_struct({leaf(Component::Tensormaps, 128 * (1 + e.num_epilogue_wg), 64)}, 128);
}

Field tma_epilogue_shared_storage(const TmaEpilogue& e) {
  if (e.ptr_array)
    return make_struct({tma_epilogue_tensor_storage(e), tma_epilogue_tensormaps(e),
                        tma_epilogue_pipeline_storage(e)});
  return make_struct({tma_epilogue_tensor_storage(e), tma_epilogue_pipeline_storage(e)});
}

Field nosmem_epilogue_tensor_storage() { return empty_member(Component::EpilogueD); }

Field nosmem_epilogue_pipeline_storage() {
  return pipeline_barriers(Component::EpilogueBarriers, 0);
}

}  // namespace tilefit::model
