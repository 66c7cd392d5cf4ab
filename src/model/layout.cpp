#include "tilefit/model/layout.hpp"

#include <algorithm>

namespace tilefit::model {

std::string_view component_key(Component c) {
  switch (c) {
    case Component::A:
      return "A";
    case Component::B:
      return "B";
    case Component::SFA:
      return "SFA";
    case Component::SFB:
      return "SFB";
    case Component::MainloopBarriers:
      return "mainloop_barriers";
    case Component::EpilogueC:
      return "epilogue_C";
    case Component::EpilogueD:
      return "epilogue_D";
    case Component::EpilogueCD:
      return "epilogue_C_D_shared";
    case Component::Fusion:
      return "fusion";
    case Component::ScaleRow:
      return "scale_row";
    case Component::BiasRow:
      return "bias_row";
    case Component::EpilogueBarriers:
      return "epilogue_barriers";
    case Component::KernelBarriers:
      return "kernel_barriers";
    case Component::Scheduler:
      return "scheduler";
    case Component::Tensormaps:
      return "tensormaps";
    case Component::TmemPointer:
      return "tmem_pointer";
    case Component::ScaleBuffers:
      return "scale_buffers";
    case Component::LayoutConversion:
      return "layout_conversion";
    case Component::Padding:
      return "padding";
    case Component::Count:
      break;
  }
  return "?";
}

namespace {

constexpr std::uint32_t bit(Component c) { return std::uint32_t{1} << static_cast<int>(c); }

/// Adds `bytes` of padding to `f`'s breakdown.
void add_padding(Field& f, Bytes bytes) {
  if (bytes == 0) return;
  f.parts[static_cast<int>(Component::Padding)] += bytes;
  f.mask |= bit(Component::Padding);
}

}  // namespace

template <>
Field leaf<Field>(Component c, Bytes size, Bytes align) {
  Field f;
  f.size = size;
  f.align = align;
  f.parts[static_cast<int>(c)] = size;
  f.mask = bit(c);
  return f;
}

Field with_align(Field f, Bytes a) {
  f.align = std::max(f.align, a);
  return f;
}

Field relabel(Field f, Component c) {
  Field out;
  out.size = f.size;
  out.align = f.align;
  out.parts[static_cast<int>(c)] = f.size;
  out.mask = bit(c);
  return out;
}

Field make_struct(std::initializer_list<Field> members, Bytes min_align) {
  Field s;
  s.align = min_align;
  Bytes offset = 0;
  for (const Field& m : members) {
    const Bytes at = round_up(offset, m.align);
    add_padding(s, at - offset);
    for (std::uint32_t bits = m.mask; bits != 0; bits &= bits - 1) {
      const int i = __builtin_ctz(bits);
      s.parts[i] += m.parts[i];
    }
    s.mask |= m.mask;
    offset = at + m.size;
    s.align = std::max(s.align, m.align);
  }
  s.size = round_up(offset, s.align);
  add_padding(s, s.size - offset);
  return s;
}

Field make_union(std::initializer_list<Field> members) {
  Field u;
  const Field* largest = nullptr;
  for (const Field& m : members) {
    if (largest == nullptr || m.size > largest->size) largest = &m;
    u.align = std::max(u.align, m.align);
  }
  if (largest == nullptr) return u;
  u.parts = largest->parts;
  u.mask = largest->mask;
  u.size = round_up(largest->size, u.align);
  add_padding(u, u.size - largest->size);
  return u;
}

template <>
Field array_aligned<Field>(Component c, Bytes bytes) {
  if (bytes == 0) return leaf(c, 16, 16);
  Field f = leaf(c, bytes, 16);
  f.size = round_up(bytes, 16);
  add_padding(f, f.size - bytes);
  return f;
}

}  // namespace tilefit::model
