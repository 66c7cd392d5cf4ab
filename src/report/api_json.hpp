// What the C ABI (src/capi/tilefit_c.cpp) writes, from the same column models as the CLI's JSON,
// compact: a result is `tilefit check --format json`'s result object key for key (the full
// profile; TILEFIT_VERDICT: the columns marked `verdict`), a target is a result's `target`, a
// check of files is the CLI's whole document, a suggestion is `suggest --format json`'s. No key
// is spelt in src/capi/; tests/capi_cli_test.cpp compares the two outputs config by config.
//
//   append_result(out, entry, Profile::verdict)
//     -> {"name":"finalize","file":"<config>","index":0,"kernel":"sm120_blockscaled",...}
#pragma once

#include <string>
#include <vector>

#include "report/columns.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/suggest.hpp"
#include "tilefit/io/config_error.hpp"

namespace tilefit::report::api {

/// One result object (the columns of report/result_columns.hpp in `profile`).
void append_result(std::string& out, const analysis::Entry& e, Profile profile);

/// A config that could not be read, as an element of a batch's array: {"status": "error", then
/// the members of an `errors` element of the CLI's JSON (kind, file, index, config, field,
/// message, text)}.
void append_error(std::string& out, const analysis::Problem& p);

/// A target object: {"source", ["device", "device_name",] "arch", ...the limits}.
void append_target(std::string& out, const analysis::Target& t);

/// The CLI's `check --format json` document for `run` (its summary from `tally`), compact; its
/// results in `profile`.
void append_check(std::string& out, const analysis::CheckRun& run, const analysis::Tally& tally,
                  Profile profile);

/// The suggestions for `e`, nearest first: an array of `suggest --format json`'s suggestions.
void append_suggestions(std::string& out, const analysis::Entry& e,
                        const std::vector<analysis::Suggestion>& found);

}  // namespace tilefit::report::api
