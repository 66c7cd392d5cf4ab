// A tile configuration, as the model sees it: parsed, defaulted, typed.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tilefit/model/attention.hpp"
#include "tilefit/model/dtype.hpp"
#include "tilefit/model/engine_release.hpp"
#include "tilefit/model/enum_table.hpp"
#include "tilefit/model/launcher.hpp"

namespace tilefit::model {

/// One bit per config field (tilefit/io/vocabulary.hpp config_fields(), in its order): which
/// fields a source set (io::Provenance::given). 128 since the attention fields (issue 19).
using FieldMask = std::bitset<128>;

/// `Ws` (appended for the inference-engine FP8 kernels, issue 11): the basic, non-persistent
/// KernelTmaWarpSpecialized* kernel (gemm/kernel/sm90_gemm_tma_warpspecialized.hpp).
enum class Schedule { Auto, Cooperative, Pingpong, Sm1, Sm2, Multistage, Ws };
enum class EpilogueVariant { Auto, Tma, NoSmem, BlockScaleOut, TrtllmDefault, Finalize };
enum class Mma { Auto, F8F6F4, Nvf4 };

std::string_view schedule_name(Schedule s);
std::string_view epilogue_name(EpilogueVariant v);
std::string_view mma_name(Mma m);
std::optional<Schedule> parse_schedule(std::string_view s);
std::optional<EpilogueVariant> parse_epilogue(std::string_view s);
std::optional<Mma> parse_mma(std::string_view s);
/// The name tables (model/enum_table.hpp): the *_name, parse_* and *_choices functions read them.
std::span<const EnumName<Schedule>> schedule_names();
std::span<const EnumName<EpilogueVariant>> epilogue_names();
std::span<const EnumName<Mma>> mma_names();
/// The names of the table, joined by ", " (for "allowed:" in errors).
std::string_view schedule_choices();
std::string_view epilogue_choices();
std::string_view mma_choices();

// ---- inference-engine FP8 kernels (issue 11) -------------------------------------------------
/// What the engine computes: per-tensor / per-token x per-channel scaled GEMM, or DeepSeek-style
/// blockwise-scaled FP8 GEMM.
enum class EngineOp { ScaledMm, BlockwiseFp8 };
/// The engine's bias: a row (per output column, `Sm90RowBroadcast<ElementD>`) or a column
/// (per output row, `Sm90ColBroadcast`; vLLM's ScaledEpilogueColumnBias with swap_ab).
enum class Bias { None, Row, Column };
/// Blockwise scale blocks as the engines write them: A (activation) blocks of a_m x a_k
/// elements, B (weight) blocks of b_n x b_k (default 1x128 and 128x128, DeepSeek V3).
struct ScaleBlock {
  long long a_m = 1, a_k = 128;
  long long b_n = 128, b_k = 128;
  bool operator==(const ScaleBlock&) const = default;
};

std::string_view engine_op_name(EngineOp o);
std::string_view bias_name(Bias b);
std::optional<EngineOp> parse_engine_op(std::string_view s);
std::optional<Bias> parse_bias(std::string_view s);
std::span<const EnumName<EngineOp>> engine_op_names();
std::span<const EnumName<Bias>> bias_names();
std::string_view engine_op_choices();
std::string_view bias_choices();

/// The epilogue as configured. Unset optionals mean "the builder's choice".
struct EpilogueSpec {
  EpilogueVariant variant = EpilogueVariant::Auto;
  std::optional<std::array<long long, 2>> tile;  ///< explicit epilogue tile [m, n]
  std::optional<int> stages_c;                   ///< override StagesC
  std::optional<int> stages_d;                   ///< override StagesD
  int sf_vec = 0;                                ///< blockscale_out: output SF vector size
  DType sf = DType::Void;                        ///< blockscale_out: output SF type

  bool operator==(const EpilogueSpec&) const = default;
};

/// One GEMM kernel configuration. Majorness follows CUTLASS's letters: A "t" = row-major
/// (K-major), B "n" = column-major (K-major), C/D "t" = row-major, "n" = column-major.
struct KernelConfig {
  std::string name;
  int arch = 0;                   ///< 0: not given (take it from the target)
  std::string family;             ///< empty: infer from arch and types
  long long m = 0, n = 0, k = 0;  ///< CTA tile (SM100: the MMA tile)
  std::array<int, 3> cluster{1, 1, 1};
  Operand a, b;
  DType c = DType::BF16;  ///< Void: no C source
  DType d = DType::BF16;
  DType acc = DType::F32;
  bool a_k_major = true;     ///< layout letter 0 == 't'
  bool b_k_major = true;     ///< layout letter 1 == 'n'
  bool cd_row_major = true;  ///< layout letter 2 == 't' (default)
  Schedule schedule = Schedule::Auto;
  EpilogueSpec epilogue;
  bool grouped = false;
  std::optional<int> stages;  ///< nullopt: auto (StageCountAutoCarveout)
  Mma mma = Mma::Auto;
  std::optional<std::array<long long, 3>> warp;  ///< sm80_multistage warp tile
  bool swap_ab = false;                          ///< TensorRT-LLM transposed MoE launch

  // ---- inference-engine FP8 kernels (issue 11) -----------------------------------------------
  // A config with a launcher is modelled by the engine families (engine_fp8_sm*): the launcher
  // decides what the config does not say (C type, fusion tree, schedules, tile scheduler).
  Launcher launcher = Launcher::None;  ///< None: not an engine-built kernel
  EngineOp op = EngineOp::ScaledMm;
  Bias bias = Bias::None;
  ScaleBlock scale_block;  ///< blockwise_fp8 only; as written (swap_ab swaps them for the kernel)
  bool c_given = false;    ///< `c` was written: it overrides the launcher's C

  // ---- Triton kernels (triton_matmul, triton_fused_moe; issue 12) -------------------------
  // The tile is [BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K] (m, n, k); `stages` is num_stages
  // (nullopt: Triton's default); `a` = `b` = the dot's operand type (e4m3 for fp8_w8a8); `d` is
  // the C type (triton_matmul: what the epilogue converts and stores).
  std::optional<int> num_warps;      ///< nullopt: Triton's default (4)
  std::optional<long long> group_m;  ///< GROUP_SIZE_M: index arithmetic only
  /// vLLM's block_shape [block_n, block_k]: fp8_w8a8 block-wise scales (triton_fused_moe).
  std::optional<std::array<long long, 2>> block_shape;
  bool fp8_w8a8 = false;           ///< triton_fused_moe dtype fp8_w8a8 (a = b = e4m3)
  bool mul_routed_weight = false;  ///< vLLM's MUL_ROUTED_WEIGHT (the MoE's second GEMM)
  /// The Triton version the config was tuned with ("3.4.0"); empty when not given.
  std::string triton_version;
  /// A vLLM/SGLang tuned file's quantisation that is not modelled ("int8_w8a16"); empty: none.
  std::string unmodelled_dtype;
  /// BLOCK_SIZE_K as a tuned file writes it, when vLLM's launcher clamps it to min(block_shape)
  /// (k is then the clamped value); 0: not clamped.
  long long tuned_block_k = 0;
  /// A tuned file's device_name ("NVIDIA_H100_80GB_HBM3"): the GPU it was tuned on.
  std::string tuned_device;
  /// Whose launcher (engine and release) turns this tuned-table entry into a launch; None: a
  /// plain config, launched as written (engine_release.hpp).
  EngineRelease engine = EngineRelease::None;
  /// What a tuned-table entry adds to the fused-MoE launch (triton_fused_moe; issue 16).
  struct TunedLaunch {
    /// The quantisation the table's name says (dtype=…); the engine's launcher decides the
    /// kernel it runs. Other: a dtype no modelled launcher builds a kernel for.
    enum class Quant : std::uint8_t { None, Bf16, Fp8W8a8, Int8W8a8, Int8W8a16, Int4W4a16, Other };
    Quant quant = Quant::None;
    bool per_channel_quant = false;  ///< per_channel_quant=True: per-token / per-channel scales
    std::optional<bool> use_tma;     ///< SGLang's USE_TMA (tensor-descriptor loads, _down tables)
    std::optional<int> num_ctas;     ///< num_ctas (CUDAOptions default 1)
    /// SPLIT_K as the entry gives it (only 1 is read): vLLM passes the entry to
    /// fused_moe_kernel_gptq_awq as **config, and that kernel's SPLIT_K has no default.
    std::optional<int> split_k;
    /// AMD (ROCm) keys, read and kept; ignored on NVIDIA targets.
    std::optional<int> waves_per_eu, matrix_instr_nonkdim, kpack;
    bool operator==(const TunedLaunch&) const = default;
  };
  TunedLaunch tuned;

  // ---- AMD targets (gfx942, gfx950; issue 20) ----------------------------------------------
  /// TRITON_HIP_USE_ASYNC_COPY (config field `hip_async_copy`, `--hip-async-copy on|off`);
  /// nullopt: Triton 3.6's default for the target. Only meaningful on an AMD target.
  std::optional<bool> hip_async_copy;

  // ---- Triton attention (triton_attention; issue 19) ---------------------------------------
  AttentionSpec attention;

  bool operator==(const KernelConfig&) const = default;
};

}  // namespace tilefit::model
