// vLLM's and SGLang's tuned fused-MoE config files, read as they are
// (docs/dev/triton-tuned-files.md has the grammar, the folder layouts and what the
// launchers do with an entry):
//
//   E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json
//   { "triton_version": "3.4.0",
//     "1":    {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1,
//              "num_warps": 4, "num_stages": 3},
//     "4096": {...} }
//
// Every batch-size key becomes a triton_fused_moe config named by the key; the file name gives
// the device (hence the architecture, when no --arch or --device is given), the quantisation and
// the block shape; SGLang's per-Triton-version folders (triton_3_4_0/) give the Triton version.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/config_decoder.hpp"
#include "io/json_value.hpp"

namespace tilefit::io::detail {

/// A tuned file's name, parsed.
struct TunedName {
  bool matches = false;  ///< E=…,N=…,device_name=…[,dtype=…][,block_shape=…][_down].json
  std::string device_name;  ///< "NVIDIA_H100_80GB_HBM3"
  std::string dtype;        ///< "" (unquantised), "fp8_w8a8", "int8_w8a16", …
  std::optional<std::array<long long, 2>> block_shape;  ///< [block_n, block_k]
  bool per_channel_quant = false;
  std::string triton_version;  ///< from an SGLang folder triton_X_Y_Z ("3.4.0"); empty: none
  /// Whose table it is: SGLang when the path has a triton_X_Y_Z folder or a "sglang" folder, or
  /// the block shape is written "[n, k]" (SGLang's Python list repr); otherwise vLLM.
  model::Launcher engine = model::Launcher::Vllm;
  /// A name that begins like a tuned table's (E=…, .json) with a part that does not parse:
  /// that part ("block_shape=[0,128]") and what is wrong with it; `matches` is then false.
  std::string error_part, error;
  /// A block-quantised matmul's table (N=…,K=…,device_name=…,dtype=…,block_shape=[…].json,
  /// io/block_table_name.hpp) rather than a fused-MoE one; its N and K.
  bool block_matmul = false;
  long long n = 0, k = 0;
};

/// The one-line error for a name with `error` set (naming the part and the grammar); "" otherwise.
std::string tuned_name_error(const TunedName& n);

/// Parses the last component of `path` (and its folder). `matches` is false for any other name;
/// `error` is set when the name begins like a tuned table's but a part does not parse.
TunedName parse_tuned_name(std::string_view path);

/// A tuned table's key as the engines read it: vLLM and SGLang call int(key) (Python), which
/// takes " 16", "+16", "0016" and "1_6" as 16 and any number of digits.
enum class BatchKey {
  ok,           ///< int(key) reads it, and it is within ±(2^64 - 1)
  not_integer,  ///< int(key) raises ValueError
  too_large,    ///< int(key) reads it, but beyond 2^64 - 1: a clear error, not "not a batch size"
};
BatchKey read_batch_size(std::string_view key);

/// True when int(key) reads `key` (read_batch_size is ok or too_large).
bool is_batch_size(std::string_view key);

/// Decodes one entry ("1536": {...}) of a tuned table into a triton_fused_moe config named by
/// the key. `suggest`: look for did-you-mean suggestions for unknown fields.
DecodedConfig decode_tuned_entry(const Value& v, const std::string& key, const TunedName& name,
                                 bool suggest);

}  // namespace tilefit::io::detail
