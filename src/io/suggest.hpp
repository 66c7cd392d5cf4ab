// "Did you mean" for misspelt keys and values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilefit::io::detail {

/// Edit distance between `a` and `b`, ignoring ASCII case: insertions, deletions,
/// substitutions and transpositions of neighbours each count 1 (optimal string alignment).
/// Returns `cap + 1` as soon as the distance is known to exceed `cap`.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap = 2);

/// The candidate nearest to `word` when it is within distance 2 (1 for words of up to 3
/// letters), the earliest on ties; nullopt when none is, or when `word` is one of them.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);

}  // namespace tilefit::io::detail
