// Device-layer code that needs no CUDA: comparisons with the built-in table, formatting.
#include <string>
#include <vector>

#include "tilefit/device/device_query.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::device {

std::vector<std::string> table_differences(const DeviceInfo& dev) {
  std::vector<std::string> out;
  const int sm = dev.limits.sm;
  const model::ArchInfo* row = model::find_arch(sm);
  if (row == nullptr) {
    out.push_back("the built-in table has no row for " + model::arch_name(sm) +
                  " (compute capability " + compute_capability(dev) +
                  "); the device's values are used");
    return out;
  }
  const model::Limits& t = row->limits;
  const model::Limits& d = dev.limits;
  auto cmp = [&](const char* field, long long dv, long long tv) {
    if (dv != tv)
      out.push_back(std::string(field) + ": device " + std::to_string(dv) + ", table " +
                    std::to_string(tv) + " (" + model::arch_name(t.sm) + ")");
  };
  cmp("optin_per_block", d.optin_per_block, t.optin_per_block);
  cmp("per_sm", d.per_sm, t.per_sm);
  cmp("reserved_per_block", d.reserved_per_block, t.reserved_per_block);
  cmp("default_per_block", d.default_per_block, t.default_per_block);
  cmp("max_ctas_per_sm", d.max_ctas_per_sm, t.max_ctas_per_sm);
  cmp("regs_per_sm", d.regs_per_sm, t.regs_per_sm);
  cmp("threads_per_sm", d.threads_per_sm, t.threads_per_sm);
  return out;
}

std::string compute_capability(const DeviceInfo& dev) {
  return std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor);
}

std::string cuda_version_string(int version) {
  if (version <= 0) return "unknown";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace tilefit::device

#include "tilefit/device/device_source.hpp"

namespace tilefit::device {
namespace {

class SystemDevices final : public DeviceSource {
 public:
  DeviceList all() const override { return query_all(); }
  DeviceResult one(int index) const override { return query_one(index); }
};

}  // namespace

const DeviceSource& system_devices() {
  static const SystemDevices devices;
  return devices;
}

}  // namespace tilefit::device

#include "api/internal.hpp"

namespace tilefit {

namespace {

/// The device layer's advice names the CLI's options (--arch, --device); a library caller has
/// functions instead.
std::string library_advice(std::string message) {
  const std::pair<std::string_view, std::string_view> kRewrites[] = {
      {"pass --device with a valid index", "pass a valid device index"},
      {"use --arch to analyse", "use builtin_limits(arch) (C: tilefit_target_builtin) to analyse"}};
  for (const auto& [from, to] : kRewrites)
    for (std::size_t at = message.find(from); at != std::string::npos;
         at = message.find(from, at + to.size()))
      message.replace(at, from.size(), to);
  return message;
}

}  // namespace

Limits device_limits(int device) {
  const device::DeviceResult d = device::query_one(device);
  if (!d) throw DeviceError(library_advice(d.error().message));
  return api::to_public(d->limits);
}

}  // namespace tilefit
