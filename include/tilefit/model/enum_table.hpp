// The names of the config's enums, as data: one row per enumerator, {value, name, what it
// mirrors}. Every name the reader accepts, the "allowed:" lists of its errors, did-you-mean,
// the config JSON Schema and the README's field lists are derived from these rows (pure data, no
// I/O), so no list of names is ever written twice or split back out of prose.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tilefit::model {

/// One enumerator: its value, its name in configs (lower case), and the source it mirrors
/// (the CUTLASS/Triton/engine type or argument it stands for).
template <class E>
struct EnumName {
  E value;
  std::string_view name;
  std::string_view mirrors;
};

/// The name of `v` in `table`, "?" when it has none.
template <class E>
constexpr std::string_view enum_name(std::span<const EnumName<E>> table, E v) {
  for (const EnumName<E>& e : table)
    if (e.value == v) return e.name;
  return "?";
}

/// The enumerator named `s` (exactly, lower case), or nullopt.
template <class E>
constexpr std::optional<E> parse_enum(std::span<const EnumName<E>> table, std::string_view s) {
  for (const EnumName<E>& e : table)
    if (e.name == s) return e.value;
  return std::nullopt;
}

/// The names of `table`, in order, joined by ", " ("auto, tma, nosmem").
template <class E>
std::string join_names(std::span<const EnumName<E>> table) {
  std::string out;
  for (const EnumName<E>& e : table) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

}  // namespace tilefit::model
