// Where the probe kernel is launched: an interface next to DeviceSource, so that `tilefit probe`
// runs the same against the CUDA Runtime and against a fake GPU in tests (an H200 that grants
// 232448 B, a GPU that refuses, a driver error) on a machine without a GPU.
//
// system_probe() is the probe of this build (tilefit/device/probe.hpp: the real kernel with a
// CUDA compiler, else every answer the DeviceError that says how to enable it). The boundary
// search is shared: every ProbeSource answers probe_boundary with search_boundary() over its own
// launch, so a fake GPU's boundary takes the same launches a real one does.
#pragma once

#include <functional>
#include <string>

#include "tilefit/device/probe.hpp"

namespace tilefit::device {

class ProbeSource {
 public:
  virtual ~ProbeSource() = default;
  /// Why this source cannot probe at all (built without a CUDA compiler), one line; empty when
  /// it can.
  virtual std::string unavailable_reason() const = 0;
  /// One launch of the probe kernel with `dynamic_smem` B of dynamic shared memory on GPU
  /// `device` (probe_launch): a refusal is a ProbeOutcome, a broken device a DeviceError.
  virtual Expected<ProbeOutcome> launch(int device, model::Bytes dynamic_smem) const = 0;
  /// CTAs of the probe kernel per SM at `dynamic_smem` B (probe_occupancy); 0 when refused.
  virtual Expected<int> occupancy(int device, model::Bytes dynamic_smem) const = 0;
  /// The exact launch boundary of GPU `device` (probe_boundary).
  virtual Expected<Boundary> boundary(int device) const = 0;
};

/// This build's probe: probe_available(), probe_launch(), probe_occupancy(), probe_boundary().
const ProbeSource& system_probe();

/// The boundary search behind every probe_boundary: `launch(n)` at 0 B (which must launch), then
/// at 1 MiB, 2 MiB, ... until one is refused (up to 1 GiB), then a binary search between the
/// largest size that launched and the first refused: log2(1 MiB) = 20 more launches on any GPU
/// that grants less than 1 MiB (22 in all). `device` names the GPU in the errors.
Expected<Boundary> search_boundary(
    int device, const std::function<Expected<ProbeOutcome>(model::Bytes)>& launch);

}  // namespace tilefit::device
