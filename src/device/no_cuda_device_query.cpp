// The device layer of a build without a CUDA toolkit: every query says so, clearly.
#include "tilefit/device/device_query.hpp"

namespace tilefit::device {
namespace {

DeviceError built_without_cuda() {
  return {"",
          "built without CUDA, so no GPU can be queried: install a CUDA toolkit "
          "(nvcc and the CUDA runtime) and re-run cmake (TILEFIT_WITH_CUDA=ON, the default); "
          "use --arch to analyse for an architecture from the built-in table"};
}

}  // namespace

bool built_with_cuda() { return false; }
std::string cuda_support() { return "no CUDA device support"; }
DeviceList query_all() { return built_without_cuda(); }
DeviceResult query_one(int) { return built_without_cuda(); }
Expected<int> device_count() { return built_without_cuda(); }

}  // namespace tilefit::device
