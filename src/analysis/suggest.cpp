#include "tilefit/analysis/suggest.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "tilefit/io/config_writer.hpp"

namespace tilefit::analysis {
namespace {

using model::KernelConfig;

struct Move {
  KernelConfig config;
  std::vector<FieldChange> changes;
  int distance;
};

std::string stages_text(const std::optional<int>& s) { return s ? std::to_string(*s) : "auto"; }

std::string tile2(long long m, long long n) { return std::to_string(m) + "x" + std::to_string(n); }

/// The stage count the original needs (explicit, or the builder's pick) as the byte baseline.
model::Bytes baseline_bytes(const model::Result& r) {
  if (r.smem_bytes) return *r.smem_bytes;
  return r.limit_bytes;  // cannot be built: savings are counted from the limit
}

}  // namespace

bool wants_suggestions(const model::Result& r) {
  if (r.status == model::Status::DoesNotFit) return true;
  if (r.status != model::Status::Invalid) return false;
  for (const model::Diagnostic& d : r.diagnostics)
    if (d.code != model::Code::stages_below_minimum && d.severity == model::Severity::error)
      return false;
  for (const model::Diagnostic& d : r.diagnostics)
    if (d.code == model::Code::stages_below_minimum) return true;
  return false;
}

namespace {

/// The GEMM moves (every family but triton_attention) after fewer stages: swap_ab, a smaller
/// epilogue tile, the other schedule, a halved tile extent.
void generic_moves(const KernelConfig& cfg, const model::Result& original,
                   const std::function<void(KernelConfig, std::vector<FieldChange>, int)>& add) {
  // 2: swap_ab for TensorRT-LLM's MoE epilogues.
  if (cfg.epilogue.variant == model::EpilogueVariant::TrtllmDefault ||
      cfg.epilogue.variant == model::EpilogueVariant::Finalize) {
    KernelConfig c = cfg;
    c.swap_ab = !cfg.swap_ab;
    c.cd_row_major = !c.swap_ab;
    add(c, {{"swap_ab", cfg.swap_ab ? "true" : "false", c.swap_ab ? "true" : "false"}}, 2);
  }
  // 2: a smaller epilogue tile (an explicit tile needs an explicit TMA variant on SM100).
  if (original.epilogue_tile) {
    const auto [em, en] = *original.epilogue_tile;
    for (const auto& [m, n] : {std::pair{em, en / 2}, std::pair{em / 2, en}}) {
      if (m < 8 || n < 8) continue;
      KernelConfig c = cfg;
      c.epilogue.tile = std::array<long long, 2>{m, n};
      if (c.epilogue.variant == model::EpilogueVariant::Auto)
        c.epilogue.variant = model::EpilogueVariant::Tma;
      add(c, {{"epilogue.tile", tile2(em, en), tile2(m, n)}}, 2);
    }
  }
  // 2: the other schedule.
  const auto swap_schedule = [&](model::Schedule from, model::Schedule to) {
    KernelConfig c = cfg;
    c.schedule = to;
    add(c,
        {{"schedule", std::string(model::schedule_name(from)),
          std::string(model::schedule_name(to))}},
        2);
  };
  switch (cfg.schedule) {
    case model::Schedule::Cooperative:
      swap_schedule(cfg.schedule, model::Schedule::Pingpong);
      break;
    case model::Schedule::Pingpong:
      swap_schedule(cfg.schedule, model::Schedule::Cooperative);
      break;
    case model::Schedule::Sm1:
      swap_schedule(cfg.schedule, model::Schedule::Sm2);
      break;
    case model::Schedule::Sm2:
      swap_schedule(cfg.schedule, model::Schedule::Sm1);
      break;
    case model::Schedule::Auto:
      swap_schedule(cfg.schedule, cfg.arch >= 100 && cfg.arch < 120 ? model::Schedule::Sm1
                                                                    : model::Schedule::Pingpong);
      break;
    default:
      break;
  }
  // 3, 4: a halved tile extent.
  for (const auto& [field, dist] :
       {std::pair{"tile.k", 3}, std::pair{"tile.n", 4}, std::pair{"tile.m", 4}}) {
    KernelConfig c = cfg;
    long long& x = field[5] == 'k' ? c.k : field[5] == 'n' ? c.n : c.m;
    if (x < 16 || x % 2 != 0) continue;
    const long long before = x;
    x /= 2;
    add(c, {{field, std::to_string(before), std::to_string(x)}}, dist);
  }
}

/// Evaluates the moves: each that fits as it is, or with its own largest stage count.
std::vector<Suggestion> finish(const KernelConfig& cfg, const model::Limits& limits,
                               const model::Result& original, std::size_t max,
                               std::vector<Move>& moves, bool attention) {
  const std::string stages_field = attention ? "num_stages" : "stages";
  std::vector<Suggestion> out;
  std::set<std::string> seen{io::config_json(cfg)};
  for (Move& mv : moves) {
    model::Result r = model::evaluate(mv.config, limits, model::Detail::verdict);
    // An attention knob that does not change shared memory is no move (a lower num_stages after
    // it would be the num_stages move, already tried).
    if (attention && r.smem_bytes && original.smem_bytes && *r.smem_bytes == *original.smem_bytes)
      continue;
    if (r.status != model::Status::Fits && r.max_stages > 0 &&
        mv.changes.front().field != stages_field) {
      KernelConfig c = mv.config;
      c.stages = r.max_stages;
      model::Result again = model::evaluate(c, limits, model::Detail::verdict);
      if (again.fits) {
        mv.changes.push_back(
            {stages_field, stages_text(mv.config.stages), std::to_string(r.max_stages)});
        mv.config = std::move(c);
        mv.distance += 1;
        r = std::move(again);
      }
    }
    if (!r.fits) continue;
    if (!seen.insert(io::config_json(mv.config)).second) continue;
    Suggestion s;
    s.config = std::move(mv.config);
    s.changes = std::move(mv.changes);
    s.distance = mv.distance;
    s.saved_bytes = baseline_bytes(original) - *r.smem_bytes;
    s.result = std::move(r);
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const Suggestion& a, const Suggestion& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.result.stages != b.result.stages) return a.result.stages > b.result.stages;
    return *a.result.smem_bytes > *b.result.smem_bytes;
  });
  if (out.size() > max) out.resize(max);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].config.name = cfg.name + "~" + std::to_string(i + 1);
    out[i].result = model::evaluate(out[i].config, limits);  // full detail for the report
  }
  return out;
}

}  // namespace

namespace {

/// The moves of a triton_attention launch (issue 19), ranked by what they cost the kernel:
///   1  num_stages of the primary launch lowered to the largest count that fits — the loads
///      overlap less, nothing else changes (only where num_stages changes shared memory: the
///      report says so otherwise, attn_stages_dont_matter);
///   2  BLOCK_N halved — keys per iteration: twice the loop iterations over the same keys (the
///      lever of the MLA decode case: each iteration's K/V tile halves);
///   3  BLOCK_H / BLOCK_M / TILE_SIZE / BLOCK_Q halved — fewer query heads or rows per
///      program: twice the programs, each re-reading its K/V;
///   4  num_kv_splits halved — fewer splits: less parallelism over the sequence.
/// Blocks are halved down to 16, tl.dot's minimum (the kernel model rejects what cannot
/// compile). A knob the launches do not have is not tried.
void attention_moves(const KernelConfig& cfg, const model::Result& original,
                     const std::function<void(KernelConfig, std::vector<FieldChange>, int)>& add) {
  if (original.max_stages > 0 && !original.launches.empty() &&
      original.launches.front().stages_matter &&
      original.max_stages != original.launches.front().num_stages) {
    KernelConfig c = cfg;
    c.stages = original.max_stages;
    add(c,
        {{"num_stages", std::to_string(original.launches.front().num_stages),
          std::to_string(original.max_stages)}},
        1);
  }
  auto current = [&](std::string_view name) -> std::optional<long long> {
    for (const model::LaunchSummary& l : original.launches)
      for (const auto& [n, v] : l.constexprs)
        if (n == name) return static_cast<long long>(v);
    return std::nullopt;
  };
  struct Knob {
    const char* field;
    const char* name;
    std::optional<long long> model::AttentionSpec::*member;
    int distance;
    long long floor;
  };
  const Knob knobs[] = {
      {"block_n", "BLOCK_N", &model::AttentionSpec::block_n, 2, 16},
      {"block_h", "BLOCK_H", &model::AttentionSpec::block_h, 3, 16},
      {"block_m", "BLOCK_M", &model::AttentionSpec::block_m, 3, 16},
      {"tile_size", "TILE_SIZE", &model::AttentionSpec::tile_size, 3, 16},
      {"num_kv_splits", "NUM_KV_SPLITS", &model::AttentionSpec::num_kv_splits, 4, 1},
  };
  for (const Knob& k : knobs) {
    std::optional<long long> now = current(k.name);
    if (!now && std::string_view(k.field) == "num_kv_splits") {
      now = current("MAX_KV_SPLITS");
      if (!now && current("IS_3D").value_or(0) != 0) now = current("NUM_SEGMENTS_PER_SEQ");
    }
    if (!now || *now / 2 < k.floor) continue;
    KernelConfig c = cfg;
    c.attention.*(k.member) = *now / 2;
    add(c, {{k.field, std::to_string(*now), std::to_string(*now / 2)}}, k.distance);
  }
}

}  // namespace

std::vector<Suggestion> suggest(const KernelConfig& cfg, const model::Limits& limits,
                                const model::Result& original, std::size_t max) {
  std::vector<Move> moves;
  auto add = [&](KernelConfig c, std::vector<FieldChange> ch, int distance) {
    moves.push_back({std::move(c), std::move(ch), distance});
  };
  const bool attention = cfg.family == "triton_attention";
  if (attention) {
    attention_moves(cfg, original, add);
  } else {
    // 1: fewer stages.
    if (original.max_stages > 0 && (!cfg.stages || *cfg.stages != original.max_stages)) {
      KernelConfig c = cfg;
      c.stages = original.max_stages;
      add(c, {{"stages", stages_text(cfg.stages), std::to_string(original.max_stages)}}, 1);
    }
    generic_moves(cfg, original, add);
  }

  // Evaluate: a move that fits as it is, or with its own largest stage count.
  return finish(cfg, limits, original, max, moves, attention);
}

}  // namespace tilefit::analysis
