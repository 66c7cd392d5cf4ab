// Element types and block-scaled operand formats.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tilefit::model {

/// Element types CUTLASS stores in shared memory. `Void` is CUTLASS's `void` element
/// (no C source): sizeof_bits<void> = 0 (cutlass/numeric_size.h:62-64).
enum class DType {
  Void,
  E2M1,   // fp4
  E2M3,   // fp6
  E3M2,   // fp6
  E4M3,   // fp8
  E5M2,   // fp8
  UE4M3,  // nvfp4 scale factor
  UE8M0,  // mx scale factor
  BF16,
  F16,
  F32,
  TF32,
  S8,
  U8,
  S32,
};

/// cutlass::sizeof_bits<T>.
int bits(DType t);

/// Canonical lower-case name ("e2m1", "bf16", "void", ...).
std::string_view dtype_name(DType t);

/// Parses an element type name; accepts CUTLASS-ish aliases ("fp8"="e4m3", "fp16", "float").
std::optional<DType> parse_dtype(std::string_view s);

/// One element type's row: its canonical name, the alias shown beside it in lists ("fp4" for
/// e2m1; empty: none), whether it is listed as an operand type and as a scale-factor type, and
/// the CUTLASS type it mirrors. dtype_name, parse_dtype, dtype_choices, operand_choices, the
/// reader's did-you-mean and the config schema all read these rows.
struct DTypeName {
  DType value;
  std::string_view name;
  std::string_view alias;
  bool operand;       ///< listed among the operand element types
  bool scale_factor;  ///< a block-scale factor type (ue4m3, ue8m0)
  std::string_view mirrors;
};
/// Every DType, in enum order (Void first).
std::span<const DTypeName> dtype_names();

/// Further spellings parse_dtype accepts ("fp16", "half", "float", "int8", ...), not listed.
struct DTypeAlias {
  std::string_view name;
  DType value;
};
std::span<const DTypeAlias> dtype_aliases();

/// Names accepted by parse_dtype, for error messages: every type but void, with its shown
/// alias ("e2m1 (fp4), e2m3, ...").
std::string_view dtype_choices();

/// True for fp4/fp6/fp8 (the F8F6F4 family of MMA operand types).
bool is_f8f6f4(DType t);

/// An operand: element type plus, for block-scaled formats, the scale-factor type and
/// vector size (cutlass/gemm/collective/builders/sm1xx_common.inl:433-484):
///   nvfp4 = e2m1 + ue4m3 / 16;   mxfp4 = e2m1 + ue8m0 / 32;
///   mxfp6 = e3m2 + ue8m0 / 32;   mxfp8 = e4m3 + ue8m0 / 32.
struct Operand {
  DType elem = DType::BF16;
  DType sf = DType::Void;  ///< Void: not block-scaled
  int sf_vec = 0;

  bool block_scaled() const { return sf != DType::Void; }
  bool operator==(const Operand&) const = default;
};

/// A block-scaled operand format: its name, what it stands for, and the source of that.
struct OperandFormat {
  std::string_view name;
  Operand operand;
  std::string_view mirrors;
};
/// nvfp4, mxfp4, mxfp6, mxfp8, in that order.
std::span<const OperandFormat> operand_formats();

/// Parses an operand: an element type or a block-scaled format name.
std::optional<Operand> parse_operand(std::string_view s);

/// Names accepted by parse_operand, for error messages: the formats, then the element types
/// listed as operands ("nvfp4, ..., or an element type (e2m1, ...)").
std::string_view operand_choices();

/// "nvfp4", "mxfp8", or the element name for plain operands.
std::string operand_name(const Operand& op);

}  // namespace tilefit::model
