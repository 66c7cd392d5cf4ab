// The probe of a CUDA build. The kernel itself is in probe_kernel.cu, compiled only when
// CMake found a CUDA compiler (TILEFIT_HAVE_PROBE); a build with the CUDA runtime but no
// nvcc still compiles this file and reports the probe as unavailable.
#include "tilefit/device/probe.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <optional>
#include <string>

#include "cuda_common.hpp"
#include "tilefit/device/probe_source.hpp"
#ifdef TILEFIT_HAVE_PROBE
#include "probe_kernel.hpp"
#endif

namespace tilefit::device {

#ifndef TILEFIT_HAVE_PROBE

bool probe_available() { return false; }
std::string probe_unavailable_reason() {
  return "built without a CUDA compiler, so there is no probe kernel: make nvcc "
         "findable (on PATH, CUDACXX=/usr/local/cuda/bin/nvcc, or "
         "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc) and re-run cmake";
}
Expected<ProbeOutcome> probe_launch(int, model::Bytes) {
  return DeviceError{"", probe_unavailable_reason()};
}
Expected<int> probe_occupancy(int, model::Bytes) {
  return DeviceError{"", probe_unavailable_reason()};
}
Expected<Boundary> probe_boundary(int) { return DeviceError{"", probe_unavailable_reason()}; }

#else

namespace {

using detail::check;
using detail::error_name;

/// Errors with which the driver refuses a launch configuration (an answer, not a failure).
bool is_refusal(cudaError_t e) {
  return e == cudaErrorInvalidValue || e == cudaErrorInvalidConfiguration ||
         e == cudaErrorLaunchOutOfResources;
}

/// Checks `device` against the visible range and makes it current.
std::optional<DeviceError> select(int device) {
  Expected<int> n = device_count();
  if (!n) return n.error();
  if (device < 0 || device >= *n) return detail::index_error(device, *n);
  return check(cudaSetDevice(device), device, "cudaSetDevice", false);
}

/// After a refusal: clear the pending error and make sure the context still works.
std::optional<DeviceError> recover(int device) {
  (void)cudaGetLastError();  // the refusal itself, already read
  return check(cudaDeviceSynchronize(), device,
               "cudaDeviceSynchronize after a refused launch (the CUDA context is broken)", false);
}

Expected<ProbeOutcome> launch_current(int device, model::Bytes bytes) {
  ProbeOutcome out;
  out.dynamic_smem = bytes;
  if (bytes < 0 || bytes > INT_MAX) {
    out.error = "cudaErrorInvalidValue";
    out.refused_by = "tilefit (size outside the range of cudaFuncSetAttribute)";
    return out;
  }
  const cudaError_t set =
      cudaFuncSetAttribute(detail::probe_kernel_ptr(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(bytes));
  if (set != cudaSuccess) {
    if (set == cudaErrorNoKernelImageForDevice || !is_refusal(set))
      return *check(set, device,
                    "cudaFuncSetAttribute(probe kernel, MaxDynamicSharedMemorySize, " +
                        std::to_string(bytes) + ")",
                    false);
    if (auto err = recover(device)) return *err;
  }
  // Launch even when the attribute was refused: the launch's own verdict is reported.
  const cudaError_t launch =
      detail::launch_probe_kernel(static_cast<std::size_t>(bytes), kProbeBlockThreads);
  if (launch != cudaSuccess) {
    if (!is_refusal(launch))
      return *check(launch, device,
                    "launching the probe kernel with " + std::to_string(bytes) +
                        " B of dynamic shared memory",
                    false);
    if (auto err = recover(device)) return *err;
    out.launched = false;
    out.error = error_name(set != cudaSuccess ? set : launch);
    out.refused_by = set != cudaSuccess ? "cudaFuncSetAttribute" : "cudaLaunchKernel";
    return out;
  }
  if (auto err = check(cudaDeviceSynchronize(), device,
                       "the probe kernel (" + std::to_string(bytes) +
                           " B of dynamic shared memory) was accepted but failed while running",
                       false))
    return *err;
  out.launched = true;
  return out;
}

}  // namespace

bool probe_available() { return true; }
std::string probe_unavailable_reason() { return ""; }

Expected<ProbeOutcome> probe_launch(int device, model::Bytes dynamic_smem) {
  if (auto err = select(device)) return *err;
  return launch_current(device, dynamic_smem);
}

Expected<int> probe_occupancy(int device, model::Bytes dynamic_smem) {
  if (auto err = select(device)) return *err;
  if (dynamic_smem < 0 || dynamic_smem > INT_MAX) return 0;
  int optin = 0;
  if (auto err =
          check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                device, "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)", false))
    return *err;
  if (auto err = check(cudaFuncSetAttribute(detail::probe_kernel_ptr(),
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
                       device,
                       "cudaFuncSetAttribute(probe kernel, MaxDynamicSharedMemorySize, " +
                           std::to_string(optin) + ")",
                       false))
    return *err;
  int blocks = 0;
  const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, detail::probe_kernel_ptr(), kProbeBlockThreads,
      static_cast<std::size_t>(dynamic_smem));
  if (e != cudaSuccess) {
    if (!is_refusal(e))
      return *check(e, device, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", false);
    if (auto err = recover(device)) return *err;
    return 0;  // a size the occupancy API rejects fits no CTA
  }
  return blocks;
}

Expected<Boundary> probe_boundary(int device) {
  if (auto err = select(device)) return *err;
  return search_boundary(device, [device](model::Bytes n) { return launch_current(device, n); });
}

#endif  // TILEFIT_HAVE_PROBE

}  // namespace tilefit::device
