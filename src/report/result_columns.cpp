#include "report/result_columns.hpp"

#include <charconv>
#include <string>

#include <fmt/format.h>

#include "report/json_fields.hpp"
#include "report/text.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/model/amd_target.hpp"
#include "tilefit/report/csv_field.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/report/json.hpp"
#include "tilefit/report/tile_text.hpp"
#include "tilefit/report/verdict_text.hpp"

namespace tilefit::report {
namespace {

using analysis::Entry;
using A = Table::Align;
using T = ColumnType;

void num(std::string& out, long long v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void opt_num(std::string& out, const std::optional<model::Bytes>& v) {
  if (v) num(out, *v);
}

template <class Out, class V>
void opt_value(Out& o, const std::optional<V>& v) {
  if (v)
    o.value(*v);
  else
    o.null();
}

std::string stages_cell(const model::Result& r) {
  std::string s = r.stages > 0 || !r.auto_stages ? std::to_string(r.stages) : "-";
  if (r.auto_stages && !r.family.empty()) s += " auto";
  return s;
}

/// A diagnostic as report::diagnostic_json builds it ({"code", "severity", "message", then each
/// value; a byte value whose key lacks "_bytes" under "<key>_bytes"), written straight
/// through `o` (no tree built, then serialized: that was a sixth of `check --format json`'s
/// instructions over the engines' tuned folders). A diagnostic whose keys would repeat (the
/// tree keeps the first place and the last value) goes through the tree.
template <class Out>
void diagnostic_object(Out& o, const model::Diagnostic& d) {
  const auto& vs = d.values;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const std::string_view k = vs[i].key;
    bool repeated = k == "code" || k == "severity" || k == "message";
    for (std::size_t j = 0; j < i && !repeated; ++j) repeated = vs[j].key == k;
    if (repeated) {
      o.value(diagnostic_json(d));
      return;
    }
  }
  o.begin_object();
  o.key("code"), o.value(model::code_name(d.code));
  o.key("severity"), o.value(model::severity_name(d.severity));
  o.key("message"), o.value(message(d));
  for (const model::DiagValue& v : vs) {
    if (v.kind == model::ValueKind::bytes && !v.key.ends_with("_bytes")) {
      // "<key>_bytes" (the house rule), unless the diagnostic has a value of that name too.
      const std::string alias = std::string(v.key) + "_bytes";
      bool taken = false;
      for (const model::DiagValue& w : vs) taken = taken || w.key == alias;
      o.key(taken ? std::string_view(v.key) : std::string_view(alias));
    } else {
      o.key(v.key);
    }
    switch (v.kind) {
      case model::ValueKind::bytes:
        o.value(static_cast<long long>(v.number));
        break;
      case model::ValueKind::integer:
      case model::ValueKind::stages:
        o.value(static_cast<long long>(v.number));
        break;
      case model::ValueKind::flag:
        o.value(v.number != 0);
        break;
      default:
        o.value(value_text(v));
        break;
    }
  }
  o.end();
}

const ResultColumn kResultColumns[] = {
    {.key = "name",
     .description = "the config's name",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.name); }),
     .verdict = true,
     .head = "NAME",
     .md_head = "name",
     .cell = [](const Entry& e) { return e.result.name; },
     .csv = "name",
     .csv_field = [](CsvCell<Entry>& c) { append_csv_field(c.out, csv_text(c.row.result.name)); }},
    {.key = "file",
     .description = "the file it was read from",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.file); }),
     .verdict = true,
     .csv = "file",
     .csv_field = [](CsvCell<Entry>& c) { append_csv_field(c.out, csv_text(c.row.file)); }},
    {.key = "index",
     .type = T::count,
     .description = "its position in that file (from 0)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.index); }),
     .verdict = true,
     .csv = "index",
     .csv_field = [](CsvCell<Entry>& c) { num(c.out, c.row.index); }},
    {.key = "kernel",
     .nullable = true,
     .description = "the kernel family that builds it; null when none does",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       if (e.result.family.empty())
         o.null();
       else
         o.value(std::string_view(e.result.family));
     }),
     .verdict = true,
     .head = "KERNEL",
     .md_head = "kernel",
     .cell =
         [](const Entry& e) {
           return e.result.family.empty() ? std::string("-") : std::string(e.result.family);
         },
     .csv = "kernel",
     .csv_field = [](CsvCell<Entry>& c) { c.out += c.row.result.family; }},
    {.key = "kernel_reason",
     .description = "why that family was chosen, or why none was (\"\" when the config names it)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       o.value(e.result.family_reason ? message(*e.result.family_reason) : std::string());
     })},
    {.key = "kernel_description",
     .deprecated_key = "cutlass_kernel",
     .description = "the CUTLASS or Triton kernel and epilogue the config maps to, in words",
     .json = json_fns<Entry>(
         [](auto& o, const Entry& e) { o.value(kernel_description(e.result.kernel)); })},
    {.key = "engine",
     .type = T::engine,
     .description =
         "a config of an engine (a vLLM/SGLang tuned table's entry, or a config with \"engine\"): "
         "whose launch rules were applied, the engine and its full commit (--engine, else the "
         "newest modelled); absent for other configs",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       const model::EngineReleaseInfo& r = model::engine_release_info(e.config.engine);
       o.begin_object();
       o.key("name");
       o.value(model::launcher_name(r.engine));
       o.key("commit");
       o.value(r.commit);
       o.end();
     }),
     .shown = [](const Entry& e) { return e.config.engine != model::EngineRelease::None; }},
    {.key = "arch",
     .type = T::arch,
     .description = "the architecture it was checked for",
     .json =
         json_fns<Entry>([](auto& o, const Entry& e) { o.value(model::arch_name(e.result.arch)); }),
     .verdict = true,
     .head = "ARCH",
     .md_head = "arch",
     .cell =
         [](const Entry& e) {
           // An AMD result says which async-copy rule it was checked with.
           if (!model::is_amd(e.result.arch)) return model::arch_name(e.result.arch);
           return model::arch_name(e.result.arch) +
                  (model::hip_async_copy_in_effect(e.config) ? " (async on)" : " (async off)");
         },
     .csv = "arch",
     .csv_field = [](CsvCell<Entry>& c) { c.out += model::arch_name(c.row.result.arch); }},
    {.key = "hip_async_copy",
     .type = T::boolean,
     .description =
         "AMD targets (gfx942, gfx950) only: TRITON_HIP_USE_ASYNC_COPY as analysed — the "
         "config's \"hip_async_copy\" or --hip-async-copy, else Triton 3.6's default (false); "
         "absent for NVIDIA targets",
     .json = json_fns<Entry>(
         [](auto& o, const Entry& e) { o.value(model::hip_async_copy_in_effect(e.config)); }),
     .shown = [](const Entry& e) { return model::is_amd(e.result.arch); }},
    {.key = "tile",
     .type = T::tile,
     .description = "the CTA tile [M, N, K]",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       o.begin_array();
       o.value(e.config.m), o.value(e.config.n), o.value(e.config.k);
       o.end();
     }),
     .shown = [](const Entry& e) { return e.config.family != "triton_attention"; },
     .head = "TILE",
     .md_head = "tile",
     .cell =
         [](const Entry& e) {
           // A triton_attention config has no tile: its blocks are the launches' constexprs.
           if (e.config.family == "triton_attention") return std::string("-");
           return tile_text(e.config.m, e.config.n, e.config.k);
         },
     .csv = "tile",
     .csv_field =
         [](CsvCell<Entry>& c) {
           if (c.row.config.family == "triton_attention") return;
           num(c.out, c.row.config.m);
           c.out += 'x';
           num(c.out, c.row.config.n);
           c.out += 'x';
           num(c.out, c.row.config.k);
         }},
    {.key = "fits",
     .type = T::boolean,
     .description = "true when it fits at `stages`",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.fits); }),
     .verdict = true},
    {.key = "status",
     .type = T::status,
     .description = "fits, does_not_fit or invalid",
     .json = json_fns<Entry>(
         [](auto& o, const Entry& e) { o.value(model::status_name(e.result.status)); }),
     .verdict = true,
     .head = "VERDICT",
     .md_head = "verdict",
     .cell = [](const Entry& e) { return verdict_text(e.result.status); },
     .csv = "status",
     .csv_field = [](CsvCell<Entry>& c) { c.out += model::status_name(c.row.result.status); }},
    {.key = "stages",
     .type = T::integer,
     .description = "the pipeline stages built (the builder's pick when auto)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.stages); }),
     .verdict = true,
     .head = "STAGES",
     .md_head = "stages",
     .align = A::right,
     .cell = [](const Entry& e) { return stages_cell(e.result); },
     .csv = "stages",
     .csv_field = [](CsvCell<Entry>& c) { num(c.out, c.row.result.stages); }},
    {.key = "auto_stages",
     .type = T::boolean,
     .description = "true when the stage count is the builder's pick",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.auto_stages); }),
     .verdict = true,
     .csv = "auto_stages",
     .csv_field = [](CsvCell<Entry>& c) { c.out += c.row.result.auto_stages ? "true" : "false"; }},
    {.key = "max_stages",
     .type = T::count,
     .description = "the largest stage count that fits (0: none)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.max_stages); }),
     .verdict = true,
     .head = "MAX",
     .md_head = "max",
     .align = A::right,
     .cell = [](const Entry& e) { return std::to_string(e.result.max_stages); },
     .csv = "max_stages",
     .csv_field = [](CsvCell<Entry>& c) { num(c.out, c.row.result.max_stages); }},
    {.key = "max_stages_smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "the shared memory at max_stages",
     .json =
         json_fns<Entry>([](auto& o, const Entry& e) { opt_value(o, e.result.max_stages_smem); }),
     .verdict = true,
     .csv = "max_stages_smem_bytes",
     .csv_field = [](CsvCell<Entry>& c) { opt_num(c.out, c.row.result.max_stages_smem); }},
    {.key = "smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "the dynamic shared memory the kernel requests at `stages`",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { opt_value(o, e.result.smem_bytes); }),
     .verdict = true,
     .head = "SMEM / LIMIT (B)",
     .md_head = "smem / limit (B)",
     .align = A::right,
     .cell =
         [](const Entry& e) {
           const model::Result& r = e.result;
           return r.smem_bytes ? fmt::format("{} / {}", *r.smem_bytes, r.limit_bytes)
                               : fmt::format("- / {}", r.limit_bytes);
         },
     .csv = "smem_bytes",
     .csv_field = [](CsvCell<Entry>& c) { opt_num(c.out, c.row.result.smem_bytes); }},
    {.key = "limit_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the shared memory a block may have on the target (its opt-in limit)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.limit_bytes); }),
     .verdict = true,
     .csv = "limit_bytes",
     .csv_field = [](CsvCell<Entry>& c) { num(c.out, c.row.result.limit_bytes); }},
    {.key = "headroom_bytes",
     .type = T::integer,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "limit_bytes - smem_bytes (negative when over)",
     .json =
         json_fns<Entry>([](auto& o, const Entry& e) { opt_value(o, e.result.headroom_bytes); }),
     .verdict = true,
     .head = "HEADROOM",
     .md_head = "headroom",
     .align = A::right,
     .cell =
         [](const Entry& e) {
           return e.result.headroom_bytes ? std::to_string(*e.result.headroom_bytes) : "-";
         },
     .csv = "headroom_bytes",
     .csv_field = [](CsvCell<Entry>& c) { opt_num(c.out, c.row.result.headroom_bytes); }},
    {.key = "ctas_per_sm",
     .type = T::count,
     .description = "the blocks of this kernel an SM holds at once by shared memory",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.ctas_per_sm); }),
     .verdict = true,
     .head = "CTAs/SM",
     .md_head = "CTAs/SM",
     .align = A::right,
     .cell =
         [](const Entry& e) { return e.result.fits ? std::to_string(e.result.ctas_per_sm) : "-"; },
     .csv = "ctas_per_sm",
     .csv_field = [](CsvCell<Entry>& c) { num(c.out, c.row.result.ctas_per_sm); }},
    {.key = "breakdown",
     .type = T::breakdown,
     .unit = Unit::bytes,
     .description = "the bytes of each non-zero component ({} when not computed)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       if (e.result.breakdown)
         emit::breakdown(o, *e.result.breakdown);
       else
         o.begin_object(), o.end();
     })},
    {.key = "epilogue_smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "sizeof(CollectiveEpilogue::SharedStorage)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { opt_value(o, e.result.epilogue_smem); }),
     .csv = "epilogue_smem",
     .csv_field = [](CsvCell<Entry>& c) { opt_num(c.out, c.row.result.epilogue_smem); }},
    {.key = "mainloop_smem_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .nullable = true,
     .description = "sizeof(CollectiveMainloop::SharedStorage)",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { opt_value(o, e.result.mainloop_smem); }),
     .csv = "mainloop_smem",
     .csv_field = [](CsvCell<Entry>& c) { opt_num(c.out, c.row.result.mainloop_smem); }},
    {.key = "target",
     .type = T::target,
     .description = "where the limits came from, and the limits",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { emit::target(o, e.target); }),
     .csv = "target",
     .csv_field =
         [](CsvCell<Entry>& c) {
           if (c.row.target.source == analysis::Target::Source::device) {
             c.out += "device ";
             num(c.out, c.row.target.device);
           } else {
             c.out += "builtin";
           }
         }},
    {.key = "notes",
     .type = T::texts,
     .description = "the diagnostics' sentences, in order",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       o.begin_array();
       for (const model::Diagnostic& d : e.result.diagnostics) o.value(message(d));
       o.end();
     })},
    {.key = "diagnostics",
     .type = T::diagnostics,
     .description = "the typed diagnostics",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       o.begin_array();
       for (const model::Diagnostic& d : e.result.diagnostics) diagnostic_object(o, d);
       o.end();
     })},
    {.key = "launches",
     .type = T::launches,
     .description =
         "triton_attention: every kernel launch of the op as the engine's launcher makes it — "
         "stage, kernel, constexprs, num_warps, num_stages, smem_bytes (null when it does not "
         "compile), fits; the verdict is the worst; absent for other families",
     .json = json_fns<Entry>([](auto& o, const Entry& e) {
       o.begin_array();
       for (const model::LaunchSummary& l : e.result.launches) {
         o.begin_object();
         o.key("stage"), o.value(l.stage);
         o.key("kernel"), o.value(l.kernel);
         o.key("constexprs");
         o.begin_object();
         for (const auto& [n, v] : l.constexprs) {
           o.key(n);
           if (static_cast<double>(static_cast<long long>(v)) == v)
             o.value(static_cast<long long>(v));
           else
             o.value(nlohmann::ordered_json(v));
         }
         o.end();
         o.key("num_warps"), o.value(static_cast<long long>(l.num_warps));
         o.key("num_stages"), o.value(static_cast<long long>(l.num_stages));
         o.key("smem_bytes"), opt_value(o, l.smem_bytes);
         o.key("fits"), o.value(l.fits);
         o.key("invalid"), o.value(l.invalid);
         o.key("stages_matter"), o.value(l.stages_matter);
         o.end();
       }
       o.end();
     }),
     .shown = [](const Entry& e) { return !e.result.launches.empty(); }},
    {.key = "engine_refuses",
     .type = T::boolean,
     .description =
         "triton_attention: the engine refuses the configuration before any kernel runs (vLLM: "
         "FP8 KV cache below sm_89, a page size that is not a multiple of 16, ...), whatever "
         "`status` says of shared memory; absent for other families",
     .json = json_fns<Entry>([](auto& o, const Entry& e) { o.value(e.result.engine_refuses); }),
     .shown = [](const Entry& e) { return e.result.family == "triton_attention"; }},
    {.key = "config",
     .description = "the config as evaluated (its JSON)",
     .csv = "config",
     .csv_field =
         [](CsvCell<Entry>& c) {
           if (c.quoted)
             c.out += c.config;
           else
             append_csv_field(c.out, c.config);
         }},
};

const Column<SweepRow> kSweepColumns[] = {
    {.key = "alternatives",
     .type = T::object,
     .description = "the value each varying field of the space took",
     .json = json_fns<SweepRow>([](auto& o, const SweepRow& s) {
       o.begin_object();
       for (std::size_t a = 0; a < s.space.axes().size(); ++a) {
         o.key(s.space.axes()[a].field);
         o.raw(s.space.axes()[a].shown[s.choice[a]]);
       }
       o.end();
     })},
    {.key = "config",
     .type = T::config,
     .description = "the concrete config of this candidate",
     .json = json_fns<SweepRow>(
         [](auto& o, const SweepRow& s) { o.raw(io::config_json(s.entry.config)); })},
};

}  // namespace

std::span<const ResultColumn> result_columns() { return kResultColumns; }
std::span<const Column<SweepRow>> sweep_columns() { return kSweepColumns; }

std::string matrix_cell(const model::Result& r) {
  if (r.status == model::Status::Invalid) return "INVALID";
  return fmt::format("{} ({})", verdict_text(r.status), r.stages);
}

std::string matrix_cell(const Entry& e) {
  if (!model::is_amd(e.result.arch)) return matrix_cell(e.result);
  // An AMD cell says which async-copy rule it was checked with.
  const std::string_view async = model::hip_async_copy_in_effect(e.config) ? "on" : "off";
  if (e.result.status == model::Status::Invalid) return fmt::format("INVALID (async {})", async);
  return fmt::format("{} ({}, async {})", verdict_text(e.result.status), e.result.stages, async);
}

std::vector<std::string> result_cells(const Entry& e, std::span<const std::string_view> keys) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const std::string_view k : keys) out.push_back(find_column(result_columns(), k)->cell(e));
  return out;
}

}  // namespace tilefit::report
