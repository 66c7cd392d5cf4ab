#include "tilefit/model/config.hpp"

namespace tilefit::model {
namespace {

template <class E>
struct NameOf { std::string_view name; E value; };

constexpr NameOf<Schedule> kSchedules[] = {
    {"auto", Schedule::Auto},   {"cooperative", Schedule::Cooperative},
    {"pingpong", Schedule::Pingpong}, {"1sm", Schedule::Sm1},
    {"2sm", Schedule::Sm2},     {"multistage", Schedule::Multistage},
    {"ws", Schedule::Ws},
};
constexpr NameOf<EpilogueVariant> kEpilogues[] = {
    {"auto", EpilogueVariant::Auto},
    {"tma", EpilogueVariant::Tma},
    {"nosmem", EpilogueVariant::NoSmem},
    {"blockscale_out", EpilogueVariant::BlockScaleOut},
    {"trtllm_default", EpilogueVariant::TrtllmDefault},
    {"finalize", EpilogueVariant::Finalize},
};
constexpr NameOf<Mma> kMmas[] = {{"auto", Mma::Auto}, {"f8f6f4", Mma::F8F6F4}, {"nvf4", Mma::Nvf4}};

template <class E, std::size_t N>
std::string_view name_of(const NameOf<E> (&table)[N], E v) {
  for (const auto& e : table)
    if (e.value == v) return e.name;
  return "?";
}
template <class E, std::size_t N>
std::optional<E> parse_in(const NameOf<E> (&table)[N], std::string_view s) {
  for (const auto& e : table)
    if (e.name == s) return e.value;
  return std::nullopt;
}

}  // namespace

std::string_view schedule_name(Schedule s) { return name_of(kSchedules, s); }
std::string_view epilogue_name(EpilogueVariant v) { return name_of(kEpilogues, v); }
std::string_view mma_name(Mma m) { return name_of(kMmas, m); }
std::optional<Schedule> parse_schedule(std::string_view s) { return parse_in(kSchedules, s); }
std::optional<EpilogueVariant> parse_epilogue(std::string_view s) { return parse_in(kEpilogues, s); }
std::optional<Mma> parse_mma(std::string_view s) { return parse_in(kMmas, s); }
std::string_view schedule_choices() { return "auto, cooperative, pingpong, 1sm, 2sm, multistage, ws"; }
std::string_view epilogue_choices() {
  return "auto, tma, nosmem, blockscale_out, trtllm_default, finalize";
}
std::string_view mma_choices() { return "auto, f8f6f4, nvf4"; }

// ---- inference-engine FP8 kernels (issue 11) -------------------------------------------------
namespace {
constexpr NameOf<Launcher> kLaunchers[] = {{"vllm", Launcher::Vllm}, {"sglang", Launcher::Sglang}};
constexpr NameOf<EngineOp> kEngineOps[] = {{"scaled_mm", EngineOp::ScaledMm},
                                           {"blockwise_fp8", EngineOp::BlockwiseFp8}};
constexpr NameOf<Bias> kBiases[] = {{"none", Bias::None}, {"row", Bias::Row}, {"column", Bias::Column}};
}  // namespace

std::string_view launcher_name(Launcher l) { return l == Launcher::None ? "none" : name_of(kLaunchers, l); }
std::string_view engine_op_name(EngineOp o) { return name_of(kEngineOps, o); }
std::string_view bias_name(Bias b) { return name_of(kBiases, b); }
std::optional<Launcher> parse_launcher(std::string_view s) { return parse_in(kLaunchers, s); }
std::optional<EngineOp> parse_engine_op(std::string_view s) { return parse_in(kEngineOps, s); }
std::optional<Bias> parse_bias(std::string_view s) { return parse_in(kBiases, s); }
std::string_view launcher_choices() { return "vllm, sglang"; }
std::string_view engine_op_choices() { return "scaled_mm, blockwise_fp8"; }
std::string_view bias_choices() { return "none, row, column"; }

}  // namespace tilefit::model
