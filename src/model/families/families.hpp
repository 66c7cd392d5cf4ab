// Factories of the kernel families (each in its folder, families/<family>/family.cpp), and the
// small pieces of a family's class that several families write the same way.
#pragma once

#include <utility>

#include "tilefit/model/family.hpp"

namespace tilefit::model {

/// The one instance of a family's class: a family's factory returns the_family<Class>().
template <class Family>
const KernelFamily& the_family() {
  static const Family family;
  return family;
}

/// decide()'s last step: the plan keeps the decisions layout() reads, and the findings.
template <class State>
void finish(Plan& p, const State& state, Findings&& why) {
  p.state.store(state);
  p.take(std::move(why));
}

/// What a CUTLASS 3.x family inferred from arch and types alone asks of a config besides its
/// arch: dense operands, no engine launcher (the engine families model those), and neither a
/// warp tile nor the multistage schedule (both name a CUTLASS 2.x kernel).
inline bool dense_3x_config(const KernelConfig& cfg) {
  return !cfg.a.block_scaled() && !cfg.b.block_scaled() && cfg.launcher == Launcher::None &&
         !cfg.warp && cfg.schedule != Schedule::Multistage;
}

/// sm80_union_epilogue_larger, said only when the epilogue is the larger member of a CUTLASS 2.x
/// kernel's mainloop/epilogue union (sm80_multistage, engine_fp8_sm89).
inline void note_union_epilogue_larger(Findings& why, const Sizes& st) {
  if (st.epilogue_shared <= st.mainloop_shared) return;
  why.note([&] {
    return diag(Code::sm80_union_epilogue_larger)
        .bytes("mainloop_bytes", st.mainloop_shared)
        .bytes("epilogue_bytes", st.epilogue_shared);
  });
}

/// An inferred family's claim reason: `code` {arch, a, b}.
inline Diagnostic operand_claim(Code code, const KernelConfig& cfg, int sm) {
  return diag(code).arch("arch", sm).operand("a", cfg.a).operand("b", cfg.b);
}

const KernelFamily& sm120_blockscaled_family();
const KernelFamily& sm120_dense_family();
const KernelFamily& sm90_tma_ws_family();
const KernelFamily& sm100_umma_family();
const KernelFamily& sm80_multistage_family();
const KernelFamily& triton_matmul_family();
const KernelFamily& triton_fused_moe_family();
const KernelFamily& triton_block_matmul_family();
const KernelFamily& triton_attention_family();

// ---- inference-engine FP8 kernels (issue 11) ----
const KernelFamily& engine_fp8_sm89_family();
const KernelFamily& engine_fp8_sm90_family();
const KernelFamily& engine_fp8_sm100_family();
const KernelFamily& engine_fp8_sm120_family();

}  // namespace tilefit::model
