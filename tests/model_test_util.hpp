// Small builders for model tests: a KernelConfig from a few fields.
#pragma once

#include "tilefit/model/config.hpp"
#include "tilefit/model/evaluate.hpp"

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

}  // namespace tilefit::test
