#include "tilefit/model/config.hpp"

namespace tilefit::model {
namespace {

constexpr EnumName<Schedule> kSchedules[] = {
    {Schedule::Auto, "auto", "KernelScheduleAuto (the collective builder picks)"},
    {Schedule::Cooperative, "cooperative", "KernelTmaWarpSpecializedCooperative*"},
    {Schedule::Pingpong, "pingpong", "KernelTmaWarpSpecializedPingpong*"},
    {Schedule::Sm1, "1sm", "KernelTmaWarpSpecialized1Sm*Sm100"},
    {Schedule::Sm2, "2sm", "KernelTmaWarpSpecialized2Sm*Sm100"},
    {Schedule::Multistage, "multistage", "CUTLASS 2.x MmaMultistage (cp.async)"},
    {Schedule::Ws, "ws", "KernelTmaWarpSpecialized* (basic, non-persistent)"},
};
constexpr EnumName<EpilogueVariant> kEpilogues[] = {
    {EpilogueVariant::Auto, "auto", "EpilogueScheduleAuto (the collective builder picks)"},
    {EpilogueVariant::Tma, "tma", "TmaWarpSpecialized* epilogue"},
    {EpilogueVariant::NoSmem, "nosmem", "NoSmemWarpSpecialized epilogue"},
    {EpilogueVariant::BlockScaleOut, "blockscale_out", "block-scaled output (scale-factor fusion)"},
    {EpilogueVariant::TrtllmDefault, "trtllm_default", "TensorRT-LLM MoE epilogue, fusion NONE"},
    {EpilogueVariant::Finalize, "finalize", "TensorRT-LLM MoE epilogue, fusion FINALIZE"},
};
constexpr EnumName<Mma> kMmas[] = {
    {Mma::Auto, "auto", "the builder's choice"},
    {Mma::F8F6F4, "f8f6f4", "mma kind::f8f6f4 (fp4/fp6 stored as one byte)"},
    {Mma::Nvf4, "nvf4", "mma kind::mxf4nvf4"},
};

// ---- inference-engine FP8 kernels (issue 11) -------------------------------------------------
constexpr EnumName<EngineOp> kEngineOps[] = {
    {EngineOp::ScaledMm, "scaled_mm", "per-tensor / per-token x per-channel scaled GEMM"},
    {EngineOp::BlockwiseFp8, "blockwise_fp8", "DeepSeek-style blockwise-scaled FP8 GEMM"},
};
constexpr EnumName<Bias> kBiases[] = {
    {Bias::None, "none", "no bias"},
    {Bias::Row, "row", "Sm90RowBroadcast<ElementD>"},
    {Bias::Column, "column", "Sm90ColBroadcast"},
};

/// The names of a table joined once, for the lifetime of the program.
template <class E, std::size_t N>
std::string_view choices(const EnumName<E> (&table)[N]) {
  static const std::string joined = join_names(std::span<const EnumName<E>>(table));
  return joined;
}

}  // namespace

std::span<const EnumName<Schedule>> schedule_names() { return kSchedules; }
std::span<const EnumName<EpilogueVariant>> epilogue_names() { return kEpilogues; }
std::span<const EnumName<Mma>> mma_names() { return kMmas; }
std::span<const EnumName<EngineOp>> engine_op_names() { return kEngineOps; }
std::span<const EnumName<Bias>> bias_names() { return kBiases; }

std::string_view schedule_name(Schedule s) { return enum_name(schedule_names(), s); }
std::string_view epilogue_name(EpilogueVariant v) { return enum_name(epilogue_names(), v); }
std::string_view mma_name(Mma m) { return enum_name(mma_names(), m); }
std::optional<Schedule> parse_schedule(std::string_view s) {
  return parse_enum(schedule_names(), s);
}
std::optional<EpilogueVariant> parse_epilogue(std::string_view s) {
  return parse_enum(epilogue_names(), s);
}
std::optional<Mma> parse_mma(std::string_view s) { return parse_enum(mma_names(), s); }
std::string_view schedule_choices() { return choices(kSchedules); }
std::string_view epilogue_choices() { return choices(kEpilogues); }
std::string_view mma_choices() { return choices(kMmas); }

std::string_view engine_op_name(EngineOp o) { return enum_name(engine_op_names(), o); }
std::string_view bias_name(Bias b) { return enum_name(bias_names(), b); }
std::optional<EngineOp> parse_engine_op(std::string_view s) {
  return parse_enum(engine_op_names(), s);
}
std::optional<Bias> parse_bias(std::string_view s) { return parse_enum(bias_names(), s); }
std::string_view engine_op_choices() { return choices(kEngineOps); }
std::string_view bias_choices() { return choices(kBiases); }

}  // namespace tilefit::model
