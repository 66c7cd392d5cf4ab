// CSV (RFC 4180) for check, sweep and suggest: one header, one line per result, every field
// that needs it quoted ("a ""quoted"" name", fields with commas or line breaks). Sample:
//
//   name,file,index,arch,kernel,tile,stages,auto_stages,max_stages,max_stages_smem_bytes,smem_bytes,...
//   moe_CtaShape128x128x64B,configs/sm120_moe_fp4.json,0,sm_120,sm120_blockscaled,128x128x128,4,true,4,...
#pragma once

#include <string>
#include <string_view>

#include "tilefit/analysis/check.hpp"
#include "tilefit/report/csv_field.hpp"

namespace tilefit::report {

/// The header line of result rows (ends with "\n").
std::string_view csv_header();

/// Appends one result row (ends with "\n"), the config as its JSON (io::config_json).
void append_csv_row(std::string& out, const analysis::Entry& e);
/// The same with the config's JSON given: as is when `quoted` (already a CSV field), else quoted.
void append_csv_row(std::string& out, const analysis::Entry& e, std::string_view config,
                    bool quoted);

}  // namespace tilefit::report
