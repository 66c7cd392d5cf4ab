#include "tilefit/model/validate.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

#include "tilefit/model/config_limits.hpp"

namespace tilefit::model {
namespace {

/// Extents of one field within 1..max, one issue per distinct bad value, worded as the reader
/// words a bad element of [..] ("0 is not a valid tile extent; allowed: integers 1..65536 (or
/// \"MxNxK\")").
template <class T, std::size_t N>
void check_extents(std::vector<ConfigIssue>& out, std::string_view field,
                   const std::array<T, N>& xs, std::string_view noun, std::string_view text,
                   std::int64_t max) {
  std::vector<std::string> reported;
  for (const T x : xs) {
    if (x >= 1 && static_cast<std::int64_t>(x) <= max) continue;
    std::string m = std::to_string(x) + " is not a valid " + std::string(noun) +
                    "; allowed: integers 1.." + std::to_string(max) + " (or \"" +
                    std::string(text) + "\")";
    bool seen = false;
    for (const std::string& r : reported) seen = seen || r == m;
    if (seen) continue;
    reported.push_back(m);
    out.push_back({std::string(field), std::move(m)});
  }
}

/// A count within 1..max ("0 is not a valid stage count; allowed: <also>integers 1..<max>").
void check_count(std::vector<ConfigIssue>& out, std::string_view field, std::int64_t x,
                 std::int64_t max, std::string_view noun, std::string_view also = {}) {
  if (x >= 1 && x <= max) return;
  out.push_back({std::string(field), std::to_string(x) + " is not a valid " + std::string(noun) +
                                         "; allowed: " + std::string(also) + "integers 1.." +
                                         std::to_string(max)});
}

}  // namespace

std::vector<ConfigIssue> validate(const KernelConfig& cfg) {
  std::vector<ConfigIssue> out;
  // 0x0x0 is no tile at all (a reader reports it missing, or its own error for what was written).
  if (cfg.m != 0 || cfg.n != 0 || cfg.k != 0)
    check_extents(out, "tile", std::array<long long, 3>{cfg.m, cfg.n, cfg.k}, "tile extent",
                  "MxNxK", kMaxTileExtent);
  check_extents(out, "cluster", cfg.cluster, "cluster extent", "XxYxZ", kMaxClusterExtent);
  if (cfg.stages)
    check_count(out, "stages", *cfg.stages, kMaxStages, "stage count", "\"auto\" or ");
  if (cfg.warp) check_extents(out, "warp", *cfg.warp, "warp tile extent", "MxNxK", kMaxTileExtent);

  const EpilogueSpec& e = cfg.epilogue;
  if (e.tile)
    check_extents(out, "epilogue.tile", *e.tile, "epilogue tile extent", "MxN", kMaxTileExtent);
  if (e.stages_c)
    check_count(out, "epilogue.stages_c", *e.stages_c, kMaxStages, "epilogue stage count");
  if (e.stages_d)
    check_count(out, "epilogue.stages_d", *e.stages_d, kMaxStages, "epilogue stage count");
  // The output scale factors are the blockscale_out epilogue's (its fusion writes them).
  if (e.variant != EpilogueVariant::BlockScaleOut) {
    constexpr std::string_view kOnly =
        "applies only to the blockscale_out epilogue (\"variant\": \"blockscale_out\")";
    if (e.sf_vec != 0) out.push_back({"epilogue.sf_vec", std::string(kOnly)});
    if (e.sf != DType::Void) out.push_back({"epilogue.sf", std::string(kOnly)});
  }

  if (cfg.num_warps) check_count(out, "num_warps", *cfg.num_warps, 1024, "num_warps");
  if (cfg.group_m) check_count(out, "group_m", *cfg.group_m, kMaxTileExtent, "GROUP_SIZE_M");
  if (cfg.block_shape)
    check_extents(out, "block_shape", *cfg.block_shape, "block_shape extent", "NxK",
                  kMaxTileExtent);
  return out;
}

}  // namespace tilefit::model
