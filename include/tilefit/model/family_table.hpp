// The one table of kernel families: one row per family, in inference order (the first family
// whose claims() accepts a config models it). It drives registration (families(), find_family),
// `tilefit families` (text and --format json) and the README's "Kernel families" table, which
// tests/family_table_test.cpp checks against it; each row names the family's diagnostic section,
// and tests/family_parts_test.cpp checks that every row's family has all its parts.
//
// A family is one folder and one row. Every file a new family touches today, for one of the kind
// of triton_fused_moe (a Triton kernel):
//   src/model/families/<family>/family.cpp     its rules: name, description, decide() (the kernel's
//                                              types -> triton::KernelTraits); triton::TritonFamily
//                                              gives runs_on, claims and the layout
//   src/model/families/<family>/diagnostics.def  TILEFIT_DIAGNOSTIC_SECTION(<family>) and its
//                                              codes, each with its message template
//   src/model/families/<family>/messages.cpp   only if a message chooses between phrasings
//   include/tilefit/model/diagnostic_codes.def   one #include of its diagnostics.def
//   src/model/families/families.hpp            one line: its factory
//   src/model/family_registry.cpp              its row (kind, mirrors, diagnostic sections)
//   docs/reference/                            its row of families.md, its table of diagnostics.md
//                                              (tools/docs/gen_reference.py writes both)
//   tests/data/golden/families.txt             `tilefit families`, which lists it
//   tests/data/*.jsonl or a golden             at least one measured row naming it
// and, outside the model, what its configs say that no other family's do (for triton_fused_moe:
// fp8_w8a8, block_shape and vLLM's tuned tables: KernelConfig, src/io/vocabulary.cpp,
// src/io/config_decoder.cpp, src/io/tuned_file.cpp), which the config front door of issue 15
// turns into the family's dialect.
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
  /// The family's own diagnostic section: the codes of its folder's diagnostics.def, which
  /// opens with TILEFIT_DIAGNOSTIC_SECTION(<this name>) (model::section_codes lists them).
  std::string_view diagnostics;
  /// The other sections whose codes it also reports, space separated: the shared rule
  /// libraries' ("sm120", "triton", "engine_fp8") and those of the families whose rules it
  /// reuses ("sm90_tma_ws" for engine_fp8_sm90); empty for none. Every family may report the
  /// `common` codes.
  std::string_view shared_diagnostics;
};

/// Every family's row, in inference order.
std::span<const FamilyRow> family_table();

/// The row of the family called `name`, or nullptr.
const FamilyRow* find_family_row(std::string_view name);

/// The built-in architectures (builtin_archs(), ascending) the family's kernels run on
/// (KernelFamily::runs_on).
std::vector<int> family_archs(const KernelFamily& family);

}  // namespace tilefit::model
