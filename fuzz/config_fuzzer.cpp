// libFuzzer target over tilefit's whole path: bytes -> JSON -> configs -> check (each config's
// own arch, then sm_90 and sm_120 side by side) -> every report (table with and without the
// terminal's budget bars, Markdown, CSV, matrix, JSON, the SVG budget bars), suggest, and the
// config writer. Any crash, sanitizer report, hang or exception escaping is a finding, and so is
// a broken invariant (__builtin_trap):
//   - the reader accepts only archs of the built-in table;
//   - the breakdown's parts sum to the total;
//   - on its own arch, io::config_json writes a config the reader reads back to the same KernelConfig;
//   - on its own arch, every suggestion fits.
// Build: cmake -DTILEFIT_FUZZ=ON with clang (see scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/report/budget_svg.hpp"
#include "tilefit/report/check_report.hpp"

namespace {

using namespace tilefit;

/// `own`: the configs were evaluated on their own arch (so they read back as written).
void check_invariants(const analysis::CheckRun& run, bool own) {
  for (const analysis::Entry& e : run.entries) {
    if (model::find_arch(e.config.arch) == nullptr) __builtin_trap();
    const model::Result& r = e.result;
    if (r.breakdown) {
      model::Bytes sum = 0;
      for (model::Bytes p : r.breakdown->parts) sum += p;
      if (!r.smem_bytes || sum != *r.smem_bytes) __builtin_trap();
    }
    if (!own) continue;
    const io::LoadResult back = io::load<io::LoadResult>(
        io::Source::text("[" + io::config_json(e.config) + "]", "back.json"));
    if (!back.errors.empty() || back.configs.size() != 1 || !(back.configs[0].config == e.config))
      __builtin_trap();
    if (analysis::wants_suggestions(r))
      for (const analysis::Suggestion& s : analysis::suggest(e.config, e.target.limits, r))
        if (!s.result.fits) __builtin_trap();
  }
}

void render_all(const analysis::CheckRun& run) {
  std::string out = report::render_table(run, true);
  out += report::render_table(run, true, /*bars=*/true);
  out += report::render_budget_svg(run);
  out += report::render_markdown(run);
  out += report::render_csv(run);
  if (run.archs.size() > 1)
    out += report::render_matrix(run, false) + report::render_matrix(run, true);
  out += report::to_json(run).dump();
  for (const analysis::Problem& p : run.problems) out += analysis::problem_text(p);
  (void)out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const io::LoadResult loaded = io::load<io::LoadResult>(io::Source::text(text, "fuzz.json"));

  analysis::TargetRequest builtin;
  builtin.mode =
      analysis::TargetRequest::Mode::builtin;  // each config's own arch; never asks a GPU
  const analysis::CheckRun own = analysis::check_configs(loaded, builtin, device::system_devices());
  check_invariants(own, true);
  render_all(own);

  analysis::TargetRequest archs;
  archs.mode = analysis::TargetRequest::Mode::arch;
  archs.archs = {90, 120};
  const analysis::CheckRun both = analysis::check_configs(loaded, archs, device::system_devices());
  check_invariants(both, false);
  render_all(both);
  return 0;
}
