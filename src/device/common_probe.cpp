// The probe's parts that need no CUDA: this build's ProbeSource and the boundary search.
#include <string>

#include "tilefit/device/probe_source.hpp"

namespace tilefit::device {
namespace {

class SystemProbe final : public ProbeSource {
 public:
  std::string unavailable_reason() const override {
    return probe_available() ? std::string() : probe_unavailable_reason();
  }
  Expected<ProbeOutcome> launch(int device, model::Bytes n) const override {
    return probe_launch(device, n);
  }
  Expected<int> occupancy(int device, model::Bytes n) const override {
    return probe_occupancy(device, n);
  }
  Expected<Boundary> boundary(int device) const override { return probe_boundary(device); }
};

}  // namespace

const ProbeSource& system_probe() {
  static const SystemProbe probe;
  return probe;
}

Expected<Boundary> search_boundary(
    int device, const std::function<Expected<ProbeOutcome>(model::Bytes)>& launch) {
  Boundary b;
  auto attempt = [&](model::Bytes n) {
    ++b.launches;
    return launch(n);
  };
  // lo launches, hi is refused.
  model::Bytes lo = 0;
  auto first = attempt(lo);
  if (!first) return first.error();
  if (!first->launched)
    return DeviceError{first->error,
                       "GPU " + std::to_string(device) +
                           ": the probe kernel does not launch even with 0 B of dynamic "
                           "shared memory (" +
                           first->error + ")"};
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
                                 std::to_string(hi) +
                                 " B of dynamic shared memory; no boundary below 1 GiB"};
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

}  // namespace tilefit::device
