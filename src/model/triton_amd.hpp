// Triton 3.6's shared-memory rules on AMD Instinct targets (gfx942 CDNA3, gfx950 CDNA4) for the
// three Triton GEMM families (triton_matmul, triton_fused_moe, triton_block_matmul): what the
// AMD backend (third_party/amd/backend/compiler.py: HIPOptions, make_ttgir, make_llir) and its
// passes allocate in LDS. docs/triton-amd-model.md writes out every rule with its source and the
// measured rows (tests/data/amd-triton-3.6.jsonl) it was checked against; the Python reference is
// tools/amd/reference/amd_ref.py.
//
// The rules cover the launches measured to be exact (num_stages >= 2 with both operands
// pipelined, see docs/triton-amd-model.md §5); every other launch is rejected with
// triton_amd_unmodelled naming what is not modelled, never given a guessed size.
#pragma once

#include "triton_gemm.hpp"
#include "triton_allocator.hpp"

namespace tilefit::model::triton::amd {

/// HIPOptions' defaults (third_party/amd/backend/compiler.py, class HIPOptions): num_warps 4,
/// num_stages 2.
constexpr int kDefaultNumWarps = 4;
constexpr int kDefaultNumStages = 2;

/// The AMD plan (triton_plan() hands AMD targets here).
Plan plan(const KernelConfig& cfg, const KernelTraits& k, bool explain, Findings&& why);

/// The kernel's LDS buffers at num_stages = `stages` (>= 2).
Buffers buffers(const Decisions& d, int stages);

}  // namespace tilefit::model::triton::amd
