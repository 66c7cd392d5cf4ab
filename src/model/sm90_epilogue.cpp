#include "sm90_epilogue.hpp"

#include <algorithm>
#include <numeric>

namespace tilefit::model {

Bytes ss_swizzle_alignment(int bits, long long extent) {
  if (bits <= 0) return 128;
  // Atom widths in bits and the alignment each forces (2^(B+M+S) bytes).
  constexpr struct {
    int width_bits;
    Bytes align;
  } kAtoms[] = {{1024, 1024}, {512, 512}, {256, 256}, {128, 128}};
  for (const auto& atom : kAtoms) {
    const int elems = atom.width_bits / bits;
    if (elems > 0 && extent % elems == 0) return atom.align;
  }
  return 0;
}

EpilogueStorage sm90_tma_epilogue(const KernelConfig& cfg, bool cooperative, Findings& why) {
  EpilogueStorage e;
  e.ptr_array = cfg.grouped;
  e.descriptors = 1 + 2;
  const bool pingpong = !cooperative;
  const long long M = cfg.m, N = cfg.n;
  if (cfg.epilogue.tile) {
    e.epi_m = (*cfg.epilogue.tile)[0];
    e.epi_n = (*cfg.epilogue.tile)[1];
    const long long want_m = pingpong ? 64 : 128;
    if (e.epi_m != want_m || e.epi_n % 16 != 0)
      why.reject([&] {
        return diag(Code::sm90_epilogue_tile_shape)
            .integer("epilogue_m", want_m)
            .flag("pingpong", pingpong);
      });
  } else if (pingpong) {
    const long long nperf = (bits(cfg.d) == 8 && N % 64 == 0) ? 64 : 32;
    e.epi_m = std::min<long long>(64, M);
    e.epi_n = std::gcd(std::min(nperf, N), N);
  } else {
    e.epi_m = std::min<long long>(128, M);
    e.epi_n = std::gcd(std::min<long long>(32, N), N);
  }
  if (e.epi_m <= 0 || e.epi_n <= 0 || M % e.epi_m != 0 || N % e.epi_n != 0) {
    why.reject([&] {
      return diag(Code::sm90_epilogue_tile_divides)
          .integer("epilogue_m", e.epi_m)
          .integer("epilogue_n", e.epi_n);
    });
    e.epi_m = std::max<long long>(1, std::min(e.epi_m, M));
    e.epi_n = std::max<long long>(1, std::min(e.epi_n, N));
  }
  const long long tiles = (M / e.epi_m) * (N / e.epi_n);
  const bool reuse = bits(cfg.c) == bits(cfg.d) && bits(cfg.d) > 8;
  int sd = static_cast<int>(std::min<long long>(tiles, 2));
  int sc = reuse ? std::max(static_cast<int>(std::min<long long>(tiles, 4)), sd + 1)
                 : static_cast<int>(std::min<long long>(tiles, 4));
  if (cfg.epilogue.stages_d) sd = *cfg.epilogue.stages_d;
  if (cfg.epilogue.stages_c) sc = *cfg.epilogue.stages_c;
  e.stages_c = sc;
  e.stages_d = sd;
  e.reuse_smem_c = reuse;
  if (reuse && sd > sc) why.reject([&] { return diag(Code::reuse_smem_c_stages); });
  e.c_bits = bits(cfg.c);
  e.d_bits = bits(cfg.d);
  const long long extent = cfg.cd_row_major ? e.epi_n : e.epi_m;
  e.align_c = cfg.c == DType::Void ? 128 : ss_swizzle_alignment(e.c_bits, extent);
  e.align_d = ss_swizzle_alignment(e.d_bits, extent);
  if (e.align_c == 0 || e.align_d == 0) {
    why.reject([&] { return diag(Code::sm90_epilogue_no_swizzle_atom).integer("extent", extent); });
    if (e.align_c == 0) e.align_c = 128;
    if (e.align_d == 0) e.align_d = 128;
  }
  return e;
}

}  // namespace tilefit::model
