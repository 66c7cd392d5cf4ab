#include "tilefit/model/config.hpp"

namespace tilefit::model {
namespace {

template <class E>
struct NameOf { std::string_view name; E value; };

constexpr NameOf<Schedule> kSchedules[] = {
    {"auto", Schedule::Auto},   {"cooperative", Schedule::Cooperative},
    {"pingpong", Schedule::Pingpong}, {"1sm", Schedule::Sm1},
    {"2sm", Schedule::Sm2},     {"multistage", Schedule::Multistage},
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
std::string_view schedule_choices() { return "auto, cooperative, pingpong, 1sm, 2sm, multistage"; }
std::string_view epilogue_choices() {
  return "auto, tma, nosmem, blockscale_out, trtllm_default, finalize";
}
std::string_view mma_choices() { return "auto, f8f6f4, nvf4"; }

}  // namespace tilefit::model
