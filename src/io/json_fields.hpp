// Typed readers for config fields: each returns the value when it is valid and otherwise
// appends one message to `errors` (never throws). The message shapes are fixed:
//   wrong JSON type:  expected <what>, got <value>[; allowed: <choices>]
//   bad value:        <value> is not a valid <noun>; allowed: <choices>[; did you mean "<s>"?]
// where <value> is the JSON as written, cut to about 40 bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_value.hpp"
#include "io/suggest.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/model/enum_table.hpp"

namespace tilefit::io::detail {

using Errors = std::vector<std::string>;

/// "expected <expected>, got <v>" (+ "; allowed: <allowed>").
std::string type_error(std::string_view expected, const Value& v, std::string_view allowed = {});

/// "<v> is not a valid <noun>; allowed: <allowed>" (+ "; did you mean \"<s>\"?").
std::string value_error(const Value& v, std::string_view noun, std::string_view allowed,
                        const std::optional<std::string>& suggestion = std::nullopt);

/// The value of a JSON integer (written without fraction or exponent) within [lo, hi];
/// nullopt for anything else, including integers beyond the int64 range.
std::optional<std::int64_t> integer_in(const Value& v, std::int64_t lo, std::int64_t hi);

/// ASCII lower case.
std::string lower_ascii(std::string_view s);

/// A fixed-length list of positive extents: [a, b, c] or the string "AxBxC".
struct ExtentSpec {
  std::size_t count;       ///< 3 for tiles, 2 for the epilogue tile
  std::string_view shape;  ///< "[M, N, K]"
  std::string_view text;   ///< "MxNxK"
  std::string_view noun;   ///< "tile extent" (one element)
  std::string_view whole;  ///< "tile" (the whole value)
  std::int64_t max;        ///< largest extent
};
std::optional<std::vector<std::int64_t>> read_extents(const Value& v, const ExtentSpec& spec,
                                                      Errors& errors);

std::optional<bool> read_bool(const Value& v, Errors& errors);

std::optional<std::string> read_string(const Value& v, Errors& errors);

/// A Triton version: "3.6.0", "3.4.0", "3.6" (digits.digits, then optionally more version text:
/// ".1", "+git1234"), at most 32 bytes.
std::optional<std::string> read_triton_version(const Value& v, Errors& errors);

/// A string naming one of the names of `kind` (allowed_names(kind), from the model's name
/// tables), matched case-insensitively through `parse`; `choices` is the "allowed:" text the
/// model derives from the same table. Suggests the nearest name when unknown.
template <class Parse>
auto read_choice(const Value& v, Parse parse, std::string_view noun, std::string_view choices,
                 FieldKind kind, Errors& errors) -> decltype(parse(std::string_view{}));

/// Suggestion for `word` among allowed_names(kind).
std::optional<std::string> suggest_name(std::string_view word, FieldKind kind);

/// A string naming one row of the model's name table `table` (model/enum_table.hpp), matched
/// case-insensitively: the table gives the parse, the "allowed:" list and the did-you-mean.
template <class E>
std::optional<E> read_enum(const Value& v, std::span<const model::EnumName<E>> table,
                           std::string_view noun, Errors& errors) {
  if (v.kind != Value::Kind::String) {
    errors.push_back(type_error("a string", v, model::join_names(table)));
    return std::nullopt;
  }
  if (auto r = model::parse_enum(table, lower_ascii(v.text))) return r;
  std::vector<std::string> names;
  for (const model::EnumName<E>& e : table) names.emplace_back(e.name);
  errors.push_back(value_error(v, noun, model::join_names(table), did_you_mean(v.text, names)));
  return std::nullopt;
}

template <class Parse>
auto read_choice(const Value& v, Parse parse, std::string_view noun, std::string_view choices,
                 FieldKind kind, Errors& errors) -> decltype(parse(std::string_view{})) {
  if (v.kind != Value::Kind::String) {
    errors.push_back(type_error("a string", v, choices));
    return std::nullopt;
  }
  if (auto r = parse(lower_ascii(v.text))) return r;
  errors.push_back(value_error(v, noun, choices, suggest_name(v.text, kind)));
  return std::nullopt;
}

}  // namespace tilefit::io::detail
