#include "tilefit/analysis/sweep.hpp"

#include <algorithm>
#include <queue>
#include <set>

namespace tilefit::analysis {
namespace {

/// A listed candidate held for sorting: where it is and its key.
struct Held {
  std::uint32_t space = 0;
  std::uint64_t candidate = 0;
  std::uint64_t order = 0;  ///< sweep order, the tie-break
  double key = 0;           ///< larger is better
};

struct Better {
  bool operator()(const Held& a, const Held& b) const {
    if (a.key != b.key) return a.key > b.key;
    return a.order < b.order;
  }
};

/// The sort key of a candidate's entries (the best over its architectures), larger first.
double key_of(SortKey k, bool reverse, std::span<const Entry> entries) {
  double best = -1e300;
  for (const Entry& e : entries) {
    const model::Result& r = e.result;
    double v = 0;
    switch (k) {
      case SortKey::none:
        v = 0;
        break;
      case SortKey::stages:
        v = r.stages;
        break;
      case SortKey::bytes:
        v = r.smem_bytes ? -static_cast<double>(*r.smem_bytes) : -1e300;
        break;
      case SortKey::headroom:
        v = r.headroom_bytes ? -static_cast<double>(*r.headroom_bytes) : -1e300;
        break;
      case SortKey::tile:
        v = static_cast<double>(e.config.m) * static_cast<double>(e.config.n) *
            static_cast<double>(e.config.k);
        break;
    }
    best = std::max(best, reverse ? -v : v);
  }
  return best;
}

/// Evaluates candidates of spaces on every target of a request.
class Evaluator {
 public:
  Evaluator(const SweepOptions& o, const device::DeviceSource& devices,
            std::vector<Problem>& problems)
      : options_(o), problems_(problems) {
    if (o.request.mode == TargetRequest::Mode::arch && o.request.archs.size() > 1)
      for (int sm : o.request.archs) resolvers_.emplace_back(o.request.for_arch(sm), devices);
    else
      resolvers_.emplace_back(o.request, devices);
    entries_.resize(resolvers_.size());
    cached_.resize(resolvers_.size());
  }

  /// Evaluates candidate `i` of `s` at `detail`; false when its target cannot be resolved.
  bool evaluate(const io::ConfigSpace& s, std::uint64_t i, model::Detail detail) {
    s.candidate(i, config_);
    const bool explain = detail == model::Detail::full;
    for (std::size_t a = 0; a < resolvers_.size(); ++a) {
      Entry& e = entries_[a];
      if (e.file != s.file) e.file = s.file;
      e.index = s.index;
      // A resolution depends only on the config's arch and whether it gave one: the verdict
      // path resolves once per (resolver, arch) and reuses it.
      Cached& c = cached_[a];
      if (explain || !c.valid || c.arch != config_.arch || c.arch_given != s.arch_given) {
        Resolution res = resolvers_[a].resolve(config_, s.arch_given, explain);
        if (res.kind == Resolution::Kind::input_error ||
            res.kind == Resolution::Kind::device_error) {
          problem(s, res);
          return false;
        }
        c = {true, config_.arch, s.arch_given, res.config.arch, res.kind, res.target, {}};
        if (res.why) c.why = *res.why;
        if (explain) {
          before_ = std::move(res.before);
          after_ = std::move(res.after);
        }
      }
      e.target = c.target;
      e.config = config_;
      e.config.arch = c.resolved_arch;
      e.config.engine = resolvers_[a].request().engine_for(config_.engine);  // --engine
      {
        // --hip-async-copy / the hip_async_copy field (a sweep axis: per candidate).
        Resolution bad;
        if (!resolvers_[a].apply_hip_async_copy(e.config, bad.field, bad.message)) {
          bad.kind = Resolution::Kind::input_error;
          problem(s, bad);
          return false;
        }
      }
      if (c.kind == Resolution::Kind::mismatch) {
        e.result = model::not_evaluated(e.config, e.target.limits, c.why);
      } else {
        e.result = model::evaluate(e.config, e.target.limits, detail);
        if (explain) {
          auto& d = e.result.diagnostics;
          d.insert(d.begin(), before_.begin(), before_.end());
          d.insert(d.end(), after_.begin(), after_.end());
        }
      }
    }
    return true;
  }

  std::span<const Entry> entries() const { return entries_; }

  bool listed() const {
    if (options_.all) return true;
    for (const Entry& e : entries_)
      if (e.result.fits) return true;
    return false;
  }

 private:
  void problem(const io::ConfigSpace& s, const Resolution& res) {
    const std::string key = s.file + "\n" + std::to_string(s.index) + "\n" + res.message;
    if (!reported_.insert(key).second) return;
    problems_.push_back(
        {res.kind == Resolution::Kind::device_error ? Problem::Kind::device : Problem::Kind::input,
         {s.file, s.index, s.name, res.field, res.message}});
  }

  const SweepOptions& options_;
  std::vector<Problem>& problems_;
  /// The last resolution of each resolver, for configs of the same arch.
  struct Cached {
    bool valid = false;
    int arch = 0;
    bool arch_given = false;
    int resolved_arch = 0;
    Resolution::Kind kind = Resolution::Kind::analyse;
    Target target;
    model::Diagnostic why;
  };
  std::vector<TargetResolver> resolvers_;
  std::vector<Cached> cached_;
  std::vector<model::Diagnostic> before_, after_;
  std::vector<Entry> entries_;
  model::KernelConfig config_;
  std::set<std::string> reported_;
};

}  // namespace

SweepTally run_sweep(const std::vector<io::ConfigSpace>& spaces, const SweepOptions& options,
                     const device::DeviceSource& devices, SweepSink& sink,
                     std::vector<Problem>& problems) {
  SweepTally t;
  Evaluator ev(options, devices, problems);
  const bool sorting = options.sort != SortKey::none;
  std::vector<Held> held;                                     // sorted, all listed ones
  std::priority_queue<Held, std::vector<Held>, Better> best;  // sorted with top: the best `top`
  std::uint64_t order = 0;
  std::uint64_t total = 0, done = 0;
  for (const io::ConfigSpace& s : spaces) total += s.size();

  for (std::uint32_t si = 0; si < spaces.size(); ++si) {
    const io::ConfigSpace& s = spaces[si];
    for (std::uint64_t i = 0; i < s.size(); ++i, ++done) {
      if (done % SweepSink::kProgressEvery == 0 && done > 0) sink.progress(done, total);
      if (sink.stopped()) return t;
      if (!ev.evaluate(s, i, model::Detail::verdict)) {  // the space's target cannot be resolved
        done += s.size() - i;
        break;
      }
      for (const Entry& e : ev.entries()) {
        ++t.candidates;
        switch (e.result.status) {
          case model::Status::Fits:
            ++t.fits;
            break;
          case model::Status::DoesNotFit:
            ++t.does_not_fit;
            break;
          case model::Status::Invalid:
            ++t.invalid;
            break;
        }
      }
      if (!ev.listed()) continue;
      ++t.listed;
      if (!sorting) {
        if (options.detail == model::Detail::full) ev.evaluate(s, i, model::Detail::full);
        sink.result(s, i, ev.entries());
        continue;
      }
      const Held h{si, i, order++, key_of(options.sort, options.reverse, ev.entries())};
      if (options.top == 0) {
        held.push_back(h);
      } else {
        best.push(h);
        if (best.size() > options.top) best.pop();
      }
    }
  }
  sink.progress(total, total);
  if (!sorting) return t;
  if (options.top > 0) {
    while (!best.empty()) {
      held.push_back(best.top());
      best.pop();
    }
  }
  std::stable_sort(held.begin(), held.end(), Better{});
  for (const Held& h : held) {
    if (sink.stopped()) break;
    ev.evaluate(spaces[h.space], h.candidate, options.detail);
    sink.result(spaces[h.space], h.candidate, ev.entries());
  }
  t.listed = held.size();
  return t;
}

}  // namespace tilefit::analysis
