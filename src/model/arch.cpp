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
//    optin = per_SM - reserved), as tabulated in docs/dev/peers.md §3.
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
    // AMD Instinct (issue 20). Columns as on the NVIDIA rows, in AMD's terms (ArchInfo):
    //  * LDS per workgroup (opt-in = default: no opt-in on AMD, reserved 0): Triton 3.6
    //    third_party/amd/lib/TritonAMDGPUToLLVM/TargetInfo.cpp getSharedMemorySize (CDNA4
    //    gfx950: 160 KiB, otherwise 64 KiB) — the limit Triton's allocator checks;
    //  * LDS per CU: ROCm "AMD GPU specifications" (reference/gpu-specs), column "LDS (KiB)":
    //    MI300X/MI325X 64, MI350X/MI355X 160 — the same as per workgroup;
    //  * workgroups per CU 16, work-items per CU 2048: LLVM AMDGPUBaseInfo.cpp
    //    getMaxWavesPerEU (8 waves per SIMD on gfx90a-class targets, which gfx942/gfx950 are)
    //    x getEUsPerCU (4 SIMDs) = 32 waves of 64 = 2048, and getMaxWorkGroupsPerCU
    //    (min(32 / waves per workgroup, MaxBarriers = 16) for multi-wave workgroups);
    //  * 32-bit VGPRs per CU 131072: ROCm gpu-specs "VGPR File (KiB)" 512 per CU;
    //  * wave size 64: ROCm gpu-specs "Wavefront Size"; Triton's HIPOptions (warp_size 64
    //    below gfx10), GPUTarget("hip", "gfx942", 64).
    {{kGfx942, 64 * KiB, 64 * KiB, 0, 64 * KiB, 16, 131072, 2048},
     "MI300X, MI325X, MI308X",
     "Triton 3.6 third_party/amd TargetInfo.cpp getSharedMemorySize (64 KiB); ROCm gpu-specs "
     "(LDS 64 KiB/CU, VGPR file 512 KiB/CU, wave 64); LLVM AMDGPUBaseInfo.cpp (32 waves, 16 "
     "workgroups per CU)",
     {1, 1},
     64,
     Vendor::Amd,
     "mi300x, mi325x"},
    {{kGfx950, 160 * KiB, 160 * KiB, 0, 160 * KiB, 16, 131072, 2048},
     "MI350X, MI355X",
     "Triton 3.6 third_party/amd TargetInfo.cpp getSharedMemorySize (CDNA4: 160 KiB); ROCm "
     "gpu-specs (LDS 160 KiB/CU, VGPR file 512 KiB/CU, wave 64); LLVM AMDGPUBaseInfo.cpp (32 "
     "waves, 16 workgroups per CU)",
     {1, 1},
     64,
     Vendor::Amd,
     "mi350x, mi355x"},
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

std::string_view vendor_name(Vendor v) { return v == Vendor::Amd ? "amd" : "nvidia"; }

namespace {

std::string lower(std::string_view s) {
  std::string t;
  for (char ch : s) t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  return t;
}

}  // namespace

std::optional<int> parse_arch(std::string_view s) {
  const std::string t = lower(s);
  std::string_view v = t;
  // AMD: the LLVM target names and the product aliases only (never a bare number).
  if (v == "gfx942" || v == "mi300x" || v == "mi325x") return kGfx942;
  if (v == "gfx950" || v == "mi350x" || v == "mi355x") return kGfx950;
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
    if (m >= 20) return std::nullopt;  // "94.2" is not gfx942
    return m * 10 + (minor[0] - '0');
  }
  int n = 0;
  for (char ch : v) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
    n = n * 10 + (ch - '0');
  }
  if (n < 10) return std::nullopt;
  // Compute capabilities are below 200; 942/950 are the AMD ids, spelled gfx942/gfx950 only.
  if (n >= 200) return std::nullopt;
  return n;
}

std::string_view unmodelled_amd_hint(std::string_view s) {
  const std::string t = lower(s);
  const std::string_view v = t;
  if (v == "942" || v == "950" || v == "sm_942" || v == "sm_950" || v == "sm942" || v == "sm950")
    return "AMD targets are written gfx942 (mi300x, mi325x) or gfx950 (mi350x, mi355x), never as "
           "a number";
  if (v.starts_with("gfx") || v.starts_with("mi") || v.starts_with("r9") || v.starts_with("rdna") ||
      v.starts_with("cdna"))
    return "tilefit models the AMD Instinct targets gfx942 (MI300X, MI325X) and gfx950 (MI350X, "
           "MI355X) only; other AMD GPUs (gfx90a MI200, RDNA Radeon cards such as gfx1201 "
           "R9700) are not modelled";
  return "";
}

std::string arch_name(int sm) { return (is_amd(sm) ? "gfx" : "sm_") + std::to_string(sm); }

std::string arch_choices() {
  std::string out;
  for (const ArchInfo& a : kArchs) {
    if (!out.empty()) out += ", ";
    out += arch_name(a.limits.sm);
  }
  return out +
         " (also written sm90, sm_90a, 90 or 9.0; gfx942 as mi300x or mi325x, gfx950 as "
         "mi350x or mi355x)";
}

int ctas_per_sm(Bytes smem, const Limits& lim) {
  if (smem > lim.optin_per_block) return 0;
  const Bytes per_cta = smem + lim.reserved_per_block;
  if (per_cta <= 0) return lim.max_ctas_per_sm;
  const Bytes n = lim.per_sm / per_cta;
  return static_cast<int>(std::min<Bytes>(n, lim.max_ctas_per_sm));
}

}  // namespace tilefit::model
