// Renders the message templates of the diagnostic codes (include/tilefit/model/
// diagnostic_codes.def and the .def files it includes, where each code keeps its text with the
// CUTLASS or Triton source it cites) from a diagnostic's typed values.
#include "tilefit/report/diagnostic_text.hpp"

#include <array>

#include <string_view>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::report {
namespace {

using model::Diagnostic;
using model::DiagValue;
using model::ValueKind;

/// Appends the placeholder `field` ("key", "key:B", "key:stages") of `d`.
void append_field(std::string& out, std::string_view field, const Diagnostic& d) {
  const std::size_t colon = field.find(':');
  const std::string_view key = field.substr(0, colon);
  const std::string_view format =
      colon == std::string_view::npos ? std::string_view() : field.substr(colon + 1);
  const DiagValue* v = d.find(key);
  if (format == "stages") {
    out += v ? spell_stages(v->param, v->number) : "?";
    return;
  }
  out += v ? value_text(*v) : "?";
  if (format == "B") out += " B";
}

}  // namespace

std::string spell_stages(model::StageParam param, long long stages) {
  switch (param) {
    case model::StageParam::CutlassStageCount:
      return "StageCount<" + std::to_string(stages) + ">";
    case model::StageParam::CutlassKStages:
      return "kStages = " + std::to_string(stages);
    case model::StageParam::TritonNumStages:
      return "num_stages " + std::to_string(stages);
  }
  return std::to_string(stages);
}

std::string value_text(const DiagValue& v) {
  switch (v.kind) {
    case ValueKind::integer:
    case ValueKind::bytes:
    case ValueKind::stages:
    case ValueKind::flag:
      return std::to_string(v.number);
    case ValueKind::arch:
      return model::arch_name(static_cast<int>(v.number));
    case ValueKind::dtype:
      return std::string(model::dtype_name(static_cast<model::DType>(v.number)));
    case ValueKind::operand:
      return model::operand_name(model::unpack_operand(v.number));
    case ValueKind::schedule:
      return std::string(model::schedule_name(static_cast<model::Schedule>(v.number)));
    case ValueKind::epilogue:
      return std::string(model::epilogue_name(static_cast<model::EpilogueVariant>(v.number)));
    case ValueKind::mma:
      return std::string(model::mma_name(static_cast<model::Mma>(v.number)));
    case ValueKind::name:
      return v.text;
  }
  return "?";
}

std::string render(std::string_view message_template, const Diagnostic& d) {
  const std::string_view t = message_template;
  std::string out;
  out.reserve(t.size() + 32);
  for (std::size_t i = 0; i < t.size();) {
    const std::size_t brace = t.find_first_of("{}", i);
    out.append(t.substr(i, brace == std::string_view::npos ? std::string_view::npos : brace - i));
    if (brace == std::string_view::npos) break;
    i = brace;
    if (i + 1 < t.size() && t[i + 1] == t[i]) {  // {{ or }}
      out += t[i];
      i += 2;
      continue;
    }
    const std::size_t close = t[i] == '{' ? t.find('}', i + 1) : std::string_view::npos;
    if (close == std::string_view::npos) {  // a lone brace is text
      out += t[i];
      ++i;
      continue;
    }
    append_field(out, t.substr(i + 1, close - i - 1), d);
    i = close + 1;
  }
  return out;
}

namespace {

/// The code and every value, keys included, as one owned string: the memo's key. A value's key
/// is a string_view the caller owns (a literal in the model, any string in a test), so the memo
/// keeps a copy rather than the Diagnostic.
std::string memo_key(const Diagnostic& d) {
  std::string k = std::to_string(static_cast<int>(d.code));
  for (const model::DiagValue& v : d.values) {
    k += '\x1f';
    k.append(v.key);
    k += '\x1e';
    k += std::to_string(static_cast<int>(v.kind)) + ":" +
         std::to_string(static_cast<int>(v.param)) + ":" + std::to_string(v.number) + ":";
    k += v.text;
  }
  return k;
}

std::size_t value_hash(const Diagnostic& d) {
  std::size_t h = static_cast<std::size_t>(d.code) * 0x9E3779B97F4A7C15ull;
  for (const model::DiagValue& v : d.values)
    h = (h ^ static_cast<std::size_t>(v.number) ^ (v.text.size() << 7)) * 0x100000001B3ull;
  return h;
}

}  // namespace

std::string kernel_description(const model::KernelDescription& k) {
  std::string out;
  for (const model::KernelPart& p : k.parts())
    out += render(model::kernel_text_template(p.text), p.values);
  return out;
}

std::string message(const Diagnostic& d) {
  // A message depends on the code and the values only (the phrasing functions too), and the
  // results of one table repeat the same diagnostics on every entry and architecture: the last
  // few renderings are kept (per thread, direct-mapped by a hash of code and values). Writing
  // every result of the engines' tuned folders as JSON rendered each message twice (notes and
  // diagnostics) and spent a seventh of its instructions on it.
  struct Slot {
    std::string key;
    std::string text;
    bool used = false;
  };
  thread_local std::array<Slot, 64> memo;
  Slot& s = memo[value_hash(d) % memo.size()];
  std::string key = memo_key(d);
  if (s.used && s.key == key) return s.text;
  const model::MessageSpec m = model::code_message(d.code);
  s.text = m.phrase ? render(m.phrase(d), d) : render(m.text, d);
  s.key = std::move(key);
  s.used = true;
  return s.text;
}

}  // namespace tilefit::report
