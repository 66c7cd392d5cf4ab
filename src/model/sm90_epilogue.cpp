#include "sm90_epilogue.hpp"

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

}  // namespace tilefit::model
