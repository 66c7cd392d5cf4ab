// What the GPUs in this machine say about themselves, through the CUDA Runtime.
//
// This header (and probe.hpp) is the only CUDA-facing API of tilefit, and it contains no
// CUDA types: callers build and run the same with or without a CUDA toolkit. Every CUDA
// failure (no driver, no device, an index out of range, a device lost mid-run) comes back
// as a DeviceError value: nothing here throws, aborts or blocks indefinitely.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tilefit/model/arch.hpp"

namespace tilefit::device {

/// One visible GPU, as the CUDA Runtime reports it (CUDA_VISIBLE_DEVICES applies: `index`
/// is the runtime's index, not the physical one).
struct DeviceInfo {
  int index = 0;
  std::string name;         ///< "NVIDIA H200"
  int cc_major = 0;         ///< cudaDevAttrComputeCapabilityMajor
  int cc_minor = 0;         ///< cudaDevAttrComputeCapabilityMinor
  int sm_count = 0;         ///< cudaDevAttrMultiProcessorCount
  model::Limits limits;     ///< every field from cudaDeviceGetAttribute; limits.sm = 10*major+minor
  int driver_version = 0;   ///< cudaDriverGetVersion: 1000*major + 10*minor (13000 = 13.0)
  int runtime_version = 0;  ///< cudaRuntimeGetVersion, same encoding
  std::string pci_bus_id;   ///< "0000:19:00.0"; empty when the runtime could not tell
};

/// Why the device path could not answer. `message` is one line, meant for stderr as is.
struct DeviceError {
  std::string cuda_error;  ///< cudaGetErrorName, e.g. "cudaErrorInsufficientDriver"; empty
                           ///< when no CUDA call was made (built without CUDA, bad index)
  std::string message;     ///< one clear line saying what failed and what to do
};

/// A value or a DeviceError (C++20 has no std::expected).
template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}            // NOLINT(implicit)
  Expected(DeviceError error) : v_(std::move(error)) {}  // NOLINT(implicit)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const DeviceError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, DeviceError> v_;
};

using DeviceList = Expected<std::vector<DeviceInfo>>;
using DeviceResult = Expected<DeviceInfo>;

/// True when this binary was built against a CUDA toolkit (TILEFIT_HAVE_CUDA).
bool built_with_cuda();

/// What `tilefit --version` says in parentheses: "CUDA 13.0 device support" (the version of
/// the CUDA runtime built in, CUDART_VERSION), "CUDA 13.0 device support, no probe kernel" (a
/// toolkit without nvcc), or "no CUDA device support".
std::string cuda_support();

/// Every visible GPU, in runtime order. No driver, no GPU or an empty CUDA_VISIBLE_DEVICES
/// (cudaErrorNoDevice) is a DeviceError, never an empty list.
DeviceList query_all();

/// GPU `index`; an index outside [0, count) is a DeviceError naming the valid range.
DeviceResult query_one(int index);

/// Number of visible GPUs (cudaGetDeviceCount), or the DeviceError.
Expected<int> device_count();

/// The fields where `dev` differs from the built-in table row for its compute capability,
/// one line each ("max_ctas_per_sm: device 32, table 24"), or one line saying the table has
/// no row for it. Empty when they agree. The table is a default; the device is the truth.
std::vector<std::string> table_differences(const DeviceInfo& dev);

/// "9.0".
std::string compute_capability(const DeviceInfo& dev);

/// 13000 -> "13.0", 12080 -> "12.8"; 0 -> "unknown".
std::string cuda_version_string(int version);

}  // namespace tilefit::device
