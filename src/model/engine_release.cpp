#include "tilefit/model/engine_release.hpp"

#include <array>

#include "tilefit/model/launcher.hpp"

namespace tilefit::model {
namespace {

constexpr std::array<EngineReleaseInfo, 4> kReleases{{
    {EngineRelease::None, Launcher::None, "", ""},
    {EngineRelease::Vllm000d1458, Launcher::Vllm, "000d1458098ebf47491dad470d164d443ab18a9c",
     "2026-04"},
    {EngineRelease::Vllm6adad087, Launcher::Vllm, "6adad08767583f52eb4d2122111af0bf638ed5e6",
     "2026-08-14"},
    {EngineRelease::SglangD6ef6888, Launcher::Sglang, "d6ef68881e263812d4901f632786015005c4d050",
     "2026-07-21"},
}};

}  // namespace

std::span<const EngineReleaseInfo> engine_releases() {
  return std::span<const EngineReleaseInfo>(kReleases).subspan(1);
}

const EngineReleaseInfo& engine_release_info(EngineRelease r) {
  for (const EngineReleaseInfo& i : kReleases)
    if (i.release == r) return i;
  return kReleases[0];
}

EngineRelease newest_release(Launcher engine) {
  EngineRelease newest = EngineRelease::None;
  for (const EngineReleaseInfo& i : engine_releases())
    if (i.engine == engine) newest = i.release;  // rows are oldest first
  return newest;
}

std::string engine_release_text(EngineRelease r) {
  const EngineReleaseInfo& i = engine_release_info(r);
  if (i.engine == Launcher::None) return "";
  return std::string(launcher_name(i.engine)) + "@" + std::string(i.commit.substr(0, 8));
}

std::optional<EngineRelease> parse_engine_release(std::string_view text) {
  const std::size_t at = text.find('@');
  const std::optional<Launcher> engine = parse_launcher(text.substr(0, at));
  if (!engine || *engine == Launcher::None) return std::nullopt;
  if (at == std::string_view::npos) return newest_release(*engine);
  std::string prefix(text.substr(at + 1));
  if (prefix.size() < 8 || prefix.size() > 40) return std::nullopt;
  for (char& c : prefix) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  for (const EngineReleaseInfo& i : engine_releases())
    if (i.engine == *engine && i.commit.substr(0, prefix.size()) == prefix) return i.release;
  return std::nullopt;
}

std::string engine_release_choices() {
  std::string out;
  for (const EngineReleaseInfo& i : engine_releases()) {
    if (!out.empty()) out += ", ";
    out += engine_release_text(i.release);
  }
  return out + " (a commit prefix of 8 to 40 hex digits; the engine's name alone: its newest)";
}

}  // namespace tilefit::model
