// The attention kernels' program structure (kernels.hpp). Kernel sources at the pinned commits
// (vLLM 6adad087, SGLang d6ef6888), cited file:line.
#include "kernels.hpp"

#include <array>

#include "tilefit/model/dtype.hpp"

namespace tilefit::model::attention {

std::string_view kernel_function(AttnKernel k) {
  switch (k) {
    case AttnKernel::VllmDecodeStage1:
    case AttnKernel::SglangDecodeStage1:
      return "_fwd_kernel_stage1";
    case AttnKernel::VllmDecodeGroupedStage1:
    case AttnKernel::SglangDecodeGroupedStage1:
      return "_fwd_grouped_kernel_stage1";
    case AttnKernel::VllmDecodeStage2:
    case AttnKernel::SglangDecodeStage2:
      return "_fwd_kernel_stage2";
    case AttnKernel::VllmUnified:
      return "kernel_unified_attention";
    case AttnKernel::VllmReduceSegments:
      return "reduce_segments";
    case AttnKernel::VllmPrefill:
    case AttnKernel::VllmPrefixPrefill:
    case AttnKernel::SglangExtend:
    case AttnKernel::SglangPrefill:
      return "_fwd_kernel";
    case AttnKernel::VllmPrefixPrefillAlibi:
      return "_fwd_kernel_alibi";
    case AttnKernel::SglangExtendUnified:
      return "_fwd_kernel_unified";
  }
  return "";
}

namespace {

struct Getter {
  const AttnLaunch& l;
  std::string_view& missing;
  bool ok = true;
  long long operator()(std::string_view name) {
    const auto v = l.get(name);
    if (!v) {
      if (ok) missing = name;
      ok = false;
      return 0;
    }
    return static_cast<long long>(*v);
  }
  long long opt(std::string_view name, long long dflt) {
    const auto v = l.get(name);
    return v ? static_cast<long long>(*v) : dflt;
  }
};

}  // namespace

bool program_of(const AttnLaunch& l, AttnProgram& p, std::string_view& missing) {
  Getter g{l, missing};
  p = AttnProgram{};
  p.kernel_name = kernel_function(l.kernel);
  p.q_bits = bits(l.q_dtype);
  p.kv_bits = bits(l.kv_dtype);
  p.out_bits = bits(l.out_dtype);
  p.store_bits = p.out_bits;
  switch (l.kernel) {
    case AttnKernel::VllmDecodeGroupedStage1:
    case AttnKernel::SglangDecodeGroupedStage1:
      // vLLM triton_decode_attention.py:279-467, SGLang decode_attention.py:384-600: q [BLOCK_H,
      // BLOCK_DMODEL] (+ qpe [BLOCK_H, BLOCK_DPE]) loaded once; per BLOCK_N tokens a page-table
      // load, k [BLOCK_DMODEL, BLOCK_N] (offs_d[:, None]: contiguous along d), qk = dot(q, k)
      // (+ dot(qpe, kpe)), v [BLOCK_N, BLOCK_DV] (or tl.trans(k) with IS_MLA / HAS_MLA),
      // acc += dot(p, v); the partial result is stored as f32 (Att_Out is float32).
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_H");
      p.d = g("BLOCK_DMODEL");
      p.dpe = g.opt("BLOCK_DPE", 0);
      p.n = g("BLOCK_N");
      p.dv = g("BLOCK_DV");
      p.v_from_k =
          g.opt(l.kernel == AttnKernel::VllmDecodeGroupedStage1 ? "IS_MLA" : "HAS_MLA", 0) != 0;
      p.paged_loops = 1;
      p.store_bits = 32;
      break;
    case AttnKernel::VllmUnified:
      // triton_unified_attention.py kernel_unified_attention: Q [BLOCK_M, HEAD_SIZE_PADDED], per
      // TILE_SIZE tokens a block-table load, K [HEAD_SIZE_PADDED, TILE_SIZE], V [TILE_SIZE,
      // HEAD_SIZE_PADDED]; 3D stores f32 segment outputs.
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_M");
      p.d = g("HEAD_SIZE_PADDED");
      p.n = g("TILE_SIZE");
      p.dv = p.d;
      p.paged_loops = 1;
      if (g.opt("IS_3D", 0) != 0) p.store_bits = 32;
      break;
    case AttnKernel::VllmPrefill:
    case AttnKernel::SglangPrefill:
      // vLLM triton_prefill_attention.py:36-203, SGLang prefill_attention.py: contiguous K/V.
      // Q, K, V and the output are [tokens, heads, Lk] tensors addressed with their runtime
      // strides (off_k = offs_n * stride_kbs + cur_kv_head * stride_kh + offs_d, SGLang
      // prefill_attention.py:58-65): stride_kh = Lk.
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_M");
      p.d = g("BLOCK_DMODEL");
      p.n = g("BLOCK_N");
      p.dv = p.d;
      if (const auto lk = l.get("Lk"); lk && static_cast<long long>(*lk) % 16 != 0) p.vec_cap = 1;
      break;
    case AttnKernel::SglangExtend:
      // extend_attention.py _fwd_kernel: a loop over the prefix (kv_indices gather) and a loop
      // over the extend tokens (contiguous).
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_M");
      p.d = g("BLOCK_DMODEL");
      p.dpe = g.opt("BLOCK_DPE", 0);
      p.n = g("BLOCK_N");
      p.dv = g("BLOCK_DV");
      p.loops = (g.opt("SKIP_PREFIX", 0) ? 0 : 1) + (g.opt("SKIP_EXTEND", 0) ? 0 : 1);
      p.paged_loops = g.opt("SKIP_PREFIX", 0) ? 0 : 1;
      // Q_Extend / K_Extend / V_Extend [tokens, heads, Lq] and the [slots, heads, Lq] buffers
      // are addressed with their head strides (cur_kv_head * stride_buf_kh, * stride_kh:
      // extend_attention.py:413-442, 561-572): as the prefills.
      if (const auto lq = l.get("Lq"); lq && static_cast<long long>(*lq) % 16 != 0) p.vec_cap = 1;
      break;
    case AttnKernel::SglangExtendUnified:
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_M");
      p.d = g("BLOCK_DMODEL");
      p.dpe = g.opt("BLOCK_DPE", 0);
      p.n = g("BLOCK_N");
      p.dv = g("BLOCK_DV");
      p.paged_loops = 1;
      if (const auto lq = l.get("Lq"); lq && static_cast<long long>(*lq) % 16 != 0) p.vec_cap = 1;
      break;
    case AttnKernel::VllmPrefixPrefill:
    case AttnKernel::VllmPrefixPrefillAlibi:
      // prefix_prefill.py: a loop over the cached context (block table) and one over the new
      // tokens.
      p.shape = Shape::TwoDot;
      p.m = g("BLOCK_M");
      p.d = g("BLOCK_DMODEL_PADDED");
      p.n = g("BLOCK_N");
      p.dv = p.d;
      p.loops = 2;
      p.paged_loops = 1;
      break;
    case AttnKernel::VllmDecodeStage1:
    case AttnKernel::SglangDecodeStage1:
      // triton_decode_attention.py:69-207: q [BLOCK_DMODEL], k [BLOCK_N, BLOCK_DMODEL],
      // qk = tl.sum(q[None, :] * k, 1), v [BLOCK_N, BLOCK_DV], acc += tl.sum(p[:, None] * v, 0).
      p.shape = Shape::VectorDot;
      p.vec_n = g("BLOCK_N");
      p.vec_d = g("BLOCK_DMODEL");
      p.vec_dv = g("BLOCK_DV");
      p.store_bits = 32;
      break;
    case AttnKernel::VllmDecodeStage2:
    case AttnKernel::SglangDecodeStage2:
    case AttnKernel::VllmReduceSegments:
      p.shape = Shape::Combine;
      p.vec_dv = l.kernel == AttnKernel::VllmReduceSegments ? g("HEAD_SIZE_PADDED") : g("BLOCK_DV");
      p.vec_n = l.kernel == AttnKernel::VllmReduceSegments ? g("NUM_SEGMENTS_PER_SEQ") : 1;
      break;
  }
  return g.ok;
}

}  // namespace tilefit::model::attention
