// The one table of kernel families: one row per family, in inference order (the first family
// whose claims() accepts a config models it). It drives registration (families(), find_family),
// `tilefit families` (text and --format json) and the README's "Kernel families" table, which
// tests/family_table_test.cpp checks against it.
//
// Adding a family: its file under src/model/families/ (the KernelFamily: name, description,
// runs_on, claims, decide, layout) and its row in src/model/family_registry.cpp.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "tilefit/model/family.hpp"

namespace tilefit::model {

/// What kind of kernel a family models, by whose code builds it.
enum class FamilyKind {
  Cutlass,        ///< a CUTLASS kernel as its collective builders / device::Gemm build it
  EngineCutlass,  ///< a CUTLASS kernel as an inference engine's launcher (vLLM, SGLang) instantiates it
  Triton,         ///< a Triton kernel as Triton's compiler lowers it
};

/// "CUTLASS", "engine CUTLASS", "Triton".
std::string_view kind_name(FamilyKind kind);

/// One family's row.
struct FamilyRow {
  const KernelFamily* family;  ///< name, description, runs_on, and the rules themselves
  FamilyKind kind;
  /// The sources the family's rules mirror, with their versions (the files' doc comments cite
  /// the file and line of each rule): "CUTLASS 4.7.0 (7107b05)", ...
  std::string_view mirrors;
};

/// Every family's row, in inference order.
std::span<const FamilyRow> family_table();

/// The row of the family called `name`, or nullptr.
const FamilyRow* find_family_row(std::string_view name);

/// The built-in architectures (builtin_archs(), ascending) the family's kernels run on
/// (KernelFamily::runs_on).
std::vector<int> family_archs(const KernelFamily& family);

}  // namespace tilefit::model
