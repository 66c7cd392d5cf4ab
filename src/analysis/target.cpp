#include "tilefit/analysis/target.hpp"

#include <string>

#include "tilefit/model/products.hpp"

namespace tilefit::analysis {

std::string_view mode_name(TargetRequest::Mode m) {
  switch (m) {
    case TargetRequest::Mode::per_config:
      return "per-config";
    case TargetRequest::Mode::arch:
      return "arch";
    case TargetRequest::Mode::device:
      return "device";
    case TargetRequest::Mode::builtin:
      return "builtin";
  }
  return "?";
}

TargetRequest TargetRequest::for_arch(int sm) const {
  TargetRequest r = *this;
  r.several_archs = archs.size() > 1;
  r.archs = {sm};
  return r;
}

model::EngineRelease TargetRequest::engine_for(model::EngineRelease engine) const {
  const model::Launcher of = model::engine_release_info(engine).engine;
  if (of == model::Launcher::None) return engine;
  for (const model::EngineRelease pin : engines)
    if (model::engine_release_info(pin).engine == of) return pin;
  return engine;
}

std::string_view source_name(Target::Source s) {
  return s == Target::Source::device ? "device" : "builtin";
}

Target builtin_target(int sm) {
  Target t;
  t.source = Target::Source::builtin;
  t.limits = model::find_arch(sm)->limits;
  return t;
}

Target device_target(const device::DeviceInfo& d) {
  Target t;
  t.source = Target::Source::device;
  t.device = d.index;
  t.device_name = d.name;
  t.limits = d.limits;
  return t;
}

TargetResolver::TargetResolver(const TargetRequest& request, const device::DeviceSource& devices)
    : request_(request), devices_(devices) {
  if (request_.mode == TargetRequest::Mode::arch) {
    common_ = builtin_target(request_.archs.front());
  } else if (request_.mode == TargetRequest::Mode::device) {
    device::DeviceResult d = devices_.one(request_.device);
    if (d.ok()) {
      chosen_ = d.value();
      common_ = device_target(*chosen_);
    } else {
      device_failure_ = d.error();
    }
  }
}

const device::DeviceList& TargetResolver::all_devices() {
  if (!all_) all_ = devices_.all();
  return *all_;
}

namespace {

/// model::find_product of the last device_name asked (every entry of a table, on every
/// architecture, asks the same one; the lookup was a tenth of a check of the engines' tuned
/// folders).
model::ProductMatch product_of(const std::string& device_name) {
  thread_local std::string last;
  thread_local model::ProductMatch match;
  thread_local bool any = false;
  if (!any || device_name != last) {
    match = model::find_product(device_name);
    last = device_name;
    any = true;
  }
  return match;
}

/// A tuned table checked for another target: which GPU it was tuned on.
model::Diagnostic tuned_for(const model::KernelConfig& cfg, int target_arch) {
  const model::ProductMatch p = product_of(cfg.tuned_device);
  return model::diag(model::Code::tuned_device_other_target)
      .name("device_name", cfg.tuned_device)
      .name("product", p.product)
      .arch("tuned_arch", p.sm)
      .arch("target_arch", target_arch);
}

}  // namespace

Resolution TargetResolver::resolve(const model::KernelConfig& cfg, bool arch_given, bool explain) {
  Resolution r = resolve_target(cfg, arch_given, explain);
  if (r.kind != Resolution::Kind::analyse && r.kind != Resolution::Kind::mismatch) return r;
  if (!apply_hip_async_copy(r.config, r.field, r.message)) {
    r.kind = Resolution::Kind::input_error;
    r.before.clear();
    r.after.clear();
  }
  return r;
}

bool TargetResolver::apply_hip_async_copy(model::KernelConfig& cfg, std::string& field,
                                          std::string& message) const {
  if (model::is_amd(cfg.arch)) {
    if (request_.hip_async_copy) cfg.hip_async_copy = request_.hip_async_copy;
    return true;
  }
  if (!cfg.hip_async_copy && !request_.hip_async_copy) return true;
  if (request_.several_archs) {
    // `--arch sm_90,gfx942`: the switch is for the AMD columns; the NVIDIA ones ignore it.
    cfg.hip_async_copy.reset();
    return true;
  }
  const bool option = request_.hip_async_copy.has_value();
  const bool on = option ? *request_.hip_async_copy : *cfg.hip_async_copy;
  field = option ? "--hip-async-copy" : "hip_async_copy";
  message = (option ? std::string(on ? "on" : "off") : std::string(on ? "true" : "false")) +
            ": the config is analysed for " + model::arch_name(cfg.arch) +
            ", an NVIDIA target; TRITON_HIP_USE_ASYNC_COPY applies to the AMD targets only "
            "(gfx942, gfx950): " +
            (option ? "drop --hip-async-copy or give --arch gfx942 (or gfx950)"
                    : "drop \"hip_async_copy\" or give --arch gfx942 (or gfx950)");
  return false;
}

Resolution TargetResolver::resolve_target(const model::KernelConfig& cfg, bool arch_given,
                                          bool explain) {
  Resolution r;
  r.config = cfg;
  r.config.engine = request_.engine_for(cfg.engine);
  // A tuned table's device_name stands for the arch it lacks (per-config and --builtin rules).
  const bool tuned = !arch_given && !cfg.tuned_device.empty();
  if (tuned && (request_.mode == TargetRequest::Mode::per_config ||
                request_.mode == TargetRequest::Mode::builtin)) {
    const model::ProductMatch p = product_of(cfg.tuned_device);
    if (p.sm == 0 || model::find_arch(p.sm) == nullptr) {
      r.kind = Resolution::Kind::input_error;
      r.file_level = true;
      r.field = "device_name";
      r.message =
          p.not_modelled.empty()
              ? "the file name's device_name \"" + cfg.tuned_device +
                    "\" is not in tilefit's table of NVIDIA and AMD Instinct products, so it "
                    "does not say which architecture to check; give --arch (e.g. --arch sm_90 "
                    "or --arch gfx942) or --device N"
              : "the file name's device_name \"" + cfg.tuned_device + "\" is " +
                    std::string(p.not_modelled) +
                    "; give --arch to check its entries for a modelled target (e.g. --arch "
                    "gfx942)";
      return r;
    }
    r.config.arch = p.sm;
    if (explain)
      r.before.push_back(model::diag(model::Code::tuned_device_arch)
                             .name("device_name", cfg.tuned_device)
                             .name("product", p.product)
                             .arch("arch", p.sm));
    arch_given = true;
  }
  switch (request_.mode) {
    case TargetRequest::Mode::arch:
      if (explain && arch_given && cfg.arch != request_.archs.front())
        r.before.push_back(model::diag(model::Code::arch_overridden)
                               .arch("arch", cfg.arch)
                               .arch("target_arch", request_.archs.front()));
      if (explain && tuned) r.before.push_back(tuned_for(cfg, request_.archs.front()));
      r.config.arch = request_.archs.front();
      r.target = *common_;
      return r;

    case TargetRequest::Mode::device: {
      if (!chosen_) {
        r.kind = Resolution::Kind::device_error;
        r.message = device_failure_->message;
        return r;
      }
      r.target = *common_;
      if (arch_given && cfg.arch != chosen_->limits.sm) {
        r.kind = Resolution::Kind::mismatch;
        r.why = model::diag(model::Code::arch_mismatch)
                    .arch("arch", cfg.arch)
                    .integer("device", chosen_->index)
                    .name("device_name", chosen_->name)
                    .arch("device_arch", chosen_->limits.sm);
        return r;
      }
      if (explain && tuned) r.before.push_back(tuned_for(cfg, chosen_->limits.sm));
      r.config.arch = chosen_->limits.sm;
      break;
    }

    case TargetRequest::Mode::builtin:
      if (!arch_given) {
        r.kind = Resolution::Kind::input_error;
        r.field = "arch";
        r.message =
            "missing: --builtin takes the limits of each config's own arch; give the config an "
            "\"arch\" or use --arch";
        return r;
      }
      r.target = builtin_target(r.config.arch);
      return r;

    case TargetRequest::Mode::per_config:
      if (arch_given) {
        r.target = builtin_target(r.config.arch);
        const device::DeviceList& list = all_devices();
        if (list.ok())
          for (const device::DeviceInfo& d : list.value())
            if (d.limits.sm == r.config.arch) {
              r.target = device_target(d);
              break;
            }
      } else {
        const device::DeviceList& list = all_devices();
        if (!list.ok() || list.value().empty()) {
          // The same for every config of the file without "arch": said once, for the file.
          r.kind = Resolution::Kind::device_error;
          r.file_level = true;
          r.message = "configs without \"arch\" cannot be analysed: no GPU can be asked (" +
                      (list.ok() ? std::string("no device") : list.error().message) +
                      "); give them an \"arch\" or run with --arch";
          return r;
        }
        const device::DeviceInfo& d = list.value().front();
        r.config.arch = d.limits.sm;
        r.target = device_target(d);
      }
      break;
  }
  if (explain && r.target.source == Target::Source::device)
    r.after.push_back(model::diag(model::Code::limits_from_device)
                          .integer("device", r.target.device)
                          .name("device_name", r.target.device_name));
  return r;
}

}  // namespace tilefit::analysis
