#include "tilefit/model/dtype.hpp"

#include <string>

namespace tilefit::model {

int bits(DType t) {
  switch (t) {
    case DType::Void: return 0;
    case DType::E2M1: return 4;
    case DType::E2M3:
    case DType::E3M2: return 6;
    case DType::E4M3:
    case DType::E5M2:
    case DType::UE4M3:
    case DType::UE8M0:
    case DType::S8:
    case DType::U8: return 8;
    case DType::BF16:
    case DType::F16: return 16;
    case DType::F32:
    case DType::TF32:
    case DType::S32: return 32;
  }
  return 0;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::Void: return "void";
    case DType::E2M1: return "e2m1";
    case DType::E2M3: return "e2m3";
    case DType::E3M2: return "e3m2";
    case DType::E4M3: return "e4m3";
    case DType::E5M2: return "e5m2";
    case DType::UE4M3: return "ue4m3";
    case DType::UE8M0: return "ue8m0";
    case DType::BF16: return "bf16";
    case DType::F16: return "f16";
    case DType::F32: return "f32";
    case DType::TF32: return "tf32";
    case DType::S8: return "s8";
    case DType::U8: return "u8";
    case DType::S32: return "s32";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  struct Alias { std::string_view name; DType t; };
  static constexpr Alias kAliases[] = {
      {"void", DType::Void},   {"e2m1", DType::E2M1},   {"fp4", DType::E2M1},
      {"e2m3", DType::E2M3},   {"e3m2", DType::E3M2},   {"fp6", DType::E3M2},
      {"e4m3", DType::E4M3},   {"fp8", DType::E4M3},    {"e5m2", DType::E5M2},
      {"ue4m3", DType::UE4M3}, {"ue8m0", DType::UE8M0}, {"bf16", DType::BF16},
      {"f16", DType::F16},     {"fp16", DType::F16},    {"half", DType::F16},
      {"f32", DType::F32},     {"fp32", DType::F32},    {"float", DType::F32},
      {"tf32", DType::TF32},   {"s8", DType::S8},       {"int8", DType::S8},
      {"u8", DType::U8},       {"uint8", DType::U8},    {"s32", DType::S32},
      {"int32", DType::S32},
  };
  for (const Alias& a : kAliases)
    if (a.name == s) return a.t;
  return std::nullopt;
}

std::string_view dtype_choices() {
  return "e2m1 (fp4), e2m3, e3m2 (fp6), e4m3 (fp8), e5m2, ue4m3, ue8m0, bf16, f16, f32, tf32, "
         "s8, u8, s32";
}

bool is_f8f6f4(DType t) {
  switch (t) {
    case DType::E2M1:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E4M3:
    case DType::E5M2: return true;
    default: return false;
  }
}

std::optional<Operand> parse_operand(std::string_view s) {
  if (s == "nvfp4") return Operand{DType::E2M1, DType::UE4M3, 16};
  if (s == "mxfp4") return Operand{DType::E2M1, DType::UE8M0, 32};
  if (s == "mxfp6") return Operand{DType::E3M2, DType::UE8M0, 32};
  if (s == "mxfp8") return Operand{DType::E4M3, DType::UE8M0, 32};
  if (auto t = parse_dtype(s); t && *t != DType::Void) return Operand{*t, DType::Void, 0};
  return std::nullopt;
}

std::string_view operand_choices() {
  return "nvfp4, mxfp4, mxfp6, mxfp8, or an element type (e2m1, e2m3, e3m2, e4m3, e5m2, bf16, "
         "f16, f32, tf32, s8, u8)";
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
