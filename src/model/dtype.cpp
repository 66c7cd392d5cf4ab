#include "tilefit/model/dtype.hpp"

#include <string>

namespace tilefit::model {

int bits(DType t) {
  switch (t) {
    case DType::Void:
      return 0;
    case DType::E2M1:
      return 4;
    case DType::E2M3:
    case DType::E3M2:
      return 6;
    case DType::E4M3:
    case DType::E5M2:
    case DType::UE4M3:
    case DType::UE8M0:
    case DType::S8:
    case DType::U8:
      return 8;
    case DType::BF16:
    case DType::F16:
      return 16;
    case DType::F32:
    case DType::TF32:
    case DType::S32:
      return 32;
  }
  return 0;
}

namespace {

// Canonical names (cutlass/numeric_types.h, float_subbyte.h, float8.h spell the types).
constexpr DTypeName kDTypes[] = {
    {DType::Void, "void", "", false, false, "void (no C source)"},
    {DType::E2M1, "e2m1", "fp4", true, false, "cutlass::float_e2m1_t"},
    {DType::E2M3, "e2m3", "", true, false, "cutlass::float_e2m3_t"},
    {DType::E3M2, "e3m2", "fp6", true, false, "cutlass::float_e3m2_t"},
    {DType::E4M3, "e4m3", "fp8", true, false, "cutlass::float_e4m3_t"},
    {DType::E5M2, "e5m2", "", true, false, "cutlass::float_e5m2_t"},
    {DType::UE4M3, "ue4m3", "", false, true, "cutlass::float_ue4m3_t"},
    {DType::UE8M0, "ue8m0", "", false, true, "cutlass::float_ue8m0_t"},
    {DType::BF16, "bf16", "", true, false, "cutlass::bfloat16_t"},
    {DType::F16, "f16", "", true, false, "cutlass::half_t"},
    {DType::F32, "f32", "", true, false, "float"},
    {DType::TF32, "tf32", "", true, false, "cutlass::tfloat32_t"},
    {DType::S8, "s8", "", true, false, "int8_t"},
    {DType::U8, "u8", "", true, false, "uint8_t"},
    {DType::S32, "s32", "", false, false, "int32_t"},
};

constexpr DTypeAlias kAliases[] = {
    {"fp16", DType::F16}, {"half", DType::F16}, {"fp32", DType::F32},  {"float", DType::F32},
    {"int8", DType::S8},  {"uint8", DType::U8}, {"int32", DType::S32},
};

// cutlass/gemm/collective/builders/sm1xx_common.inl:433-484.
constexpr OperandFormat kFormats[] = {
    {"nvfp4", {DType::E2M1, DType::UE4M3, 16}, "nv_float4_t<float_e2m1_t>"},
    {"mxfp4", {DType::E2M1, DType::UE8M0, 32}, "mx_float4_t<float_e2m1_t>"},
    {"mxfp6", {DType::E3M2, DType::UE8M0, 32}, "mx_float6_t<float_e3m2_t>"},
    {"mxfp8", {DType::E4M3, DType::UE8M0, 32}, "mx_float8_t<float_e4m3_t>"},
};

}  // namespace

std::span<const DTypeName> dtype_names() { return kDTypes; }
std::span<const DTypeAlias> dtype_aliases() { return kAliases; }
std::span<const OperandFormat> operand_formats() { return kFormats; }

std::string_view dtype_name(DType t) {
  for (const DTypeName& d : kDTypes)
    if (d.value == t) return d.name;
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  for (const DTypeName& d : kDTypes)
    if (d.name == s || (!d.alias.empty() && d.alias == s)) return d.value;
  for (const DTypeAlias& a : kAliases)
    if (a.name == s) return a.value;
  return std::nullopt;
}

std::string_view dtype_choices() {
  static const std::string joined = [] {
    std::string out;
    for (const DTypeName& d : kDTypes) {
      if (d.value == DType::Void) continue;
      if (!out.empty()) out += ", ";
      out += d.name;
      if (!d.alias.empty()) out += " (" + std::string(d.alias) + ")";
    }
    return out;
  }();
  return joined;
}

bool is_f8f6f4(DType t) {
  switch (t) {
    case DType::E2M1:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E4M3:
    case DType::E5M2:
      return true;
    default:
      return false;
  }
}

std::optional<Operand> parse_operand(std::string_view s) {
  for (const OperandFormat& f : kFormats)
    if (f.name == s) return f.operand;
  if (auto t = parse_dtype(s); t && *t != DType::Void) return Operand{*t, DType::Void, 0};
  return std::nullopt;
}

std::string_view operand_choices() {
  static const std::string joined = [] {
    std::string out;
    for (const OperandFormat& f : kFormats) out += std::string(f.name) + ", ";
    out += "or an element type (";
    bool first = true;
    for (const DTypeName& d : kDTypes) {
      if (!d.operand) continue;
      out += (first ? "" : ", ") + std::string(d.name);
      first = false;
    }
    return out + ")";
  }();
  return joined;
}

std::string operand_name(const Operand& op) {
  if (op.block_scaled()) {
    if (op.sf == DType::UE4M3 && op.elem == DType::E2M1 && op.sf_vec == 16) return "nvfp4";
    if (op.sf == DType::UE8M0 && op.sf_vec == 32) {
      if (op.elem == DType::E2M1) return "mxfp4";
      if (bits(op.elem) == 6) return "mxfp6";
      if (bits(op.elem) == 8) return "mxfp8";
    }
    return std::string(dtype_name(op.elem)) + "+" + std::string(dtype_name(op.sf)) + "/" +
           std::to_string(op.sf_vec);
  }
  return std::string(dtype_name(op.elem));
}

}  // namespace tilefit::model
