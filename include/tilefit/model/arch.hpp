// GPU architectures and their shared-memory limits.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tilefit/model/bytes.hpp"

namespace tilefit::model {

/// Shared-memory and occupancy limits of one GPU (from the device or the built-in table).
struct Limits {
  int sm = 0;                    ///< compute capability as major*10+minor (90, 120, ...)
  Bytes optin_per_block = 0;     ///< cudaDevAttrMaxSharedMemoryPerBlockOptin
  Bytes per_sm = 0;              ///< cudaDevAttrMaxSharedMemoryPerMultiprocessor
  Bytes reserved_per_block = 0;  ///< cudaDevAttrReservedSharedMemoryPerBlock
  Bytes default_per_block = 0;   ///< cudaDevAttrMaxSharedMemoryPerBlock (no opt-in)
  int max_ctas_per_sm = 0;       ///< cudaDevAttrMaxBlocksPerMultiprocessor
  int regs_per_sm = 0;           ///< cudaDevAttrMaxRegistersPerMultiprocessor
  int threads_per_sm = 0;        ///< cudaDevAttrMaxThreadsPerMultiProcessor

  bool operator==(const Limits&) const = default;
};

/// How many CTAs one thread-block cluster may hold (the product of its three extents).
///
/// CUDA Programming Guide, "Thread Block Clusters": "a maximum of 8 thread blocks in a
/// cluster is supported as a portable cluster size in CUDA"; larger, architecture-specific
/// sizes need the kernel attribute cudaFuncAttributeNonPortableClusterSizeAllowed, and
/// cudaOccupancyMaxPotentialClusterSize (CUDA Runtime API, Occupancy) tells what one device
/// allows — 16 on sm_90 (H100) and sm_100 (B200). Clusters exist from compute capability 9.0;
/// before that only 1x1x1 launches. On sm_110/sm_120/sm_121 no non-portable size is
/// documented, so only the portable 8 is accepted (CUTLASS's SM120 kernels use 1x1x1 only:
/// the sm120 families reject anything else with sm120_cluster).
struct ClusterLimits {
  int portable = 1;      ///< largest size every device of the architecture launches
  int non_portable = 1;  ///< largest size with cudaFuncAttributeNonPortableClusterSizeAllowed
};

/// AMD Instinct targets share the integer that names an NVIDIA architecture everywhere else
/// (KernelConfig::arch, Limits::sm, the families' runs_on): gfx942 (CDNA3: MI300X, MI325X) is
/// 942 and gfx950 (CDNA4: MI350X, MI355X) is 950, far above every NVIDIA compute capability
/// (70 ... 121). Code that compares capabilities (`sm >= 90`) must ask is_amd() first.
inline constexpr int kGfx942 = 942;
inline constexpr int kGfx950 = 950;
constexpr bool is_amd(int arch) { return arch == kGfx942 || arch == kGfx950; }

/// Who makes the GPUs of an architecture row.
enum class Vendor { Nvidia, Amd };

/// "nvidia", "amd" (the JSON `vendor` of `tilefit archs`).
std::string_view vendor_name(Vendor v);

/// One row of the built-in architecture table.
///
/// On an AMD row the Limits columns mean the AMD counterparts: `per_sm` is the LDS per compute
/// unit (CU), `optin_per_block` and `default_per_block` the LDS one workgroup may allocate (no
/// opt-in on AMD: both are the whole limit), `max_ctas_per_sm` the workgroups per CU,
/// `regs_per_sm` the 32-bit VGPRs per CU and `threads_per_sm` the work-items per CU.
struct ArchInfo {
  Limits limits;
  std::string_view examples;   ///< products with this compute capability
  std::string_view source;     ///< where the numbers come from
  ClusterLimits cluster = {};  ///< cluster sizes (1/1: no clusters)
  int wave_size = 32;          ///< threads per warp (NVIDIA) / wavefront (AMD)
  Vendor vendor = Vendor::Nvidia;
  std::string_view aliases = {};  ///< other accepted spellings, comma-separated ("mi300x,mi325x")
};

/// The cluster sizes of compute capability `sm` (1/1 for an unknown or pre-sm_90 one).
ClusterLimits cluster_limits(int sm);

/// The built-in table, sm_70 ... sm_121, then gfx942 and gfx950.
std::span<const ArchInfo> builtin_archs();

/// The table row for `sm`, if any.
const ArchInfo* find_arch(int sm);

/// Parses "sm90", "sm_90a", "SM_100f", "90", "9.0", "12.1", "compute_120" into 90/120/...,
/// and the AMD targets "gfx942" / "gfx950" and their product aliases "mi300x", "mi325x" (gfx942),
/// "mi350x", "mi355x" (gfx950) into kGfx942 / kGfx950 (case-insensitive).
/// The numeric spellings name NVIDIA compute capabilities only: "942", "sm_942" or "94.2" are
/// not gfx942 (nullopt), so a typo never lands on an AMD target.
/// Returns nullopt for anything else (including unknown numbers: check with find_arch).
std::optional<int> parse_arch(std::string_view s);

/// "sm_90", "sm_120", "gfx942".
std::string arch_name(int sm);

/// A spelling that names an AMD GPU tilefit does not model ("gfx90a", "gfx1201", "mi250x",
/// "r9700"): the text of a hint for an unknown --arch or "arch" ("" when it is none of those).
std::string_view unmodelled_amd_hint(std::string_view s);

/// Accepted spellings, for error messages.
std::string arch_choices();

/// CTAs per SM that shared memory alone allows (docs/dev/design.md):
///   floor(per_sm / (smem + reserved_per_block)), capped by max_ctas_per_sm.
/// 0 when smem exceeds the per-block opt-in limit.
int ctas_per_sm(Bytes smem, const Limits& lim);

}  // namespace tilefit::model
