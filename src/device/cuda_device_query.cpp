// The device layer of a CUDA build: every value from the CUDA Runtime, every failure a
// DeviceError. Only attribute queries here: no context is created.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cuda_common.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/device/probe.hpp"

namespace tilefit::device {
namespace detail {
namespace {

constexpr const char* kArchHint =
    "use --arch to analyse for an architecture from the built-in table";

/// " with CUDA_VISIBLE_DEVICES='0,1'", or "" when unset.
std::string visible_devices_clause() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  if (v == nullptr) return "";
  return std::string(" with CUDA_VISIBLE_DEVICES='") + v + "'";
}

bool blank(const char* s) {
  for (; *s; ++s)
    if (*s != ' ' && *s != '\t') return false;
  return true;
}

}  // namespace

DeviceError enumeration_error(cudaError_t e) {
  DeviceError err{error_name(e), ""};
  const std::string why = std::string("(") + error_text(e) + ")";
  switch (e) {
    case cudaErrorInsufficientDriver: {
      int driver = 0, runtime = 0;
      // Best effort, for the message: a version that cannot be read stays 0 ("unknown").
      (void)check(cudaDriverGetVersion(&driver), 0, "cudaDriverGetVersion");
      (void)check(cudaRuntimeGetVersion(&runtime), 0, "cudaRuntimeGetVersion");
      const std::string rt = cuda_version_string(runtime);
      err.message =
          "no usable NVIDIA driver " + why + ": " +
          (driver > 0
               ? "the installed driver supports CUDA " + cuda_version_string(driver) +
                     ", tilefit's runtime is CUDA " + rt +
                     " (update the driver or build tilefit with an older toolkit)"
               : "no NVIDIA driver was found (tilefit's CUDA " + rt + " runtime needs one)") +
          "; " + kArchHint;
      break;
    }
    case cudaErrorNoDevice: {
      const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
      if (v != nullptr && blank(v))
        err.message = "no GPU visible: CUDA_VISIBLE_DEVICES is set but empty " + why +
                      "; unset it or list a GPU (e.g. CUDA_VISIBLE_DEVICES=0), or " + kArchHint;
      else
        err.message =
            "no CUDA-capable GPU found" + visible_devices_clause() + " " + why + "; " + kArchHint;
      break;
    }
    default:
      err.message = "the CUDA runtime could not list the GPUs" + visible_devices_clause() + " " +
                    why + "; " + kArchHint;
      break;
  }
  return err;
}

DeviceError call_error(int device, const std::string& call, cudaError_t e, bool arch_hint) {
  return {error_name(e), "GPU " + std::to_string(device) + ": " + call + " failed (" +
                             error_text(e) + ")" +
                             (arch_hint ? std::string("; ") + kArchHint : std::string())};
}

DeviceError index_error(int index, int count) {
  const std::string range = count == 1 ? "only GPU 0 is visible"
                                       : std::to_string(count) + " GPUs are visible (valid: 0.." +
                                             std::to_string(count - 1) + ")";
  return {"", "GPU index " + std::to_string(index) + " is out of range: " + range +
                  visible_devices_clause() + "; pass --device with a valid index, or " + kArchHint};
}

}  // namespace detail

namespace {

/// Fills `dev` for GPU `index`; returns the DeviceError of the first failing call.
std::optional<DeviceError> fill(int index, DeviceInfo& dev) {
  dev.index = index;
  struct Attr {
    cudaDeviceAttr attr;
    const char* name;
    int* out;
  };
  int optin = 0, per_sm = 0, reserved = 0, deflt = 0;
  const Attr attrs[] = {
      {cudaDevAttrComputeCapabilityMajor, "cudaDevAttrComputeCapabilityMajor", &dev.cc_major},
      {cudaDevAttrComputeCapabilityMinor, "cudaDevAttrComputeCapabilityMinor", &dev.cc_minor},
      {cudaDevAttrMultiProcessorCount, "cudaDevAttrMultiProcessorCount", &dev.sm_count},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, "cudaDevAttrMaxSharedMemoryPerBlockOptin", &optin},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDevAttrMaxSharedMemoryPerMultiprocessor",
       &per_sm},
      {cudaDevAttrReservedSharedMemoryPerBlock, "cudaDevAttrReservedSharedMemoryPerBlock",
       &reserved},
      {cudaDevAttrMaxSharedMemoryPerBlock, "cudaDevAttrMaxSharedMemoryPerBlock", &deflt},
      {cudaDevAttrMaxBlocksPerMultiprocessor, "cudaDevAttrMaxBlocksPerMultiprocessor",
       &dev.limits.max_ctas_per_sm},
      {cudaDevAttrMaxRegistersPerMultiprocessor, "cudaDevAttrMaxRegistersPerMultiprocessor",
       &dev.limits.regs_per_sm},
      {cudaDevAttrMaxThreadsPerMultiProcessor, "cudaDevAttrMaxThreadsPerMultiProcessor",
       &dev.limits.threads_per_sm},
  };
  for (const Attr& a : attrs)
    if (auto err = detail::check(cudaDeviceGetAttribute(a.out, a.attr, index), index,
                                 std::string("cudaDeviceGetAttribute(") + a.name + ")"))
      return err;
  dev.limits.sm = dev.cc_major * 10 + dev.cc_minor;
  dev.limits.optin_per_block = optin;
  dev.limits.per_sm = per_sm;
  dev.limits.reserved_per_block = reserved;
  dev.limits.default_per_block = deflt;

  cudaDeviceProp prop{};
  if (auto err =
          detail::check(cudaGetDeviceProperties(&prop, index), index, "cudaGetDeviceProperties"))
    return err;
  prop.name[sizeof(prop.name) - 1] = '\0';
  dev.name = prop.name;

  char bus[32] = {};
  // Optional: left empty when the runtime cannot tell.
  if (!detail::check(cudaDeviceGetPCIBusId(bus, static_cast<int>(sizeof(bus)), index), index,
                     "cudaDeviceGetPCIBusId")) {
    bus[sizeof(bus) - 1] = '\0';
    dev.pci_bus_id = bus;
  }

  if (auto err =
          detail::check(cudaDriverGetVersion(&dev.driver_version), index, "cudaDriverGetVersion"))
    return err;
  if (auto err = detail::check(cudaRuntimeGetVersion(&dev.runtime_version), index,
                               "cudaRuntimeGetVersion"))
    return err;
  return std::nullopt;
}

}  // namespace

bool built_with_cuda() { return true; }

std::string cuda_support() {
  return "CUDA " + cuda_version_string(CUDART_VERSION) + " device support" +
         (probe_available() ? "" : ", no probe kernel");
}

Expected<int> device_count() {
  int n = 0;
  if (auto err = detail::check_enumeration(cudaGetDeviceCount(&n))) return *err;
  if (n <= 0) return detail::enumeration_error(cudaErrorNoDevice);
  return n;
}

DeviceList query_all() {
  Expected<int> n = device_count();
  if (!n) return n.error();
  std::vector<DeviceInfo> out(static_cast<std::size_t>(*n));
  for (int i = 0; i < *n; ++i)
    if (auto err = fill(i, out[static_cast<std::size_t>(i)])) return *err;
  return out;
}

DeviceResult query_one(int index) {
  Expected<int> n = device_count();
  if (!n) return n.error();
  if (index < 0 || index >= *n) return detail::index_error(index, *n);
  DeviceInfo dev;
  if (auto err = fill(index, dev)) return *err;
  return dev;
}

}  // namespace tilefit::device
