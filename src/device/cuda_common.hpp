// Shared by the CUDA-built device sources (cuda_*.cpp and probe_kernel.cu's callers), and the
// one place a CUDA call's result is checked: every CUDA call in src/device/ goes through
// check() (a call on GPU N) or check_enumeration() (listing the GPUs), which clear the
// runtime's last-error slot and turn the failure into a DeviceError value. Refusals the probe
// expects (a size the driver will not grant) are the callers' to tell apart first.
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "tilefit/device/device_query.hpp"

namespace tilefit::device::detail {

/// "cudaErrorInvalidValue".
inline std::string error_name(cudaError_t e) {
  const char* n = cudaGetErrorName(e);
  return n ? n : "cudaError(" + std::to_string(static_cast<int>(e)) + ")";
}

/// "cudaErrorInvalidValue: invalid argument".
inline std::string error_text(cudaError_t e) {
  const char* s = cudaGetErrorString(e);
  return error_name(e) + ": " + (s ? s : "unknown error");
}

/// The DeviceError for a failed enumeration (cudaGetDeviceCount and friends): no driver,
/// no device, CUDA_VISIBLE_DEVICES hiding every GPU, or anything else.
DeviceError enumeration_error(cudaError_t e);

/// The DeviceError for `call` failing on GPU `device`; `arch_hint` adds "use --arch ...".
DeviceError call_error(int device, const std::string& call, cudaError_t e, bool arch_hint = true);

/// DeviceError when `index` is not in [0, count).
DeviceError index_error(int index, int count);

/// The result `e` of the CUDA call described by `call` on GPU `device`: nothing on cudaSuccess;
/// otherwise the last error is cleared (cudaGetLastError, so the next call does not see it) and
/// the call_error() comes back.
inline std::optional<DeviceError> check(cudaError_t e, int device, const std::string& call,
                                        bool arch_hint = true) {
  if (e == cudaSuccess) return std::nullopt;
  (void)cudaGetLastError();
  return call_error(device, call, e, arch_hint);
}

/// The same for a call that lists the GPUs (cudaGetDeviceCount): the enumeration_error().
inline std::optional<DeviceError> check_enumeration(cudaError_t e) {
  if (e == cudaSuccess) return std::nullopt;
  (void)cudaGetLastError();
  return enumeration_error(e);
}

}  // namespace tilefit::device::detail
