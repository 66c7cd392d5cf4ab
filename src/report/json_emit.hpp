// One list of fields, two outputs: the JSON fields of a result (its target, limits, breakdown) are
// written once, as templates over an emitter, and either built into an nlohmann tree (JsonTree: what
// the API and `to_json` return) or written straight as text (JsonText: what `check --format json`
// streams, a result at a time). JsonText writes exactly what the tree's dump(2) would (the layout
// of nlohmann's serializer.hpp dump() with pretty_print; strings and floats through
// report::append_pretty_json), so the two cannot disagree: tests/pretty_json_test.cpp compares the
// streamed document of every measured row with the tree's dump. Building the tree, then
// serializing it, was half of `check --format json`'s instructions.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilefit/report/pretty_json.hpp"

namespace tilefit::report::emit {

/// Builds an nlohmann::ordered_json: its own (take()), or members added to an object given.
class JsonTree {
 public:
  JsonTree() = default;
  /// Writes members straight into the object `into` (no tree built, then copied).
  explicit JsonTree(nlohmann::ordered_json& into) { stack_.push_back(&into); }
  void begin_object() { open(nlohmann::ordered_json::object()); }
  void begin_array() { open(nlohmann::ordered_json::array()); }
  void end() { stack_.pop_back(); }
  void key(std::string_view k) { key_ = std::string(k); }
  template <class T>
  void value(T&& v) {
    place(nlohmann::ordered_json(std::forward<T>(v)));
  }
  void value(std::string_view s) { place(nlohmann::ordered_json(std::string(s))); }
  void null() { place(nlohmann::ordered_json()); }
  /// A value given as JSON text.
  void raw(std::string_view json) { place(nlohmann::ordered_json::parse(json)); }
  nlohmann::ordered_json take() { return std::move(root_); }

 private:
  void open(nlohmann::ordered_json j) { stack_.push_back(&place(std::move(j))); }
  nlohmann::ordered_json& place(nlohmann::ordered_json j) {
    if (stack_.empty()) return root_ = std::move(j);
    nlohmann::ordered_json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(j));
      return top.back();
    }
    return top[key_] = std::move(j);
  }
  nlohmann::ordered_json root_;
  std::vector<nlohmann::ordered_json*> stack_;
  std::string key_;
};

/// Writes dump(2)'s text into `out`, later lines indented by `indent` more spaces; with `pretty`
/// false, dump()'s compact text instead (strings that are not plain ASCII through nlohmann's
/// strict serializer, as dump() writes them).
class JsonText {
 public:
  JsonText(std::string& out, unsigned indent, bool pretty = true)
      : out_(out), indent_(indent), pretty_(pretty) {}
  void begin_object() { open('{'); }
  void begin_array() { open('['); }
  void end() {
    const Level l = levels_.back();
    levels_.pop_back();
    if (l.members && pretty_) {
      out_ += '\n';
      out_.append(indent_ + 2 * levels_.size(), ' ');
    }
    out_ += l.close;
  }
  void key(std::string_view k) {
    member();
    string(k);
    out_ += pretty_ ? ": " : ":";
    keyed_ = true;
  }
  void value(std::string_view s) {
    before_value();
    string(s);
  }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(const char* s) { value(std::string_view(s)); }
  void value(bool b) {
    before_value();
    out_ += b ? "true" : "false";
  }
  void value(int v) { integer(v); }
  void value(long v) { integer(v); }
  void value(long long v) { integer(v); }
  void value(unsigned v) { integer(v); }
  void value(unsigned long v) { integer(v); }
  void value(unsigned long long v) { integer(v); }
  void value(const nlohmann::ordered_json& j) { scalar(j); }
  void null() {
    before_value();
    out_ += "null";
  }
  /// A value given as JSON text: written as it is in compact text, laid out as dump(2) would
  /// in pretty text.
  void raw(std::string_view json) {
    if (pretty_) return scalar(nlohmann::ordered_json::parse(json));
    before_value();
    out_ += json;
  }

 private:
  struct Level {
    char close;
    bool members = false;
  };
  void open(char c) {
    before_value();
    out_ += c;
    levels_.push_back({c == '{' ? '}' : ']', false});
  }
  /// A new member of the innermost container: ",\n" after the first, then its indentation.
  void member() {
    if (levels_.empty()) return;
    Level& l = levels_.back();
    if (!pretty_) {
      if (l.members) out_ += ',';
      l.members = true;
      return;
    }
    out_ += l.members ? ",\n" : "\n";
    l.members = true;
    out_.append(indent_ + 2 * levels_.size(), ' ');
  }
  void string(std::string_view s) {
    if (pretty_ || plain_ascii(s))
      append_json_string(out_, s);
    else
      out_ += nlohmann::ordered_json(std::string(s)).dump();
  }
  static bool plain_ascii(std::string_view s) {
    for (const char c : s)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
        return false;
    return true;
  }
  void before_value() {
    if (keyed_) {
      keyed_ = false;
      return;
    }
    member();  // an array element (or the document itself)
  }
  void scalar(const nlohmann::ordered_json& j) {
    before_value();
    if (pretty_)
      append_pretty_json(out_, j, indent_ + 2 * static_cast<unsigned>(levels_.size()));
    else
      out_ += j.dump();
  }
  template <class Int>
  void integer(Int v) {
    before_value();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
  std::string& out_;
  unsigned indent_;
  bool pretty_;
  std::vector<Level> levels_;
  bool keyed_ = false;
};

}  // namespace tilefit::report::emit
