// Reasons as data. Everything the model has to say about a config — why it is invalid, which way
// it overflows, what fits instead, which family was picked — is a Diagnostic: a stable snake_case
// code, a severity and typed values. The model never renders sentences: each code carries a
// message template next to its declaration (or a small phrasing function that picks one), and
// the report layer (src/report/diagnostic_text.cpp) renders it from the diagnostic's values alone.
//
//   Diagnostic{code = over_limit_initialize, severity = error,
//              values = {stages: 3 (builder_pick: 1), smem_bytes: 102400, limit_bytes: 101376,
//                        over_bytes: 1024}}
//   -> "the builder picks 3 stages but the kernel then needs 102400 B > 101376 B (over by
//       1024 B): it compiles, then cudaFuncSetAttribute(...) fails and ... kErrorInternal"
//
// Every code is declared once, with its severity, the keys of its values and its message, in
// diagnostic_codes.def (the shared codes) or in the .def of the rule library or family that
// owns it, which diagnostic_codes.def includes; the README lists them all.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilefit/model/bytes.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::model {

enum class Severity : std::uint8_t { error, warning, info };

std::string_view severity_name(Severity s);

enum class Code : std::uint16_t {
#define TILEFIT_DIAGNOSTIC(code, severity, keys, message) code,
#include "tilefit/model/diagnostic_codes.def"
#undef TILEFIT_DIAGNOSTIC
};

/// Every code, in declaration order.
std::span<const Code> all_codes();
/// The stable snake_case name of a code ("over_limit_initialize").
std::string_view code_name(Code c);
Severity code_severity(Code c);
/// The keys of the values a diagnostic of this code carries, space separated (from the .def).
std::string_view code_keys(Code c);

/// How a stage count is written in the source of the kernel family (for messages).
enum class StageParam : std::uint8_t {
  CutlassStageCount,  ///< CUTLASS 3.x collective builders: StageCount<3>
  CutlassKStages,     ///< CUTLASS 2.x templates: kStages = 3
  TritonNumStages,    ///< Triton: num_stages 3
};

/// What a value is, so that renderers can write it (bytes as "N B", an arch as "sm_90", ...) and
/// JSON can carry it typed (numbers stay numbers).
enum class ValueKind : std::uint8_t {
  integer,   ///< a count or extent
  bytes,     ///< a byte quantity
  stages,    ///< a stage count; `param` says how the family spells it
  flag,      ///< 0 or 1
  arch,      ///< compute capability as major*10+minor
  dtype,     ///< a DType (number = the enumerator)
  operand,   ///< an Operand packed by pack_operand()
  schedule,  ///< a Schedule
  epilogue,  ///< an EpilogueVariant
  mma,       ///< an Mma
  name,      ///< an identifier or a name (family, device, an id the report layer phrases)
};

struct DiagValue {
  std::string_view key;  ///< static storage: the literal given to Diagnostic's builders
  ValueKind kind = ValueKind::integer;
  StageParam param = StageParam::CutlassStageCount;  ///< kind == stages
  std::int64_t number = 0;
  std::string text;  ///< kind == name
};

/// Packs an Operand into one integer (elem, scale-factor type, vector size) and back.
std::int64_t pack_operand(const Operand& op);
Operand unpack_operand(std::int64_t packed);

struct Diagnostic {
  Code code{};
  Severity severity = Severity::info;
  std::vector<DiagValue> values;

  Diagnostic() = default;
  /// A diagnostic with the code's declared severity.
  explicit Diagnostic(Code c);

  // Builders: diag(Code::x).bytes("smem_bytes", n).arch("arch", 90) ...
  Diagnostic& integer(std::string_view key, std::int64_t v);
  Diagnostic& bytes(std::string_view key, Bytes v);
  Diagnostic& stages(std::string_view key, std::int64_t v, StageParam p);
  Diagnostic& flag(std::string_view key, bool v);
  Diagnostic& arch(std::string_view key, int sm);
  Diagnostic& dtype(std::string_view key, DType t);
  Diagnostic& operand(std::string_view key, const Operand& op);
  Diagnostic& schedule(std::string_view key, Schedule s);
  Diagnostic& epilogue(std::string_view key, EpilogueVariant v);
  Diagnostic& mma(std::string_view key, Mma m);
  Diagnostic& name(std::string_view key, std::string_view text);

  /// The value called `key`, or nullptr.
  const DiagValue* find(std::string_view key) const;
  /// The number of `key` (0 when absent).
  std::int64_t number(std::string_view key) const;
  /// The text of `key` (empty when absent).
  std::string_view text(std::string_view key) const;
};

/// A code's message as its .def entry gives it: a template (diagnostic_codes.def says how
/// templates are written), or a phrasing function that returns the template for one diagnostic.
struct MessageSpec {
  std::string_view text;                               ///< the template; empty when phrased
  std::string (*phrase)(const Diagnostic&) = nullptr;  ///< the phrasing function, or nullptr
};
MessageSpec code_message(Code c);

/// The owner of a code, as the TILEFIT_DIAGNOSTIC_SECTION before it names it: "common", a rule
/// library shared by several families ("sm120", "triton", "engine_fp8") or a family's name (the
/// codes of src/model/families/<family>/diagnostics.def).
std::string_view code_section(Code c);
/// The codes a section declares, in declaration order (empty for an unknown section).
std::vector<Code> section_codes(std::string_view section);

/// Shorthand: Diagnostic(c).
inline Diagnostic diag(Code c) { return Diagnostic(c); }

/// What a family's decide() finds, in order. With `keep` false (the fast path) nothing is
/// built: reject() only marks the config invalid and note() does nothing, so the lambdas that
/// build the diagnostics never run.
class Findings {
 public:
  explicit Findings(bool keep) : keep_(keep) {}
  bool keep() const { return keep_; }
  bool invalid() const { return invalid_; }
  /// True when some rejection means the kernel's SharedStorage type does not exist (a builder
  /// or collective restriction): the result then has no size (README "Results").
  bool no_storage() const { return no_storage_; }

  /// CUTLASS (or Triton) rejects the config before any kernel type exists (a builder or
  /// collective static_assert, no builder at all): `make()` returns the error diagnostic.
  template <class Make>
  void reject(Make&& make) {
    invalid_ = true;
    no_storage_ = true;
    if (keep_) reasons_.push_back(make());
  }
  /// The kernel type and its SharedStorage exist (sizeof is measurable), but the kernel body
  /// cannot be compiled or launched (a device-side static_assert such as the cooperative
  /// kernel's tile M >= 128): the config is invalid and keeps its sizes.
  template <class Make>
  void reject_kernel(Make&& make) {
    invalid_ = true;
    if (keep_) reasons_.push_back(make());
  }
  /// Something worth telling (info or warning): `make()` returns the diagnostic.
  template <class Make>
  void note(Make&& make) {
    if (keep_) notes_.push_back(make());
  }
  /// Takes over another collection's findings (e.g. the epilogue builder's).
  void merge(Findings&& other);

  std::vector<Diagnostic>& reasons() { return reasons_; }
  std::vector<Diagnostic>& notes() { return notes_; }

 private:
  bool keep_;
  bool invalid_ = false;
  bool no_storage_ = false;
  std::vector<Diagnostic> reasons_;
  std::vector<Diagnostic> notes_;
};

}  // namespace tilefit::model
