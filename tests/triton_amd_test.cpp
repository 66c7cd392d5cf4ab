// Triton 3.6 on gfx942/gfx950 (src/model/triton_amd.cpp, docs/dev/triton-amd-model.md): the rules
// computed by hand, max_stages tight, the breakdown summing to the total, and what is declined
// (every measured row runs through the reader in amd_triton_ground_truth_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "model/families/triton_fused_moe/gptq_awq.hpp"
#include "model/triton_gemm.hpp"
#include "model_test_util.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/engine_release.hpp"

namespace tilefit {
namespace {

using model::Bytes;
using model::Code;
using model::Component;
using model::kGfx942;
using model::kGfx950;
using model::Status;

model::KernelConfig amd_cfg(const char* family, int arch, long long m, long long n, long long k,
                            const char* dtype, int warps, int stages, bool async = false) {
  model::KernelConfig c;
  c.name = "t";
  c.family = family;
  c.arch = arch;
  c.m = m;
  c.n = n;
  c.k = k;
  if (std::string(dtype) == "fp8_w8a8") {
    c.fp8_w8a8 = true;
    c.a = c.b = *model::parse_operand("e4m3");
  } else {
    c.a = c.b = *model::parse_operand(dtype);
  }
  c.d = std::string(dtype) == "f16" ? model::DType::F16 : model::DType::BF16;
  if (std::string(dtype) == "e4m3") c.d = model::DType::F16;
  if (warps > 0) c.num_warps = warps;
  if (stages > 0) c.stages = stages;
  c.hip_async_copy = async;
  return c;
}

Bytes amd_part(const model::Result& r, Component c) {
  return r.breakdown ? r.breakdown->part(c) : -1;
}

Bytes amd_sum(const model::Field& f) {
  Bytes s = 0;
  for (Bytes p : f.parts) s += p;
  return s;
}

// Without async copy the AMD pipeliner keeps num_stages - 1 LDS buffers of A and B: f16
// 128x128x64, 3 stages: 2 x (128·64·2 + 64·128·2) = 65536 B, exactly gfx942's 64 KiB (measured:
// users-2026-12.md §3.4). With TRITON_HIP_USE_ASYNC_COPY=1, num_stages buffers: 98304 B.
TEST(TritonAmdRules, StagesMinusOneBuffersWithoutAsyncCopy) {
  const auto off = test::eval(amd_cfg("triton_matmul", kGfx942, 128, 128, 64, "f16", 4, 3));
  EXPECT_EQ(off.status, Status::Fits);
  EXPECT_EQ(*off.smem_bytes, 65536);
  EXPECT_EQ(amd_part(off, Component::A), 2 * 16384);
  EXPECT_EQ(amd_part(off, Component::B), 2 * 16384);
  EXPECT_EQ(off.max_stages, 3);
  const auto on = test::eval(amd_cfg("triton_matmul", kGfx942, 128, 128, 64, "f16", 4, 3, true));
  EXPECT_EQ(on.status, Status::DoesNotFit);
  EXPECT_EQ(*on.smem_bytes, 98304);
  EXPECT_EQ(on.max_stages, 2);  // 2 x 32768 = 65536 fits
  EXPECT_EQ(*on.max_stages_smem, 65536);
}

// gfx950 has 160 KiB: the same tile fits with 5 async stages (5 x 32768 = 163840), not 6.
TEST(TritonAmdRules, Gfx950LimitAndAsyncFp8) {
  auto c = amd_cfg("triton_fused_moe", kGfx950, 128, 128, 64, "fp8_w8a8", 4, 6, true);
  const auto r = test::eval(c);
  // fp8: 6 x (128·64 + 64·128) = 98304 B
  EXPECT_EQ(*r.smem_bytes, 98304);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.max_stages, 10);  // 10 x 16384 = 163840
  EXPECT_EQ(*r.max_stages_smem, 163840);
}

// HIPOptions' defaults: num_stages 2 (one buffer without async copy), num_warps 4.
TEST(TritonAmdRules, HipDefaults) {
  const auto r = test::eval(amd_cfg("triton_matmul", kGfx942, 128, 128, 64, "bf16", 0, 0));
  EXPECT_EQ(*r.smem_bytes, 32768);
  EXPECT_TRUE(test::has(r, Code::triton_amd_default_num_stages));
  EXPECT_TRUE(test::has(r, Code::triton_amd_default_num_warps));
  EXPECT_FALSE(test::has(r, Code::triton_default_num_stages));
  EXPECT_FALSE(test::has(r, Code::triton_amd_keys_ignored));
}

// Triton 3.6 overwrites kpack 2 with 1 on gfx950 and warns; gfx942 keeps it (no LDS effect).
TEST(TritonAmdRules, KpackForcedOnGfx950) {
  auto c = amd_cfg("triton_matmul", kGfx950, 64, 64, 64, "f16", 4, 2);
  c.tuned.kpack = 2;
  const auto r = test::eval(c);
  EXPECT_TRUE(test::has(r, Code::triton_amd_kpack_forced));
  EXPECT_EQ(*r.smem_bytes, 16384);
  c.arch = kGfx942;
  EXPECT_FALSE(test::has(test::eval(c), Code::triton_amd_kpack_forced));
}

// A block-quantised kernel's scale vector of >= 64·num_warps elements keeps its conversion: +BN·4.
TEST(TritonAmdRules, BlockScaleConversion) {
  auto c = amd_cfg("triton_block_matmul", kGfx942, 64, 256, 128, "fp8_w8a8", 4, 2);
  c.block_shape = std::array<long long, 2>{128, 128};
  const auto r = test::eval(c);
  // 1 x (64·128 + 128·256) + 256·4 = 40960 + 1024 (measured: vLLM _w8a8_triton_block_scaled_mm)
  EXPECT_EQ(*r.smem_bytes, 41984);
  EXPECT_EQ(amd_part(r, Component::LayoutConversion), 1024);
  c.num_warps = 8;  // 512 threads: the 256-element vector is not expensive, no conversion
  EXPECT_EQ(*test::eval(c).smem_bytes, 40960);
}

// gfx950 with async copy: 16-bit tiles of at least 16384 B are padded_shared, 16 B per 1024 B
// with MFMA 32 and 32 B with MFMA 16, over the whole multi-buffered allocation but its last
// interval (composePaddedLayoutForAsyncCopyCDNA4).
TEST(TritonAmdRules, Gfx950AsyncPaddedLayouts) {
  auto c = amd_cfg("triton_matmul", kGfx950, 128, 128, 64, "f16", 4, 2, true);
  // A and B: 2 x 128·64·2 = 32768 B each, + (32768/1024 - 1)·16 = 496 B each
  // (users-2026-12.md §3.4 measured 66528 for this launch)
  auto r = test::eval(c);
  EXPECT_EQ(*r.smem_bytes, 2 * (32768 + 496));
  EXPECT_EQ(amd_part(r, Component::A), 32768 + 496);
  c.tuned.matrix_instr_nonkdim = 16;  // MFMA 16: 32 B per interval
  EXPECT_EQ(*test::eval(c).smem_bytes, 2 * (32768 + 31 * 32));
  c.tuned.matrix_instr_nonkdim.reset();
  c.stages = 3;  // 3 buffers: 49152 B each, + 47·16
  EXPECT_EQ(*test::eval(c).smem_bytes, 2 * (49152 + 47 * 16));
  // A [64, 64] tile of 8192 B is not padded; B [64, 256] of 32768 B is (MFMA 32)
  auto small = amd_cfg("triton_matmul", kGfx950, 64, 256, 64, "f16", 4, 2, true);
  EXPECT_EQ(*test::eval(small).smem_bytes, 2 * 8192 + 2 * 32768 + (65536 / 1024 - 1) * 16);
  // Without async copy, or on gfx942, nothing is padded
  auto off = amd_cfg("triton_matmul", kGfx950, 128, 128, 64, "f16", 4, 2, false);
  EXPECT_EQ(*test::eval(off).smem_bytes, 32768);
  auto cdna3 = amd_cfg("triton_matmul", kGfx942, 128, 128, 64, "f16", 4, 2, true);
  EXPECT_EQ(*test::eval(cdna3).smem_bytes, 65536);
}

// num_stages 1: nothing is pipelined; each operand's blocked -> MFMA dot-operand conversion goes
// through a local_alloc of the whole tile only when cvtNeedsSharedMemory says so, and A's and B's
// are never live together (docs/dev/triton-amd-model.md §3b).
TEST(TritonAmdRules, NumStagesOneOperandConversions) {
  // 128x128x64 f16, 4 warps, gfx942: MFMA 32x32x8 (kWidth 4), warps [2, 2]. The loads hold 8
  // elements along K per thread, the dot operand 4: the registers differ across lanes and the
  // warps of B's load (along K) are not the dot's (along N): both go through LDS, 16384 B each,
  // one at a time -> 16384.
  const auto s1 = test::eval(amd_cfg("triton_matmul", kGfx942, 128, 128, 64, "f16", 4, 1));
  EXPECT_FALSE(test::has(s1, Code::triton_amd_unmodelled));
  EXPECT_EQ(*s1.smem_bytes, 16384);
  // 16x128x64 f16, 1 warp: on gfx942 (kWidth 4) B's conversion needs LDS (16384 B, A's 2048 B
  // too: the larger counts); on gfx950 the 16-bit MFMA 16x16x32 has kWidth 8 = the load's 8
  // elements per thread, the conversion only permutes lanes and registers of the one warp (a
  // warp shuffle): no LDS at all (measured: m0277, 16384 B on gfx942, 0 on gfx950).
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx942, 16, 128, 64, "f16", 1, 1)).smem_bytes,
            16384);
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx950, 16, 128, 64, "f16", 1, 1)).smem_bytes, 0);
  // 256x32x32 fp8, 4 warps, gfx942: MFMA 32 (kWidth 8), warps [4, 1] along M. A's load (16
  // elements along K, 2 lanes along K, 32 rows per warp, warps along M) has the dot's warps and
  // only exchanges register and lane bits within each warp: no LDS; B's (32x32, warps along N)
  // does: 1024 B (measured: m0111, 1024 on both targets).
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx942, 256, 32, 32, "e4m3", 4, 1)).smem_bytes,
            1024);
  // max_stages may now be 1 (num_stages 1 is modelled)
  const auto big = test::eval(amd_cfg("triton_matmul", kGfx942, 256, 256, 128, "f16", 8, 2));
  EXPECT_EQ(big.max_stages, 1);
}

// Operand loads below 32 bits per thread: on gfx942 the pipeliner leaves them in the loop (their
// conversion to the dot operand as at num_stages 1, beside the other operand's nbuf buffers); on
// gfx950 they are multi-buffered like the others (docs/dev/triton-amd-model.md §3b).
TEST(TritonAmdRules, NarrowOperandLoads) {
  // 32x64x16 f16, 8 warps, num_stages 3: A loads 512 / 512 = 1 element per thread (16 bits),
  // B 2 (32 bits). gfx942: B's 2 buffers of 2048 B + A's in-loop 1024 B tile (its conversion to
  // the MFMA 16 operand needs LDS) = 5120; gfx950: 2 x (1024 + 2048) = 6144.
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx942, 32, 64, 16, "f16", 8, 3)).smem_bytes,
            2 * 2048 + 1024);
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx950, 32, 64, 16, "f16", 8, 3)).smem_bytes,
            2 * (1024 + 2048));
  // Both narrow on gfx942 (16x16x16 f16, 8 warps): neither is pipelined, max(512, 512)
  const auto narrow = test::eval(amd_cfg("triton_matmul", kGfx942, 16, 16, 16, "f16", 8, 2));
  EXPECT_FALSE(test::has(narrow, Code::triton_amd_unmodelled));
  EXPECT_EQ(*narrow.smem_bytes, 512);
  // fp8 with BLOCK_SIZE_K 16 and MFMA 32x32x16 (min(BM, BN) >= 32): 32x64x16, 4 warps, 4
  // stages, gfx942: A loads 2 fp8 per thread (16 bits, left in the loop, 512 B through LDS), B
  // 4 (32 bits, 3 buffers of 1024 B): 3584 (measured: m0000, gfx942 without async copy).
  EXPECT_EQ(*test::eval(amd_cfg("triton_matmul", kGfx942, 32, 64, 16, "e4m3", 4, 4)).smem_bytes,
            3 * 1024 + 512);
}

// No MFMA instruction fits (triton_amd_operands.cpp fma_fallback / fma_dot): an FMA dot whose
// fp8 operands are cast to f32 and converted to the dot operand through a local_alloc of the f32
// tile each, nothing multi-buffered, and the epilogue's C conversion after the loop; the three
// never live together.
TEST(TritonAmdRules, FmaDotOfFp8Operands) {
  // With MFMA 16 (min(BM, BN) = 16) the 8-bit 16x16x32 does not fit BK 16: FMA. 16x64x16, 4
  // warps: A 16·16·4 = 1024, B 16·64·4 = 4096, both through LDS; C's conversion less: 4096 at
  // every num_stages, async copy or not, on both targets.
  for (const int arch : {kGfx942, kGfx950})
    for (const int stages : {1, 2, 4})
      for (const bool async : {false, true}) {
        const auto r =
            test::eval(amd_cfg("triton_matmul", arch, 16, 64, 16, "e4m3", 4, stages, async));
        ASSERT_FALSE(test::has(r, Code::triton_amd_unmodelled)) << arch << " " << stages;
        EXPECT_EQ(*r.smem_bytes, 4096) << arch << " " << stages;
        EXPECT_EQ(amd_part(r, Component::B), 4096);
        // Nothing is multi-buffered: the stage search has nothing to find (max = as launched)
        // and the note says num_stages changes nothing.
        EXPECT_EQ(r.max_stages, stages);
        EXPECT_TRUE(test::has(r, Code::triton_amd_stages_no_effect));
      }
  // 256x64x16, 8 warps, matrix_instr_nonkdim 16 (its 16x16x32 does not fit BK 16 either): the
  // epilogue's f16 C conversion [256, 64] (its whole tile, 32768 B) is larger than A (16384) and
  // B (4096) (measured: m0072). Without the forced 16 the 32x32x16 MFMA fits: no FMA.
  model::KernelConfig forced = amd_cfg("triton_matmul", kGfx942, 256, 64, 16, "e4m3", 8, 4);
  forced.tuned.matrix_instr_nonkdim = 16;
  const auto big = test::eval(forced);
  EXPECT_EQ(*big.smem_bytes, 32768);
  EXPECT_EQ(amd_part(big, Component::LayoutConversion), 32768);
  // BM below 16 (vLLM fp8 block-wise 8x64x128, 4 warps): B 128·64·4 = 32768 (measured: e0138,
  // e1970, both targets).
  const auto moe = test::eval(amd_cfg("triton_fused_moe", kGfx950, 8, 64, 128, "fp8_w8a8", 4, 4));
  ASSERT_FALSE(test::has(moe, Code::triton_amd_unmodelled));
  EXPECT_EQ(*moe.smem_bytes, 32768);
  // 16-bit operands keep their type in an FMA dot (f16 x f16 -> f32 is a v_dot form): declined.
  EXPECT_TRUE(test::has(test::eval(amd_cfg("triton_matmul", kGfx942, 8, 64, 64, "f16", 4, 2)),
                        Code::triton_amd_unmodelled));
}

// SGLang USE_TMA down GEMM (triton_amd_tma.cpp): on gfx950 from num_stages 2 on, with the MFMA's
// warps all along N, A alone is multi-buffered (num_stages - 1 buffers, num_stages with async
// copy) and B is prefetched in registers; with warps along M B is buffered too. Where nothing is
// pipelined (gfx942 at every num_stages, gfx950 at 1) A's tile and B's conversion scratch take
// turns.
model::KernelConfig amd_tma(int arch, long long m, long long n, long long k, const char* dtype,
                            int stages, bool async, int warps = 4) {
  auto c = amd_cfg("triton_fused_moe", arch, m, n, k, dtype, warps, stages, async);
  c.engine = model::EngineRelease::SglangD6ef6888;
  c.tuned.use_tma = true;
  if (std::string(dtype) == "fp8_w8a8") {  // the table's dtype=fp8_w8a8, block_shape=[128, 128]
    c.tuned.quant = decltype(c.tuned.quant)::Fp8W8a8;
    c.block_shape = std::array<long long, 2>{128, 128};
  }
  return c;
}

TEST(TritonAmdRules, SglangUseTmaGfx950) {
  // warpsPerTile: 16x128 with MFMA 16 and 4 warps -> [1, 4]; 16x32 -> [1, 4] overruns N (64 >
  // 32) and is swapped to [4, 1]; 64x128 with MFMA 32 -> [1, 4].
  EXPECT_EQ(model::triton::amd::mfma_warps(16, 128, 4, 16).m, 1);
  EXPECT_EQ(model::triton::amd::mfma_warps(16, 32, 4, 16).m, 4);
  EXPECT_EQ(model::triton::amd::mfma_warps(64, 128, 4, 32).n, 4);
  // bf16 16x128x128, 3 stages, no async copy: 2 x 16·128·2 = 8192 B, no B buffer (measured
  // 8192 in run D1)
  auto r = test::eval(amd_tma(kGfx950, 16, 128, 128, "bf16", 3, false));
  EXPECT_EQ(*r.smem_bytes, 8192);
  EXPECT_EQ(amd_part(r, Component::B), 0);
  // async copy: 3 x 4096 = 12288 B (measured 12288)
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 16, 128, 128, "bf16", 3, true)).smem_bytes, 12288);
  // fp8 block-wise 16x256x64, 3 stages, async: 3 x 16·64 = 3072 B of A, + 256·4 B of b_scale
  // conversion (BN 256 >= 64·4 threads, BN > group_n: a vector) = 4096 B (measured 4096)
  r = test::eval(amd_tma(kGfx950, 16, 256, 64, "fp8_w8a8", 3, true));
  EXPECT_EQ(*r.smem_bytes, 4096);
  EXPECT_EQ(amd_part(r, Component::LayoutConversion), 1024);
  // 16x128x128 fp8, 4 stages, no async copy: 3 x 2048 = 6144 B (measured 6144)
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 16, 128, 128, "fp8_w8a8", 4, false)).smem_bytes, 6144);
  // bf16 64x128x64, 3 stages, async: 3 x 64·64·2 = 24576 B (A's 8192-byte tile is not padded)
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 64, 128, 64, "bf16", 3, true)).smem_bytes, 24576);
  // warps along M, 16x32x128 bf16 with 4 warps ([4, 1]), 4 stages, async: 4 x (16·128·2 +
  // 128·32·2) = 49152 B (measured 49152, run T); 64x128x128 with 8 warps ([2, 4]), 2 stages:
  // 2 x (16384 + 32768) = 98304 B with async copy, 49152 without (measured both)
  r = test::eval(amd_tma(kGfx950, 16, 32, 128, "bf16", 4, true));
  EXPECT_EQ(*r.smem_bytes, 49152);
  EXPECT_EQ(amd_part(r, Component::B), 32768);
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 64, 128, 128, "bf16", 2, true, 8)).smem_bytes, 98304);
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 64, 128, 128, "bf16", 2, false, 8)).smem_bytes, 49152);
  // a 16-bit async A tile of 16 KiB is not padded: 64x128x128 bf16, 2 warps, 2 stages: 2 x
  // 16384 = 32768 B (measured 32768)
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 64, 128, 128, "bf16", 2, true, 2)).smem_bytes, 32768);
  // num_stages 1: nothing pipelined. 32x128x128 bf16: A 32·128·2 = 8192 B; B's [128, 128] load
  // (lanes along N, warps along K) -> dot operand (MFMA 32, kWidth 4, warps [1, 4]) scratch
  // 8192 B; never live together: 8192 B either way (measured 8192, async on and off)
  r = test::eval(amd_tma(kGfx950, 32, 128, 128, "bf16", 1, false));
  EXPECT_EQ(*r.smem_bytes, 8192);
  EXPECT_EQ(*test::eval(amd_tma(kGfx950, 32, 128, 128, "bf16", 1, true)).smem_bytes, 8192);
  EXPECT_FALSE(test::has(r, Code::triton_amd_unmodelled));
  // num_warps outside 2..8: not measured
  EXPECT_TRUE(test::has(test::eval(amd_tma(kGfx950, 64, 128, 128, "bf16", 2, false, 16)),
                        Code::triton_amd_unmodelled));
}

TEST(TritonAmdRules, SglangUseTmaGfx942) {
  // Nothing pipelined at any num_stages. bf16 16x128x128: A 16·128·2 = 4096 B; B's conversion
  // scratch 16384 B, half the 32768-byte tile (the swizzle's repetitions); the larger is the peak:
  // 16384 B at num_stages 2, 3 and 4 (measured 16384 at 2 and 3, async copy on and off)
  for (int stages : {2, 3, 4}) {
    const auto r = test::eval(amd_tma(kGfx942, 16, 128, 128, "bf16", stages, stages == 3));
    EXPECT_EQ(*r.smem_bytes, 16384) << stages;
    EXPECT_EQ(amd_part(r, Component::A), 0);  // the breakdown is the peak's: B's scratch alone
    EXPECT_EQ(amd_part(r, Component::B), 16384);
    EXPECT_TRUE(test::has(r, Code::triton_amd_tma_stages_no_effect));
    EXPECT_FALSE(test::has(r, Code::triton_amd_unmodelled));
  }
  // bf16 64x128x64 (MFMA 32): A 8192 B, B's scratch 8192 B (measured 8192)
  EXPECT_EQ(*test::eval(amd_tma(kGfx942, 64, 128, 64, "bf16", 3, false)).smem_bytes, 8192);
  // fp8 block-wise 16x128x128: A 2048 B, B's scratch the whole 16384-byte tile (measured 16384)
  EXPECT_EQ(*test::eval(amd_tma(kGfx942, 16, 128, 128, "fp8_w8a8", 2, true)).smem_bytes, 16384);
}

// No tl.dot minimum on AMD (get_min_dot_size is (1, 1, 1)); declined launches say why.
TEST(TritonAmdRules, DeclinedLaunches) {
  auto forced4 = amd_cfg("triton_matmul", kGfx950, 128, 128, 64, "f16", 4, 2, true);
  forced4.tuned.matrix_instr_nonkdim = 4;  // no padded layout for an MFMA of extent 4
  EXPECT_TRUE(test::has(test::eval(forced4), Code::triton_amd_unmodelled));
  const auto k16 = test::eval(amd_cfg("triton_matmul", kGfx942, 64, 64, 16, "bf16", 4, 2));
  EXPECT_FALSE(test::has(k16, Code::triton_dot_k_min));
  EXPECT_EQ(*k16.smem_bytes, 4096);
  // fp8 on gfx942 is supported (no sm_89 rule)
  const auto fp8 = test::eval(amd_cfg("triton_matmul", kGfx942, 64, 64, 64, "e4m3", 4, 3));
  EXPECT_FALSE(test::has(fp8, Code::triton_fp8_needs_sm89));
  EXPECT_EQ(*fp8.smem_bytes, 16384);
}

// Over a grid: where a size is given, the breakdown sums to it, and max_stages is tight (fits at
// max_stages, not at max_stages + 1).
TEST(TritonAmdInvariants, PartsSumAndMaxStagesTight) {
  int checked = 0;
  for (int arch : {kGfx942, kGfx950})
    for (bool async : {false, true})
      for (const char* dt : {"f16", "bf16", "e4m3"})
        for (long long m : {32, 64, 128, 256})
          for (long long n : {32, 64, 128, 256})
            for (long long k : {32, 64, 128})
              for (int w : {2, 4, 8})
                for (int s : {2, 3, 4}) {
                  auto c = amd_cfg("triton_matmul", arch, m, n, k, dt, w, s, async);
                  const auto r = test::eval(c);
                  if (test::has(r, Code::triton_amd_unmodelled)) continue;
                  ASSERT_TRUE(r.breakdown);
                  EXPECT_EQ(amd_sum(*r.breakdown), *r.smem_bytes);
                  const Bytes limit = model::find_arch(arch)->limits.optin_per_block;
                  auto next = c;
                  next.stages = r.max_stages + 1;
                  // A kernel whose loads are all left in the loop (gfx942, both below 32 bits
                  // per thread) has the same size at every num_stages: nothing to be tight on.
                  const bool grows = *test::eval(next).smem_bytes != *r.max_stages_smem;
                  if (r.max_stages >= 1 && grows) {
                    EXPECT_LE(*r.max_stages_smem, limit);
                    EXPECT_GT(*test::eval(next).smem_bytes, limit)
                        << arch << " " << async << " " << dt << " " << m << "x" << n << "x" << k
                        << " w" << w << " s" << s << " max_stages " << r.max_stages;
                  }
                  ++checked;
                }
  EXPECT_GT(checked, 1000);
}

/// One tuned-table entry read from a table at `path` (the reader sets the engine and the
/// quantisation from it), for `arch`, with the async-copy switch as given.
model::KernelConfig amd_entry(const std::string& entry, const std::string& path, int arch,
                              bool async) {
  const auto r = io::load<io::LoadResult>(io::Source::text("{\"64\": " + entry + "}", path));
  EXPECT_TRUE(r.errors.empty()) << path;
  model::KernelConfig cfg = r.configs.at(0).config;
  cfg.arch = arch;
  cfg.hip_async_copy = async;
  return cfg;
}

std::string moe_entry(int bm, int bn, int bk, int warps, int stages) {
  return "{\"BLOCK_SIZE_M\": " + std::to_string(bm) + ", \"BLOCK_SIZE_N\": " + std::to_string(bn) +
         ", \"BLOCK_SIZE_K\": " + std::to_string(bk) +
         ", \"GROUP_SIZE_M\": 1, \"num_warps\": " + std::to_string(warps) +
         ", \"num_stages\": " + std::to_string(stages) + "}";
}

// fused_moe_kernel with use_int8_w8a16 (vLLM table): B is multi-buffered as loaded, int8.
// 16x128x128, 4 warps, 3 stages on gfx942: A 16·128·2 = 4096, B 128·128 = 16384 B per stage;
// 2 x 20480 = 40960 without async copy, 3 x 20480 = 61440 with it.
TEST(TritonAmdDequant, Int8W8a16BufferedAsInt8) {
  const std::string path = "vllm/E=16,N=3584,device_name=AMD_Instinct_MI300X,dtype=int8_w8a16.json";
  const auto off = test::eval(amd_entry(moe_entry(16, 128, 128, 4, 3), path, kGfx942, false));
  ASSERT_FALSE(test::has(off, Code::triton_amd_unmodelled));
  EXPECT_EQ(*off.smem_bytes, 40960);
  EXPECT_EQ(amd_part(off, Component::B), 2 * 16384);
  const auto on = test::eval(amd_entry(moe_entry(16, 128, 128, 4, 3), path, kGfx942, true));
  EXPECT_EQ(*on.smem_bytes, 61440);
}

// gfx950 with async copy: the bf16 A tile [128, 128] (32768 B) is padded_shared (MFMA 32: 16 B
// per KiB), the int8 B is not. 128x64x128, 4 stages: A 4 x 32768 +
// (128 - 1) x 16 = 133104, B 4 x 8192 = 32768: 165872 > 163840 (gfx950's 160 KiB).
TEST(TritonAmdDequant, Int8W8a16PaddedAOnGfx950) {
  const std::string path = "vllm/E=16,N=3584,device_name=AMD_Instinct_MI300X,dtype=int8_w8a16.json";
  const auto r = test::eval(amd_entry(moe_entry(128, 64, 128, 4, 4), path, kGfx950, true));
  ASSERT_FALSE(test::has(r, Code::triton_amd_unmodelled));
  EXPECT_EQ(r.status, Status::DoesNotFit);
  EXPECT_EQ(*r.smem_bytes, 165872);
  EXPECT_EQ(amd_part(r, Component::B), 32768);
}

// fused_moe_kernel_gptq_awq int4 (SGLang): the one-byte weight load and b_scale stay in
// registers on both targets; the dequantised B [32, 128] bf16 (8192 B) is stored once.
// 64x128x32, 2 warps, 2 stages: A 64·32·2 = 4096 x 1 + 8192 = 12288; async: 2 x 4096 + 8192.
TEST(TritonAmdDequant, GptqInt4DequantisedOnce) {
  const std::string path =
      "sglang/triton_3_4_0/E=384,N=128,device_name=AMD_Instinct_MI300X,dtype=int4_w4a16.json";
  for (const int arch : {kGfx942, kGfx950}) {
    const auto off = test::eval(amd_entry(moe_entry(64, 128, 32, 2, 2), path, arch, false));
    ASSERT_FALSE(test::has(off, Code::triton_amd_unmodelled)) << arch;
    EXPECT_EQ(*off.smem_bytes, 12288) << arch;
    const auto on = test::eval(amd_entry(moe_entry(64, 128, 32, 2, 2), path, arch, true));
    EXPECT_EQ(*on.smem_bytes, 16384) << arch;
  }
}

// fused_moe_kernel_gptq_awq int4 at num_stages 1 (dequant_stage1): A is not pipelined and
// reaches the MFMA operand through its own local_alloc, before the dequantised B's:
// 64x128x128, 4 warps, matrix_instr_nonkdim 16: max(64·128·2, 128·128·2) = 32768 on both
// targets, async copy or not (measured: e0035). int8 at num_stages 1 is declined.
TEST(TritonAmdDequant, GptqInt4NumStagesOne) {
  const std::string path =
      "sglang/triton_3_4_0/E=384,N=128,device_name=AMD_Instinct_MI300X,dtype=int4_w4a16.json";
  for (const int arch : {kGfx942, kGfx950})
    for (const bool async : {false, true}) {
      model::KernelConfig cfg = amd_entry(moe_entry(64, 128, 128, 4, 1), path, arch, async);
      cfg.tuned.matrix_instr_nonkdim = 16;
      const auto r = test::eval(cfg);
      ASSERT_FALSE(test::has(r, Code::triton_amd_unmodelled)) << arch;
      EXPECT_EQ(*r.smem_bytes, 32768) << arch;
    }
}

// fused_moe_kernel_gptq_awq int8 (the group-128 variant of an int8_w8a16 table), 16x32x128,
// 4 warps, 3 stages. gfx942: A 4096 and the int8 weight 128·32 = 4096 per stage, b_scale in
// registers, the dequantised B 128·32·2 = 8192 once: 2 x 8192 + 8192 = 24576. gfx950: b_scale
// [128, 32] bf16 (8192 B) pipelined too and no dequantised copy: 2 x 16384 = 32768, with async
// copy 3 x 16384 = 49152.
TEST(TritonAmdDequant, GptqInt8ScalePipelinedOnGfx950) {
  const std::string path =
      "sglang/triton_3_4_0/E=64,N=1280,device_name=AMD_Instinct_MI300X,dtype=int8_w8a16.json";
  auto smem = [&](int arch, bool async) {
    const model::KernelConfig cfg = amd_entry(moe_entry(16, 32, 128, 4, 3), path, arch, async);
    const model::Plan p =
        model::triton_fused_moe::gptq_awq_plan(cfg, 8, true, model::Findings(true));
    EXPECT_FALSE(p.invalid) << arch;
    return model::triton::triton_storage<model::Extent>(p.state.get<model::triton::Decisions>(),
                                                        p.stages)
        .kernel.size;
  };
  EXPECT_EQ(smem(kGfx942, false), 24576);
  EXPECT_EQ(smem(kGfx942, true), 32768);
  EXPECT_EQ(smem(kGfx950, false), 32768);
  EXPECT_EQ(smem(kGfx950, true), 49152);
}

}  // namespace
}  // namespace tilefit
