#include "tilefit/model/diagnostic.hpp"

#include <array>
#include <utility>

namespace tilefit::model {

// The phrasing functions the .def files name (each defined next to its codes).
namespace phrasing {
#define TILEFIT_DIAGNOSTIC(c, s, k, m)
#define TILEFIT_DIAGNOSTIC_PHRASED(c, s, k, f) std::string f(const Diagnostic&);
#include "tilefit/model/diagnostic_codes.def"
#undef TILEFIT_DIAGNOSTIC
}  // namespace phrasing

namespace {

/// One line of the .def files: a section marker or a code.
struct Entry {
  bool starts_section;
  std::string_view name;
  Code code;
  Severity severity;
  std::string_view keys;
  MessageSpec message;
};

constexpr Entry kEntries[] = {
#define TILEFIT_DIAGNOSTIC_SECTION(n) {true, #n, Code{}, Severity::info, "", {}},
#define TILEFIT_DIAGNOSTIC(c, s, k, m) {false, #c, Code::c, Severity::s, k, {m, nullptr}},
#define TILEFIT_DIAGNOSTIC_PHRASED(c, s, k, f) \
  {false, #c, Code::c, Severity::s, k, {"", &phrasing::f}},
#include "tilefit/model/diagnostic_codes.def"
#undef TILEFIT_DIAGNOSTIC
};

struct CodeInfo {
  std::string_view name;
  Severity severity = Severity::info;
  std::string_view keys;
  MessageSpec message;
  std::string_view section;
};

constexpr std::size_t kCodeCount = [] {
  std::size_t n = 0;
  for (const Entry& e : kEntries) n += e.starts_section ? 0 : 1;
  return n;
}();

/// Indexed by Code; each code with the section it was declared in.
constexpr auto kCodes = [] {
  std::array<CodeInfo, kCodeCount> out{};
  std::string_view section;
  for (const Entry& e : kEntries) {
    if (e.starts_section) {
      section = e.name;
      continue;
    }
    out[static_cast<std::size_t>(e.code)] = {e.name, e.severity, e.keys, e.message, section};
  }
  return out;
}();

template <std::size_t... I>
constexpr std::array<Code, sizeof...(I)> codes_in_order(std::index_sequence<I...>) {
  return {static_cast<Code>(I)...};
}
constexpr auto kAllCodes = codes_in_order(std::make_index_sequence<kCodeCount>());

const CodeInfo& info(Code c) { return kCodes[static_cast<std::size_t>(c)]; }

}  // namespace

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::info:
      return "info";
  }
  return "?";
}

std::span<const Code> all_codes() { return kAllCodes; }
std::string_view code_name(Code c) { return info(c).name; }
Severity code_severity(Code c) { return info(c).severity; }
std::string_view code_keys(Code c) { return info(c).keys; }
MessageSpec code_message(Code c) { return info(c).message; }
std::string_view code_section(Code c) { return info(c).section; }

std::vector<Code> section_codes(std::string_view section) {
  std::vector<Code> out;
  for (const Code c : kAllCodes)
    if (info(c).section == section) out.push_back(c);
  return out;
}

std::int64_t pack_operand(const Operand& op) {
  return static_cast<std::int64_t>(op.elem) | (static_cast<std::int64_t>(op.sf) << 8) |
         (static_cast<std::int64_t>(op.sf_vec) << 16);
}

Operand unpack_operand(std::int64_t packed) {
  Operand op;
  op.elem = static_cast<DType>(packed & 0xff);
  op.sf = static_cast<DType>((packed >> 8) & 0xff);
  op.sf_vec = static_cast<int>(packed >> 16);
  return op;
}

Diagnostic::Diagnostic(Code c) : code(c), severity(code_severity(c)) {}

namespace {
Diagnostic& add(Diagnostic& d, std::string_view key, ValueKind kind, std::int64_t number) {
  DiagValue v;
  v.key = key;
  v.kind = kind;
  v.number = number;
  d.values.push_back(std::move(v));
  return d;
}
}  // namespace

Diagnostic& Diagnostic::integer(std::string_view key, std::int64_t v) {
  return add(*this, key, ValueKind::integer, v);
}
Diagnostic& Diagnostic::bytes(std::string_view key, Bytes v) {
  return add(*this, key, ValueKind::bytes, v);
}
Diagnostic& Diagnostic::stages(std::string_view key, std::int64_t v, StageParam p) {
  add(*this, key, ValueKind::stages, v);
  values.back().param = p;
  return *this;
}
Diagnostic& Diagnostic::flag(std::string_view key, bool v) {
  return add(*this, key, ValueKind::flag, v ? 1 : 0);
}
Diagnostic& Diagnostic::arch(std::string_view key, int sm) {
  return add(*this, key, ValueKind::arch, sm);
}
Diagnostic& Diagnostic::dtype(std::string_view key, DType t) {
  return add(*this, key, ValueKind::dtype, static_cast<std::int64_t>(t));
}
Diagnostic& Diagnostic::operand(std::string_view key, const Operand& op) {
  return add(*this, key, ValueKind::operand, pack_operand(op));
}
Diagnostic& Diagnostic::schedule(std::string_view key, Schedule s) {
  return add(*this, key, ValueKind::schedule, static_cast<std::int64_t>(s));
}
Diagnostic& Diagnostic::epilogue(std::string_view key, EpilogueVariant v) {
  return add(*this, key, ValueKind::epilogue, static_cast<std::int64_t>(v));
}
Diagnostic& Diagnostic::mma(std::string_view key, Mma m) {
  return add(*this, key, ValueKind::mma, static_cast<std::int64_t>(m));
}
Diagnostic& Diagnostic::name(std::string_view key, std::string_view text) {
  add(*this, key, ValueKind::name, 0);
  values.back().text = std::string(text);
  return *this;
}

const DiagValue* Diagnostic::find(std::string_view key) const {
  for (const DiagValue& v : values)
    if (v.key == key) return &v;
  return nullptr;
}

std::int64_t Diagnostic::number(std::string_view key) const {
  const DiagValue* v = find(key);
  return v ? v->number : 0;
}

std::string_view Diagnostic::text(std::string_view key) const {
  const DiagValue* v = find(key);
  return v ? std::string_view(v->text) : std::string_view();
}

void Findings::merge(Findings&& other) {
  invalid_ = invalid_ || other.invalid_;
  no_storage_ = no_storage_ || other.no_storage_;
  for (Diagnostic& d : other.reasons_) reasons_.push_back(std::move(d));
  for (Diagnostic& d : other.notes_) notes_.push_back(std::move(d));
}

}  // namespace tilefit::model
