// The engine FP8 families (engine_fp8_sm89/sm90/sm100/sm120): one hand-computed layout per
// arch x op (the arithmetic of the research model, MODEL.md §2-§3, written out), what the
// launcher decides (C type, fusion rows), CUTLASS's rejections, invariants over a grid of
// configs of every engine family, and the reader's fields. Every measured row runs in
// ground_truth_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "model_test_util.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/engine_fp8.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit {
namespace {

using model::Bias;
using model::Bytes;
using model::Code;
using model::Component;
using model::DType;
using model::EngineOp;
using model::Launcher;
using model::Schedule;
using model::Status;
using test::eval;
using test::has;

/// An engine config: e4m3 x e4m3 -> bf16, as the reader builds it for a launcher config.
model::KernelConfig engine(Launcher l, EngineOp op, int arch, long long m, long long n, long long k,
                           Schedule s) {
  model::KernelConfig c;
  c.name = "test";
  c.arch = arch;
  c.m = m;
  c.n = n;
  c.k = k;
  c.a = c.b = model::Operand{DType::E4M3};
  c.c = c.d = DType::BF16;
  c.launcher = l;
  c.op = op;
  c.schedule = s;
  return c;
}

Bytes part(const model::Result& r, Component c) { return r.breakdown ? r.breakdown->part(c) : -1; }

// ---- one hand-computed layout per arch x op ------------------------------------------------

TEST(EngineFp8Sm90, ScaledMmPingpongVllmDefault) {
  // vLLM sm90_fp8_config_default: 128x128x128, pingpong, C = D = bf16.
  // Epilogue (TmaWarpSpecialized): tile 64x32, 8 tiles; ReuseSmemC (bits C == bits D == 16):
  //   StagesD 2, StagesC max(4, 3) = 4; C/D union 4·64·32·2 = 16384 (SW64 on N 32: align 512);
  //   scale row ru16(4·128) = 512; TensorStorage 16896; + pipeline 64 -> ru512 17408.
  // stage = ru128(16384 + 16384) + 16 = 32784; S = (232448 − 17408) / 32784 = 6.
  // Mainloop 6·16384·2 = 196608, + 96 B pipeline -> ru128 196736.
  // Kernel: pipelines 96 + 64 + 32 + 16 = 208, scheduler 1 B; tensors at 512:
  //   16896 + 196608 = 213504 (ru512) -> 512 + 213504 = 214016.
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 90, 128, 128, 128, Schedule::Pingpong);
  c.cluster = {2, 1, 1};
  const auto r = eval(c);
  EXPECT_EQ(r.family, "engine_fp8_sm90");
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 6);
  EXPECT_EQ(*r.epilogue_smem, 17408);
  EXPECT_EQ(*r.mainloop_smem, 196736);
  EXPECT_EQ(*r.smem_bytes, 214016);
  EXPECT_EQ(part(r, Component::EpilogueCD), 16384);
  EXPECT_EQ(part(r, Component::ScaleRow), 512);
  EXPECT_TRUE(has(r, Code::engine_c_from_launcher));

  // SGLang (void C): StagesD 2 of D only, 8192 + 512 = 8704 (ru512) + 64 -> ru512 9216;
  // S = (232448 − 9216) / 32784 = 6; kernel 512 + ru512(8704 + 196608) = 512 + 205312 = 205824.
  c.launcher = Launcher::Sglang;
  const auto s = eval(c);
  EXPECT_EQ(*s.epilogue_smem, 9216);
  EXPECT_EQ(*s.smem_bytes, 205824);
  EXPECT_EQ(part(s, Component::EpilogueD), 8192);
  // c: null on vLLM is the same as SGLang's void C.
  c.launcher = Launcher::Vllm;
  c.c = DType::Void;
  c.c_given = true;
  EXPECT_EQ(*eval(c).smem_bytes, 205824);
}

TEST(EngineFp8Sm90, RowBiasAddsADTypedRow) {
  // + Sm90RowBroadcast<bf16>: ru16(2·128) = 256 -> TensorStorage 16384 + 512 + 256 = 17152
  // -> ru512 17408; + 64 -> ru512 17920. A column bias adds nothing.
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 90, 128, 128, 128, Schedule::Pingpong);
  c.bias = Bias::Row;
  const auto r = eval(c);
  EXPECT_EQ(*r.epilogue_smem, 17920);
  EXPECT_EQ(part(r, Component::BiasRow), 256);
  c.bias = Bias::Column;
  EXPECT_EQ(*eval(c).epilogue_smem, 17408);
}

TEST(EngineFp8Sm90, BasicWsKernelPutsTensorsInAUnion) {
  // vLLM sm90_fp8_config_M16_N1280: 64x16x256, ws, swap_ab (C/D column-major), C = D.
  // Epilogue 64x16, 1 tile: StagesD 1, StagesC max(1, 2) = 2; union 2·64·16·2 = 4096 at
  // align 1024 (column-major: SW128 on EpiM 64); scale row ru16(4·16) = 64; TensorStorage
  // ru1024(4160) = 5120; + 32 -> 6144. stage = ru128(16384 + 4096) + 16 = 20496;
  // S = (232448 − 6144) / 20496 = 11. Kernel: union(mainloop 11·20480 = 225280, epilogue 5120)
  // = 225280 (align 1024), pipelines 176 + 32 = 208 -> 225488 -> ru1024 226304.
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 90, 64, 16, 256, Schedule::Ws);
  c.swap_ab = true;
  c.cd_row_major = false;
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 11);
  EXPECT_EQ(*r.epilogue_smem, 6144);
  EXPECT_EQ(*r.smem_bytes, 226304);
  EXPECT_TRUE(has(r, Code::engine_ws_tensor_union));
}

TEST(EngineFp8Sm90, BlockwiseCooperative) {
  // 128x128x128 cooperative, 1x128 / 128x128 blocks, void C. Epilogue 128x32, 4 tiles, SD 2,
  // SC 4: D 16384 (align 512) + empty fusion 1 -> 16896; + 64 -> ru512 17408.
  // stage = ru128(32768 + 4·128 + 4·1) + 16 = 33424; S = (232448 − 17408) / 33424 = 6.
  // Mainloop: A, B 98304 each; alignas(128) float SFA[6·128] = 3072 at 196608; SFB[6·1] = 24
  // at 199680 -> 199704 -> ru128 199808; + 96 -> 199936.
  // Kernel: pipelines 176, scheduler 1; tensors at 512: 16896 + 199808 = 216704 -> ru512
  // 217088; total 217600.
  auto c = engine(Launcher::Vllm, EngineOp::BlockwiseFp8, 90, 128, 128, 128, Schedule::Cooperative);
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 6);
  EXPECT_EQ(*r.epilogue_smem, 17408);
  EXPECT_EQ(*r.mainloop_smem, 199936);
  EXPECT_EQ(*r.smem_bytes, 217600);
  EXPECT_EQ(part(r, Component::SFA), 3072);
  EXPECT_EQ(part(r, Component::SFB), 24);
}

TEST(EngineFp8Sm90, BlockwiseRejections) {
  auto c = engine(Launcher::Vllm, EngineOp::BlockwiseFp8, 90, 128, 128, 128, Schedule::Cooperative);
  c.stages = 4;  // no compute_stage_count_with_blockwise_scale overload for StageCount<4>
  auto r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(has(r, Code::engine_sm90_blockwise_stages));
  c.stages.reset();
  c.m = 64;
  c.schedule = Schedule::Pingpong;  // NumSplitsM = 0
  EXPECT_TRUE(has(eval(c), Code::engine_sm90_blockwise_tile_m));
  c.m = 128;
  c.n = 64;  // the default 128-wide weight blocks on a 64-wide tile
  r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(has(r, Code::engine_scale_granularity));
  c.n = 128;
  c.schedule = Schedule::Ws;
  EXPECT_TRUE(has(eval(c), Code::engine_sm90_blockwise_ws));
}

TEST(EngineFp8Sm100, ScaledMmVllmM64) {
  // vLLM sm100_fp8_config_M64: 64x64x128, cluster 1: 1SM, Acc min(4, (512/64)·2) = 4, Sstg 2.
  // Epilogue (1Sm, C = D): EpiM 64, Nperf 32 (16-bit, CtaN <= 128) -> 64x32, 2 tiles; SD 2,
  // SC max(2, 3) = 3; C/D union 3·64·32·2 = 12288 (align 512); scale row 256 ->
  // TensorStorage 12544 -> ru512 12800; + 48 -> ru512 13312.
  // Carve-out 16·4 + 32 + 16 + 8 + 32 + 32 + 8 = 192; stage 8192 + 8192 + 16 = 16400;
  // S = (232448 − 192 − 13312) / 16400 = 13. Mainloop 13·16384 = 212992 + 208 -> ru128 213248.
  // Kernel: pipelines 416, responses 32, tmem 4 -> 452; tensors at 512: 12800 + 212992 = 225792;
  // total 226304.
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 100, 64, 64, 128, Schedule::Auto);
  const auto r = eval(c);
  EXPECT_EQ(r.family, "engine_fp8_sm100");
  EXPECT_EQ(r.stages, 13);
  EXPECT_EQ(*r.epilogue_smem, 13312);
  EXPECT_EQ(*r.mainloop_smem, 213248);
  EXPECT_EQ(*r.smem_bytes, 226304);
}

TEST(EngineFp8Sm100, BlockwiseNoSmem1Sm) {
  // vLLM 128x128x128 1sm, BlockwiseNoSmemWarpSpecialized1Sm (legacy no-smem epilogue, 1 B).
  // Acc = 65536 / (128·128) = 4 (no cap), Sstg 5; carve-out 64 + 80 + 16 + 8 + 80 + 80 + 20 = 348;
  // stage = ru128(16384 + 16384 + 4·128 + 4·1) + 16 + 16 = 33440; S = (232448 − 348 − 1) / 33440 = 6.
  // Mainloop TensorStorage: 98304 + 98304 + ru16(4·6·128) 3072 + ru16(4·6) 32 = 199712 -> ru128
  // 199808 (the collective's SharedStorage holds only its tensors).
  // Kernel: pipelines {mainloop {96, 96, 64} = 256; epi 2; load order 16; clc 80; throttle 80;
  // dealloc 8; epilogue throttle 8} = 480, responses 80, tmem 4 -> 564; tensors at 640: 1 B
  // epilogue, mainloop at 128 -> 199936; total 200576.
  auto c = engine(Launcher::Vllm, EngineOp::BlockwiseFp8, 100, 128, 128, 128, Schedule::Sm1);
  c.epilogue.variant = model::EpilogueVariant::NoSmem;
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 6);
  EXPECT_EQ(*r.epilogue_smem, 1);
  EXPECT_EQ(*r.mainloop_smem, 199808);
  EXPECT_EQ(*r.smem_bytes, 200576);
  // A 256-row tile on one SM: static_assert "Invalid TileShape_M." (sm100_common.inl:309).
  c.m = 256;
  const auto bad = eval(c);
  EXPECT_EQ(bad.status, Status::Invalid);
  EXPECT_TRUE(has(bad, Code::sm100_1sm_tile_m));
}

TEST(EngineFp8Sm120, ScaledMmVllmDefault) {
  // vLLM sm120_fp8_config_default: 128x128x128 auto (cooperative), void C.
  // Epilogue 64x32, 8 tiles, SD = SC = 2: D 8192 (align 512) + scale row 512 = 8704; + 32 ->
  // ru512 9216. stage 32768 + 16 = 32784; S = (101376 − 9216) / 32784 = 2.
  // Mainloop alignas(1024) A, B 2·16384 each = 65536; + alignas(16) 32 -> ru1024 66560.
  // Kernel: 1024-B header (pipelines 80, scheduler 96), tensors 8704 + pad to 9216 + 65536 =
  // 74752; total 75776.
  const auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 120, 128, 128, 128, Schedule::Auto);
  const auto r = eval(c);
  EXPECT_EQ(r.family, "engine_fp8_sm120");
  EXPECT_EQ(r.stages, 2);
  EXPECT_EQ(*r.epilogue_smem, 9216);
  EXPECT_EQ(*r.mainloop_smem, 66560);
  EXPECT_EQ(*r.smem_bytes, 75776);
}

TEST(EngineFp8Sm120, BlockwiseGetsTwoStagesAnd256x128GetsOne) {
  // 128x128x128: stage = 32768 + 4·128 + 4·1 + 16 = 33300; S = (101376 − 9216) / 33300 = 2.
  // Mainloop: A, B 32768 each, SFA ru16(2·512) = 1024, SFB ru16(2·4) = 16 -> ru1024 67584;
  // + 32 -> ru1024 68608. Kernel 1024 + ru1024(8704 -> 9216 + 67584) = 1024 + 76800 = 77824.
  auto c = engine(Launcher::Vllm, EngineOp::BlockwiseFp8, 120, 128, 128, 128, Schedule::Auto);
  const auto r = eval(c);
  EXPECT_EQ(r.stages, 2);
  EXPECT_EQ(*r.mainloop_smem, 68608);
  EXPECT_EQ(*r.smem_bytes, 77824);
  // 256x128x128: stage 49152 + 1024 + 4 + 16 = 50196 -> (101376 − 9216) / 50196 = 1:
  // static_assert(Stages >= 2) -> does_not_fit with the builder's count.
  c.m = 256;
  const auto one = eval(c);
  EXPECT_EQ(one.status, Status::DoesNotFit);
  EXPECT_EQ(one.stages, 1);
  EXPECT_FALSE(one.smem_bytes.has_value());
  EXPECT_TRUE(has(one, Code::auto_stages_below_minimum));
  // Tile K other than the scale block's K.
  c.m = 128;
  c.k = 64;
  EXPECT_TRUE(has(eval(c), Code::engine_scale_k));
}

TEST(EngineFp8Sm120, SglangBlockwiseEpilogueOnPerSmTileShape) {
  // SGLang's pingpong 64x128x128 mainloop with the epilogue built on 128x128 (epilogue.tile):
  // the auto epilogue tile 64x32 gives the same 9216 B; stage 8192 + 16384 + 4·64 + 4 + 16 =
  // 24852; S = 92160 / 24852 = 3.
  auto c = engine(Launcher::Sglang, EngineOp::BlockwiseFp8, 120, 64, 128, 128, Schedule::Pingpong);
  c.epilogue.tile = std::array<long long, 2>{128, 128};
  const auto r = eval(c);
  EXPECT_EQ(r.status, Status::Fits);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(*r.epilogue_smem, 9216);
  EXPECT_EQ(*r.smem_bytes, 84992);
  EXPECT_TRUE(has(r, Code::engine_sm120_epilogue_cta_tile));
}

TEST(EngineFp8Sm89, VisitorEpilogueAndTheLaunchersElementC) {
  // vLLM 128x64x128, warp 64x64x64, 3 stages: mainloop 3·(16384 + 8192) = 73728; epilogue
  // rows 2·8·2 (kPartitionsK 2 -> FPI 1) = 32, cols 64 + 8 = 72: 4·32·72 = 9216, + the empty
  // callbacks' byte -> 9232; union 73728.
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 89, 128, 64, 128, Schedule::Multistage);
  c.warp = std::array<long long, 3>{64, 64, 64};
  c.stages = 3;
  auto r = eval(c);
  EXPECT_EQ(r.family, "engine_fp8_sm89");
  EXPECT_EQ(*r.smem_bytes, 73728);
  EXPECT_EQ(*r.epilogue_smem, 9232);
  EXPECT_EQ(part(r, Component::Fusion), 0);  // the union's breakdown is the mainloop's

  // 128x128x64 / 64x64x64 (kPartitionsK 1): rows 2·8·FPI, cols 136. vLLM's ElementC float x4
  // -> FPI 2: 4·32·136 = 17408 + 16 = 17424; SGLang bf16 x8 -> FPI 1: 8704 + 16 = 8720;
  // SGLang f16 x8 -> FPI 2: 17424.
  c.m = 128, c.n = 128, c.k = 64;
  EXPECT_EQ(*eval(c).epilogue_smem, 17424);
  c.launcher = Launcher::Sglang;
  EXPECT_EQ(*eval(c).epilogue_smem, 8720);
  c.d = DType::F16;
  EXPECT_EQ(*eval(c).epilogue_smem, 17424);
  // 2.x has no automatic stage count.
  c.stages.reset();
  r = eval(c);
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(has(r, Code::engine_sm89_warp_and_stages));
}

// ---- what the launcher decides, and the families' boundaries --------------------------------

TEST(EngineFp8, LaunchersCTypeAndFamilyInference) {
  auto c = engine(Launcher::Vllm, EngineOp::ScaledMm, 90, 128, 128, 128, Schedule::Pingpong);
  EXPECT_EQ(eval(c).family, "engine_fp8_sm90");
  c.launcher = Launcher::None;  // the generic family models the same tile without a launcher
  c.epilogue.variant = model::EpilogueVariant::Tma;
  EXPECT_EQ(eval(c).family, "sm90_tma_ws");
  // A pinned engine family without a launcher says so.
  c.family = "engine_fp8_sm90";
  EXPECT_TRUE(has(eval(c), Code::engine_needs_launcher));
  // Blockwise has no sm_89 kernel.
  auto b =
      engine(Launcher::Sglang, EngineOp::BlockwiseFp8, 89, 128, 128, 128, Schedule::Multistage);
  b.warp = std::array<long long, 3>{64, 64, 64};
  b.stages = 3;
  EXPECT_TRUE(has(eval(b), Code::engine_no_kernel));
  EXPECT_FALSE(model::engine_has_kernel(Launcher::Vllm, EngineOp::BlockwiseFp8, 89));
  EXPECT_TRUE(model::engine_has_kernel(Launcher::Sglang, EngineOp::ScaledMm, 89));
  EXPECT_EQ(model::engine_family_for(121), "engine_fp8_sm120");
  EXPECT_EQ(model::engine_family_for(80), "");
  // swap_ab swaps the blocks: the weight's 128 becomes the kernel's M granularity.
  c.swap_ab = true;
  const model::ScaleGranularity g = model::engine_scale_granularity(c);
  EXPECT_EQ(g.m, 128);
  EXPECT_EQ(g.n, 1);
  // Other operand and output types are not engine kernels.
  auto t = engine(Launcher::Vllm, EngineOp::ScaledMm, 120, 128, 128, 128, Schedule::Auto);
  t.a = t.b = model::Operand{DType::E5M2};
  t.d = DType::F32;
  const auto r = eval(t);
  EXPECT_TRUE(has(r, Code::engine_operand_type));
  EXPECT_TRUE(has(r, Code::engine_output_type));
}

// ---- invariants over a grid of every engine family ------------------------------------------

TEST(EngineFp8, BreakdownSumsAndMaxStagesIsTight) {
  struct Arch {
    int sm;
    std::vector<Schedule> scaled, blockwise;
  };
  const Arch archs[] = {
      {89, {Schedule::Multistage}, {}},
      {90,
       {Schedule::Ws, Schedule::Pingpong, Schedule::Cooperative},
       {Schedule::Pingpong, Schedule::Cooperative}},
      {100, {Schedule::Auto, Schedule::Sm1, Schedule::Sm2}, {Schedule::Sm1, Schedule::Sm2}},
      {120, {Schedule::Auto, Schedule::Pingpong}, {Schedule::Auto, Schedule::Pingpong}},
  };
  int checked = 0;
  for (const Arch& a : archs)
    for (EngineOp op : {EngineOp::ScaledMm, EngineOp::BlockwiseFp8})
      for (Schedule sch : op == EngineOp::ScaledMm ? a.scaled : a.blockwise)
        for (Launcher l : {Launcher::Vllm, Launcher::Sglang})
          for (long long m : {64, 128, 256})
            for (long long n : {16, 64, 128, 256})
              for (long long k : {64, 128, 256})
                for (bool swap : {false, true})
                  for (Bias bias : {Bias::None, Bias::Row}) {
                    if (op == EngineOp::BlockwiseFp8 && bias != Bias::None) continue;
                    if (a.sm == 89 && swap) continue;
                    auto c = engine(l, op, a.sm, m, n, k, sch);
                    c.bias = bias;
                    c.swap_ab = swap;
                    c.cd_row_major = !swap;
                    if (a.sm == 89) {
                      c.warp = std::array<long long, 3>{m / 2, n >= 32 ? n / 2 : n, k};
                      c.stages = 3;
                    }
                    if (a.sm == 100 && (sch == Schedule::Sm2 || m == 256)) c.cluster = {2, 1, 1};
                    const model::Limits lim = model::find_arch(a.sm)->limits;
                    const model::Result r = model::evaluate(c, lim);
                    const std::string where = "sm_" + std::to_string(a.sm) + " " +
                                              std::string(model::engine_op_name(op)) + " " +
                                              std::to_string(m) + "x" + std::to_string(n) + "x" +
                                              std::to_string(k);
                    ASSERT_EQ(r.family, model::engine_family_for(a.sm)) << where;
                    if (r.breakdown) {
                      EXPECT_EQ(test::sum_parts(*r.breakdown), *r.smem_bytes) << where;
                      EXPECT_EQ(r.breakdown->size, *r.smem_bytes) << where;
                    }
                    const model::KernelFamily* fam = model::find_family(r.family);
                    const model::Plan plan = fam->decide(c, true);
                    if (!plan.sizes_known) continue;
                    Bytes last = 0;
                    for (int s = 1; s <= 12; ++s) {
                      const Bytes b = fam->layout(c, plan, s).kernel.size;
                      EXPECT_GE(b, last) << where << " stages " << s;
                      EXPECT_EQ(fam->sizes(c, plan, s).kernel.size, b) << where;
                      last = b;
                    }
                    if (r.max_stages > 0) {
                      EXPECT_LE(fam->layout(c, plan, r.max_stages).kernel.size, lim.optin_per_block)
                          << where;
                      if (r.max_stages < model::kMaxStages) {
                        EXPECT_GT(fam->layout(c, plan, r.max_stages + 1).kernel.size,
                                  lim.optin_per_block)
                            << where;
                      }
                    }
                    if (r.status == Status::Fits) {
                      EXPECT_LE(*r.smem_bytes, lim.optin_per_block) << where;
                      EXPECT_GE(r.max_stages, r.stages) << where;
                    }
                    ++checked;
                  }
  EXPECT_GT(checked, 1000);
}

// ---- the reader -------------------------------------------------------------------------------

TEST(EngineFp8Reader, LauncherFieldsAndDefaults) {
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::text(
      R"([{"arch": "sm90", "tile": [128, 128, 128], "launcher": "SGLang", "op": "blockwise_fp8",
           "scale_block": {"a": [1, 128]}, "schedule": "cooperative", "c": null},
          {"arch": "sm90", "tile": [128, 128, 128], "launcher": "vllm", "bias": null}])",
      "t.json"));
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.configs.size(), 2u);
  const model::KernelConfig& a = r.configs[0].config;
  EXPECT_EQ(a.launcher, Launcher::Sglang);
  EXPECT_EQ(a.op, EngineOp::BlockwiseFp8);
  EXPECT_EQ(a.a.elem, DType::E4M3);  // a launcher's operands default to e4m3
  EXPECT_EQ(a.scale_block, model::ScaleBlock{});
  EXPECT_TRUE(a.c_given);
  EXPECT_EQ(a.c, DType::Void);
  const model::KernelConfig& b = r.configs[1].config;
  EXPECT_EQ(b.op, EngineOp::ScaledMm);
  EXPECT_EQ(b.bias, Bias::None);
  EXPECT_FALSE(b.c_given);
}

}  // namespace
}  // namespace tilefit
