// What the C++ API (tilefit.hpp) and the C ABI (src/capi/) share: the opaque Config's inside and
// the conversions between the public value types and the model's.
#pragma once

#include "tilefit/io/loaded_config.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/result.hpp"
#include "tilefit/tilefit.hpp"

struct tilefit::Config::Impl {
  model::KernelConfig cfg;
  io::Provenance from;  ///< Origin::api, "<config>"; the fields the text and the setters gave
};

namespace tilefit::api {

inline Limits to_public(const model::Limits& l) {
  Limits p;
  p.sm = l.sm;
  p.optin_per_block = l.optin_per_block;
  p.per_sm = l.per_sm;
  p.reserved_per_block = l.reserved_per_block;
  p.default_per_block = l.default_per_block;
  p.max_ctas_per_sm = l.max_ctas_per_sm;
  p.regs_per_sm = l.regs_per_sm;
  p.threads_per_sm = l.threads_per_sm;
  return p;
}

inline model::Limits to_model(const Limits& p) {
  model::Limits l;
  l.sm = p.sm;
  l.optin_per_block = p.optin_per_block;
  l.per_sm = p.per_sm;
  l.reserved_per_block = p.reserved_per_block;
  l.default_per_block = p.default_per_block;
  l.max_ctas_per_sm = p.max_ctas_per_sm;
  l.regs_per_sm = p.regs_per_sm;
  l.threads_per_sm = p.threads_per_sm;
  return l;
}

/// Throws InputError for the first of model::validate(cfg)'s issues, worded and named as the
/// reader words it for the same value in an API text ("<config>: field \"stages\": ..."),
/// the error built from `from`.
void check_valid(const model::KernelConfig& cfg, const io::Provenance& from);

/// The model's limits for `arch` from the built-in table; throws InputError naming "arch".
const model::Limits& builtin_model_limits(std::string_view arch);

/// The model's config read from JSON text (tilefit::read_config's rules), with its provenance
/// (Origin::api; "arch" given when `arch` is); throws InputError.
io::LoadedConfig read_model_config(std::string_view config_json, std::string_view arch);

/// The config's "hip_async_copy" on an NVIDIA arch (issue 20: TRITON_HIP_USE_ASYNC_COPY is for
/// the AMD targets only): the message of that input error (field "hip_async_copy"), "" when the
/// field is absent or the arch is AMD.
std::string hip_async_copy_error(const model::KernelConfig& cfg);

/// A model result as the API's Analysis (the diagnostics' sentences written).
Analysis to_analysis(const model::Result& r);

}  // namespace tilefit::api
