// tilefit's API (include/tilefit/tilefit.hpp): the config reader, the model and the sentences of
// the report layer, with nothing else (no fmt, no CUDA).
#include "tilefit/tilefit.hpp"

#include <nlohmann/json.hpp>

#include "api/internal.hpp"
#include "io/text_checks.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/validate.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

constexpr const char* kLabel = "<config>";

[[noreturn]] void throw_input(const io::ConfigError& e) {
  throw InputError(io::format_error(e), e.field);
}

}  // namespace

std::string_view version() {
#define TILEFIT_STR2(x) #x
#define TILEFIT_STR(x) TILEFIT_STR2(x)
  return TILEFIT_STR(TILEFIT_VERSION_MAJOR) "." TILEFIT_STR(TILEFIT_VERSION_MINOR) "." TILEFIT_STR(
      TILEFIT_VERSION_PATCH);
#undef TILEFIT_STR
#undef TILEFIT_STR2
}

InputError::InputError(const std::string& message, std::string field)
    : std::runtime_error(message), field_(std::move(field)) {}

namespace api {

void check_valid(const model::KernelConfig& cfg, const io::Provenance& from) {
  const std::vector<model::ConfigIssue> issues = model::validate(cfg);
  // Named as the reader names the one config of an API text: "<config>", config #0.
  if (!issues.empty())
    throw_input(from.error(cfg.name, issues.front().field, issues.front().message));
}

const model::Limits& builtin_model_limits(std::string_view arch) {
  const auto sm = model::parse_arch(arch);
  const model::ArchInfo* info = sm ? model::find_arch(*sm) : nullptr;
  if (!info) {
    const std::string_view hint = model::unmodelled_amd_hint(arch);
    throw InputError("arch \"" + io::detail::printable(arch) +
                         "\" is not a known architecture; allowed: " + model::arch_choices() +
                         (hint.empty() ? "" : "; " + std::string(hint)),
                     "arch");
  }
  return info->limits;
}

io::LoadedConfig read_model_config(std::string_view config_json, std::string_view arch) {
  // The text must be one config: an object, or a CUTLASS kernel name as a JSON string. A text
  // that is not JSON is reported by the reader itself (with the line and column of the text).
  const nlohmann::json::value_t kind =
      nlohmann::json::parse(config_json, nullptr, /*allow_exceptions=*/false).type();
  io::LoadResult r;
  if (kind == nlohmann::json::value_t::discarded) {
    r = io::load<io::LoadResult>(io::Source::text(config_json, kLabel));
  } else if (kind != nlohmann::json::value_t::object && kind != nlohmann::json::value_t::string) {
    throw InputError(
        std::string(kLabel) + ": expected one config: a JSON object (or a CUTLASS kernel name)",
        "");
  } else {
    std::string one;
    one.reserve(config_json.size() + 2);
    one.append(1, '[').append(config_json).append(1, ']');
    r = io::load<io::LoadResult>(io::Source::text(one, kLabel));
  }
  if (!r.errors.empty()) throw_input(r.errors.front());
  if (r.configs.size() != 1) throw InputError(std::string(kLabel) + ": expected one config", "");
  io::LoadedConfig one = std::move(r.configs.front());
  one.from.origin = io::Provenance::Origin::api;
  model::KernelConfig& cfg = one.config;
  if (!arch.empty()) {
    cfg.arch = builtin_model_limits(arch).sm;
    one.from.give("arch");
  } else if (!one.arch_given) {
    throw InputError(
        std::string(kLabel) +
            ": field \"arch\": missing; give the config an \"arch\" or pass one to analyze()",
        "arch");
  }
  if (std::string bad = hip_async_copy_error(cfg); !bad.empty())
    throw_input(one.from.error(cfg.name, "hip_async_copy", std::move(bad)));
  return one;
}

std::string hip_async_copy_error(const model::KernelConfig& cfg) {
  if (!cfg.hip_async_copy || model::is_amd(cfg.arch)) return "";
  return std::string(*cfg.hip_async_copy ? "true" : "false") + ": the config is analysed for " +
         model::arch_name(cfg.arch) +
         ", an NVIDIA target; TRITON_HIP_USE_ASYNC_COPY applies to the AMD targets only (gfx942, "
         "gfx950): drop \"hip_async_copy\" or analyse it for gfx942 (or gfx950)";
}

Analysis to_analysis(const model::Result& r) {
  Analysis a;
  a.fits = r.fits;
  a.name = r.name;
  a.kernel_description = report::kernel_description(r.kernel);
  a.epilogue_smem_bytes = r.epilogue_smem;
  a.mainloop_smem_bytes = r.mainloop_smem;
  a.status = std::string(model::status_name(r.status));
  a.kernel = std::string(r.family);
  a.arch = model::arch_name(r.arch);
  a.smem_bytes = r.smem_bytes;
  a.stages = r.stages;
  a.auto_stages = r.auto_stages;
  a.max_stages = r.max_stages;
  a.max_stages_smem_bytes = r.max_stages_smem;
  a.limit_bytes = r.limit_bytes;
  a.headroom_bytes = r.headroom_bytes;
  a.ctas_per_sm = r.ctas_per_sm;
  if (r.breakdown)
    for (int c = 0; c < model::kComponentCount; ++c)
      if (r.breakdown->parts[c] != 0)
        a.breakdown.push_back({std::string(model::component_key(static_cast<model::Component>(c))),
                               r.breakdown->parts[c]});
  for (const model::Diagnostic& d : r.diagnostics)
    a.diagnostics.push_back({std::string(model::code_name(d.code)),
                             std::string(model::severity_name(d.severity)), report::message(d)});
  for (const model::LaunchSummary& l : r.launches)
    a.launches.push_back({l.stage, l.kernel, l.constexprs, l.num_warps, l.num_stages, l.smem_bytes,
                          l.fits, l.invalid, l.stages_matter});
  a.engine_refuses = r.engine_refuses;
  return a;
}

}  // namespace api

// ---- the Config handle ------------------------------------------------------------------------
Config::Config(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Config::Config(const Config& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Config::Config(Config&& other) noexcept = default;
Config& Config::operator=(const Config& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}
Config& Config::operator=(Config&& other) noexcept = default;
Config::~Config() = default;

std::string Config::name() const { return impl_->cfg.name; }
std::string Config::arch() const { return model::arch_name(impl_->cfg.arch); }
void Config::set_arch(std::string_view arch) {
  impl_->cfg.arch = api::builtin_model_limits(arch).sm;
  impl_->from.give("arch");
}
std::optional<int> Config::stages() const { return impl_->cfg.stages; }
void Config::set_stages(std::optional<int> stages) {
  model::KernelConfig changed = impl_->cfg;
  changed.stages = stages;
  api::check_valid(changed, impl_->from);  // the reader's rule and message for "stages"
  impl_->cfg = std::move(changed);
  impl_->from.give("stages");
}
std::string Config::json() const { return io::config_json(impl_->cfg); }

// ---- the API ------------------------------------------------------------------------------------
Limits builtin_limits(std::string_view arch) {
  return api::to_public(api::builtin_model_limits(arch));
}

Config read_config(std::string_view config_json, std::string_view arch) {
  auto impl = std::make_unique<Config::Impl>();
  io::LoadedConfig read = api::read_model_config(config_json, arch);
  impl->cfg = std::move(read.config);
  impl->from = std::move(read.from);
  return Config(std::move(impl));
}

Analysis analyze(std::string_view config_json, std::string_view arch) {
  const model::KernelConfig cfg = api::read_model_config(config_json, arch).config;
  return api::to_analysis(
      model::evaluate(cfg, api::builtin_model_limits(model::arch_name(cfg.arch))));
}

Analysis analyze(const Config& cfg, const Limits& limits) {
  // Limits of another arch (a GPU's, or builtin_limits of another arch) would measure one arch's
  // layout against another's limit: said, as `check --device` says it (arch_mismatch), never
  // answered.
  const model::KernelConfig& c = cfg.impl().cfg;
  if (limits.sm != 0 && c.arch != 0 && limits.sm != c.arch) {
    model::Result r;
    r.name = c.name;
    r.arch = c.arch;
    r.status = model::Status::Invalid;
    r.limit_bytes = limits.optin_per_block;
    r.diagnostics.push_back(model::diag(model::Code::limits_arch_mismatch)
                                .arch("arch", c.arch)
                                .arch("limits_arch", limits.sm));
    return api::to_analysis(r);
  }
  return api::to_analysis(model::evaluate(c, api::to_model(limits)));
}

}  // namespace tilefit
