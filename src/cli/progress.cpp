#include "cli/progress.hpp"

#include <cmath>
#include <cstdio>

namespace tilefit::cli {

Progress::Progress(ErrorOutput& err, ProgressMode mode, std::string_view what)
    : err_(err),
      enabled_(mode == ProgressMode::on || (mode == ProgressMode::automatic && err.terminal())),
      what_(what) {
  if (enabled_) start_ = last_ = err_.now();
}

namespace {

std::string rate_text(double per_second) {
  char buf[32];
  if (per_second >= 1e9)
    std::snprintf(buf, sizeof buf, "%.1fG/s", per_second / 1e9);
  else if (per_second >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1fM/s", per_second / 1e6);
  else if (per_second >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1fk/s", per_second / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f/s", per_second);
  return buf;
}

std::string left_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "? left";
  const long long s = std::llround(std::ceil(seconds));
  char buf[48];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lld s left", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%lld min %02lld s left", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld h %02lld min left", s / 3600, s / 60 % 60);
  return buf;
}

}  // namespace

std::string Progress::line(std::string_view what, std::uint64_t done, std::uint64_t total,
                           double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  const int percent =
      total > 0 ? static_cast<int>(static_cast<double>(done) * 100.0 / static_cast<double>(total))
                : 100;
  std::string s(what);
  s += ": " + std::to_string(done) + "/" + std::to_string(total) + " candidates (" +
       std::to_string(percent) + "%), " + rate_text(rate) + ", " +
       (rate > 0 ? left_text(static_cast<double>(total - (done < total ? done : total)) / rate)
                 : std::string("? left"));
  return s;
}

void Progress::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_ || finished_) return;
  const double now = err_.now();
  if (now - start_ < kDelay) return;
  if (now - last_ < kInterval) return;  // also after clear(): at most 5 redraws a second
  last_ = now;
  const std::string text = line(what_, done, total, now - start_);
  std::string out = "\r" + text;
  if (text.size() < drawn_) out += std::string(drawn_ - text.size(), ' ');
  err_.write(out);
  drawn_ = text.size() > drawn_ ? text.size() : drawn_;
}

void Progress::clear() {
  if (drawn_ == 0) return;
  err_.write("\r" + std::string(drawn_, ' ') + "\r");
  drawn_ = 0;
}

void Progress::finish() {
  if (finished_) return;
  clear();
  finished_ = true;
}

}  // namespace tilefit::cli
