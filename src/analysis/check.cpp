#include "tilefit/analysis/check.hpp"

#include <algorithm>
#include <utility>

#include "io/text_checks.hpp"
#include "tilefit/io/folder.hpp"
#include "tilefit/model/engine_tables.hpp"

namespace tilefit::analysis {
namespace {

/// Keeps a whole run (check_configs).
class Collect final : public CheckSink {
 public:
  explicit Collect(CheckRun& run) : run_(run) {}
  void entry(Entry&& e) override { run_.entries.push_back(std::move(e)); }
  void problem(Problem&& p) override { run_.problems.push_back(std::move(p)); }

 private:
  CheckRun& run_;
};

/// What a folder walk did not read, as one note ("3 files that are not JSON (no .json name), 1
/// path to a file or folder read already"), "" when it read everything.
std::string folder_note(const io::FolderCounts& n) {
  std::string out;
  auto part = [&out](std::size_t count, const char* one, const char* many, const char* what) {
    if (count == 0) return;
    out +=
        (out.empty() ? "" : ", ") + std::to_string(count) + " " + (count == 1 ? one : many) + what;
  };
  part(n.not_json, "file that is", "files that are", " not JSON (no .json name)");
  part(n.not_regular, "entry that is", "entries that are", " not a regular file");
  part(n.seen_before, "path that leads", "paths that lead", " to a file or folder read already");
  return out;
}

}  // namespace

std::string problem_text(const Problem& p) {
  const io::ConfigError& w = p.where;
  if (w.file.empty() && w.index < 0 && w.field.empty()) return w.message;
  return io::format_error(w);
}

void Tally::count(const Entry& e) {
  ++configs;
  switch (e.result.status) {
    case model::Status::Fits:
      ++fits;
      break;
    case model::Status::DoesNotFit:
      ++does_not_fit;
      break;
    case model::Status::Invalid:
      ++invalid;
      break;
  }
}

Tally tally(const CheckRun& run) {
  Tally t;
  for (const Entry& e : run.entries) t.count(e);
  t.errors = run.problems.size();
  return t;
}

CheckStream::CheckStream(const TargetRequest& request, const device::DeviceSource& devices,
                         model::Detail detail)
    : detail_(detail) {
  head_.mode = request.mode;
  // One resolver per architecture of a several-arch request; one otherwise.
  if (request.mode == TargetRequest::Mode::arch && request.archs.size() > 1) {
    head_.archs = request.archs;
    for (int sm : request.archs) resolvers_.emplace_back(request.for_arch(sm), devices);
  } else {
    resolvers_.emplace_back(request, devices);
    head_.common_target = resolvers_.front().common();
  }
}

CheckStream::~CheckStream() = default;

void CheckStream::report(Problem&& p, CheckSink& sink) {
  ++tally_.errors;
  sink.problem(std::move(p));
}

void CheckStream::add(io::LoadResult&& loaded, CheckSink& sink) {
  for (io::ConfigError& e : loaded.errors) report({Problem::Kind::input, std::move(e)}, sink);
  // Nothing can be analysed without the requested GPU: finish() says why, once.
  if (resolvers_.front().device_failure()) return;
  for (const io::LoadedConfig& lc : loaded.configs) {
    if (sink.stopped()) return;
    for (TargetResolver& r : resolvers_) analyse(lc, r, sink);
  }
}

void CheckStream::add_file(const std::string& path, CheckSink& sink) {
  // Each config analysed as soon as it is read: memory stays at one config, whatever the file.
  const bool analyse_configs = !resolvers_.front().device_failure();
  std::vector<io::ConfigError> errors =
      io::stream(io::Source::file(path), [&](io::LoadedConfig&& lc) {
        if (!analyse_configs || sink.stopped()) return;
        for (TargetResolver& r : resolvers_) analyse(lc, r, sink);
      });
  for (io::ConfigError& e : errors) report({Problem::Kind::input, std::move(e)}, sink);
}

std::size_t CheckStream::add_path(const std::string& path, CheckSink& sink,
                                  const std::function<void(std::string)>& note) {
  auto say = [&note](std::string line) {
    if (note) note(std::move(line));
  };
  if (path == "-" || !io::is_folder(path)) {
    if (std::string why = io::not_triton_table(path); !why.empty() && path != "-") {
      say(io::detail::printable(path) + ": skipped: " + why);
      return 1;
    }
    add_file(path, sink);
    return 0;
  }
  std::size_t skipped_here = 0;
  const io::FolderCounts counts = io::walk_folder(path, [&](io::FolderEntry&& f) {
    if (sink.stopped()) return;
    switch (f.kind) {
      case io::FolderEntry::Kind::json:
        add_file(f.path, sink);
        break;
      case io::FolderEntry::Kind::skipped:
        ++skipped_here;
        say(io::detail::printable(f.path) + ": skipped: " + f.message);
        break;
      case io::FolderEntry::Kind::error: {
        io::LoadResult failed;
        failed.errors.push_back({io::detail::printable(f.path), -1, "", "", f.message});
        add(std::move(failed), sink);
        break;
      }
    }
  });
  if (std::string line = folder_note(counts); !line.empty())
    say(io::detail::printable(path) + ": skipped " + line);
  return counts.skipped_files(skipped_here);
}

Tally CheckStream::finish(CheckSink& sink) {
  if (const auto& failure = resolvers_.front().device_failure())
    report({Problem::Kind::device, {"", -1, "", "", failure->message}}, sink);
  return tally_;
}

void CheckStream::analyse(const io::LoadedConfig& lc, TargetResolver& resolver, CheckSink& sink) {
  Resolution res = resolver.resolve(lc.config, lc.arch_given);
  const std::string& name = lc.config.name;
  // A problem that is the same for every config of the file: reported once, for the file.
  auto once_per_file = [&](Problem::Kind kind, std::string message) {
    const auto key = std::make_pair(lc.file, message);
    if (std::find(file_problems_.begin(), file_problems_.end(), key) != file_problems_.end())
      return;
    file_problems_.push_back(key);
    report({kind, {lc.file, -1, "", res.field, std::move(message)}}, sink);
  };
  switch (res.kind) {
    case Resolution::Kind::input_error:
      if (res.file_level)
        once_per_file(Problem::Kind::input, res.message);
      else
        report({Problem::Kind::input, {lc.file, lc.index, name, res.field, res.message}}, sink);
      return;
    case Resolution::Kind::device_error:
      if (res.file_level)
        once_per_file(Problem::Kind::device, res.message);
      else
        report({Problem::Kind::device, {lc.file, lc.index, name, "", res.message}}, sink);
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
    e.result = model::evaluate(e.config, e.target.limits, detail_);
    if (detail_ == model::Detail::full) {
      auto& d = e.result.diagnostics;
      d.insert(d.begin(), std::make_move_iterator(res.before.begin()),
               std::make_move_iterator(res.before.end()));
      for (model::Diagnostic& x : res.after) d.push_back(std::move(x));
      // A tuned table its engine never loads: the warning on each of its results.
      if (lc.from.origin == io::Provenance::Origin::tuned_entry) {
        if (lc.file != lint_file_ || e.config.engine != lint_release_) {
          lint_file_ = lc.file;
          lint_release_ = e.config.engine;
          lint_ = model::lint_table_name(lc.file, e.config.engine);
        }
        if (lint_) d.push_back(*lint_);
      }
    }
  }
  tally_.count(e);
  sink.entry(std::move(e));
}

CheckRun check_configs(io::LoadResult loaded, const TargetRequest& request,
                       const device::DeviceSource& devices, model::Detail detail) {
  CheckStream stream(request, devices, detail);
  CheckRun run = stream.head();
  Collect sink(run);
  stream.add(std::move(loaded), sink);
  stream.finish(sink);
  return run;
}

CheckRun check_files(const std::vector<std::string>& files, const TargetRequest& request,
                     const device::DeviceSource& devices, model::Detail detail) {
  CheckStream stream(request, devices, detail);
  CheckRun run = stream.head();
  Collect sink(run);
  for (const std::string& file : files) stream.add_file(file, sink);
  stream.finish(sink);
  return run;
}

}  // namespace tilefit::analysis
