// A kernel's description as data (Result::kernel): the model says which kernel, schedule,
// instruction and buffers a config maps to as a list of parts, each a code with typed values;
// the report layer writes the words (report::kernel_description), as it writes a diagnostic's.
// Each code keeps its template next to its declaration, in kernel_texts.def. Sample:
//
//   KernelDescription d;
//   d.add(KernelText::sm90_kernel).name("kernel", "KernelTmaWarpSpecializedCooperative");
//   d.add(KernelText::sm90_tma_epilogue).name("epilogue", "TmaWarpSpecializedCooperative")
//       .integer("epi_m", 64).integer("epi_n", 32).integer("stages_c", 2).integer("stages_d", 2);
//   -> "KernelTmaWarpSpecializedCooperative; TmaWarpSpecializedCooperative epilogue 64x32, ..."
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tilefit/model/diagnostic.hpp"

namespace tilefit::model {

/// The parts a kernel description is made of (kernel_texts.def).
enum class KernelText : std::uint16_t {
#define TILEFIT_KERNEL_TEXT(code, keys, text) code,
#include "tilefit/model/kernel_texts.def"
#undef TILEFIT_KERNEL_TEXT
};

/// The template of a part (kernel_texts.def; written as report::render reads it).
std::string_view kernel_text_template(KernelText t);
/// The code's name ("sm90_kernel").
std::string_view kernel_text_name(KernelText t);

/// One part: its code and its values (a Diagnostic's value list and builders; its `code` unused).
struct KernelPart {
  KernelText text{};
  Diagnostic values;
};

/// A kernel's description: its parts, written one after another.
class KernelDescription {
 public:
  /// Appends a part; returns its values, for the builders (.name(...).integer(...)).
  Diagnostic& add(KernelText t) {
    parts_.push_back({t, {}});
    return parts_.back().values;
  }
  /// Appends every part of `other`.
  void append(const KernelDescription& other) {
    parts_.insert(parts_.end(), other.parts_.begin(), other.parts_.end());
  }
  /// Puts the parts of `other` first.
  void prepend(const KernelDescription& other) {
    parts_.insert(parts_.begin(), other.parts_.begin(), other.parts_.end());
  }
  /// Drops every part.
  void clear() { parts_.clear(); }
  bool empty() const { return parts_.empty(); }
  const std::vector<KernelPart>& parts() const { return parts_; }

 private:
  std::vector<KernelPart> parts_;
};

}  // namespace tilefit::model
