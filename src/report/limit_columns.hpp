// The columns of a target's limits (model::Limits), in order: the members of a result's and a
// run's `target`, of a device's `limits` and of an `archs` row, and their schema
// (report/columns.hpp describes the model). Sample of the members written:
//
//   "optin_per_block": 232448, "optin_per_block_bytes": 232448, "per_sm": 233472,
//   "per_sm_bytes": 233472, ..., "max_ctas_per_sm": 32, "regs_per_sm": 65536, "threads_per_sm": 2048
#pragma once

#include <span>

#include "report/columns.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::report {

std::span<const Column<model::Limits>> limit_columns();

}  // namespace tilefit::report
