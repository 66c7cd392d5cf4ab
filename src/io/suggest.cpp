#include "io/suggest.hpp"

#include <algorithm>
#include <array>

namespace tilefit::io::detail {
namespace {

// ASCII only (std::tolower consults the locale and dominates the cost here).
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap) {
  const std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > cap) return cap + 1;
  // Optimal-string-alignment table, three rows on the stack, only the diagonal band
  // |i - j| <= cap computed (cells outside it are > cap anyway). Words longer than kMaxLen
  // (never a key or a value name) are simply "far".
  constexpr std::size_t kMaxLen = 64;
  if (m > kMaxLen || n > kMaxLen) return cap + 1;
  std::array<char, kMaxLen> la, lb;
  for (std::size_t i = 0; i < n; ++i) la[i] = lower(a[i]);
  for (std::size_t j = 0; j < m; ++j) lb[j] = lower(b[j]);
  const std::size_t far = cap + 1;
  std::array<std::size_t, kMaxLen + 2> r0, r1, r2;  // rows are written before they are read
  std::size_t *prev2 = r0.data(), *prev = r1.data(), *cur = r2.data();
  for (std::size_t j = 0; j <= m + 1 && j <= kMaxLen + 1; ++j) prev[j] = std::min(j, far);
  for (std::size_t i = 1; i <= n; ++i) {
    const std::size_t lo = i > cap ? i - cap : 1;
    const std::size_t hi = std::min(m, i + cap);
    cur[0] = std::min(i, far);
    if (lo > 1) cur[lo - 1] = far;
    std::size_t row_min = lo == 1 ? cur[0] : far;
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t cost = la[i - 1] == lb[j - 1] ? 0 : 1;
      std::size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && la[i - 1] == lb[j - 2] && la[i - 2] == lb[j - 1])
        d = std::min(d, prev2[j - 2] + 1);
      cur[j] = std::min(d, far);
      row_min = std::min(row_min, cur[j]);
    }
    if (hi < m) cur[hi + 1] = far;
    if (row_min > cap) return far;
    std::size_t* t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  // Words longer than any candidate by more than the cap cannot match; skip the work.
  if (word.size() > 64) return std::nullopt;
  const std::size_t cap = word.size() <= 3 ? 1 : 2;
  std::optional<std::string> best;
  std::size_t best_d = cap + 1;
  for (const std::string& c : candidates) {
    if (c == word) return std::nullopt;
    const std::size_t d = edit_distance(word, c, cap);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace tilefit::io::detail
