// Small builders for model tests: a KernelConfig from a few fields.
#pragma once

#include <string>
#include <vector>

#include "tilefit/model/config.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/report/check_report.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit::test {

inline model::KernelConfig make_config(const char* family, int arch, long long m, long long n,
                                       long long k, const char* a, const char* b = nullptr) {
  model::KernelConfig c;
  c.name = "test";
  c.family = family;
  c.arch = arch;
  c.m = m;
  c.n = n;
  c.k = k;
  c.a = *model::parse_operand(a);
  c.b = *model::parse_operand(b ? b : a);
  return c;
}

inline model::Result eval(const model::KernelConfig& c) {
  return model::evaluate(c, model::find_arch(c.arch)->limits);
}

/// The sum of a breakdown field's parts (the invariant: the parts add up to the field's size).
inline model::Bytes sum_parts(const model::Field& f) {
  model::Bytes s = 0;
  for (model::Bytes p : f.parts) s += p;
  return s;
}

/// The messages of a result's diagnostics, as the report layer writes them.
inline std::vector<std::string> notes(const model::Result& r) { return report::notes(r); }

/// True when `r` carries a diagnostic of code `c`.
inline bool has(const model::Result& r, model::Code c) {
  for (const model::Diagnostic& d : r.diagnostics)
    if (d.code == c) return true;
  return false;
}

}  // namespace tilefit::test
