#include "tilefit/model/launcher.hpp"

#include <string>

namespace tilefit::model {
namespace {

constexpr EnumName<Launcher> kLaunchers[] = {
    {Launcher::Vllm, "vllm", "vLLM cutlass_scaled_mm"},
    {Launcher::Sglang, "sglang", "SGLang fp8_scaled_mm / fp8_blockwise_scaled_mm"},
};

}  // namespace

std::span<const EnumName<Launcher>> launcher_names() { return kLaunchers; }

std::string_view launcher_name(Launcher l) {
  return l == Launcher::None ? "none" : enum_name(launcher_names(), l);
}

std::optional<Launcher> parse_launcher(std::string_view s) {
  return parse_enum(launcher_names(), s);
}

std::string_view launcher_choices() {
  static const std::string joined = join_names(launcher_names());
  return joined;
}

}  // namespace tilefit::model
