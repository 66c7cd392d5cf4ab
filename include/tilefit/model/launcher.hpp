// Whose launcher builds a kernel: vLLM or SGLang (the engine-built CUTLASS FP8 kernels, and the
// engine releases whose Triton launchers turn tuned-table entries into launches).
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
