// A tile configuration, as the model sees it: parsed, defaulted, typed.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "tilefit/model/dtype.hpp"

namespace tilefit::model {

enum class Schedule { Auto, Cooperative, Pingpong, Sm1, Sm2, Multistage };
enum class EpilogueVariant { Auto, Tma, NoSmem, BlockScaleOut, TrtllmDefault, Finalize };
enum class Mma { Auto, F8F6F4, Nvf4 };

std::string_view schedule_name(Schedule s);
std::string_view epilogue_name(EpilogueVariant v);
std::string_view mma_name(Mma m);
std::optional<Schedule> parse_schedule(std::string_view s);
std::optional<EpilogueVariant> parse_epilogue(std::string_view s);
std::optional<Mma> parse_mma(std::string_view s);
std::string_view schedule_choices();
std::string_view epilogue_choices();
std::string_view mma_choices();

/// The epilogue as configured. Unset optionals mean "the builder's choice".
struct EpilogueSpec {
  EpilogueVariant variant = EpilogueVariant::Auto;
  std::optional<std::array<long long, 2>> tile;  ///< explicit epilogue tile [m, n]
  std::optional<int> stages_c;                   ///< override StagesC
  std::optional<int> stages_d;                   ///< override StagesD
  int sf_vec = 0;                                ///< blockscale_out: output SF vector size
  DType sf = DType::Void;                        ///< blockscale_out: output SF type
};

/// One GEMM kernel configuration. Majorness follows CUTLASS's letters: A "t" = row-major
/// (K-major), B "n" = column-major (K-major), C/D "t" = row-major, "n" = column-major.
struct KernelConfig {
  std::string name;
  int arch = 0;                         ///< 0: not given (take it from the target)
  std::string family;                   ///< empty: infer from arch and types
  long long m = 0, n = 0, k = 0;        ///< CTA tile (SM100: the MMA tile)
  std::array<int, 3> cluster{1, 1, 1};
  Operand a, b;
  DType c = DType::BF16;                ///< Void: no C source
  DType d = DType::BF16;
  DType acc = DType::F32;
  bool a_k_major = true;                ///< layout letter 0 == 't'
  bool b_k_major = true;                ///< layout letter 1 == 'n'
  bool cd_row_major = true;             ///< layout letter 2 == 't' (default)
  Schedule schedule = Schedule::Auto;
  EpilogueSpec epilogue;
  bool grouped = false;
  std::optional<int> stages;            ///< nullopt: auto (StageCountAutoCarveout)
  Mma mma = Mma::Auto;
  std::optional<std::array<long long, 3>> warp;  ///< sm80_multistage warp tile
  bool swap_ab = false;                 ///< TensorRT-LLM transposed MoE launch

  // ---- Triton kernels (triton_matmul, triton_fused_moe; issue 12) -------------------------
  // The tile is [BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K] (m, n, k); `stages` is num_stages
  // (nullopt: Triton's default); `a` = `b` = the dot's operand type (e4m3 for fp8_w8a8); `d` is
  // the C type (triton_matmul: what the epilogue converts and stores).
  std::optional<int> num_warps;         ///< nullopt: Triton's default (4)
  std::optional<long long> group_m;     ///< GROUP_SIZE_M: index arithmetic only
  /// vLLM's block_shape [block_n, block_k]: fp8_w8a8 block-wise scales (triton_fused_moe).
  std::optional<std::array<long long, 2>> block_shape;
  bool fp8_w8a8 = false;                ///< triton_fused_moe dtype fp8_w8a8 (a = b = e4m3)
  bool mul_routed_weight = false;       ///< vLLM's MUL_ROUTED_WEIGHT (the MoE's second GEMM)
  /// The Triton version the config was tuned with ("3.4.0"); empty when not given.
  std::string triton_version;
  /// A vLLM/SGLang tuned file's quantisation that is not modelled ("int8_w8a16"); empty: none.
  std::string unmodelled_dtype;
  /// BLOCK_SIZE_K as a tuned file writes it, when vLLM's launcher clamps it to min(block_shape)
  /// (k is then the clamped value); 0: not clamped.
  long long tuned_block_k = 0;
  /// A tuned file's device_name ("NVIDIA_H100_80GB_HBM3"): the GPU it was tuned on.
  std::string tuned_device;
};

}  // namespace tilefit::model
