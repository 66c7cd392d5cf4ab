#include "io/json_stream.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <utility>
#include <vector>

#include "tilefit/io/input_limits.hpp"

namespace tilefit::io::detail {
namespace {

using json = nlohmann::json;

/// Values kept of a top-level member other than "configs": as many as a config may have, since
/// in a vLLM/SGLang tuned table every top-level member is an entry.
constexpr std::size_t kTopFieldValues = kMaxValuesPerConfig;

/// nlohmann SAX handler. `depth_` counts the containers open in the whole document; a
/// "capture" builds the Value tree of one config (or one top-level member) while it is open.
class Handler {
 public:
  Handler(StreamSink& sink, StreamOutcome& out, std::size_t max_values)
      : sink_(sink), max_values_(max_values), out_(out) {}

  bool null() { return scalar(Value{}); }
  bool boolean(bool b) {
    Value v;
    v.kind = Value::Kind::Bool;
    v.boolean = b;
    return scalar(std::move(v));
  }
  bool number_integer(json::number_integer_t i) {
    Value v;
    v.kind = Value::Kind::Integer;
    v.integer = i;
    // The parser hands a number written with '-' here and one without to number_unsigned, so a
    // 0 here was written "-0": echoed as written in errors.
    v.text = i == 0 ? "-0" : std::to_string(i);
    return scalar(std::move(v));
  }
  bool number_unsigned(json::number_unsigned_t u) {
    Value v;
    v.kind = Value::Kind::Unsigned;
    v.unsigned_ = u;
    v.text = std::to_string(u);
    return scalar(std::move(v));
  }
  bool number_float(json::number_float_t, const json::string_t& s) {
    Value v;
    v.kind = Value::Kind::Float;
    v.text = s;
    return scalar(std::move(v));
  }
  bool string(json::string_t& s) {
    Value v;
    v.kind = Value::Kind::String;
    v.text = std::move(s);
    return scalar(std::move(v));
  }
  bool binary(json::binary_t&) { return true; }  // never produced by JSON text
  bool start_object(std::size_t) { return start(Value::Kind::Object); }
  bool start_array(std::size_t) { return start(Value::Kind::Array); }
  bool end_object() { return end(); }
  bool end_array() { return end(); }

  bool key(json::string_t& k) {
    if (cap_.active) {
      if (cap_.skip_depth == 0 && !cap_.over) cap_.open.back()->keys.push_back(std::move(k));
      return true;
    }
    // Only the top-level object's own keys reach here.
    top_key_duplicate_ = !top_keys_.insert(k).second;
    top_key_ = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) {
    out_.failure = StreamOutcome::Failure::Syntax;
    out_.position = position;
    out_.parser_message = ex.what();
    out_.parser_error_id = ex.id;
    return false;
  }

 private:
  struct Capture {
    bool active = false;
    bool is_config = false;
    Value root;
    bool root_set = false;
    std::vector<Value*> open;  ///< containers open inside root (root first)
    std::size_t values = 0;
    std::size_t budget = 0;
    bool over = false;      ///< budget exceeded: later values are dropped
    int skip_depth = 0;     ///< containers opened after `over`, not in `open`
    std::size_t index = 0;  ///< config index
    std::string key;        ///< top-level member key
    bool duplicate = false;
  };

  bool scalar(Value&& v) { return place(std::move(v), false); }

  bool start(Value::Kind kind) {
    if (depth_ >= kMaxJsonDepth) {
      out_.failure = StreamOutcome::Failure::TooDeep;
      return false;
    }
    Value v;
    v.kind = kind;
    return place(std::move(v), true);
  }

  bool end() {
    --depth_;
    if (cap_.active) {
      if (cap_.skip_depth > 0) {
        --cap_.skip_depth;
      } else {
        cap_.open.pop_back();
      }
      if (cap_.open.empty() && cap_.skip_depth == 0) finish();
      return true;
    }
    if (in_configs_ && depth_ == configs_depth_ - 1) in_configs_ = false;
    return true;
  }

  // A value (scalar, or a container just opened) begins: its place in the document decides
  // whether it starts a capture, joins the current one or opens the document's structure.
  bool place(Value&& v, bool container) {
    if (!cap_.active) {
      if (depth_ == 0) {  // the document's top-level value
        if (!container) {
          out_.top = StreamOutcome::Top::Scalar;
          out_.top_scalar = std::move(v);
          return true;
        }
        ++depth_;
        if (v.kind == Value::Kind::Array) {
          out_.top = StreamOutcome::Top::Array;
          in_configs_ = true;
          configs_depth_ = 1;
        } else {
          out_.top = StreamOutcome::Top::Object;
        }
        return true;
      }
      if (in_configs_ && depth_ == configs_depth_) {
        if (next_index_ >= kMaxConfigsPerFile) {
          out_.failure = StreamOutcome::Failure::TooManyConfigs;
          return false;
        }
        begin_capture(true, max_values_);
        cap_.index = next_index_++;
      } else {  // depth 1 in the top-level object: the value of top_key_
        if (container && v.kind == Value::Kind::Array && top_key_ == "configs" &&
            !top_key_duplicate_) {
          ++depth_;
          in_configs_ = true;
          configs_depth_ = 2;
          out_.configs_array_seen = true;
          return true;
        }
        begin_capture(false, kTopFieldValues);
        cap_.key = top_key_;
        cap_.duplicate = top_key_duplicate_;
      }
    }
    if (container) ++depth_;
    add(std::move(v), container);
    return true;
  }

  void begin_capture(bool is_config, std::size_t budget) {
    cap_ = Capture{};
    cap_.active = true;
    cap_.is_config = is_config;
    cap_.budget = budget;
  }

  void add(Value&& v, bool container) {
    ++cap_.values;
    if (!cap_.root_set) {
      cap_.root = std::move(v);
      cap_.root_set = true;
      if (container) {
        cap_.open.push_back(&cap_.root);
      } else {
        finish();
      }
      return;
    }
    if (!cap_.over && cap_.skip_depth == 0 && cap_.values > cap_.budget) {
      cap_.over = true;
      for (Value* open : cap_.open) open->truncated = true;
      Value* parent = cap_.open.back();
      if (parent->kind == Value::Kind::Object && parent->keys.size() > parent->items.size())
        parent->keys.pop_back();
    }
    if (cap_.over || cap_.skip_depth > 0) {
      if (container) ++cap_.skip_depth;
      return;
    }
    Value* parent = cap_.open.back();
    parent->items.push_back(std::move(v));
    if (container) cap_.open.push_back(&parent->items.back());
  }

  void finish() {
    Capture done = std::move(cap_);
    cap_ = Capture{};
    if (done.is_config) {
      ++out_.configs;
      sink_.on_config(done.index, std::move(done.root), done.over);
    } else {
      sink_.on_top_field(done.key, std::move(done.root), done.duplicate);
    }
  }

  StreamSink& sink_;
  std::size_t max_values_;
  StreamOutcome& out_;
  int depth_ = 0;
  Capture cap_;
  bool in_configs_ = false;
  int configs_depth_ = 0;  ///< depth_ inside the configs array (its elements start there)
  std::size_t next_index_ = 0;
  std::string top_key_;
  bool top_key_duplicate_ = false;
  std::set<std::string> top_keys_;
};

}  // namespace

StreamOutcome stream_configs(std::string_view text, StreamSink& sink, std::size_t max_values) {
  StreamOutcome out;
  Handler handler(sink, out, max_values);
  json::sax_parse(text.begin(), text.end(), &handler);
  return out;
}

}  // namespace tilefit::io::detail
