// The probe kernel's host-side entry points (defined in probe_kernel.cu). Plain C++17 and
// the CUDA Runtime types only: this header is included by nvcc-compiled code too.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tilefit::device::detail {

/// The probe kernel, for cudaFuncSetAttribute and the occupancy API.
const void* probe_kernel_ptr();

/// Launches one block of `threads` threads with `dynamic_smem` bytes of dynamic shared
/// memory on the current device and stream 0. Returns the launch's error (and clears it
/// from the runtime's last-error slot); does not synchronize.
cudaError_t launch_probe_kernel(std::size_t dynamic_smem, int threads);

}  // namespace tilefit::device::detail
