#include "epilogue_storage.hpp"

#include <algorithm>
#include <type_traits>

namespace tilefit::model {

void EpilogueStorage::seal() {
  sealed_ = false;
  tensors_ = lay_tensors<Extent>();
  tensormaps_ = lay_tensormaps<Extent>();
  shared_ = lay_shared<Extent>();
  sealed_ = true;
}

namespace {

/// An Extent once sealed is the one seal() laid out; anything else is laid out now.
template <class F, class Lay>
F sealed_or_laid(bool sealed, const Extent& kept, const Lay& lay) {
  if constexpr (std::is_same_v<F, Extent>)
    if (sealed) return kept;
  return lay();
}

}  // namespace

template <class F>
F EpilogueStorage::tensors() const {
  return sealed_or_laid<F>(sealed_, tensors_, [this] { return lay_tensors<F>(); });
}
template <class F>
F EpilogueStorage::tensormaps() const {
  return sealed_or_laid<F>(sealed_, tensormaps_, [this] { return lay_tensormaps<F>(); });
}
template <class F>
F EpilogueStorage::shared() const {
  return sealed_or_laid<F>(sealed_, shared_, [this] { return lay_shared<F>(); });
}

template <class F>
F EpilogueStorage::lay_tensors() const {
  switch (kind) {
    case Kind::NoSmemSm90:
      return empty_member<F>(Component::EpilogueD);
    case Kind::NoSmemSm100Legacy:
      return empty_member<F>(Component::Fusion);
    case Kind::NoSmemSm100:
      // struct { FusionStorage thread; array_aligned<uint8_t, N> buffer; }: with the built-in
      // fusions (empty, 1 B) and N = 0, 1 + 15 + 16 = 32 (sm100_epilogue_nosmem.hpp:494-498).
      return make_struct({as<F>(fusion), array_aligned<F>(Component::Fusion, nosmem_buffer_bytes)});
    case Kind::Tma:
      break;
  }
  const long long stage_elems = epi_m * epi_n;
  F collective;
  if (c_bits == 0) {
    const F d = array_engine<F>(Component::EpilogueD, stage_elems * stages_d, d_bits);
    collective = make_union({empty_member<F>(Component::EpilogueD), with_align(d, align_d)});
  } else if (reuse_smem_c) {
    const Bytes max_stage_bits = stage_elems * std::max(c_bits, d_bits);
    const Bytes c_elems = stage_elems + (stages_c - 1) * (max_stage_bits / c_bits);
    const Bytes d_elems = stage_elems + (stages_c - 1) * (max_stage_bits / d_bits);
    const Bytes mx = std::max(align_c, align_d);
    collective =
        make_union({with_align(array_engine<F>(Component::EpilogueCD, c_elems, c_bits), mx),
                    with_align(array_engine<F>(Component::EpilogueCD, d_elems, d_bits), mx)});
  } else {
    collective = make_struct(
        {with_align(array_engine<F>(Component::EpilogueC, stage_elems * stages_c, c_bits), align_c),
         with_align(array_engine<F>(Component::EpilogueD, stage_elems * stages_d, d_bits),
                    align_d)});
  }
  return make_struct({collective, as<F>(fusion)});
}

template <class F>
F EpilogueStorage::pipeline() const {
  return pipeline_barriers<F>(Component::EpilogueBarriers, kind == Kind::Tma ? stages_c : 0);
}

template <class F>
F EpilogueStorage::lay_tensormaps() const {
  switch (kind) {
    case Kind::NoSmemSm90:
      return empty_member<F>(Component::Tensormaps);
    case Kind::NoSmemSm100:
    case Kind::NoSmemSm100Legacy:
      return relabel(tensors<F>(), Component::Tensormaps);
    case Kind::Tma:
      break;
  }
  return make_struct({leaf<F>(Component::Tensormaps, 128 * Bytes{descriptors}, 64)}, 128);
}

template <class F>
F EpilogueStorage::lay_shared() const {
  switch (kind) {
    case Kind::NoSmemSm90:
      return empty_member<F>(Component::EpilogueD);
    case Kind::NoSmemSm100:
    case Kind::NoSmemSm100Legacy:
      return tensors<F>();
    case Kind::Tma:
      break;
  }
  if (ptr_array) return make_struct({tensors<F>(), tensormaps<F>(), pipeline<F>()});
  return make_struct({tensors<F>(), pipeline<F>()});
}

template Field EpilogueStorage::tensors<Field>() const;
template Extent EpilogueStorage::tensors<Extent>() const;
template Field EpilogueStorage::pipeline<Field>() const;
template Extent EpilogueStorage::pipeline<Extent>() const;
template Field EpilogueStorage::tensormaps<Field>() const;
template Extent EpilogueStorage::tensormaps<Extent>() const;
template Field EpilogueStorage::shared<Field>() const;
template Extent EpilogueStorage::shared<Extent>() const;

}  // namespace tilefit::model
