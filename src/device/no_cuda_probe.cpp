// The probe of a build without a CUDA toolkit.
#include "tilefit/device/probe.hpp"

namespace tilefit::device {
namespace {

DeviceError no_probe() { return {"", probe_unavailable_reason()}; }

}  // namespace

bool probe_available() { return false; }
std::string probe_unavailable_reason() {
  return "built without CUDA, so there is no probe kernel: install a CUDA toolkit "
         "with nvcc and re-run cmake (TILEFIT_WITH_CUDA=ON, the default; point CMake at nvcc "
         "with -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc or CUDACXX if it is not on PATH)";
}
Expected<ProbeOutcome> probe_launch(int, model::Bytes) { return no_probe(); }
Expected<int> probe_occupancy(int, model::Bytes) { return no_probe(); }
Expected<Boundary> probe_boundary(int) { return no_probe(); }

}  // namespace tilefit::device
