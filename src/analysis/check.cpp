#include "tilefit/analysis/check.hpp"

#include <utility>

namespace tilefit::analysis {

std::string problem_text(const Problem& p) {
  const io::ConfigError& w = p.where;
  if (w.file.empty() && w.index < 0 && w.field.empty()) return w.message;
  return io::format_error(w);
}

Tally tally(const CheckRun& run) {
  Tally t;
  t.configs = run.entries.size();
  for (const Entry& e : run.entries) {
    switch (e.result.status) {
      case model::Status::Fits: ++t.fits; break;
      case model::Status::DoesNotFit: ++t.does_not_fit; break;
      case model::Status::Invalid: ++t.invalid; break;
    }
  }
  t.errors = run.problems.size();
  return t;
}

void analyse(const io::LoadedConfig& lc, TargetResolver& resolver, model::Detail detail,
             CheckRun& run) {
  Resolution res = resolver.resolve(lc.config, lc.arch_given);
  const std::string& name = lc.config.name;
  switch (res.kind) {
    case Resolution::Kind::input_error:
      if (res.file_level) {
        // Once per file (every entry of a tuned table has the same device_name).
        for (const Problem& p : run.problems)
          if (p.where.file == lc.file && p.where.index < 0 && p.where.message == res.message) return;
        run.problems.push_back({Problem::Kind::input, {lc.file, -1, "", res.field, res.message}});
        return;
      }
      run.problems.push_back({Problem::Kind::input, {lc.file, lc.index, name, res.field, res.message}});
      return;
    case Resolution::Kind::device_error:
      run.problems.push_back({Problem::Kind::device, {lc.file, lc.index, name, "", res.message}});
      return;
    case Resolution::Kind::mismatch:
    case Resolution::Kind::analyse:
      break;
  }
  Entry e;
  e.file = lc.file;
  e.index = lc.index;
  e.target = std::move(res.target);
  e.config = std::move(res.config);
  if (res.kind == Resolution::Kind::mismatch) {
    e.result = model::not_evaluated(e.config, e.target.limits, std::move(*res.why));
  } else {
    e.result = model::evaluate(e.config, e.target.limits, detail);
    if (detail == model::Detail::full) {
      auto& d = e.result.diagnostics;
      d.insert(d.begin(), std::make_move_iterator(res.before.begin()),
               std::make_move_iterator(res.before.end()));
      for (model::Diagnostic& x : res.after) d.push_back(std::move(x));
    }
  }
  run.entries.push_back(std::move(e));
}

CheckRun check_files(const std::vector<std::string>& files, const TargetRequest& request,
                     const device::DeviceSource& devices, model::Detail detail) {
  io::LoadResult all;
  for (const std::string& file : files) {
    io::LoadResult lr = io::read_config_file(file);
    for (io::ConfigError& e : lr.errors) all.errors.push_back(std::move(e));
    for (io::LoadedConfig& c : lr.configs) all.configs.push_back(std::move(c));
  }
  return check_configs(std::move(all), request, devices, detail);
}

CheckRun check_configs(io::LoadResult loaded, const TargetRequest& request,
                       const device::DeviceSource& devices, model::Detail detail) {
  CheckRun run;
  run.mode = request.mode;
  // One resolver per architecture of a several-arch request; one otherwise.
  std::vector<TargetResolver> resolvers;
  if (request.mode == TargetRequest::Mode::arch && request.archs.size() > 1) {
    run.archs = request.archs;
    for (int sm : request.archs) resolvers.emplace_back(request.for_arch(sm), devices);
  } else {
    resolvers.emplace_back(request, devices);
    run.common_target = resolvers.front().common();
  }
  for (io::ConfigError& e : loaded.errors) run.problems.push_back({Problem::Kind::input, std::move(e)});
  if (const auto& failure = resolvers.front().device_failure()) {
    // Nothing can be analysed without the requested GPU: one device problem says why.
    run.problems.push_back({Problem::Kind::device, {"", -1, "", "", failure->message}});
    return run;
  }
  for (const io::LoadedConfig& lc : loaded.configs)
    for (TargetResolver& r : resolvers) analyse(lc, r, detail, run);
  return run;
}

}  // namespace tilefit::analysis
