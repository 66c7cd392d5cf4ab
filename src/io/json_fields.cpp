#include "io/json_fields.hpp"

#include <cctype>
#include <limits>

#include "io/suggest.hpp"

namespace tilefit::io::detail {

std::string type_error(std::string_view expected, const Value& v, std::string_view allowed) {
  std::string m = "expected " + std::string(expected) + ", got " + render(v);
  if (!allowed.empty()) m += "; allowed: " + std::string(allowed);
  return m;
}

std::string value_error(const Value& v, std::string_view noun, std::string_view allowed,
                        const std::optional<std::string>& suggestion) {
  std::string m = render(v) + " is not a valid " + std::string(noun);
  m += "; allowed: " + std::string(allowed);
  if (suggestion) m += "; did you mean \"" + *suggestion + "\"?";
  return m;
}

std::optional<std::int64_t> integer_in(const Value& v, std::int64_t lo, std::int64_t hi) {
  std::int64_t x = 0;
  if (v.kind == Value::Kind::Integer) {
    x = v.integer;
  } else if (v.kind == Value::Kind::Unsigned) {
    if (v.unsigned_ > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    x = static_cast<std::int64_t>(v.unsigned_);
  } else {
    return std::nullopt;  // fractions, exponents, and every non-number
  }
  if (x < lo || x > hi) return std::nullopt;
  return x;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

// "128x256x64" -> {128, 256, 64}; digits only, each within 1..max.
std::optional<std::vector<std::int64_t>> parse_extent_text(std::string_view s, std::size_t count,
                                                           std::int64_t max) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = start;
    while (end < s.size() && s[end] != 'x' && s[end] != 'X') ++end;
    const std::string_view part = s.substr(start, end - start);
    if (part.empty() || part.size() > 9) return std::nullopt;
    std::int64_t x = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return std::nullopt;
      x = x * 10 + (c - '0');
    }
    if (x < 1 || x > max) return std::nullopt;
    out.push_back(x);
    if (end == s.size()) break;
    start = end + 1;
  }
  if (out.size() != count) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::vector<std::int64_t>> read_extents(const Value& v, const ExtentSpec& spec,
                                                      Errors& errors) {
  const std::string range = "integers 1.." + std::to_string(spec.max);
  if (v.kind == Value::Kind::String) {
    if (auto r = parse_extent_text(v.text, spec.count, spec.max)) return r;
    errors.push_back(render(v) + " is not a valid " + std::string(spec.whole) + "; allowed: \"" +
                     std::string(spec.text) + "\" or " + std::string(spec.shape) + " with " +
                     range);
    return std::nullopt;
  }
  const std::string expected =
      std::string(spec.shape) + " or \"" + std::string(spec.text) + "\" with " + range;
  if (v.kind != Value::Kind::Array) {
    errors.push_back(type_error(expected, v));
    return std::nullopt;
  }
  if (v.items.size() != spec.count || v.truncated) {
    errors.push_back("expected " + std::to_string(spec.count) + " extents " +
                     std::string(spec.shape) + ", got " + render(v));
    return std::nullopt;
  }
  for (const Value& e : v.items) {
    if (!e.is_number()) {
      errors.push_back(type_error(expected, v));
      return std::nullopt;
    }
  }
  std::vector<std::int64_t> out;
  std::vector<std::string> reported;  // one message per distinct bad value
  for (const Value& e : v.items) {
    if (auto x = integer_in(e, 1, spec.max)) {
      out.push_back(*x);
      continue;
    }
    std::string m = render(e) + " is not a valid " + std::string(spec.noun) +
                    "; allowed: " + range + " (or \"" + std::string(spec.text) + "\")";
    bool seen = false;
    for (const std::string& r : reported) seen = seen || r == m;
    if (!seen) {
      reported.push_back(m);
      errors.push_back(std::move(m));
    }
  }
  if (out.size() != spec.count) return std::nullopt;
  return out;
}

std::optional<bool> read_bool(const Value& v, Errors& errors) {
  if (v.kind == Value::Kind::Bool) return v.boolean;
  errors.push_back(type_error("true or false", v));
  return std::nullopt;
}

std::optional<std::string> read_string(const Value& v, Errors& errors) {
  if (v.kind == Value::Kind::String) return v.text;
  errors.push_back(type_error("a string", v));
  return std::nullopt;
}

std::optional<std::string> suggest_name(std::string_view word, FieldKind kind) {
  return did_you_mean(word, allowed_names(kind));
}

std::optional<std::string> read_triton_version(const Value& v, Errors& errors) {
  constexpr std::string_view kAllowed = "a version such as \"3.6.0\" or \"3.4.0\"";
  if (v.kind != Value::Kind::String) {
    errors.push_back(type_error("a string", v, kAllowed));
    return std::nullopt;
  }
  const std::string& t = v.text;
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  bool ok = t.size() <= 32 && digits() && i < t.size() && t[i] == '.' && (++i, digits());
  for (std::size_t j = i; ok && j < t.size(); ++j)
    ok = static_cast<unsigned char>(t[j]) > 0x20 && static_cast<unsigned char>(t[j]) < 0x7F;
  if (ok) return t;
  errors.push_back(value_error(v, "Triton version", kAllowed));
  return std::nullopt;
}

}  // namespace tilefit::io::detail
