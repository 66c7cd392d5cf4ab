// Ask the GPU itself: does it grant a kernel this much dynamic shared memory, and how many
// such CTAs does it fit on one SM? The answer comes from a real launch of a tiny kernel
// (src/device/probe_kernel.cu) and from cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
// The probe kernel exists only when tilefit was built with a CUDA compiler
// (TILEFIT_HAVE_PROBE); otherwise probe_available() is false and every call returns a
// DeviceError saying how to enable it.
//
// Refusals are answers, not errors: a size the driver will not grant comes back as a
// ProbeOutcome with launched == false and the CUDA error name. DeviceError is kept for the
// probe itself failing (no driver or GPU, index out of range, a kernel that cannot run on
// this GPU, an error after a launch was accepted, a context left broken). After every
// refusal the pending error is cleared (cudaGetLastError) and the context is checked with
// cudaDeviceSynchronize, so one refusal never poisons the next probe.
#pragma once

#include <string>

#include "tilefit/device/device_query.hpp"
#include "tilefit/model/bytes.hpp"

namespace tilefit::device {

/// Threads per probe block: one warp. With 32 threads, neither the threads-per-SM limit
/// (>= 1024 everywhere, i.e. >= 32 blocks) nor registers bind before the max-CTAs-per-SM
/// limit, so the occupancy API's answer depends on shared memory alone, which is exactly
/// what model::ctas_per_sm computes.
inline constexpr int kProbeBlockThreads = 32;

/// True when the probe kernel was compiled in (a CUDA compiler was found at build time).
bool probe_available();

/// Why probe_available() is false and how to enable it (one line); empty when available.
std::string probe_unavailable_reason();

/// One launch attempt with `dynamic_smem` bytes of dynamic shared memory.
struct ProbeOutcome {
  model::Bytes dynamic_smem = 0;
  bool launched = false;   ///< cudaFuncSetAttribute, the launch and the synchronize all succeeded
  std::string error;       ///< CUDA error name of the refusal; empty when launched
  std::string refused_by;  ///< "cudaFuncSetAttribute" or "cudaLaunchKernel"; empty when launched
};

/// Raises cudaFuncAttributeMaxDynamicSharedMemorySize of the probe kernel to `dynamic_smem`,
/// launches one block of kProbeBlockThreads with that much dynamic shared memory (the
/// kernel touches its first and last byte), synchronizes. A launch is attempted even when
/// the attribute is refused, so the launch's own verdict is what is reported.
Expected<ProbeOutcome> probe_launch(int device, model::Bytes dynamic_smem);

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor for the probe kernel, kProbeBlockThreads
/// threads and `dynamic_smem` bytes (the kernel's attribute is first raised to the device's
/// opt-in limit, so sizes up to it are allowed). Sizes the occupancy API rejects count 0.
Expected<int> probe_occupancy(int device, model::Bytes dynamic_smem);

/// The exact launch boundary: the largest dynamic size that launches and the first that is
/// refused (binary search between 0 and a size no GPU grants).
struct Boundary {
  model::Bytes largest_launched = 0;
  model::Bytes first_refused = 0;
  std::string refusal_error;  ///< CUDA error name at first_refused
  std::string refused_by;     ///< which call refused it
  int launches = 0;           ///< probe launches the search took
};
Expected<Boundary> probe_boundary(int device);

}  // namespace tilefit::device
