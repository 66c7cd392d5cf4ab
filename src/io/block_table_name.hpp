// The tuned tables of vLLM's and SGLang's block-quantised W8A8 matmuls (family
// triton_block_matmul), read as they are:
//
//   N=7168,K=2304,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json
//   { "1":    {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 32,
//              "num_warps": 4, "num_stages": 3},
//     "4096": {...} }
//
// The name's grammar is here (parse_tuned_name, tuned_file.cpp, hands such names to it); the
// entries are decoded by the tuned-table entry decoder (decode_tuned_entry), which calls
// apply_block_table_name for what the name and the engine's table reader decide.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "tilefit/model/config.hpp"

namespace tilefit::io::detail {

/// A block-quantised matmul table's name, parsed.
struct BlockTableName {
  bool matches = false;  ///< every part parses
  long long n = 0, k = 0;
  std::string device_name;  ///< "NVIDIA_H100_80GB_HBM3"
  /// "fp8_w8a8", "int8_w8a8", or another dtype (with ",input_dtype=…,out_dtype=…" when given)
  std::string dtype;
  std::optional<std::array<long long, 2>> block_shape;  ///< [block_n, block_k]
  bool sglang_spelling = false;  ///< block_shape written "[n, k]" (SGLang's Python list repr)
  /// The part that does not parse and what is wrong with it (`matches` is then false).
  std::string error_part, error;
};

/// True when `base` (a file name without folders) begins like a block-quantised matmul table:
/// "N=" and ".json". Such a name is read by parse_block_table_name, never as a fused-MoE table.
bool is_block_table_name(std::string_view base);

/// Parses `base` (is_block_table_name): `matches` when every part parses, else `error_part` and
/// `error`.
BlockTableName parse_block_table_name(std::string_view base);

/// The grammar, for error messages.
std::string_view block_table_grammar();

/// What the name and the engine's table reader decide for one entry of such a table: the
/// family, the quantisation (fp8_w8a8: e4m3 A and B; int8_w8a8: s8; any other dtype: not
/// modelled), C's type (bf16, what the engines pass), and SGLang's BLOCK_SIZE_K raise
/// (get_w8a8_block_fp8_configs, fp8_kernel.py:1266-1273).
void apply_block_table_name(std::string_view dtype,
                            const std::optional<std::array<long long, 2>>& block_shape, bool sglang,
                            model::KernelConfig& cfg);

}  // namespace tilefit::io::detail
