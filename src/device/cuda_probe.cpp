// The probe of a CUDA build. The kernel itself is in probe_kernel.cu, compiled only when
// CMake found a CUDA compiler (TILEFIT_HAVE_PROBE); a build with the CUDA runtime but no
// nvcc still compiles this file and reports the probe as unavailable.
#include "tilefit/device/probe.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <optional>
#include <string>

#include "cuda_common.hpp"
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
Expected<ProbeOutcome> probe_launch(int, model::Bytes) { return DeviceError{"", probe_unavailable_reason()}; }
Expected<int> probe_occupancy(int, model::Bytes) { return DeviceError{"", probe_unavailable_reason()}; }
Expected<Boundary> probe_boundary(int) { return DeviceError{"", probe_unavailable_reason()}; }

#else

namespace {

using detail::call_error;
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
  if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) {
    (void)cudaGetLastError();
    return call_error(device, "cudaSetDevice", e, false);
  }
  return std::nullopt;
}

/// After a refusal: clear the pending error and make sure the context still works.
std::optional<DeviceError> recover(int device) {
  (void)cudaGetLastError();
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    (void)cudaGetLastError();
    return call_error(device, "cudaDeviceSynchronize after a refused launch (the CUDA context is broken)", e,
                      false);
  }
  return std::nullopt;
}

Expected<ProbeOutcome> launch_current(int device, model::Bytes bytes) {
  ProbeOutcome out;
  out.dynamic_smem = bytes;
  if (bytes < 0 || bytes > INT_MAX) {
    out.error = "cudaErrorInvalidValue";
    out.refused_by = "tilefit (size outside the range of cudaFuncSetAttribute)";
    return out;
  }
  const cudaError_t set = cudaFuncSetAttribute(detail::probe_kernel_ptr(),
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes));
  if (set != cudaSuccess) {
    if (set == cudaErrorNoKernelImageForDevice || !is_refusal(set)) {
      (void)cudaGetLastError();
      return call_error(device, "cudaFuncSetAttribute(probe kernel, MaxDynamicSharedMemorySize, " +
                                    std::to_string(bytes) + ")",
                        set, false);
    }
    if (auto err = recover(device)) return *err;
  }
  // Launch even when the attribute was refused: the launch's own verdict is reported.
  const cudaError_t launch = detail::launch_probe_kernel(static_cast<std::size_t>(bytes), kProbeBlockThreads);
  if (launch != cudaSuccess) {
    if (!is_refusal(launch)) {
      (void)cudaGetLastError();
      return call_error(device, "launching the probe kernel with " + std::to_string(bytes) +
                                    " B of dynamic shared memory",
                        launch, false);
    }
    if (auto err = recover(device)) return *err;
    out.launched = false;
    out.error = error_name(set != cudaSuccess ? set : launch);
    out.refused_by = set != cudaSuccess ? "cudaFuncSetAttribute" : "cudaLaunchKernel";
    return out;
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    (void)cudaGetLastError();
    return call_error(device, "the probe kernel (" + std::to_string(bytes) +
                                  " B of dynamic shared memory) was accepted but failed while running",
                      e, false);
  }
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
  if (cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      e != cudaSuccess) {
    (void)cudaGetLastError();
    return call_error(device, "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)", e, false);
  }
  if (cudaError_t e = cudaFuncSetAttribute(detail::probe_kernel_ptr(),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
      e != cudaSuccess) {
    (void)cudaGetLastError();
    return call_error(device, "cudaFuncSetAttribute(probe kernel, MaxDynamicSharedMemorySize, " +
                                  std::to_string(optin) + ")",
                      e, false);
  }
  int blocks = 0;
  const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, detail::probe_kernel_ptr(), kProbeBlockThreads, static_cast<std::size_t>(dynamic_smem));
  if (e != cudaSuccess) {
    if (!is_refusal(e)) {
      (void)cudaGetLastError();
      return call_error(device, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", e, false);
    }
    if (auto err = recover(device)) return *err;
    return 0;  // a size the occupancy API rejects fits no CTA
  }
  return blocks;
}

Expected<Boundary> probe_boundary(int device) {
  if (auto err = select(device)) return *err;
  Boundary b;
  auto attempt = [&](model::Bytes n) {
    ++b.launches;
    return launch_current(device, n);
  };
  // lo launches, hi is refused.
  model::Bytes lo = 0;
  auto first = attempt(lo);
  if (!first) return first.error();
  if (!first->launched)
    return DeviceError{first->error, "GPU " + std::to_string(device) +
                                         ": the probe kernel does not launch even with 0 B of dynamic "
                                         "shared memory (" + first->error + ")"};
  model::Bytes hi = model::Bytes{1} << 20;  // 1 MiB: more than any GPU grants one block
  ProbeOutcome refused;
  for (;;) {
    auto r = attempt(hi);
    if (!r) return r.error();
    if (!r->launched) {
      refused = *r;
      break;
    }
    lo = hi;
    if (hi >= (model::Bytes{1} << 30))
      return DeviceError{"", "GPU " + std::to_string(device) + ": the probe kernel launched with " +
                                 std::to_string(hi) + " B of dynamic shared memory; no boundary below 1 GiB"};
    hi *= 2;
  }
  while (hi - lo > 1) {
    const model::Bytes mid = lo + (hi - lo) / 2;
    auto r = attempt(mid);
    if (!r) return r.error();
    if (r->launched) {
      lo = mid;
    } else {
      hi = mid;
      refused = *r;
    }
  }
  b.largest_launched = lo;
  b.first_refused = hi;
  b.refusal_error = refused.error;
  b.refused_by = refused.refused_by;
  return b;
}

#endif  // TILEFIT_HAVE_PROBE

}  // namespace tilefit::device
