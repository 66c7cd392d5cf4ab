// Whose launcher turns a config into a kernel launch (the engines' FP8 kernels, the Triton
// launches of their tuned tables), apart from config.hpp so that engine_release.hpp, which
// config.hpp includes, can use it (CTest include_cycles). Defined in src/model/config.cpp.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "tilefit/model/enum_table.hpp"

namespace tilefit::model {

/// Whose launcher builds the kernel: vLLM `cutlass_scaled_mm`, SGLang `fp8_scaled_mm` /
/// `fp8_blockwise_scaled_mm`. None: a plain CUTLASS config (the generic families).
enum class Launcher { None, Vllm, Sglang };

std::string_view launcher_name(Launcher l);
std::optional<Launcher> parse_launcher(std::string_view s);  ///< "vllm", "sglang"
/// The launchers a config may name (Launcher::None, "none", is the absence of one).
std::span<const EnumName<Launcher>> launcher_names();
std::string_view launcher_choices();

}  // namespace tilefit::model
