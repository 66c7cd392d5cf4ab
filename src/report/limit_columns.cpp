#include "report/limit_columns.hpp"

namespace tilefit::report {
namespace {

using T = ColumnType;

const Column<model::Limits> kLimitColumns[] = {
    {.key = "optin_per_block_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description =
         "the shared memory a block may opt in to (cudaDevAttrMaxSharedMemoryPerBlockOptin)",
     .json = json_fns<model::Limits>(
         [](auto& o, const model::Limits& l) { o.value(l.optin_per_block); })},
    {.key = "per_sm_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the shared memory of an SM (cudaDevAttrMaxSharedMemoryPerMultiprocessor)",
     .json = json_fns<model::Limits>([](auto& o, const model::Limits& l) { o.value(l.per_sm); })},
    {.key = "reserved_per_block_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the shared memory the system reserves per block "
                    "(cudaDevAttrReservedSharedMemoryPerBlock)",
     .json = json_fns<model::Limits>(
         [](auto& o, const model::Limits& l) { o.value(l.reserved_per_block); })},
    {.key = "default_per_block_bytes",
     .type = T::count,
     .unit = Unit::bytes,
     .description = "the shared memory a block gets without opting in",
     .json = json_fns<model::Limits>(
         [](auto& o, const model::Limits& l) { o.value(l.default_per_block); })},
    {.key = "max_ctas_per_sm",
     .type = T::count,
     .description = "the resident blocks an SM holds at most",
     .json = json_fns<model::Limits>(
         [](auto& o, const model::Limits& l) { o.value(l.max_ctas_per_sm); })},
    {.key = "regs_per_sm",
     .type = T::count,
     .description = "the 32-bit registers of an SM",
     .json =
         json_fns<model::Limits>([](auto& o, const model::Limits& l) { o.value(l.regs_per_sm); })},
    {.key = "threads_per_sm",
     .type = T::count,
     .description = "the resident threads an SM holds at most",
     .json = json_fns<model::Limits>(
         [](auto& o, const model::Limits& l) { o.value(l.threads_per_sm); })},
};

}  // namespace

std::span<const Column<model::Limits>> limit_columns() { return kLimitColumns; }

}  // namespace tilefit::report
