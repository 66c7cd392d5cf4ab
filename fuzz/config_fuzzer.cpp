// libFuzzer target over tilefit's whole path: bytes -> JSON -> configs -> model -> table and
// JSON reports. Any crash, sanitizer report, hang or exception escaping is a finding.
// Build: cmake -DTILEFIT_FUZZ=ON with clang (see scripts/sanitize.sh).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tilefit/io/config_reader.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/report/check_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilefit;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  io::LoadResult lr = io::parse_configs(text, "fuzz.json");

  report::CheckReport rep;
  rep.mode = "builtin";
  rep.errors = lr.errors;
  for (io::LoadedConfig& lc : lr.configs) {
    report::CheckEntry e;
    e.file = lc.file;
    e.index = lc.index;
    e.config = lc.config;
    if (!lc.arch_given) e.config.arch = 120;  // what --arch sm120 would do
    const model::ArchInfo* arch = model::find_arch(e.config.arch);
    if (arch == nullptr) __builtin_trap();  // the reader must only accept table archs
    e.target.source = "builtin";
    e.target.limits = arch->limits;
    e.result = model::evaluate(e.config, e.target.limits);
    if (e.result.breakdown) {
      model::Bytes sum = 0;
      for (model::Bytes p : e.result.breakdown->parts) sum += p;
      if (sum != *e.result.smem_bytes) __builtin_trap();  // invariant: parts sum to the total
    }
    rep.entries.push_back(std::move(e));
  }
  const std::string table = report::render_table(rep, true) + report::render_errors(rep);
  const std::string json = report::to_json(rep).dump();
  (void)table;
  (void)json;
  return 0;
}
