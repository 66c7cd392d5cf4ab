// Splitting an engine table's file name into its `key=value` parts.
#pragma once

#include <string_view>
#include <vector>

namespace tilefit::io::detail {

/// The parts of a tuned table's name (without ".json"): split at the commas outside brackets,
/// so "block_shape=[128, 128]" stays one part. The engines write names this way: vLLM
/// `get_config_file_name` (fused_moe.py) and `_w8a8_triton_block_scaled_mm` tables
/// (fp8_utils.py), SGLang the same with Python's list repr.
std::vector<std::string_view> name_parts(std::string_view base);

}  // namespace tilefit::io::detail
