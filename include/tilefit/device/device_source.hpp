// Where GPUs are asked: an interface, so that everything that decides which limits apply
// (tilefit/analysis/target.hpp) runs the same against the CUDA Runtime and against a fake in
// tests — an H200, an RTX 5090, no GPU at all — on a machine without a GPU.
#pragma once

#include "tilefit/device/device_query.hpp"

namespace tilefit::device {

class DeviceSource {
 public:
  virtual ~DeviceSource() = default;
  /// Every visible GPU; no driver or no GPU is a DeviceError, never an empty list.
  virtual DeviceList all() const = 0;
  /// GPU `index`; out of range is a DeviceError naming the valid range.
  virtual DeviceResult one(int index) const = 0;
};

/// This machine's GPUs through the CUDA Runtime (query_all / query_one); in a build without
/// CUDA every answer is the DeviceError that says so.
const DeviceSource& system_devices();

}  // namespace tilefit::device
