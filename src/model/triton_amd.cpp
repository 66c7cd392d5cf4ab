// Triton 3.6 on gfx942 / gfx950: the LDS rules (declared in triton_gemm.hpp, namespace amd;
// docs/dev/triton-amd-model.md; Python reference tools/amd/reference/amd_ref.py).
//
// Paths are relative to the Triton repository at acd81049917c62aa156fff2669ae25664048ac77 (the
// 3.6.0 wheel); the Python sources quoted are the wheel's own (triton/backends/amd/compiler.py,
// triton/knobs.py, read on the GPU machine: tools/amd/README.md).
#include "triton_allocator.hpp"
#include "triton_amd_operands.hpp"
#include "triton_gemm.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace tilefit::model::triton::amd {
namespace {

/// sizePerThread along K of a coalesced [rows, K] load (the common Coalesce pass,
/// lib/Dialect/TritonGPU/Transforms/CoalesceUtils.cpp, Utility.cpp getNumElementsPerThread) with
/// AMD's 64-lane wavefronts (threads-per-warp 64, HIPOptions.warp_size for gfx9):
///   min(16 bytes / element, contiguous extent, max(numel / (64 · num_warps), 1)).
long long per_thread(long long numel, long long contig, int bits, int num_warps) {
  const long long by_align = 16 / std::max(bits / 8, 1);
  return std::min({by_align, contig, std::max(numel / (64LL * num_warps), 1LL)});
}

bool triton_36(std::string_view v) {
  if (v.substr(0, 3) != "3.6") return false;
  return v.size() == 3 || v[3] < '0' || v[3] > '9';
}

/// The padding bytes a padded_shared operand buffer of CDNA4's async copy gets per 1024 bytes
/// of data (0: not padded): composePaddedLayoutForAsyncCopyCDNA4
/// (third_party/amd/lib/TritonAMDGPUTransforms/Utility.cpp, called by composePaddedLayout for
/// ISAFamily::CDNA4 with useAsyncCopy when the pipeliner allocates the operand's buffers). It
/// pads only 16-bit operands whose one-stage tile holds at least 16384 bytes and whose smaller
/// extent is at least 16, for an MFMA with non-K extent 16 or 32 and kWidth 4 or 8. Both
/// operands of these kernels are K-contiguous (isKContig), and a tile of 16384 bytes has
/// BLOCK_SIZE_K >= 32, where the CDNA4 16-bit MFMAs (32x32x16, 16x16x32) have kBase 8 and
/// gfx950 forces kpack 1: kWidth 8, the "wide" layout, which pads 32 bytes for MFMA 16 and 16
/// bytes for MFMA 32. The padding interval is 1024 bytes (512 elements).
int cdna4_pad_bytes(long long rows, long long cols, int elem_bits, int mfma_non_k) {
  if (elem_bits != 16) return 0;
  if (rows * cols * 2 < 16384 || std::min(rows, cols) < 16) return 0;
  if (mfma_non_k == 16) return 32;
  if (mfma_non_k == 32) return 16;
  return 0;
}

/// A padded_shared<[interval:+pad]> allocation of `data` bytes: PaddedSharedEncodingAttr adds
/// `pad` after every full interval but the last (lib/Dialect/TritonGPU/IR/Dialect.cpp,
/// getPaddedSize); the multi-buffered [nbuf, rows, cols] allocation is padded as one (measured:
/// every gfx950 async 16-bit row of tests/data/amd-triton-3.6.jsonl).
Bytes padding(Bytes data, int pad_bytes) {
  if (pad_bytes == 0 || data <= 1024) return 0;
  return (data / 1024 - 1) * pad_bytes;
}

/// Live ranges (abstract program points; only their order matters): the pipelined buffers live
/// across the K loop, the scale conversion inside it.
constexpr int kBeforeLoop = 10, kAfterLoop = 100, kInLoop = 40;

/// Is operand `op`'s load multi-buffered at num_stages `stages`? Never at 1 (the AMD pipeliner
/// has nothing to overlap: add_schedule_loops(num_stages) schedules no load stage). From 2 on:
/// on gfx942 only a load of at least 32 bits per thread (the pipeliner's small-load filter,
/// isPipeliningBeneficial / canBeConvertedToAsyncLoad: width < 32 is "too small for
/// pipelining"); on gfx950 every operand load, narrower ones included (measured on every
/// gfx950 row with a load below 32 bits per thread, dev and hold-out, async copy on and off:
/// nbuf copies of both operands; tests/data/amd-triton-3.6.jsonl).
bool operand_pipelined(const Decisions& d, int op, int stages) {
  if (stages < 2) return false;
  if (d.cc == kGfx950) return true;
  return op == 0 ? d.a_can_pipeline : d.b_can_pipeline;
}

}  // namespace

Buffers buffers(const Decisions& d, int stages) {
  Buffers bufs;
  // The AMD pipeliner (amd.passes.ttgpuir.add_schedule_loops + add_pipeline, make_ttgir;
  // third_party/amd/lib/TritonAMDGPUTransforms/ScheduleLoops.cpp, Pipeline.cpp / LowerLoops.cpp):
  // without async copy a pipelined load goes global -> registers -> local_store one stage
  // ahead, so num_stages - 1 LDS buffers; with TRITON_HIP_USE_ASYNC_COPY the load is an
  // async_copy_global_to_local straight into LDS and every stage keeps its buffer: num_stages
  // (measured: every exact row of tests/data/amd-triton-3.6.jsonl; users-2026-12.md §3.4).
  // Each operand is one ttg.local_alloc of nbuf x [BM, BK] / [BK, BN], live across the loop:
  // swizzled_shared (no padding), or on gfx950 with async copy padded_shared for large 16-bit
  // tiles (cdna4_pad_bytes).
  const int nbuf = d.async_copy ? stages : stages - 1;
  if (d.amd_fma) {
    // The FMA dot (triton_amd_operands.cpp fma_dot): the f32 operand tiles' local_alloc, each
    // live from the alloc to its local_load in the loop, and the epilogue's C conversion after
    // it; none overlaps another (dumps: every allocation at offset 0): their maximum.
    bufs.add(d.amd_fma_a, 16, kInLoop + 2, kInLoop + 3, Component::A);
    bufs.add(d.amd_fma_b, 16, kInLoop + 4, kInLoop + 5, Component::B);
    bufs.add(d.amd_fma_c, 16, kAfterLoop + 1, kAfterLoop + 2, Component::LayoutConversion);
    return bufs;
  }
  if (d.b_dequant_bits > 0 && stages < 2) {
    // fused_moe_kernel_gptq_awq int4 at num_stages 1 (dequant_stage1): A's in-loop conversion,
    // then the dequantised B's; never live together.
    if (d.a_reg_smem == 1) bufs.add(d.a_tile, 16, kInLoop + 2, kInLoop + 3, Component::A);
    bufs.add(d.amd_dequant_once, 16, kInLoop, kInLoop + 1, Component::B);
    return bufs;
  }
  if (d.b_dequant_bits > 0) {
    bufs.add(nbuf * d.a_tile + padding(nbuf * d.a_tile, d.a_pad_bytes), 16, kBeforeLoop, kAfterLoop,
             Component::A);
    // fused_moe_kernel_gptq_awq (triton_amd_dequant.cpp): the pipelined weight and b_scale
    // buffers share the loop's nbuf; the dequantised B is stored once per iteration.
    bufs.add(nbuf * d.amd_raw_b_stage, 16, kBeforeLoop + 1, kAfterLoop, Component::B);
    bufs.add(nbuf * d.amd_scale_stage, 16, kBeforeLoop + 2, kAfterLoop, Component::ScaleBuffers);
    bufs.add(d.amd_dequant_once, 16, kInLoop, kInLoop + 1, Component::B);
    return bufs;
  }
  if (d.amd_tma) {
    // SGLang USE_TMA (triton_amd_tma.cpp tma_operands). Pipelined (operand_pipelined: gfx950 from
    // num_stages 2; never on gfx942, whose rewritten loads are below 32 bits): A's nbuf x [BM, BK]
    // buffer, B's own when the MFMA warps are along M (else B is prefetched in registers). Not
    // pipelined: A's local_alloc and B's conversion scratch in the loop, never live together,
    // nor with the scale conversion (dumps: all at offset 0).
    if (operand_pipelined(d, 0, stages)) {
      bufs.add(nbuf * d.a_tile, 16, kBeforeLoop, kAfterLoop, Component::A);
      if (d.amd_tma_b_lds) bufs.add(nbuf * d.b_tile, 16, kBeforeLoop + 1, kAfterLoop, Component::B);
    } else {
      bufs.add(d.a_tile, 16, kInLoop + 2, kInLoop + 3, Component::A);
      bufs.add(d.amd_tma_b_cvt, 16, kInLoop + 4, kInLoop + 5, Component::B);
    }
    bufs.add(d.scale_cvt, 16, kInLoop, kInLoop + 1, Component::LayoutConversion);
    return bufs;
  }
  // Which loads are pipelined (operand_pipelined): none at num_stages 1. One that is not stays
  // in the loop: its blocked -> MFMA dot-operand conversion is a local_alloc of the whole tile
  // + local_load when it needs shared memory (a_reg_smem / b_reg_smem, operand_cvt_needs_lds),
  // live only from the alloc to its load, so A's and B's never overlap (measured: max(A, B)).
  const bool a_pipe = operand_pipelined(d, 0, stages), b_pipe = operand_pipelined(d, 1, stages);
  if (a_pipe)
    bufs.add(nbuf * d.a_tile + padding(nbuf * d.a_tile, d.a_pad_bytes), 16, kBeforeLoop, kAfterLoop,
             Component::A);
  else if (d.a_reg_smem == 1)
    bufs.add(d.a_tile, 16, kInLoop + 2, kInLoop + 3, Component::A);
  if (b_pipe)
    bufs.add(nbuf * d.b_tile + padding(nbuf * d.b_tile, d.b_pad_bytes), 16, kBeforeLoop + 1,
             kAfterLoop, Component::B);
  else if (d.b_reg_smem == 1)
    bufs.add(d.b_tile, 16, kInLoop + 4, kInLoop + 5, Component::B);
  // Block-quantised kernels: a scale vector's in-loop convert_layout, live with the buffers.
  bufs.add(d.scale_cvt, 16, kInLoop, kInLoop + 1, Component::LayoutConversion);
  return bufs;
}

Plan plan(const KernelConfig& cfg, const KernelTraits& k, bool explain, Findings&& why) {
  Plan p;
  p.min_stages = 1;  // 2 when the num_stages 1 rules do not cover the launch (below)
  p.overflow = Overflow::TritonOutOfResources;
  p.stage_param = StageParam::TritonNumStages;
  p.auto_stages = false;
  p.stages = cfg.stages.value_or(kDefaultNumStages);
  const int arch = cfg.arch;
  const int w = cfg.num_warps.value_or(kDefaultNumWarps);
  const bool async = cfg.hip_async_copy.value_or(false);

  if (!cfg.triton_version.empty() && !triton_36(cfg.triton_version))
    why.note(
        [&] { return diag(Code::triton_version_differs).name("version", cfg.triton_version); });
  if (!cfg.stages)
    why.note([&] {
      return diag(Code::triton_amd_default_num_stages)
          .stages("stages", kDefaultNumStages, p.stage_param);
    });
  if (!cfg.num_warps)
    why.note([&] {
      return diag(Code::triton_amd_default_num_warps).integer("num_warps", kDefaultNumWarps);
    });
  // HIPOptions.__post_init__ (wheel 3.6.0, third_party/amd/backend/compiler.py): on gfx950 a
  // kpack other than 1 is overwritten with 1 and a warning is printed (measured: the compiled
  // kernel's metadata.kpack is 1).
  if (arch == kGfx950 && cfg.tuned.kpack && *cfg.tuned.kpack != 1)
    why.note([&] {
      return diag(Code::triton_amd_kpack_forced)
          .integer("kpack", *cfg.tuned.kpack)
          .arch("arch", arch);
    });
  // Said when the config leaves the switch to Triton's default (off in 3.6).
  if (explain && !cfg.hip_async_copy)
    why.note(
        [&] { return diag(Code::triton_amd_async_copy).arch("arch", arch).name("value", "off"); });

  reject_invalid(cfg, k, why);

  // What the measured rows show the rules below do not cover (docs/dev/triton-amd-model.md §6).
  auto unmodelled = [&](const char* what) {
    why.reject(
        [&] { return diag(Code::triton_amd_unmodelled).arch("arch", arch).name("what", what); });
  };
  const int ib = k.in_bits, eb = ib / 8;
  const int bb = k.b_load_elem_bits > 0 ? k.b_load_elem_bits : ib;
  // SGLang's USE_TMA down GEMM builds tensor descriptors on ROCm too (support_tensor_descriptor()
  // is true with Triton 3.6, fused_moe_triton_kernels.py:32-56). Triton 3.6's HIPBackend.make_ttir
  // rewrites them to pointer loads (passes.ttir.add_rewrite_tensor_descriptor_to_pointer,
  // third_party/amd/backend/compiler.py); the rewritten A [BM, BK] and 3-D B [1, BN, BK] loads
  // are pipelined differently from the pointer kernel's (docs/dev/triton-amd-model.md §6).
  // triton_amd_tma.cpp gives the rule and what it does not cover.
  if (k.tma)
    if (const char* what = tma_unmodelled(cfg, w)) unmodelled(what);
  // gfx950 with async copy gives large 16-bit operand tiles padded_shared encodings
  // (cdna4_pad_bytes) for an MFMA of non-K extent 16 or 32: AccelerateAMDMatmul.cpp
  // chooseMfmaInstruction takes matrix_instr_nonkdim when set, else 32 when min(BM, BN) >= 32,
  // else 16. Another forced extent (4, 64) is not modelled.
  int mfma_non_k = 0;
  if (arch == kGfx950 && async && ib == 16) {
    const int forced = cfg.tuned.matrix_instr_nonkdim.value_or(0);
    mfma_non_k = forced != 0 ? forced : (std::min(cfg.m, cfg.n) >= 32 ? 32 : 16);
    if (mfma_non_k != 16 && mfma_non_k != 32)
      unmodelled(
          "16-bit operands with async copy on gfx950 and matrix_instr_nonkdim other "
          "than 16 or 32 (padded shared layouts)");
  }
  // No MFMA instruction fits (fma_fallback, triton_amd_operands.cpp: BM or BN below 16, or a BK
  // below the chosen instruction's K, e.g. 8-bit BK 16 with the 16x16x32 MFMA): the dot is an
  // FMA dot, sized by fma_dot for fp8 operands. The 8-bit MFMA 32x32x16 (kDim 16 on both
  // targets; gfx950's scaled 32x32x64 and int8 32x32x32 do not divide BK 16, so BlockedToMFMA
  // falls back to it) fits BK 16 like any other dot.
  const int fma = fma_fallback(cfg.m, cfg.n, cfg.k, ib, cfg.tuned.matrix_instr_nonkdim.value_or(0));
  if (fma < 0 && (cfg.m < 16 || cfg.n < 16))
    unmodelled("BLOCK_SIZE_M or BLOCK_SIZE_N below 16 with a forced matrix_instr_nonkdim");
  else if (fma < 0 && ib == 8 && cfg.k < 32)
    unmodelled(
        "8-bit operands with BLOCK_SIZE_K < 32 and matrix_instr_nonkdim other than 16 or 32");
  // fma_dot covers fp8 x fp8 -> f32 (cast to f32 for the FMA). 16-bit and int8 operands are
  // kept as they are (isLegalFMAForm: f16 x f16 -> f32 and i8 x i8 -> i32 are v_dot forms),
  // so their loads feed the dot-operand conversion directly and may be pipelined: not measured.
  if (fma == 1 && !(k.fp8 && ib == 8))
    unmodelled("an FMA dot (no MFMA instruction fits) of 16-bit or int8 operands (not measured)");
  if (fma == 1 && (k.tma || k.swap_ab || k.b_dequant_bits > 0 || k.b_load_elem_bits > 0))
    unmodelled(
        "an FMA dot (no MFMA instruction fits) in tensor-descriptor, SWAP_AB or "
        "dequantising kernels (not measured)");
  const long long pa = per_thread(cfg.m * cfg.k, cfg.k, ib, w);
  const long long pb = per_thread(cfg.k * cfg.n, cfg.k, bb, w);
  // fused_moe_kernel_gptq_awq's A must be pipelined for triton_amd_dequant.cpp's rules (its B
  // is not a dot-operand load: dequant_b() decides).
  if (k.b_dequant_bits > 0 && pa * ib < 32 && p.stages >= 2)
    unmodelled("fused_moe_kernel_gptq_awq with an A load below 32 bits per thread");

  p.sizes_known = !why.invalid();
  Decisions d;
  d.amd = true;
  d.async_copy = async;
  d.cc = arch;
  d.bm = cfg.m;
  d.bn = cfg.n;
  d.bk = cfg.k;
  d.num_warps = w;
  d.in_bits = ib;
  d.fp8_block = k.fp8_block;
  d.a_tile = cfg.m * cfg.k * eb;
  d.b_tile = cfg.k * cfg.n * bb / 8;
  // USE_TMA (triton_amd_tma.cpp): the rewritten loads know no contiguity, one element each.
  d.a_load_bits = k.tma ? ib : static_cast<int>(pa * ib);
  d.b_load_bits = k.tma ? bb : static_cast<int>(pb * bb);
  // cdna4_pad_bytes pads 16-bit tiles only (int8_w8a16's B is not). USE_TMA's buffers are never
  // padded (run T: 17 gfx950 rows with async copy and a 16-bit A tile of 16 KiB or more, every
  // one the unpadded sum).
  if (mfma_non_k != 0 && !k.tma) {
    d.a_pad_bytes = cdna4_pad_bytes(cfg.m, cfg.k, ib, mfma_non_k);
    d.b_pad_bytes = cdna4_pad_bytes(cfg.k, cfg.n, bb, mfma_non_k);
  }
  d.a_can_pipeline = d.a_load_bits >= 32;
  d.b_can_pipeline = d.b_load_bits >= 32;
  // fused_moe_kernel_gptq_awq: the weight, b_scale and the dequantised B (triton_amd_dequant.cpp).
  bool dequant_stage1_ok = false;
  if (k.b_dequant_bits > 0) {
    d.b_dequant_bits = k.b_dequant_bits;
    d.b_pad_bytes = 0;
    if (const char* what = dequant_b(k, arch, w, d)) unmodelled(what);
    // num_stages 1: nothing pipelined (dequant_stage1, triton_amd_dequant.cpp); min_stages 1
    // when it covers the launch.
    const char* stage1 = dequant_stage1(k, cfg.tuned.matrix_instr_nonkdim.value_or(0),
                                        cfg.tuned.kpack.value_or(1), d);
    if (stage1 && p.stages < 2) unmodelled(stage1);
    dequant_stage1_ok = stage1 == nullptr;
    p.sizes_known = !why.invalid();
  }
  if (k.fp8_block) {
    // a_scale [BM] and b_scale [BN] (f32) are loaded in the loop and multiplied into the dot
    // result; RemoveLayoutConversions keeps a scale's convert_layout when its load is expensive,
    // numel >= threads (lib/Dialect/TritonGPU/Transforms/Utility.cpp isExpensiveLoadOrStore:
    // 64 · num_warps on AMD), and AMD's scratch function (third_party/amd/lib/Analysis/
    // AMDGPUAllocation.cpp getConvertLayoutScratchInBytes) gives it the vector's bytes. SGLang's
    // scalar b_scale (BLOCK_SIZE_N <= group_n) has none. The two conversions are not live at
    // once: the larger counts (measured: + BM·4 or BN·4 B on every such row).
    const long long threads = 64LL * w;
    const Bytes a = cfg.m >= threads ? cfg.m * 4 : 0;
    const Bytes b = !k.b_scale_scalar && cfg.n >= threads ? cfg.n * 4 : 0;
    d.scale_cvt = std::max(a, b);
    if (explain && d.scale_cvt > 0)
      why.note([&] {
        return diag(Code::triton_amd_scale_conversion)
            .name("scale", a >= b ? "a_scale" : "b_scale")
            .bytes("bytes", d.scale_cvt);
      });
  }
  // The loads that are not pipelined — every one at num_stages 1, one below 32 bits per thread
  // on gfx942 (operand_pipelined) — keep their blocked -> MFMA dot-operand conversion in the
  // loop (docs/dev/triton-amd-model.md §3b): does it need shared memory?
  // (fused_moe_kernel_gptq_awq: its B is no dot-operand load; triton_amd_dequant.cpp decides.
  // USE_TMA: triton_amd_tma.cpp tma_operands.)
  bool stage1_ok = dequant_stage1_ok;
  if (fma == 1) {
    // The FMA dot (fma_dot): no multi-buffering at any num_stages. Block-quantised kernels'
    // scale conversions next to its in-loop allocations were not measured.
    if (d.scale_cvt > 0)
      unmodelled("an FMA dot (no MFMA instruction fits) with a scale conversion (not measured)");
    fma_dot(d, k.out_bits);
    stage1_ok = true;
  } else if (k.tma) {
    tma_operands(d, cfg.tuned.matrix_instr_nonkdim.value_or(0), cfg.tuned.kpack.value_or(1));
    stage1_ok = true;
  } else if (k.b_dequant_bits == 0)
    if (const char* what =
            unpipelined_operands(d, cfg.tuned.matrix_instr_nonkdim.value_or(0),
                                 cfg.tuned.kpack.value_or(1), k.int8, p.stages, &stage1_ok))
      unmodelled(what);
  if (!stage1_ok) p.min_stages = 2;
  p.sizes_known = !why.invalid();
  // The FMA dot buffers nothing: its LDS is the same at every num_stages (fma_dot), so the
  // stage search and suggest's stage moves have nothing to find.
  if (p.sizes_known && d.amd_fma) {
    p.stages_matter = false;
    why.note([&] {
      return diag(Code::triton_amd_stages_no_effect).stages("stages", p.stages, p.stage_param);
    });
  }
  // USE_TMA on gfx942: neither rewritten load is pipelined (tma_operands), at any num_stages.
  if (p.sizes_known && d.amd_tma && arch == kGfx942) {
    p.stages_matter = false;
    why.note([&] {
      return diag(Code::triton_amd_tma_stages_no_effect).stages("stages", p.stages, p.stage_param);
    });
  }
  if (explain && p.sizes_known && d.amd_fma) {
    p.kernel.add(KernelText::amd_fma_dot)
        .name("cdna", arch == kGfx950 ? "CDNA4" : "CDNA3")
        .bytes("a_bytes", d.amd_fma_a)
        .bytes("b_bytes", d.amd_fma_b)
        .bytes("c_bytes", d.amd_fma_c);
  } else if (explain && p.sizes_known) {
    const int nbuf = async ? p.stages : p.stages - 1;
    const char* cdna = arch == kGfx950 ? "CDNA4" : "CDNA3";
    KernelDescription& t = p.kernel;
    auto buffers = [&] {
      t.add(async ? KernelText::amd_async_copy : KernelText::amd_register_prefetch);
      t.add(nbuf == 1 ? KernelText::amd_lds_buffer : KernelText::amd_lds_buffers)
          .integer("buffers", nbuf);
    };
    // Each description below replaces the one before when its case applies.
    t.clear();
    t.add(KernelText::amd_mfma).name("cdna", cdna);
    buffers();
    t.add(k.tma ? KernelText::amd_of_a_b_tma : KernelText::amd_of_a_b);
    t.add(d.a_pad_bytes || d.b_pad_bytes ? KernelText::amd_padded : KernelText::amd_swizzled);
    if (p.stages < 2) {
      t.clear();
      t.add(KernelText::amd_no_pipelining).name("cdna", cdna);
    }
    const bool tma_pipelined = d.amd_tma && operand_pipelined(d, 0, p.stages);
    if (tma_pipelined && d.amd_tma_b_lds) {
      t.clear();
      t.add(KernelText::amd_mfma).name("cdna", "CDNA4");
      buffers();
      t.add(KernelText::amd_of_a_b_tma_b_lds);
    }
    if (d.amd_tma && !tma_pipelined) {
      t.clear();
      t.add(KernelText::amd_tma_unpipelined)
          .name("cdna", cdna)
          .bytes("a_bytes", d.a_tile)
          .bytes("cvt_bytes", d.amd_tma_b_cvt);
    }
    const bool a_loop = !operand_pipelined(d, 0, p.stages),
               b_loop = !operand_pipelined(d, 1, p.stages);
    if (!k.tma && (a_loop || b_loop)) {
      t.add(KernelText::amd_left_in_loop);
      if (a_loop)
        t.add(d.a_reg_smem == 1 ? KernelText::amd_loop_lds : KernelText::amd_loop_registers)
            .name("operand", "A");
      if (b_loop)
        t.add(d.b_reg_smem == 1 ? KernelText::amd_loop_lds : KernelText::amd_loop_registers)
            .name("operand", "B");
    }
    if (d.scale_cvt > 0) t.add(KernelText::triton_scale_conversion).bytes("bytes", d.scale_cvt);
    if (d.b_dequant_bits > 0) {
      t.clear();
      t.add(KernelText::amd_mfma).name("cdna", cdna);
      t.add(nbuf == 1 ? KernelText::amd_lds_buffer : KernelText::amd_lds_buffers)
          .integer("buffers", nbuf);
      t.add(KernelText::amd_of_a);
      if (d.amd_raw_b_stage) t.add(KernelText::amd_of_int8_weight);
      if (d.amd_scale_stage) t.add(KernelText::amd_of_b_scale);
      if (d.amd_dequant_once) t.add(KernelText::amd_dequant_once);
    }
  }
  p.state.store(d);
  p.take(std::move(why));
  return p;
}

}  // namespace tilefit::model::triton::amd
