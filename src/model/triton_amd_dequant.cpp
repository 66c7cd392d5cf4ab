// Triton 3.6 on gfx942 / gfx950: fused_moe_kernel_gptq_awq's dequantised B (declared in
// triton_gemm.hpp, namespace amd; docs/dev/triton-amd-model.md §4b).
//
// The kernel (vLLM 6adad087 fused_moe.py:65-296, SGLang d6ef6888
// fused_moe_triton_kernels.py:92-321) loads per K step A [BM, BK] (bf16), the weight as [BK, BN]
// bytes (int4: `(offs_k[:, None] // 2) * stride_bk`, int8: `offs_k[:, None] * stride_bk`) and
// the group scales b_scale [BK, BN] (`(offs_k + BLOCK_SIZE_K * k) // group_size`), dequantises
// B in registers, `((b - zp) * b_scale).to(compute_type)`, and runs a bf16 tl.dot.
//
// Paths are relative to the Triton repository. The pass order is the 3.6.0 wheel's
// HIPBackend.make_ttgir (third_party/amd/backend/compiler.py): add_schedule_loops, add_pipeline,
// then add_remove_layout_conversions. The AMD pass sources read are the stored versions nearest
// 3.6 (ScheduleLoops.cpp at 020c0e4d, LowerLoops.cpp at 009189ac); every rule below was checked
// on the dumped TTGIR and allocation of every gptq_awq row (/work/notes/amd-dumps, D1).
#include "triton_amd_operands.hpp"
#include "triton_gemm.hpp"

#include <algorithm>

namespace tilefit::model::triton::amd {

const char* dequant_b(const KernelTraits& k, int arch, int num_warps, Decisions& d) {
  const long long bk = d.bk, bn = d.bn;
  // The weight's load: int4 `offs_k // 2` has contiguity 1 (lib/Analysis/AxisInfo.cpp,
  // DivOpAxisInfoVisitor::getContiguity): one byte per thread. int8 is K-contiguous: the common
  // Coalesce pass gives min(16, BK, max(BK·BN / (64·num_warps), 1)) bytes per thread.
  const long long raw_bytes =
      k.b_dequant_bits == 4 ? 1 : std::min({16LL, bk, std::max(bk * bn / (64LL * num_warps), 1LL)});
  const Bytes dequantised = bk * bn * 2;  // [BK, BN] compute type (bf16 / f16)
  if (k.b_dequant_bits == 4) {
    // int4: the one-byte weight load never reaches LDS, nor does b_scale; the dequantised
    // [BK, BN] is converted to the dot operand through one local_alloc per iteration (measured
    // on both targets, every row: nbuf·A + BK·BN·2). On gfx942 both loads are below 32 bits and
    // ScheduleLoops' getIndirectLevel filters them (filterSmallVectors is true off CDNA4/RDNA;
    // canBeConvertedToAsyncLoad, PipeliningUtility.cpp: width >= 32). On gfx950 the filter is
    // off, but their users are the shifts / extf of the dequantisation, not a dot-operand
    // conversion, so LowerLoops' getSharedEncIfAllUsersAreDotEnc gives no shared encoding and
    // createStreamOps skips them (`if (!info.sharedEncoding) continue;`): registers only.
    d.amd_dequant_once = dequantised;
    return nullptr;
  }
  // int8: a weight load below 32 bits per thread (BK·BN < 4·64·num_warps) was not measured.
  if (raw_bytes * 8 < 32)
    return "fused_moe_kernel_gptq_awq int8: a weight load below 32 bits per thread";
  // The int8 weight (>= 32 bits per thread) is pipelined into its own nbuf x [BK, BN] i8 buffer
  // (swizzled_shared: 8-bit, never padded on gfx950; cdna4_pad_bytes).
  d.amd_raw_b_stage = bk * bn;
  if (arch == kGfx950) {
    // CDNA4: getIndirectLevel does not filter small loads (ScheduleLoops.cpp: filterSmallVectors
    // = isaFamily != CDNA4 && !isRDNA), so the 16-bit, one-element-per-thread b_scale load is
    // pipelined as well: nbuf x [BK, BN] of the scale type (bf16), swizzled (its pointer
    // contiguity 1 fails canBeConvertedToAsyncLoad, so composePaddedLayout gets
    // canUseAsyncCopy = false: no padding, a register stream copy even with async copy, with
    // the loop's common numBuffers, S with async copy and S - 1 without: LowerLoops.cpp
    // initSchedule). Both the weight and the scale then come from LDS, and the dot-operand
    // conversion is rematerialised onto their local_loads (dumps: both local_load straight into
    // #ttg.dot_op<{opIdx = 1}>): no dequantised copy.
    d.amd_scale_stage = bk * bn * 2;
    return nullptr;
  }
  // CDNA3 (gfx942): b_scale is filtered (16 bits per thread) and stays in registers; the int8
  // weight's local_load goes to the blocked layout of the dequantisation, and the dequantised
  // tile is converted to the dot operand through one local_alloc [BK, BN] per iteration
  // (dumps: local_load -> #blocked, then local_alloc of the bf16 tile -> dot_op; every gfx942
  // row: nbuf·(A + BK·BN) + BK·BN·2).
  d.amd_dequant_once = dequantised;
  return nullptr;
}

const char* dequant_stage1(const KernelTraits& k, int forced_non_k, int kpack, Decisions& d) {
  // int8 at num_stages 1: its weight stays in registers, unlike at num_stages >= 2 (gfx942:
  // local_load -> dequantisation -> local_alloc; gfx950: the dot-operand conversion hoisted onto
  // the local_loads); where the conversion then lands was not measured.
  if (k.b_dequant_bits != 4)
    return "fused_moe_kernel_gptq_awq int8 with num_stages 1 (not measured)";
  // int4: the weight and b_scale loads never reach LDS at any num_stages (dequant_b), so at
  // num_stages 1 the dequantised B reaches the dot through its one local_alloc per iteration as
  // always; A, not pipelined (add_schedule_loops(1) schedules no load stage), stays in the loop
  // and its blocked -> MFMA dot-operand conversion goes through a local_alloc of the whole tile
  // when it needs shared memory (operand_cvt_needs_lds: the rule of the plain kernels' loads
  // left in the loop, docs/dev/triton-amd-model.md §3b). A's allocation is live from the alloc to
  // its local_load, before the dequantised B's (measured: every int4 num_stages 1 row, both
  // targets, async copy on and off: both at offset 0, max(A, BK·BN·2)).
  const Mfma m = choose_mfma(d.cc, d.bm, d.bn, d.bk, 16, false, forced_non_k, kpack, d.num_warps);
  if (m.non_k == 0)
    return "fused_moe_kernel_gptq_awq with num_stages 1 and matrix_instr_nonkdim other than 16 "
           "or 32";
  d.a_reg_smem = operand_cvt_needs_lds(m, 0, d.bm, d.bn, d.bk, 16, d.num_warps) ? 1 : 0;
  return nullptr;
}

}  // namespace tilefit::model::triton::amd
