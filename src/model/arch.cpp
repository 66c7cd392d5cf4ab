#include "tilefit/model/arch.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tilefit::model {
namespace {

constexpr Bytes KiB = 1024;

// Sources, per column:
//  * per-SM, opt-in per block, reserved per block, max CTAs/SM, registers and threads per SM:
//    CCCL libcudacxx/include/cuda/__device/arch_traits.h (reserved = cc >= 80 ? 1024 : 0;
//    optin = per_SM - reserved), as tabulated in docs/peers.md §3.
//  * CUTLASS's own capacity constants agree for sm90/sm100/sm120:
//    include/cutlass/arch/arch.h:44-45 (sm100_smem_capacity_bytes = sm90 = 232448,
//    sm120_smem_capacity_bytes = 101376) and python/cutlass_library/library.py:1203-1213
//    (SharedMemPerCC in KiB: 70/72 96, 75 64, 80/87 163, 86/89 99, 90/100 227).
//  * Default per block (no opt-in) is 48 KiB on every architecture (static __shared__ cap).
//  * sm_120/121 max CTAs/SM: CCCL says 24, some third-party tables say 32; a device query
//    is the truth (peers.md §3, conflict 1). sm_72 reserved/CTAs are from the Programming
//    Guide as remembered in peers.md [M].
//  * Cluster sizes (last column, portable / with the non-portable opt-in): see ClusterLimits in
//    arch.hpp (Programming Guide "Thread Block Clusters"; cudaOccupancyMaxPotentialClusterSize).
constexpr std::array<ArchInfo, 15> kArchs = {{
    {{70, 96 * KiB, 96 * KiB, 0, 48 * KiB, 32, 65536, 2048},
     "V100",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[70]=96"},
    {{72, 96 * KiB, 96 * KiB, 0, 48 * KiB, 32, 65536, 2048},
     "Jetson Xavier",
     "CUTLASS library.py SharedMemPerCC[72]=96; Programming Guide (peers.md [M])"},
    {{75, 64 * KiB, 64 * KiB, 0, 48 * KiB, 16, 65536, 1024},
     "T4, RTX 20xx",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[75]=64"},
    {{80, 163 * KiB, 164 * KiB, KiB, 48 * KiB, 32, 65536, 2048},
     "A100, A30",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[80]=163"},
    {{86, 99 * KiB, 100 * KiB, KiB, 48 * KiB, 16, 65536, 1536},
     "RTX 30xx, A6000, A40",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[86]=99"},
    {{87, 163 * KiB, 164 * KiB, KiB, 48 * KiB, 16, 65536, 1536},
     "Jetson Orin",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[87]=163"},
    {{89, 99 * KiB, 100 * KiB, KiB, 48 * KiB, 24, 65536, 1536},
     "RTX 40xx, L4, L40S",
     "CCCL arch_traits.h; CUTLASS library.py SharedMemPerCC[89]=99"},
    {{90, 227 * KiB, 228 * KiB, KiB, 48 * KiB, 32, 65536, 2048},
     "H100, H200, H20",
     "CCCL arch_traits.h; CUTLASS sm90_common.inl:57 sm90_smem_capacity_bytes=232448",
     {8, 16}},
    {{100, 227 * KiB, 228 * KiB, KiB, 48 * KiB, 32, 65536, 2048},
     "B200, GB200",
     "CCCL arch_traits.h; CUTLASS arch.h:44 sm100_smem_capacity_bytes=232448",
     {8, 16}},
    {{103, 227 * KiB, 228 * KiB, KiB, 48 * KiB, 32, 65536, 2048},
     "B300, GB300",
     "CCCL arch_traits.h; CUTLASS arch.h Sm103 = sm100 capacity",
     {8, 16}},
    {{110, 227 * KiB, 228 * KiB, KiB, 48 * KiB, 24, 65536, 1536},
     "Jetson Thor (was sm_101)",
     "CCCL arch_traits.h (sm_110: 24 CTAs, 1536 threads)",
     {8, 8}},
    {{120, 99 * KiB, 100 * KiB, KiB, 48 * KiB, 24, 65536, 1536},
     "RTX 50xx, RTX PRO 6000",
     "CCCL arch_traits.h; CUTLASS arch.h:45 sm120_smem_capacity_bytes=101376; devices report "
     "101376 (cutlass#2692)",
     {8, 8}},
    {{121, 99 * KiB, 100 * KiB, KiB, 48 * KiB, 24, 65536, 1536},
     "GB10 (DGX Spark)",
     "CCCL arch_traits.h; CUTLASS compiles sm_121 as arch::Sm120 (101376); GB10 reports 101376",
     {8, 8}},
    // AMD Instinct (issue 20): LDS per workgroup as Triton's AMD backend states it
    // (third_party/amd/lib/TritonAMDGPUToLLVM/TargetInfo.cpp getSharedMemorySize: CDNA4 160 KiB,
    // otherwise 64 KiB). No opt-in on AMD: the default per block is the whole limit.
    // TODO(amdinfra): occupancy columns with their sources.
    {{kGfx942, 64 * KiB, 64 * KiB, 0, 64 * KiB, 0, 0, 0},
     "MI300X, MI325X",
     "Triton 3.6 third_party/amd TargetInfo.cpp getSharedMemorySize (64 KiB)"},
    {{kGfx950, 160 * KiB, 160 * KiB, 0, 160 * KiB, 0, 0, 0},
     "MI350X, MI355X",
     "Triton 3.6 third_party/amd TargetInfo.cpp getSharedMemorySize (CDNA4: 160 KiB)"},
}};

}  // namespace

ClusterLimits cluster_limits(int sm) {
  const ArchInfo* a = find_arch(sm);
  return a ? a->cluster : ClusterLimits{};
}

std::span<const ArchInfo> builtin_archs() { return kArchs; }

const ArchInfo* find_arch(int sm) {
  if (sm == 101) sm = 110;  // CUDA 13 renamed sm_101 (Thor) to sm_110
  for (const ArchInfo& a : kArchs)
    if (a.limits.sm == sm) return &a;
  return nullptr;
}

std::optional<int> parse_arch(std::string_view s) {
  std::string t;
  for (char ch : s) t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  std::string_view v = t;
  if (v == "gfx942") return kGfx942;
  if (v == "gfx950") return kGfx950;
  for (std::string_view prefix : {"compute_", "sm_", "sm"}) {
    if (v.substr(0, prefix.size()) == prefix) {
      v.remove_prefix(prefix.size());
      break;
    }
  }
  if (!v.empty() && (v.back() == 'a' || v.back() == 'f')) v.remove_suffix(1);
  if (v.empty() || v.size() > 4) return std::nullopt;
  // "9.0", "12.1"
  if (auto dot = v.find('.'); dot != std::string_view::npos) {
    std::string_view major = v.substr(0, dot), minor = v.substr(dot + 1);
    if (major.empty() || major.size() > 2 || minor.size() != 1) return std::nullopt;
    int m = 0;
    for (char ch : major) {
      if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
      m = m * 10 + (ch - '0');
    }
    if (!std::isdigit(static_cast<unsigned char>(minor[0]))) return std::nullopt;
    return m * 10 + (minor[0] - '0');
  }
  int n = 0;
  for (char ch : v) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
    n = n * 10 + (ch - '0');
  }
  if (n < 10) return std::nullopt;
  return n;
}

std::string arch_name(int sm) { return (is_amd(sm) ? "gfx" : "sm_") + std::to_string(sm); }

std::string arch_choices() {
  std::string out;
  for (const ArchInfo& a : kArchs) {
    if (!out.empty()) out += ", ";
    out += arch_name(a.limits.sm);
  }
  return out + " (also written sm90, sm_90a, 90 or 9.0)";
}

int ctas_per_sm(Bytes smem, const Limits& lim) {
  if (smem > lim.optin_per_block) return 0;
  const Bytes per_cta = smem + lim.reserved_per_block;
  if (per_cta <= 0) return lim.max_ctas_per_sm;
  const Bytes n = lim.per_sm / per_cta;
  return static_cast<int>(std::min<Bytes>(n, lim.max_ctas_per_sm));
}

}  // namespace tilefit::model
