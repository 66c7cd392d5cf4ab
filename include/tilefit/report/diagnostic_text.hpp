// The sentences of tilefit: one message per diagnostic code, rendered from the template the code
// keeps next to its declaration and the diagnostic's typed values alone. Sample:
//
//   over_limit_initialize {stages 3 (builder_pick), smem_bytes 102400, limit_bytes 101376, over_bytes 1024}
//   -> "the builder picks 3 stages but the kernel then needs 102400 B > 101376 B (over by 1024 B):
//       it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails and
//       GemmUniversalAdapter::initialize() returns kErrorInternal"
//
// Needs only the standard library (no fmt), so that every layer — the CLI, the C++ API and the
// JSON writer — can render the same words.
#pragma once

#include <string>
#include <string_view>

#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/kernel_text.hpp"

namespace tilefit::report {

/// The message of `d`, one line: its code's template (or what its phrasing function returns for
/// `d`) rendered. Values a code declares but `d` lacks render as "?".
std::string message(const model::Diagnostic& d);

/// A message template rendered from `d`'s values (include/tilefit/model/diagnostic_codes.def):
/// `{key}` the value as text (value_text), `{key:B}` the value and " B", `{key:stages}` the
/// stage count as its family spells it (spell_stages), `{{` and `}}` one brace; a key `d` lacks
/// renders as "?". "needs {smem_bytes:B} > {limit_bytes:B}" -> "needs 102400 B > 101376 B".
std::string render(std::string_view message_template, const model::Diagnostic& d);

/// A kernel's description in words: each part's template (include/tilefit/model/
/// kernel_texts.def) rendered from its values, one after another ("" when it has none).
std::string kernel_description(const model::KernelDescription& k);

/// How a stage count of `param` is written: "StageCount<3>", "kStages = 3", "num_stages 3".
std::string spell_stages(model::StageParam param, long long stages);

/// A value as text: bytes as the number, an arch as "sm_90", a dtype as "bf16", ...
std::string value_text(const model::DiagValue& v);

}  // namespace tilefit::report
