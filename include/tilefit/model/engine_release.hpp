// The inference-engine releases whose Triton launchers tilefit models: which rules turn a tuned
// table's entry into a launch (vLLM's and SGLang's fused-MoE and block-quantised matmul
// launchers changed between releases: SWAP_AB, BLOCK_SIZE_K clamping, tensor descriptors).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tilefit/model/launcher.hpp"

namespace tilefit::model {

/// A modelled release of an engine. The model's launch rules branch on it.
enum class EngineRelease : std::uint8_t {
  None,            ///< not an engine's table (a plain config): the launch is as written
  Vllm000d1458,    ///< vLLM 000d1458 (2026-04): the launch tilefit first modelled
  Vllm6adad087,    ///< vLLM 6adad087 (2026-08-14)
  SglangD6ef6888,  ///< SGLang d6ef6888 (2026-07-21)
};

/// One release: the engine, its full commit and the commit's date.
struct EngineReleaseInfo {
  EngineRelease release;
  Launcher engine;          ///< Launcher::Vllm or Launcher::Sglang
  std::string_view commit;  ///< 40 hex digits
  std::string_view date;    ///< YYYY-MM-DD
};

/// Every modelled release, oldest first within an engine.
std::span<const EngineReleaseInfo> engine_releases();

/// The release's row (None: a row with Launcher::None and an empty commit).
const EngineReleaseInfo& engine_release_info(EngineRelease r);

/// The newest modelled release of `engine` (None for Launcher::None).
EngineRelease newest_release(Launcher engine);

/// "vllm@6adad087": the engine's name, '@', the first 8 hex digits of the commit ("" for None).
std::string engine_release_text(EngineRelease r);

/// Reads "vllm", "sglang" (the engine's newest release) or "ENGINE@COMMIT" (a prefix of 8 to 40
/// hex digits of a modelled commit, any case). nullopt: not one of engine_releases().
std::optional<EngineRelease> parse_engine_release(std::string_view text);

/// What parse_engine_release accepts, for error messages: "vllm@000d1458, vllm@6adad087,
/// sglang@d6ef6888 (a commit prefix of 8+ hex digits; the name alone: its newest)".
std::string engine_release_choices();

}  // namespace tilefit::model
