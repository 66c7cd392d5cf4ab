// CUTLASS library kernel names as configs.
//
// The CUTLASS library (python/cutlass_library) names every kernel it instantiates, and those
// names are what users hold: profiler output, `--kernels` filters, tactic tables. This reads a
// name back into the config it stands for, by CUTLASS 4.7's naming grammar
// (gemm_operation.py GemmOperation._procedural_name and the tables of library.py), e.g.
//
//   cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma
//   -> {"name": "<the name>", "arch": "sm_90", "kernel": "sm90_tma_ws", "tile": [128, 256, 64],
//       "cluster": [1, 1, 1], "a": "bf16", "b": "bf16", "c": "bf16", "d": "bf16", "acc": "f32",
//       "layout": "tnn", "schedule": "cooperative", "epilogue": "tma", "grouped": false,
//       "stages": "auto"}
//
//   cutlass_tensorop_s16816gemm_f16_256x128_32x3_nn_align8
//   -> {"name": "<the name>", "arch": "sm_80", "kernel": "sm80_multistage", "tile": [256, 128, 32],
//       "warp": [64, 64, 32], "a": "f16", "b": "f16", "c": "f32", "d": "f32", "acc": "f32",
//       "layout": "nnn", "stages": 3}
//
// The result is the typed config (model::KernelConfig) that JSON stands for, read by the one
// config decoder, so a name and that JSON give the same result through the reader and the model;
// kernel_name_json gives the JSON itself (what the name stands for, written out). A
// part the model cannot represent (stream-K, sparse, complex, blockwise scaling, mixed-input
// modes, cp.async kernels, ...) or cannot read is an error naming the part, where it starts, and
// what was expected there. The grammar, part by part, is documented in src/io/kernel_name.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tilefit/model/config.hpp"
#include "tilefit/model/validate.hpp"

namespace tilefit::io {

/// Why a name could not be read: the part that could not be read, where it starts, and what was
/// expected there.
struct KernelNameError {
  std::size_t offset = 0;  ///< byte offset of `part` in the name
  std::string part;        ///< that part of the name, as written ("stream_k", "128x256", ...)
  std::string message;     ///< what is wrong with it and what was expected or is modelled
};

/// A name read into the config it stands for.
struct NamedConfig {
  std::optional<model::KernelConfig> config;  ///< set exactly when `errors` is empty
  bool arch_given = false;                    ///< the name says its arch (every modelled name does)
  model::FieldMask given;  ///< Provenance::given: the config fields the name sets
  /// What the name says but the config format's bounds refuse (a field and why), as the reader
  /// words it for the same field in a config file.
  std::vector<model::ConfigIssue> errors;
};

/// The typed config a CUTLASS library kernel name stands for (named by the name), or why the
/// name cannot be read.
std::variant<NamedConfig, KernelNameError> config_from_kernel_name(std::string_view name);

/// The same config as the JSON text of one config object in tilefit's config format (README
/// "Config format"), e.g. {"name": "<the name>", "arch": "sm_90", "kernel": "sm90_tma_ws",
/// "tile": [128,256,64], ...}; or why the name cannot be read.
std::variant<std::string, KernelNameError> kernel_name_json(std::string_view name);

/// One line for users: `"<part>" (offset N): <message>`.
std::string format_kernel_name_error(const KernelNameError& e);

}  // namespace tilefit::io
