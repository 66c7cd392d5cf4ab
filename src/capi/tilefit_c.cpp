// The C ABI (include/tilefit/tilefit.h): a thin layer over the same libraries as the C++ API and
// the CLI — the config reader (io), the model, the target rules and `check` (analysis), suggest,
// and the diagnostics' sentences. The JSON is the report layer's (report/api_json.hpp: the CLI's
// column models, so the C ABI, Python and `tilefit check --format json` agree key for key); no
// key is spelt here and nothing in this file decides a byte or a verdict. Built into
// libtilefit.so with hidden visibility: only tilefit_* is exported.
#include "tilefit/tilefit.h"

#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/internal.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/device/device_source.hpp"
#include "io/text_checks.hpp"
#include "tilefit/io/load.hpp"
#include "report/api_json.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/model/engine_release.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/validate.hpp"
#include "tilefit/report/diagnostic_text.hpp"
#include "tilefit/tilefit.hpp"

struct tilefit_context {
  std::string error_message;
  std::string error_field;
  std::string out;
};

struct tilefit_target {
  tilefit::analysis::Target target;  ///< where the limits came from, and the limits
};

namespace {

using namespace tilefit;

constexpr const char* kLabel = "<config>";

int fail(tilefit_context* ctx, int code, std::string message, std::string field = {}) {
  ctx->error_message = std::move(message);
  ctx->error_field = std::move(field);
  return code;
}

// Every entry point: clears the error, maps exceptions to codes, never lets one escape.
template <class F>
int guarded(tilefit_context* ctx, F&& f) {
  if (!ctx) return TILEFIT_ERROR_INPUT;
  ctx->error_message.clear();
  ctx->error_field.clear();
  try {
    return f();
  } catch (const InputError& e) {
    return fail(ctx, TILEFIT_ERROR_INPUT, e.what(), e.field());
  } catch (const DeviceError& e) {
    return fail(ctx, TILEFIT_ERROR_DEVICE, e.what());
  } catch (const std::bad_alloc&) {
    return fail(ctx, TILEFIT_ERROR_INTERNAL, "internal error: out of memory");
  } catch (const std::exception& e) {
    return fail(
        ctx, TILEFIT_ERROR_INTERNAL,
        std::string("internal error: ") + e.what() + " (a bug in tilefit; please report it)");
  } catch (...) {
    return fail(ctx, TILEFIT_ERROR_INTERNAL,
                "internal error: unknown exception (a bug in tilefit; please report it)");
  }
}

// One result, as `tilefit check --format json` writes it (the verdict columns with
// TILEFIT_VERDICT): the config as evaluated, where it came from, its target.
void write_result(std::string& o, const model::KernelConfig& cfg, const analysis::Target& target,
                  model::Result&& r, int index, bool verdict) {
  analysis::Entry e{kLabel, index, cfg, target, std::move(r)};
  report::api::append_result(o, e, verdict ? report::Profile::verdict : report::Profile::full);
}

// A config that cannot be read, as the CLI's `errors` list it.
void write_error(std::string& o, io::ConfigError e) {
  report::api::append_error(o, {analysis::Problem::Kind::input, std::move(e)});
}

// Flags a function knows; any other bit is an input error (field "flags").
constexpr unsigned kVerdictOnly = TILEFIT_VERDICT;
constexpr unsigned kBatchFlags = TILEFIT_VERDICT | TILEFIT_COMPACT;

int bad_flags(tilefit_context* ctx, const char* function, unsigned flags, unsigned known) {
  if ((flags & ~known) == 0) return TILEFIT_OK;
  std::string allowed = "0, TILEFIT_VERDICT (1)";
  if (known & TILEFIT_COMPACT) allowed += ", TILEFIT_COMPACT (2)";
  return fail(ctx, TILEFIT_ERROR_INPUT,
              std::string("flags: ") + std::to_string(flags) + " has bits " + function +
                  " does not know (" + std::to_string(flags & ~known) + "); allowed: " + allowed +
                  ", or'ed",
              "flags");
}

model::Detail detail_of(unsigned flags) {
  return (flags & TILEFIT_VERDICT) ? model::Detail::verdict : model::Detail::full;
}

const char* nonnull(const char* s) { return s ? s : ""; }

/// Collects a streamed check's results and problems.
class Collect final : public analysis::CheckSink {
 public:
  explicit Collect(analysis::CheckRun& run) : run_(run) {}
  void entry(analysis::Entry&& e) override { run_.entries.push_back(std::move(e)); }
  void problem(analysis::Problem&& p) override { run_.problems.push_back(std::move(p)); }

 private:
  analysis::CheckRun& run_;
};

/// `tilefit check PATH...` for the C ABI: files and folders (every JSON file under a folder,
/// the rest skipped and counted, as the CLI walks them); "-" is refused (a library does not read
/// its host's standard input).
int check_paths(tilefit_context* ctx, const std::vector<std::string>& paths, const char* arch,
                unsigned flags, const char** out, const char* function) {
  if (int rc = bad_flags(ctx, function, flags, kVerdictOnly)) return rc;
  for (const std::string& p : paths)
    if (p == "-")
      return fail(ctx, TILEFIT_ERROR_INPUT,
                  "paths: \"-\" (standard input) is not read by the library; allowed: file and "
                  "folder names",
                  "paths");
  analysis::TargetRequest request;
  if (arch && *arch) {
    request.mode = analysis::TargetRequest::Mode::arch;
    request.archs = {api::builtin_model_limits(arch).sm};
  } else {
    request.mode = analysis::TargetRequest::Mode::builtin;
  }
  analysis::CheckStream stream(request, device::system_devices(), detail_of(flags));
  analysis::CheckRun run = stream.head();
  Collect sink(run);
  std::size_t skipped = 0;
  for (const std::string& path : paths) skipped += stream.add_path(path, sink);
  analysis::Tally tally = stream.finish(sink);
  tally.files_skipped = skipped;
  std::string& o = ctx->out;
  o.clear();
  report::api::append_check(
      o, run, tally, (flags & TILEFIT_VERDICT) ? report::Profile::verdict : report::Profile::full);
  *out = o.c_str();
  if (!run.problems.empty())
    return fail(ctx,
                run.problems.front().kind == analysis::Problem::Kind::device ? TILEFIT_ERROR_DEVICE
                                                                             : TILEFIT_ERROR_INPUT,
                analysis::problem_text(run.problems.front()), run.problems.front().where.field);
  return TILEFIT_OK;
}

}  // namespace

extern "C" {

int tilefit_abi_version(void) { return TILEFIT_ABI_VERSION; }

const char* tilefit_version(void) {
  static const std::string v(tilefit::version());
  return v.c_str();
}

tilefit_context* tilefit_context_new(void) { return new (std::nothrow) tilefit_context(); }
void tilefit_context_free(tilefit_context* ctx) { delete ctx; }

const char* tilefit_error_message(const tilefit_context* ctx) {
  return ctx ? ctx->error_message.c_str() : "";
}
const char* tilefit_error_field(const tilefit_context* ctx) {
  return ctx ? ctx->error_field.c_str() : "";
}

int tilefit_target_builtin(tilefit_context* ctx, const char* arch, tilefit_target** out) {
  return guarded(ctx, [&] {
    if (!out) return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_target_builtin: out is NULL");
    *out = nullptr;
    const model::Limits& l = api::builtin_model_limits(nonnull(arch));
    *out = new tilefit_target{analysis::builtin_target(l.sm)};
    return TILEFIT_OK;
  });
}

int tilefit_target_device(tilefit_context* ctx, int device, tilefit_target** out) {
  return guarded(ctx, [&] {
    if (!out) return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_target_device: out is NULL");
    *out = nullptr;
    device_limits(device);  // throws DeviceError, with the library's advice
    const device::DeviceResult d = device::query_one(device);
    if (!d) throw DeviceError(d.error().message);
    *out = new tilefit_target{analysis::device_target(*d)};
    return TILEFIT_OK;
  });
}

int tilefit_target_json(tilefit_context* ctx, const tilefit_target* target, const char** out) {
  return guarded(ctx, [&] {
    if (!target || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_target_json: target or out is NULL");
    std::string& o = ctx->out;
    o.clear();
    report::api::append_target(o, target->target);
    *out = o.c_str();
    return TILEFIT_OK;
  });
}

void tilefit_target_free(tilefit_target* target) { delete target; }

int tilefit_analyze(tilefit_context* ctx, const char* config_json, const char* arch, unsigned flags,
                    const char** out) {
  return guarded(ctx, [&] {
    if (!config_json || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_analyze: config_json or out is NULL");
    *out = nullptr;
    if (int rc = bad_flags(ctx, "tilefit_analyze", flags, kVerdictOnly)) return rc;
    const model::KernelConfig cfg = api::read_model_config(config_json, nonnull(arch)).config;
    const analysis::Target target = analysis::builtin_target(cfg.arch);
    ctx->out.clear();
    write_result(ctx->out, cfg, target, model::evaluate(cfg, target.limits, detail_of(flags)), 0,
                 flags & TILEFIT_VERDICT);
    *out = ctx->out.c_str();
    return TILEFIT_OK;
  });
}

int tilefit_analyze_batch(tilefit_context* ctx, const char* configs_json,
                          const tilefit_target* target, unsigned flags, const char** out) {
  return guarded(ctx, [&] {
    if (!configs_json || !target || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT,
                  "tilefit_analyze_batch: configs_json, target or out is NULL");
    *out = nullptr;
    if (int rc = bad_flags(ctx, "tilefit_analyze_batch", flags, kBatchFlags)) return rc;
    std::string_view text(configs_json);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '[')
      return fail(ctx, TILEFIT_ERROR_INPUT,
                  std::string(kLabel) + ": expected a JSON array of configs");
    io::LoadResult loaded = io::load<io::LoadResult>(io::Source::text(text, kLabel));
    // A file-level error (not JSON, too many configs): the batch as a whole.
    for (const io::ConfigError& e : loaded.errors)
      if (e.index < 0) return fail(ctx, TILEFIT_ERROR_INPUT, io::format_error(e), e.field);
    const model::Detail detail = detail_of(flags);
    const bool compact = (flags & TILEFIT_COMPACT) && detail == model::Detail::verdict;
    std::string& o = ctx->out;
    o.clear();
    o.reserve(loaded.configs.size() * (compact                            ? 24
                                       : detail == model::Detail::verdict ? 260
                                                                          : 1500) +
              2);
    o += '[';
    std::size_t ci = 0, ei = 0;
    bool any = false;
    // Configs and errors come back in file order, each with its index: merge them.
    while (ci < loaded.configs.size() || ei < loaded.errors.size()) {
      const bool take_error =
          ei < loaded.errors.size() &&
          (ci >= loaded.configs.size() || loaded.errors[ei].index <= loaded.configs[ci].index);
      if (any) o += ',';
      any = true;
      if (take_error) {
        const int idx = loaded.errors[ei].index;
        write_error(o, loaded.errors[ei]);
        // Only the first error of a config is listed (its message is the CLI's first line).
        while (ei < loaded.errors.size() && loaded.errors[ei].index == idx) ++ei;
      } else {
        io::LoadedConfig& lc = loaded.configs[ci++];
        const model::Limits& limits = target->target.limits;
        lc.config.arch = limits.sm;
        if (std::string bad = api::hip_async_copy_error(lc.config); !bad.empty()) {
          write_error(o, lc.from.error(lc.config.name, "hip_async_copy", std::move(bad)));
          continue;
        }
        model::Result r = model::evaluate(lc.config, limits, detail);
        if (compact) {
          o += '[';
          o += static_cast<char>('0' + static_cast<int>(r.status));
          o += ',';
          o += r.smem_bytes ? std::to_string(*r.smem_bytes) : "null";
          o += ',';
          o += std::to_string(r.stages);
          o += ',';
          o += std::to_string(r.max_stages);
          o += ',';
          o += r.max_stages_smem ? std::to_string(*r.max_stages_smem) : "null";
          o += ']';
        } else {
          write_result(o, lc.config, target->target, std::move(r), lc.index,
                       detail == model::Detail::verdict);
        }
      }
    }
    o += ']';
    *out = o.c_str();
    return TILEFIT_OK;
  });
}

int tilefit_check_files(tilefit_context* ctx, const char* paths_json, const char* arch,
                        unsigned flags, const char** out) {
  return guarded(ctx, [&] {
    if (!paths_json || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_check_files: paths_json or out is NULL");
    *out = nullptr;
    std::vector<std::string> paths;
    const nlohmann::json doc =
        nlohmann::json::parse(paths_json, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_array())
      return fail(ctx, TILEFIT_ERROR_INPUT, "paths: expected a JSON array of file names", "paths");
    for (const nlohmann::json& p : doc) {
      if (!p.is_string())
        return fail(ctx, TILEFIT_ERROR_INPUT, "paths: expected a JSON array of file names",
                    "paths");
      paths.push_back(p.get<std::string>());
    }
    return check_paths(ctx, paths, arch, flags, out, "tilefit_check_files");
  });
}

int tilefit_check_paths(tilefit_context* ctx, const char* const* paths, size_t count,
                        const char* arch, unsigned flags, const char** out) {
  return guarded(ctx, [&] {
    if ((!paths && count) || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_check_paths: paths or out is NULL");
    *out = nullptr;
    std::vector<std::string> list;
    list.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      if (!paths[i])
        return fail(
            ctx, TILEFIT_ERROR_INPUT,
            "paths: path #" + std::to_string(i) + " is NULL; allowed: file and folder names",
            "paths");
      list.emplace_back(paths[i]);
    }
    return check_paths(ctx, list, arch, flags, out, "tilefit_check_paths");
  });
}

int tilefit_engine(tilefit_context* ctx, const char* engine, const char** out) {
  return guarded(ctx, [&] {
    if (!engine || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_engine: engine or out is NULL");
    *out = nullptr;
    const auto release = model::parse_engine_release(engine);
    if (!release)
      return fail(
          ctx, TILEFIT_ERROR_INPUT,
          "engine: \"" + io::detail::printable(engine) +
              "\" is not a modelled engine release; allowed: " + model::engine_release_choices(),
          "engine");
    ctx->out = model::engine_release_text(*release);
    *out = ctx->out.c_str();
    return TILEFIT_OK;
  });
}

int tilefit_analyze_grid(tilefit_context* ctx, const char* base_json, const tilefit_target* target,
                         size_t count, const long long* tile_m, const long long* tile_n,
                         const long long* tile_k, const long long* group_m, const int* num_warps,
                         const int* num_stages, signed char* status, long long* smem_bytes,
                         int* stages, int* max_stages, long long* max_stages_smem_bytes) {
  return guarded(ctx, [&] {
    if (!base_json || !target)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_analyze_grid: base_json or target is NULL");
    if (count && (!tile_m || !tile_n || !tile_k || !status))
      return fail(ctx, TILEFIT_ERROR_INPUT,
                  "tilefit_analyze_grid: tile_m, tile_n, tile_k or status is NULL");
    model::KernelConfig base =
        api::read_model_config(base_json, model::arch_name(target->target.limits.sm)).config;
    base.arch = target->target.limits.sm;
    if (std::string bad = api::hip_async_copy_error(base); !bad.empty())
      return fail(ctx, TILEFIT_ERROR_INPUT, std::string(kLabel) + ": " + bad, "hip_async_copy");
    model::KernelConfig c = base;
    for (size_t i = 0; i < count; ++i) {
      c.m = tile_m[i];
      c.n = tile_n[i];
      c.k = tile_k[i];
      c.group_m = group_m && group_m[i] >= 0 ? std::optional<long long>(group_m[i]) : base.group_m;
      c.num_warps = num_warps ? std::optional<int>(num_warps[i]) : base.num_warps;
      c.stages = num_stages ? std::optional<int>(num_stages[i]) : base.stages;
      const std::vector<model::ConfigIssue> issues = model::validate(c);
      if (!issues.empty()) {
        std::string id =
            "#";  // appended, not "#" + s: GCC 12's -Wrestrict false positive (bug 105651)
        id += std::to_string(i);
        io::ConfigError e{kLabel, static_cast<int>(i), id, issues.front().field,
                          issues.front().message};
        return fail(ctx, TILEFIT_ERROR_INPUT, io::format_error(e), issues.front().field);
      }
      const model::Result r = model::evaluate(c, target->target.limits, model::Detail::verdict);
      status[i] = static_cast<signed char>(r.status);
      if (smem_bytes) smem_bytes[i] = r.smem_bytes ? *r.smem_bytes : -1;
      if (stages) stages[i] = r.stages;
      if (max_stages) max_stages[i] = r.max_stages;
      if (max_stages_smem_bytes)
        max_stages_smem_bytes[i] = r.max_stages_smem ? *r.max_stages_smem : -1;
    }
    return TILEFIT_OK;
  });
}

int tilefit_suggest(tilefit_context* ctx, const char* config_json, const tilefit_target* target,
                    int max_suggestions, const char** out) {
  return guarded(ctx, [&] {
    if (!config_json || !target || !out)
      return fail(ctx, TILEFIT_ERROR_INPUT, "tilefit_suggest: config_json, target or out is NULL");
    *out = nullptr;
    if (max_suggestions <= 0)
      return fail(ctx, TILEFIT_ERROR_INPUT,
                  "max_suggestions: " + std::to_string(max_suggestions) +
                      " is not a number of suggestions; allowed: integers 1 or more",
                  "max_suggestions");
    const analysis::Target& t = target->target;
    model::KernelConfig cfg =
        api::read_model_config(config_json, model::arch_name(t.limits.sm)).config;
    cfg.arch = t.limits.sm;
    analysis::Entry e{kLabel, 0, cfg, t, model::evaluate(cfg, t.limits)};
    std::vector<analysis::Suggestion> found;
    if (analysis::wants_suggestions(e.result))
      found = analysis::suggest(cfg, t.limits, e.result, static_cast<std::size_t>(max_suggestions));
    std::string& o = ctx->out;
    o.clear();
    report::api::append_suggestions(o, e, found);
    *out = o.c_str();
    return TILEFIT_OK;
  });
}

}  // extern "C"
