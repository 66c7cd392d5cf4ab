// The fused-MoE quantisation names and a tuned entry's launch keys, read the same way from a
// tuned table (its file name's dtype=, its entries' SPLIT_K / USE_TMA / num_ctas / AMD keys) and
// from a config ("dtype", "tuned"), and written back by the config writer: one reading, so a
// written config re-reads to the launch it was analysed as.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/json_value.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io::detail {

/// What a fused-MoE quantisation name ("fp8_w8a8", "int8_w8a16", …; "" = unquantised) and
/// per_channel_quant make of a triton_fused_moe config: TunedLaunch::quant (what the engines'
/// launchers build), fp8_w8a8 and the operands (what vLLM 000d1458 and a plain config read), and
/// unmodelled_dtype (the name, when 000d1458 has no kernel for it). The one reading of these
/// names: a tuned table's file name and a config's "dtype" both go through it.
void apply_moe_quant(std::string_view dtype, bool per_channel, model::KernelConfig& cfg);

/// The quantisation names a triton_fused_moe config's "dtype" takes beyond bf16 / f16 (the
/// engines' dtype strings: engine_tables.cpp).
const std::vector<std::string>& moe_quant_names();

/// The "dtype" that apply_moe_quant reads back into cfg's quantisation; empty for the
/// unquantised kernel (the operand type says bf16 or f16).
std::string moe_quant_text(const model::KernelConfig& cfg);

/// Decodes one launch key of a tuned entry (SPLIT_K, USE_TMA, num_ctas, the AMD keys) into
/// cfg.tuned; false when `key` is none of them. An error (the message) goes to `error`.
bool decode_launch_key(std::string_view key, const Value& x, model::KernelConfig& cfg,
                       std::string& error);

}  // namespace tilefit::io::detail
