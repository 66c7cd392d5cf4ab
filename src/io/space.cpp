#include "tilefit/io/space.hpp"

#include <algorithm>
#include <set>
#include <variant>

#include "io/config_decoder.hpp"
#include "io/document.hpp"
#include "io/file_input.hpp"
#include "io/text_checks.hpp"
#include "io/json_fields.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/model/config_limits.hpp"

namespace tilefit::io {

using detail::Value;
using model::KernelConfig;

namespace {

/// Fields whose reading depends on no other field: a candidate takes them from the config read
/// with that alternative (one read per alternative, not per candidate). Every other field is
/// read together with the other varying fields it may depend on (dtype/a/b/sf_vec, c/d,
/// layout/swap_ab, and fields this table does not know).
struct Independent {
  std::string_view field;
  void (*apply)(KernelConfig& to, const KernelConfig& from);
};

const Independent kIndependent[] = {
    {"arch", [](KernelConfig& t, const KernelConfig& f) { t.arch = f.arch; }},
    {"kernel", [](KernelConfig& t, const KernelConfig& f) { t.family = f.family; }},
    {"tile", [](KernelConfig& t, const KernelConfig& f) { t.m = f.m, t.n = f.n, t.k = f.k; }},
    {"tile.m", [](KernelConfig& t, const KernelConfig& f) { t.m = f.m; }},
    {"tile.n", [](KernelConfig& t, const KernelConfig& f) { t.n = f.n; }},
    {"tile.k", [](KernelConfig& t, const KernelConfig& f) { t.k = f.k; }},
    {"cluster", [](KernelConfig& t, const KernelConfig& f) { t.cluster = f.cluster; }},
    {"schedule", [](KernelConfig& t, const KernelConfig& f) { t.schedule = f.schedule; }},
    {"epilogue", [](KernelConfig& t, const KernelConfig& f) { t.epilogue = f.epilogue; }},
    {"grouped", [](KernelConfig& t, const KernelConfig& f) { t.grouped = f.grouped; }},
    {"stages", [](KernelConfig& t, const KernelConfig& f) { t.stages = f.stages; }},
    {"mma", [](KernelConfig& t, const KernelConfig& f) { t.mma = f.mma; }},
    {"warp", [](KernelConfig& t, const KernelConfig& f) { t.warp = f.warp; }},
    {"acc", [](KernelConfig& t, const KernelConfig& f) { t.acc = f.acc; }},
    {"hip_async_copy",
     [](KernelConfig& t, const KernelConfig& f) { t.hip_async_copy = f.hip_async_copy; }},
};

const Independent* independent(std::string_view field) {
  for (const Independent& i : kIndependent)
    if (i.field == field) return &i;
  return nullptr;
}

/// The vocabulary kind of a config field, if it is one.
const FieldSpec* spec_of(std::string_view field) {
  for (const FieldSpec& f : config_fields())
    if (f.name == field) return &f;
  return nullptr;
}

/// Compact JSON of a Value, every number as written.
void write_value(std::string& out, const Value& v) {
  switch (v.kind) {
    case Value::Kind::Null:
      out += "null";
      break;
    case Value::Kind::Bool:
      out += v.boolean ? "true" : "false";
      break;
    case Value::Kind::Integer:
    case Value::Kind::Unsigned:
    case Value::Kind::Float:
      out += v.text;
      break;
    case Value::Kind::String:
      append_json_string(out, v.text);
      break;
    case Value::Kind::Array:
      out += '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        write_value(out, v.items[i]);
      }
      out += ']';
      break;
    case Value::Kind::Object:
      out += '{';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, v.keys[i]);
        out += ':';
        write_value(out, v.items[i]);
      }
      out += '}';
      break;
  }
}

std::string shown(const Value& v) {
  std::string s;
  write_value(s, v);
  return s;
}

/// The JSON type of a value, numbers as one.
std::string_view type_word(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return "boolean";
    case Value::Kind::Integer:
    case Value::Kind::Unsigned:
    case Value::Kind::Float:
      return "number";
    case Value::Kind::String:
      return "string";
    case Value::Kind::Array:
      return "array";
    case Value::Kind::Object:
      return "object";
  }
  return "?";
}

/// Pairs of JSON types one field may mix among its alternatives (it takes either).
bool may_mix(std::string_view field, std::string_view t1, std::string_view t2) {
  auto is = [&](std::string_view a, std::string_view b) {
    return (t1 == a && t2 == b) || (t1 == b && t2 == a);
  };
  if (field == "stages") return is("string", "number");
  if (field == "c") return is("null", "string");
  if (field == "arch") return is("string", "number");
  if (field == "epilogue") return is("string", "object");
  if (field == "tile" || field == "cluster" || field == "warp") return is("string", "array");
  return false;
}

/// Whether a field's single value is itself an array ([M, N, K], [x, y, z], ...).
bool array_valued(std::string_view field) {
  const FieldSpec* f = spec_of(field);
  return f && (f->kind == FieldKind::tile || f->kind == FieldKind::extents3 ||
               f->kind == FieldKind::extents2);
}

}  // namespace

/// Builds the ConfigSpace of one element of a sweep file's configs array.
class SpaceBuilder {
 public:
  SpaceBuilder(const std::string& file, std::size_t index, detail::ErrorSink& errors)
      : file_(file), index_(index), errors_(errors) {}

  /// The space, or nullopt when the config has errors (each reported).
  std::optional<ConfigSpace> build(Value&& obj, bool too_large) {
    name_ = "#" + std::to_string(index_);
    if (obj.kind != Value::Kind::Object || too_large) return read_as_is(std::move(obj), too_large);
    for (std::size_t i = 0; i < obj.keys.size(); ++i)
      if (obj.keys[i] == "name" && obj.items[i].kind == Value::Kind::String &&
          !obj.items[i].text.empty())
        name_ = obj.items[i].text;

    // Find the varying fields and their alternatives. A tile space {"m": [...], "n": [...],
    // "k": [...]} is three axes, tile.m, tile.n and tile.k (never a product held in memory).
    std::vector<std::size_t> member;  // member index of each axis
    std::vector<int> part;            // -1, or the tile extent (0 m, 1 n, 2 k) the axis sets
    std::vector<std::string> names;   // axis names
    std::vector<std::vector<Value>> alts;
    std::set<std::string> seen_keys;
    for (std::size_t i = 0; i < obj.keys.size(); ++i) {
      const std::string& key = obj.keys[i];
      if (!seen_keys.insert(key).second) continue;  // the decoder reports duplicates
      if (key == "tile" && obj.items[i].kind == Value::Kind::Object) {
        Value fixed;
        fixed.kind = Value::Kind::Array;
        std::vector<std::vector<Value>> dims = tile_dims(obj.items[i]);
        if (failed_) continue;
        for (int d = 0; d < 3; ++d) {
          fixed.items.push_back(dims[d].front());
          if (dims[d].size() < 2) continue;
          member.push_back(i);
          part.push_back(d);
          names.push_back(std::string("tile.") + "mnk"[d]);
          alts.push_back(std::move(dims[d]));
        }
        obj.items[i] = std::move(fixed);
        continue;
      }
      std::optional<std::vector<Value>> a = alternatives(key, obj.items[i]);
      if (!a) continue;
      if (!check_alternatives(key, *a)) continue;
      member.push_back(i);
      part.push_back(-1);
      names.push_back(key);
      alts.push_back(std::move(*a));
    }
    if (failed_) return std::nullopt;

    ConfigSpace s;
    s.file = file_;
    s.index = static_cast<int>(index_);
    s.name = name_;
    for (std::size_t i = 0; i < obj.keys.size(); ++i)
      s.arch_given = s.arch_given || obj.keys[i] == "arch";
    s.from = from();
    for (const std::string& key : obj.keys) s.from.give(key);
    long double count = 1;
    for (std::size_t a = 0; a < alts.size(); ++a) {
      ConfigSpace::Axis axis;
      axis.field = names[a];
      s.from.give(names[a].substr(0, names[a].find('.')), true);  // "tile.m" varies "tile"
      for (const Value& v : alts[a]) axis.shown.push_back(shown(v));
      s.axes_.push_back(std::move(axis));
      count *= static_cast<long double>(alts[a].size());
    }
    if (count > static_cast<long double>(kMaxCandidates)) {
      std::string sizes;
      for (const auto& a : alts) sizes += (sizes.empty() ? "" : " x ") + std::to_string(a.size());
      error("", "a space of " + std::to_string(static_cast<unsigned long long>(count)) +
                    " candidates (" + sizes + "): more than " + std::to_string(kMaxCandidates) +
                    "; narrow the alternatives or split the config");
      return std::nullopt;
    }
    s.size_ = static_cast<std::uint64_t>(count);
    s.stride_.assign(alts.size(), 1);
    for (std::size_t a = alts.size(); a-- > 1;) s.stride_[a - 1] = s.stride_[a] * alts[a].size();

    // Which axes are read together.
    bool operand_axis = false;
    for (const ConfigSpace::Axis& a : s.axes_)
      operand_axis = operand_axis || a.field == "dtype" || a.field == "a" || a.field == "b";
    std::vector<bool> coupled(alts.size());
    for (std::size_t a = 0; a < alts.size(); ++a) {
      const std::string& f = s.axes_[a].field;
      coupled[a] =
          independent(f) == nullptr || (f == "tile" && operand_axis && k_in_bytes(alts[a]));
      if (coupled[a]) s.coupled_.push_back(a);
    }

    // A config with axis `a` at alternative choice[a].
    std::vector<std::size_t> choice(alts.size(), 0);
    auto config_at = [&]() {
      Value v = obj;
      for (std::size_t a = 0; a < alts.size(); ++a) {
        if (part[a] < 0)
          v.items[member[a]] = alts[a][choice[a]];
        else
          v.items[member[a]].items[static_cast<std::size_t>(part[a])] = alts[a][choice[a]];
      }
      return v;
    };

    // Every coupled combination, read whole.
    std::uint64_t combos = 1;
    for (std::size_t a : s.coupled_) combos *= alts[a].size();
    for (std::uint64_t c = 0; c < combos; ++c) {
      std::uint64_t rest = c;
      for (std::size_t j = s.coupled_.size(); j-- > 0;) {
        const std::size_t a = s.coupled_[j];
        choice[a] = rest % alts[a].size();
        rest /= alts[a].size();
      }
      std::optional<KernelConfig> cfg = read(config_at(), s, choice, coupled, /*only=*/-1);
      if (cfg) s.combos_.push_back(std::move(*cfg));
    }
    std::fill(choice.begin(), choice.end(), 0);
    // Each alternative of an independent axis, read once.
    for (std::size_t a = 0; a < alts.size(); ++a) {
      if (coupled[a]) continue;
      ConfigSpace::Setter setter{a, {}, independent(s.axes_[a].field)->apply};
      for (std::size_t j = 0; j < alts[a].size(); ++j) {
        choice[a] = j;
        std::optional<KernelConfig> cfg =
            read(config_at(), s, choice, coupled, static_cast<int>(a));
        if (cfg) setter.decoded.push_back(std::move(*cfg));
      }
      choice[a] = 0;
      s.setters_.push_back(std::move(setter));
    }
    if (failed_) return std::nullopt;
    return s;
  }

 private:
  /// The alternatives `key`'s value holds, or nullopt when it is a single value.
  std::optional<std::vector<Value>> alternatives(const std::string& key, const Value& v) {
    if (key == "name" || key == "comment" || key == "description") return std::nullopt;
    if (v.kind != Value::Kind::Array) return std::nullopt;
    if (key == "epilogue" || !array_valued(key)) {
      if (!spec_of(key)) return std::nullopt;  // unknown field: the decoder says so
      return v.items;
    }
    // An array-valued field holds alternatives when its items are arrays or strings.
    if (v.items.empty()) return v.items;  // reported as "no alternatives"
    for (const Value& item : v.items)
      if (item.kind != Value::Kind::Array && item.kind != Value::Kind::String) return std::nullopt;
    return v.items;
  }

  /// {"m": [..], "n": [..], "k": [..]} -> the values of each extent (one when it is a number).
  std::vector<std::vector<Value>> tile_dims(const Value& v) {
    const Value* dims[3] = {nullptr, nullptr, nullptr};
    for (std::size_t i = 0; i < v.keys.size(); ++i) {
      const std::string& k = v.keys[i];
      const int d = k == "m" ? 0 : k == "n" ? 1 : k == "k" ? 2 : -1;
      if (d < 0) {
        error("tile." + k,
              "unknown field; a tile space is {\"m\": [...], \"n\": [...], \"k\": [...]}");
        continue;
      }
      dims[d] = &v.items[i];
    }
    std::vector<std::vector<Value>> values(3);
    for (int d = 0; d < 3; ++d) {
      const std::string field = std::string("tile.") + "mnk"[d];
      if (!dims[d]) {
        error(field, "missing; a tile space is {\"m\": [...], \"n\": [...], \"k\": [...]}");
        continue;
      }
      if (dims[d]->kind == Value::Kind::Array) {
        values[d] = dims[d]->items;
        if (values[d].empty())
          error(field, "an empty array of alternatives; give at least one extent");
      } else {
        values[d] = {*dims[d]};
      }
      for (const Value& x : values[d])
        if (!detail::integer_in(x, 1, model::kMaxTileExtent))
          error(field, detail::render(x) + " is not a valid tile extent; allowed: integers 1.." +
                           std::to_string(model::kMaxTileExtent));
      std::set<std::string> dup;
      for (const Value& x : values[d])
        if (!dup.insert(shown(x)).second)
          error(field, "duplicate alternative " + shown(x) + "; give each value once");
    }
    return values;
  }

  /// Empty, duplicate and mixed-type alternatives are errors naming the field.
  bool check_alternatives(const std::string& key, const std::vector<Value>& alts) {
    bool ok = true;
    if (alts.empty() && !failed_) {
      error(key, "an empty array of alternatives; give at least one value");
      return false;
    }
    std::set<std::string> dup;
    for (const Value& v : alts)
      if (!dup.insert(shown(v)).second) {
        error(key, "duplicate alternative " + detail::render(v) + "; give each value once");
        ok = false;
      }
    for (const Value& v : alts) {
      const std::string_view t1 = type_word(alts.front()), t2 = type_word(v);
      if (t1 != t2 && !may_mix(key, t1, t2)) {
        error(key, "alternatives of mixed types (" + std::string(t1) + " " +
                       detail::render(alts.front()) + " and " + std::string(t2) + " " +
                       detail::render(v) + "); give values of one type");
        ok = false;
        break;
      }
    }
    return ok;
  }

  /// Whether any tile alternative counts K in bytes ("…x64B").
  static bool k_in_bytes(const std::vector<Value>& alts) {
    for (const Value& v : alts)
      if (v.kind == Value::Kind::String && !v.text.empty() &&
          (v.text.back() == 'B' || v.text.back() == 'b'))
        return true;
    return false;
  }

  /// Reads one concrete config. `only` >= 0: report only the errors of that axis (the rest are
  /// reported by the read of the coupled combinations).
  std::optional<KernelConfig> read(const Value& v, const ConfigSpace& s,
                                   const std::vector<std::size_t>& choice,
                                   const std::vector<bool>& coupled, int only) {
    detail::DecodedConfig d = detail::decode_config(v, index_, false, errors_.listing());
    if (d.config) return std::move(*d.config);
    for (detail::FieldError& e : d.errors) {
      const std::string top = e.field.substr(0, e.field.find('.'));
      int axis = -1;
      for (std::size_t a = 0; a < s.axes_.size(); ++a)
        if (s.axes_[a].field == top) axis = static_cast<int>(a);
      if (only >= 0 && axis != only) continue;
      if (only < 0 && axis >= 0 && !coupled[static_cast<std::size_t>(axis)]) continue;
      std::string field = e.field;
      if (axis >= 0)
        field.insert(top.size(), std::string("[") +
                                     std::to_string(choice[static_cast<std::size_t>(axis)]) + "]");
      error(field, std::move(e.message));
    }
    failed_ = true;
    return std::nullopt;
  }

  /// A config that is not an object, or too large: the decoder's errors as they are.
  std::optional<ConfigSpace> read_as_is(Value&& v, bool too_large) {
    if (too_large) {
      error("", "config too large: more than " + std::to_string(kMaxValuesPerSpace) +
                    " JSON values in one space; split its alternatives over several configs");
      return std::nullopt;
    }
    detail::DecodedConfig d = detail::decode_config(v, index_, false, errors_.listing());
    name_ = d.name;
    for (detail::FieldError& e : d.errors) error(std::move(e.field), std::move(e.message));
    return std::nullopt;
  }

  void error(std::string field, std::string message) {
    const std::string key = field + "\n" + message;
    failed_ = true;
    if (!reported_.insert(key).second) return;
    errors_.error(from().error(name_, std::move(field), std::move(message)));
  }

  /// The space's provenance: a config object of the file (its candidates are sweep alternatives).
  Provenance from() const {
    Provenance p;
    p.file = file_;
    p.index = static_cast<int>(index_);
    return p;
  }

  const std::string& file_;
  std::size_t index_;
  detail::ErrorSink& errors_;
  std::string name_;
  bool failed_ = false;
  std::set<std::string> reported_;
};

std::vector<std::size_t> ConfigSpace::choice(std::uint64_t i) const {
  std::vector<std::size_t> out(axes_.size());
  for (std::size_t a = 0; a < axes_.size(); ++a) out[a] = (i / stride_[a]) % axes_[a].shown.size();
  return out;
}

void ConfigSpace::candidate(std::uint64_t i, KernelConfig& out) const {
  std::uint64_t combo = 0;
  for (std::size_t a : coupled_)
    combo = combo * axes_[a].shown.size() + (i / stride_[a]) % axes_[a].shown.size();
  out = combos_[combo];
  for (const Setter& s : setters_)
    s.apply(out, s.decoded[(i / stride_[s.axis]) % s.decoded.size()]);
  if (size_ > 1) out.name = name + "@" + std::to_string(i);
}

Provenance ConfigSpace::provenance(std::uint64_t i) const {
  Provenance p = from;
  if (size_ > 1) {
    p.origin = Provenance::Origin::sweep_alternative;
    p.key = name + "@" + std::to_string(i);
  }
  return p;
}

ConfigSpace ConfigSpace::single(const LoadedConfig& c) {
  ConfigSpace s;
  s.file = c.file;
  s.index = c.index;
  s.name = c.config.name;
  s.arch_given = c.arch_given;
  s.from = c.from;
  s.combos_.push_back(c.config);
  return s;
}

namespace detail {

SpaceLoad parse_spaces(std::string_view text, const std::string& file_label) {
  SpaceLoad r;
  detail::Document d = detail::parse_document(
      text, file_label,
      [&](std::size_t index, Value&& v, bool too_large, detail::ErrorSink& errors) {
        if (v.kind == Value::Kind::String) {  // a kernel name: a space of its one config
          std::optional<LoadedConfig> named =
              detail::read_kernel_name(v.text, file_label, index, errors);
          if (named) r.spaces.push_back(ConfigSpace::single(*named));
          return named.has_value();
        }
        std::optional<ConfigSpace> s =
            SpaceBuilder(file_label, index, errors).build(std::move(v), too_large);
        if (!s) return false;
        r.spaces.push_back(std::move(*s));
        return true;
      },
      kMaxValuesPerSpace);
  if (d.fatal) r.spaces.clear();
  for (const LoadedConfig& c : d.tuned) r.spaces.push_back(ConfigSpace::single(c));
  r.errors = std::move(d.errors);
  return r;
}

}  // namespace detail

}  // namespace tilefit::io
