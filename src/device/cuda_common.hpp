// Shared by the CUDA-built device sources (cuda_*.cpp and probe_kernel.cu's callers).
#pragma once

#include <cuda_runtime_api.h>

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

}  // namespace tilefit::device::detail
