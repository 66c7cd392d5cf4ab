// The tuned tables of vLLM's and SGLang's block-quantised W8A8 matmuls (family
// triton_block_matmul), read as they are:
//
//   N=7168,K=2304,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json
//   { "1":    {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 32,
//              "num_warps": 4, "num_stages": 3},
//     "4096": {...} }
//
// The name's grammar is here; the entries are decoded by the tuned-table entry decoder
// (tuned_file.cpp, decode_tuned_entry), which calls apply_block_table_name for what the name
// and the engine's table reader decide.
#pragma once

#include <string>
#include <string_view>

#include "io/tuned_file.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io::detail {

/// True when `base` (a file name without folders) begins like a block-quantised matmul table:
/// "N=" and ".json". Such a name is read by parse_block_table_name, never as a fused-MoE table.
bool is_block_table_name(std::string_view base);

/// Parses `base` (is_block_table_name) into `out` (whose folder-derived fields, triton_version
/// and engine, are already set): `matches` and `block_matmul` when every part parses, else
/// `error_part` and `error`.
void parse_block_table_name(std::string_view base, TunedName& out);

/// The grammar, for error messages.
std::string_view block_table_grammar();

/// What the name and the engine's table reader decide for one entry of such a table: the
/// family, the quantisation (fp8_w8a8: e4m3 A and B; int8_w8a8: s8; any other dtype: not
/// modelled), C's type (bf16, what the engines pass), and SGLang's BLOCK_SIZE_K raise
/// (get_w8a8_block_fp8_configs, fp8_kernel.py:1266-1273).
void apply_block_table_name(const TunedName& name, model::KernelConfig& cfg);

}  // namespace tilefit::io::detail
