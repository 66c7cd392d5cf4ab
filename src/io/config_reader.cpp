#include "io/config_reader.hpp"

#include <algorithm>
#include <functional>
#include <utility>
#include <variant>

#include "io/config_decoder.hpp"
#include "io/document.hpp"
#include "tilefit/io/config_writer.hpp"
#include "tilefit/io/kernel_name.hpp"
#include "io/file_input.hpp"
#include "io/json_fields.hpp"
#include "io/json_stream.hpp"
#include "io/suggest.hpp"
#include "io/text_checks.hpp"
#include "io/tuned_file.hpp"
#include "tilefit/io/vocabulary.hpp"

namespace tilefit::io {
namespace {

using detail::Value;

const std::vector<std::string>& top_level_keys() {
  static const std::vector<std::string> k = field_names(file_fields());
  return k;
}

const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> k = field_names(config_fields());
  return k;
}

bool is_config_key(const std::string& key) {
  const auto& k = config_keys();
  return std::find(k.begin(), k.end(), key) != k.end();
}

constexpr std::string_view kExpectedDocument =
    "expected a JSON object {\"configs\": [...]} or an array of configs";

/// Collects the file-level problems of what the stream delivers and hands each config to the
/// document's ConfigHandler, keeping at most kMaxErrorsPerFile errors and counting the rest. A
/// vLLM/SGLang tuned table (io/tuned_file.hpp) is decoded here, entry by entry.
class Collector : public detail::StreamSink, public detail::ErrorSink {
 public:
  Collector(const std::string& file, const detail::ConfigHandler& handle)
      : file_(file), handle_(handle), tuned_name_(detail::parse_tuned_name(file)) {}

  /// Which format the file is in: a configs file, one config object, or a vLLM/SGLang tuned
  /// table — decided by the first thing in it: a configs array means configs; a first top-level
  /// key that is a batch size or "triton_version" means a tuned table, and so does a file named
  /// like one (E=…,N=…,device_name=….json) unless its first key is one of a configs file's; a
  /// first key that is a config field ("tile", "arch", ...) means the object is one config (what
  /// sweep and suggest print as "config", what analyze() takes).
  enum class Mode { undecided, configs, tuned, single };
  Mode mode() const { return mode_; }
  const detail::TunedName& tuned_name() const { return tuned_name_; }

  void on_config(std::size_t index, Value&& v, bool too_large) override {
    if (mode_ == Mode::undecided) mode_ = Mode::configs;
    if (mode_ == Mode::tuned) {
      if (!configs_in_tuned_reported_)
        file_error("configs",
                   "a tuned fused-MoE table's keys are batch sizes; it has no \"configs\" array");
      configs_in_tuned_reported_ = true;
      return;
    }
    if (mode_ == Mode::single) {
      if (!configs_in_single_reported_)
        file_error("configs",
                   "the file is one config object (its first field is a config's), so it "
                   "cannot also hold a \"configs\" array; give one or the other");
      configs_in_single_reported_ = true;
      return;
    }
    if (!handle_(index, std::move(v), too_large, *this)) ++bad_configs_;
  }
  bool listing() const override { return result_.errors.size() < kMaxErrorsPerFile; }
  void error(ConfigError e) override { add(std::move(e)); }

  void on_top_field(const std::string& key, Value&& v, bool duplicate) override {
    if (mode_ == Mode::undecided) {
      const auto& known = top_level_keys();
      const bool configs_key = std::find(known.begin(), known.end(), key) != known.end();
      mode_ = detail::is_batch_size(key) || key == "triton_version" ||
                      (tuned_name_.matches && !configs_key)
                  ? Mode::tuned
              : !configs_key && is_config_key(key) ? Mode::single
                                                   : Mode::configs;
      if (mode_ == Mode::single) single_.kind = Value::Kind::Object;
    }
    if (mode_ == Mode::tuned) {
      tuned_member(key, std::move(v), duplicate);
      return;
    }
    if (mode_ == Mode::single) {
      // Every member belongs to the one config ("configs" or "$schema" included: the config's
      // decoder names what it does not know).
      single_values_ += 1 + count_values(v);
      single_truncated_ = single_truncated_ || v.truncated;
      single_.keys.push_back(key);
      single_.items.push_back(std::move(v));
      return;
    }
    const std::string field = detail::truncate_utf8(key, 64);
    if (key == "configs") {
      if (duplicate)
        duplicate_configs_ = true;
      else
        configs_not_array_ = detail::type_error("an array of configs", v);
      return;
    }
    const auto& known = top_level_keys();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string m = "unknown top-level field; allowed: ";
      for (std::size_t i = 0; i < known.size(); ++i) m += (i ? ", " : "") + known[i];
      if (auto s = detail::did_you_mean(key, known)) m += "; did you mean \"" + *s + "\"?";
      file_error(field, std::move(m));
    } else if (duplicate) {
      file_error(field, "duplicate field (JSON keeps only one); give it once");
    } else if (v.kind != Value::Kind::String) {
      file_error(field, detail::type_error("a string", v));
    }
  }

  void file_error(std::string field, std::string message) {
    add({file_, -1, "", std::move(field), std::move(message)});
  }

  /// Replaces everything with one file-level error: the file as a whole is unreadable.
  LoadResult fatal(std::string message, std::string field = "") {
    LoadResult r;
    r.errors.push_back({file_, -1, "", std::move(field), std::move(message)});
    return r;
  }

  std::vector<ConfigError> finish_errors() { return std::move(finish().errors); }

  LoadResult finish() {
    if (mode_ == Mode::tuned || (mode_ == Mode::undecided && tuned_name_.matches)) {
      if (tuned_entries_ == 0)
        result_.errors.push_back({file_, -1, "", "",
                                  "a tuned fused-MoE table with no batch-size entries "
                                  "(expected {\"1\": {\"BLOCK_SIZE_M\": …, …}, …})"});
      if (!triton_version_.empty())
        for (LoadedConfig& c : result_.configs) {
          c.config.triton_version = triton_version_;
          c.from.give("triton");
        }
    }
    if (suppressed_ > 0)
      result_.errors.push_back({file_, -1, "", "",
                                std::to_string(suppressed_) + " more errors not listed (at most " +
                                    std::to_string(kMaxErrorsPerFile) + " are listed per file); " +
                                    std::to_string(bad_configs_) + " configs have errors in all"});
    return std::move(result_);
  }

  /// Mode::single: hands the one config to the handler (index 0).
  void finish_single() {
    const bool too_large = single_truncated_ || single_values_ > kMaxValuesPerConfig;
    if (!handle_(0, std::move(single_), too_large, *this)) ++bad_configs_;
  }

  bool duplicate_configs_ = false;
  std::string configs_not_array_;

 private:
  /// One member of a tuned table: "triton_version", or an entry named by its batch size.
  void tuned_member(const std::string& key, Value&& v, bool duplicate) {
    if (key == "triton_version") {
      detail::Errors e;
      if (duplicate) {
        file_error(key, "duplicate field (JSON keeps only one); give it once");
      } else if (auto ver = detail::read_triton_version(v, e)) {
        triton_version_ = *ver;
      } else {
        for (std::string& m : e) file_error(key, std::move(m));
      }
      return;
    }
    const int index = static_cast<int>(tuned_entries_++);
    const std::string name = detail::truncate_utf8(key, kMaxNameBytes);
    if (tuned_entries_ > kMaxConfigsPerFile) {
      if (tuned_entries_ == kMaxConfigsPerFile + 1)
        file_error("", "too many entries: more than " + std::to_string(kMaxConfigsPerFile) +
                           " in one tuned table; split it into several files");
      return;
    }
    if (duplicate) {
      ++bad_configs_;
      add({file_, index, name, "", "duplicate batch size (JSON keeps only one); give it once"});
      return;
    }
    switch (detail::read_batch_size(key)) {
      case detail::BatchKey::ok:
        break;
      case detail::BatchKey::not_integer:
        ++bad_configs_;
        add({file_, index, name, "",
             "not a batch size: a tuned table's keys are batch sizes (decimal integers; vLLM and "
             "SGLang call int(key) on them) or \"triton_version\""});
        return;
      case detail::BatchKey::too_large:
        ++bad_configs_;
        add({file_, index, name, "",
             "batch size beyond 2^64 - 1 (18446744073709551615): vLLM and SGLang read it (Python "
             "int) but no batch reaches it; tilefit reads batch sizes up to 2^64 - 1"});
        return;
    }
    detail::DecodedConfig d = detail::decode_tuned_entry(v, key, tuned_name_, listing());
    Provenance from{Provenance::Origin::tuned_entry, file_, index, key, d.given};
    if (d.config) {
      result_.configs.push_back({file_, index, std::move(*d.config), false, std::move(from)});
      return;
    }
    ++bad_configs_;
    for (detail::FieldError& e : d.errors)
      add(from.error(name, std::move(e.field), std::move(e.message)));
  }

  void add(ConfigError e) {
    if (result_.errors.size() < kMaxErrorsPerFile)
      result_.errors.push_back(std::move(e));
    else
      ++suppressed_;
  }

  std::string file_;
  const detail::ConfigHandler& handle_;
  detail::TunedName tuned_name_;
  Mode mode_ = Mode::undecided;
  std::size_t tuned_entries_ = 0;
  std::string triton_version_;  ///< a tuned table's "triton_version" key
  bool configs_in_tuned_reported_ = false;
  LoadResult
      result_;  ///< errors; configs only for a tuned table (a configs file's go to the handler)
  std::size_t suppressed_ = 0;
  std::size_t bad_configs_ = 0;
  Value single_;  ///< Mode::single: the members so far
  std::size_t single_values_ = 0;
  bool single_truncated_ = false;
  bool configs_in_single_reported_ = false;

  static std::size_t count_values(const Value& v) {
    std::size_t n = 0;
    for (const Value& c : v.items) n += 1 + count_values(c);
    return n;
  }
};

/// The whole document is unreadable: only the one error `c.fatal()` made.
detail::Document fatal_document(Collector& c, std::string message, std::string field = "") {
  return {c.fatal(std::move(message), std::move(field)).errors, true, false, {}};
}

std::string top_kind_phrase(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return "a boolean (" + detail::render(v) + ")";
    case Value::Kind::String:
      return "a string (" + detail::render(v) + ")";
    default:
      return "a number (" + detail::render(v) + ")";
  }
}

/// The config's member `field` is an array of alternatives where a config takes one value (a
/// sweep file's `"stages": [2, 3]` or `"tile": [[128,128,64], [64,64,64]]`, given to check): with
/// its first element in its place, the field reads.
bool holds_alternatives(const Value& config, const std::string& field) {
  if (config.kind != Value::Kind::Object) return false;
  for (std::size_t i = 0; i < config.keys.size(); ++i) {
    if (config.keys[i] != field || config.items[i].kind != Value::Kind::Array ||
        config.items[i].items.empty())
      continue;
    Value first = config;
    Value one = config.items[i].items.front();
    first.items[i] = std::move(one);
    const detail::DecodedConfig dc = detail::decode_config(first, 0, false, false);
    for (const detail::FieldError& e : dc.errors)
      if (e.field == field) return false;
    return true;
  }
  return false;
}

}  // namespace

namespace detail {

std::optional<LoadedConfig> read_kernel_name(const std::string& name, const std::string& file,
                                             std::size_t index, ErrorSink& errors) {
  std::variant<NamedConfig, KernelNameError> r = config_from_kernel_name(name);
  Provenance from{Provenance::Origin::kernel_name, file, static_cast<int>(index), name, 0};
  if (auto* e = std::get_if<KernelNameError>(&r)) {
    errors.error(
        from.error(truncate_utf8(name, kMaxNameBytes), "",
                   "not a CUTLASS kernel name tilefit reads: " + format_kernel_name_error(*e)));
    return std::nullopt;
  }
  NamedConfig& n = std::get<NamedConfig>(r);
  from.given = n.given;
  if (!n.config) {
    for (model::ConfigIssue& i : n.errors)
      errors.error(from.error(name, std::move(i.field), std::move(i.message)));
    return std::nullopt;
  }
  return LoadedConfig{file, static_cast<int>(index), std::move(*n.config), n.arch_given,
                      std::move(from)};
}

Document parse_document(std::string_view text, const std::string& file_label,
                        const ConfigHandler& handle, std::size_t max_values) {
  Collector c(file_label, handle);
  if (auto problem = detail::check_text(text)) return fatal_document(c, *problem);
  // A file named like a tuned table with a part that does not parse: analysing it as some other
  // kernel would be a guess.
  if (const std::string bad = detail::tuned_name_error(c.tuned_name()); !bad.empty())
    return fatal_document(c, bad);
  const std::string_view body = detail::strip_utf8_bom(text);
  const detail::StreamOutcome out = detail::stream_configs(body, c, max_values);
  using Failure = detail::StreamOutcome::Failure;
  switch (out.failure) {
    case Failure::Syntax:
      return fatal_document(
          c, "not JSON: " + detail::describe_parse_error(body, out.position, out.parser_message,
                                                         out.parser_error_id));
    case Failure::TooDeep: {
      const auto at = detail::find_too_deep(body, kMaxJsonDepth);
      const detail::TextPosition p = detail::position_of(body, at.value_or(0));
      return fatal_document(c, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels at line " + std::to_string(p.line) + ", column " +
                                   std::to_string(p.column) + "; a config file needs at most 5");
    }
    case Failure::TooManyConfigs:
      return fatal_document(c, "too many configs: more than " + std::to_string(kMaxConfigsPerFile) +
                                   " in one file; split them into several files");
    case Failure::None:
      break;
  }
  using Top = detail::StreamOutcome::Top;
  if (out.top == Top::Scalar)
    return fatal_document(c, "the top level is " + top_kind_phrase(out.top_scalar) + "; " +
                                 std::string(kExpectedDocument));
  if (c.duplicate_configs_)
    return fatal_document(c, "duplicate field (JSON keeps only one); give one \"configs\" array",
                          "configs");
  if (!c.configs_not_array_.empty()) return fatal_document(c, c.configs_not_array_, "configs");
  if (c.mode() == Collector::Mode::tuned ||
      (c.mode() == Collector::Mode::undecided && detail::parse_tuned_name(file_label).matches &&
       out.top == Top::Object)) {
    LoadResult tuned = c.finish();  // the table's entries, decoded, and its errors
    Document d{std::move(tuned.errors), false, true, {}};
    d.tuned = std::move(tuned.configs);
    return d;
  }
  if (c.mode() == Collector::Mode::single) {
    c.finish_single();
    return {c.finish_errors(), false, false, {}};
  }
  if (out.top == Top::Object && !out.configs_array_seen) {
    Document d{c.finish_errors(), true, false, {}};
    d.errors.push_back(
        {file_label, -1, "", "", "no \"configs\" array; " + std::string(kExpectedDocument)});
    return d;
  }
  return {c.finish_errors(), false, false, {}};
}

}  // namespace detail

namespace {

/// The handler that decodes each element of a configs array into a LoadedConfig for `keep`.
detail::ConfigHandler decoding_handler(const std::string& file_label,
                                       const std::function<void(LoadedConfig&&)>& keep) {
  return [&file_label, &keep](std::size_t index, Value&& v, bool too_large,
                              detail::ErrorSink& errors) {
    if (v.kind == Value::Kind::String) {
      std::optional<LoadedConfig> named =
          detail::read_kernel_name(v.text, file_label, index, errors);
      if (named) keep(std::move(*named));
      return named.has_value();
    }
    Provenance from;
    from.file = file_label;
    from.index = static_cast<int>(index);
    detail::DecodedConfig dc = detail::decode_config(v, index, too_large, errors.listing());
    from.given = dc.given;
    if (dc.config) {
      keep({file_label, static_cast<int>(index), std::move(*dc.config), dc.arch_given,
            std::move(from)});
      return true;
    }
    for (detail::FieldError& e : dc.errors) {
      if (holds_alternatives(v, e.field))
        e.message +=
            "; an array of alternatives makes a sweep space: run `tilefit sweep` on this file";
      errors.error(from.error(dc.name, std::move(e.field), std::move(e.message)));
    }
    return false;
  };
}

/// What a first, cheap pass over a file says about it as a whole: whether the document can be
/// unreadable as a whole (a syntax error, too deep, too many configs, a scalar, a second or
/// non-array "configs") — then configs must not be handed out before the end.
class WholeFileProbe final : public detail::StreamSink {
 public:
  void on_config(std::size_t, Value&&, bool) override {}
  void on_top_field(const std::string& key, Value&& v, bool duplicate) override {
    if (key == "configs" && (duplicate || v.kind != Value::Kind::Array)) risky = true;
  }
  bool risky = false;
};

}  // namespace

namespace detail {

LoadResult parse_configs(std::string_view text, const std::string& file_label) {
  LoadResult r;
  const std::function<void(LoadedConfig &&)> keep = [&r](LoadedConfig&& c) {
    r.configs.push_back(std::move(c));
  };
  detail::Document d = detail::parse_document(text, file_label, decoding_handler(file_label, keep));
  if (d.fatal) r.configs.clear();
  if (d.tuned_table) r.configs = std::move(d.tuned);
  r.errors = std::move(d.errors);
  return r;
}

std::vector<ConfigError> stream_configs(std::string_view text, const std::string& file_label,
                                        const std::function<void(LoadedConfig&&)>& each) {
  // Pass 1 (the parser alone, one config's tree at a time): could the file fail as a whole?
  bool whole = !detail::check_text(text).has_value();
  if (whole) {
    WholeFileProbe probe;
    const detail::StreamOutcome out = detail::stream_configs(detail::strip_utf8_bom(text), probe);
    whole = out.failure == detail::StreamOutcome::Failure::None &&
            out.top != detail::StreamOutcome::Top::Scalar && !probe.risky;
  }
  if (!whole) {  // read it all first: what was handled is dropped if the file fails
    LoadResult r = detail::parse_configs(text, file_label);
    for (LoadedConfig& c : r.configs) each(std::move(c));
    return std::move(r.errors);
  }
  // Pass 2: each config handed on as soon as it is decoded.
  detail::Document d = detail::parse_document(text, file_label, decoding_handler(file_label, each));
  for (LoadedConfig& c : d.tuned) each(std::move(c));
  return std::move(d.errors);
}

}  // namespace detail

}  // namespace tilefit::io
