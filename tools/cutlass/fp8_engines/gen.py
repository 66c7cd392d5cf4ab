#!/usr/bin/env python3
"""Emit one host-only CUTLASS probe program per FP8-engine config row.

Usage:
  gen.py ROWS.jsonl OUTDIR [--ids a,b,...]

Each input line is a row in the format of tests/data/fp8-engines-cutlass-4.7.jsonl (only "id"
and "config" are read).  For every row OUTDIR/<id>.cu is written, plus
OUTDIR/manifest.json listing {id, arch_flag, file, builder_only_file?}.

The probes include CUTLASS headers only (the include path is given to measure.py, not here);
no CUTLASS or engine source is copied.  The type chain each probe instantiates is the one the
engine's launcher builds (the engine file of every choice is cited next to tilefit's model of it,
src/model/engine_fp8.hpp and src/model/families/engine_fp8_*.cpp):

  launcher  arch    op             CUTLASS pieces
  vllm      sm_90   scaled_mm      GMMA FP8FastAccum builder, TMA epilogue, C = D, Sm90EVT scales
  sglang    sm_90   scaled_mm      same, C = void
  *         sm_90   blockwise_fp8  KernelTmaWarpSpecialized{Cooperative,Pingpong}FP8BlockScaledAccum
  vllm      sm_100  scaled_mm      UMMA builder (KernelScheduleAuto), C = D, Sm90EVT scales
  sglang    sm_100  scaled_mm      same, C = void
  *         sm_100  blockwise_fp8  KernelTmaWarpSpecializedBlockwise{1,2}SmSm100
  *         sm_120  scaled_mm      SM120 F8F6F4 builder, C = void, Sm90EVT scales
  *         sm_120  blockwise_fp8  SM120 blockwise builder
  *         sm_89   scaled_mm      CUTLASS 2.x DefaultGemmWithVisitor (Sm80EVT)

vLLM's own broadcast nodes (vllm::Sm90RowOrScalarBroadcast / Sm90ColOrScalarBroadcast and the
c2x VisitorRow/ColOrScalarBroadcast) are replaced by CUTLASS's Sm90RowBroadcast /
Sm90ColBroadcast (Visitor{Row,Col}Broadcast for 2.x): their SharedStorage is the same type
(array_aligned<Element, CTA_N> for the row node, empty for the column node; empty for every
2.x node), which is all a sizeof probe observes.
"""
import argparse
import json
import os
import sys

ARCH_FLAG = {"sm_89": "sm_89", "sm_90": "sm_90a", "sm_100": "sm_100a", "sm_120": "sm_120a"}
DTYPE = {"bf16": "cutlass::bfloat16_t", "f16": "cutlass::half_t", "f32": "float"}
DBITS = {"bf16": 16, "f16": 16, "f32": 32}


def shape(*v):
    return "cute::Shape<" + ",".join("cute::_%d" % x for x in v) + ">"


def stage_type(cfg, carve="sizeof(typename CollectiveEpilogue::SharedStorage)"):
    st = cfg.get("stages", "auto")
    if st in (None, "auto"):
        return "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(%s)>" % carve
    return "cutlass::gemm::collective::StageCount<%d>" % int(st)


def scale_blocks(cfg):
    sb = cfg.get("scale_block") or {"a": [1, 128], "b": [128, 128]}
    gm, gk = sb["a"]
    gn, gkb = sb["b"]
    if cfg.get("swap_ab"):
        # The kernel's A is the weight, its B the activation.
        gm, gn = gn, gm
    return gm, gn, gk


HEADER = r"""
#include <cstdio>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/numeric_types.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_tma_warpspecialized.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_load_tma_warpspecialized.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/detail/blockwise_scale_layout.hpp"
using namespace cute;
"""

HEADER_2X = r"""
#include <cstdio>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/numeric_types.h"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/default_gemm_universal_with_visitor.h"
#include "cutlass/epilogue/threadblock/fusion/visitors.hpp"
using namespace cute;
"""

# Optional device check: instantiating cutlass::device_kernel<GemmKernel> makes nvcc compile the
# kernel body, where device-side static_asserts live (cooperative tile M >= 128, SM100 "SMEM usage
# exceeded capacity").  Compiled with -c only; measure.py --device-check-ids.
DEVICE_CHECK = r"""
#include "cutlass/device_kernel.h"
void* tilefit_probe_kernel_address() { return (void*)&cutlass::device_kernel<GemmKernel>; }
"""

MAIN_3X = r"""
int main() {
  std::printf("{\"stages\": %d, \"smem_bytes\": %zu, \"epilogue_smem\": %zu, \"mainloop_smem\": %zu, "
              "\"detail\": {\"epi_tensor\": %zu, \"epi_pipeline\": %zu, \"ml_tensor\": %zu}}\n",
              (int)CollectiveMainloop::DispatchPolicy::Stages,
              sizeof(typename GemmKernel::SharedStorage),
              sizeof(typename CollectiveEpilogue::SharedStorage),
              sizeof(typename CollectiveMainloop::SharedStorage),
              sizeof(typename CollectiveEpilogue::TensorStorage),
              sizeof(typename CollectiveEpilogue::PipelineStorage),
              sizeof(typename CollectiveMainloop::TensorStorage));
  return 0;
}
"""

# Builder-only probe: prints the builder's stage count without instantiating the collective
# (used when the full probe fails a Stages >= 2 / Stages > 0 static_assert).
MAIN_BUILDER = r"""
int main() {
  std::printf("{\"stages\": %d}\n", (int)MainloopBuilder::PipelineStages);
  return 0;
}
"""


def fusion_sm90(cfg, D):
    """The scale (+bias) visitor tree both engines build for scaled_mm (storage-equivalent)."""
    bias = cfg.get("bias", "none") or "none"
    align = 128 // DBITS[cfg["d"]]
    lines = [
        "using ScaleA = cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, float, float, Stride<_1,_0,_0>>;",
        "using ScaleB = cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, float, float, Stride<_0,_1,_0>>;",
        "using Accum = cutlass::epilogue::fusion::Sm90AccFetch;",
        "using Compute0 = cutlass::epilogue::fusion::Sm90Compute<cutlass::multiplies, float, float, cutlass::FloatRoundStyle::round_to_nearest>;",
        "using EVTCompute0 = cutlass::epilogue::fusion::Sm90EVT<Compute0, ScaleB, Accum>;",
    ]
    if bias == "none":
        lines += [
            "using Compute1 = cutlass::epilogue::fusion::Sm90Compute<cutlass::multiplies, %s, float, cutlass::FloatRoundStyle::round_to_nearest>;" % D,
            "using EVT = cutlass::epilogue::fusion::Sm90EVT<Compute1, ScaleA, EVTCompute0>;",
        ]
    else:
        if bias == "row":
            b = "cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, %s, %s, Stride<_0,_1,_0>, %d, false>" % (D, D, align)
        elif bias == "column":
            b = "cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, %s, %s, Stride<_1,_0,_0>, %d, false>" % (D, D, align)
        else:
            raise ValueError("bias " + bias)
        lines += [
            "using Bias = %s;" % b,
            "using Compute1 = cutlass::epilogue::fusion::Sm90Compute<cutlass::multiply_add, %s, float, cutlass::FloatRoundStyle::round_to_nearest>;" % D,
            "using EVT = cutlass::epilogue::fusion::Sm90EVT<Compute1, ScaleA, EVTCompute0, Bias>;",
        ]
    return "\n".join(lines)


def gen_3x(cfg):
    arch = cfg["arch"]
    op = cfg.get("op", "scaled_mm")
    launcher = cfg.get("launcher", "vllm")
    M, N, K = cfg["tile"]
    cl = cfg.get("cluster", [1, 1, 1])
    sched = cfg.get("schedule", "auto")
    swap = bool(cfg.get("swap_ab"))
    epi = cfg.get("epilogue", "auto")
    if isinstance(epi, dict):
        epi_variant = epi.get("variant", "auto")
        epi_tile = epi.get("tile")
    else:
        epi_variant = epi or "auto"
        epi_tile = None
    D = DTYPE[cfg["d"]]
    alignD = 128 // DBITS[cfg["d"]]
    # The C type the launcher passes.
    if "c" in cfg and cfg["c"] is None:
        C = "void"
    elif launcher == "vllm" and op == "scaled_mm" and arch in ("sm_90", "sm_100"):
        C = D  # cutlass_3x_gemm_sm90_fp8 / cutlass_3x_gemm_sm100_fp8: ElementC = ElementD
    else:
        C = "void"
    lay_cd = "cutlass::layout::ColumnMajor" if swap else "cutlass::layout::RowMajor"
    out = [HEADER]
    out.append("using ElementD = %s;" % D)
    out.append("using ElementC = %s;" % C)
    out.append("using TileShape = %s;" % shape(M, N, K))
    out.append("using ClusterShape = %s;" % shape(*cl))
    out.append("using LayoutCD = %s;" % lay_cd)
    out.append("using E4M3 = cutlass::float_e4m3_t;")
    epi_tile_t = "cutlass::epilogue::collective::EpilogueTileAuto"
    epi_cta_tile = "TileShape"
    if epi_tile:
        if arch == "sm_120" and op == "blockwise_fp8" and launcher == "sglang":
            # SGLang builds the SM120 blockwise epilogue on PerSmTileShape; the epilogue tile
            # itself stays EpilogueTileAuto (fp8_blockwise_scaled_mm_sm120.cuh).
            epi_cta_tile = shape(epi_tile[0], epi_tile[1], K)
        else:
            epi_tile_t = shape(*epi_tile)
    archtag = {"sm_90": "cutlass::arch::Sm90", "sm_100": "cutlass::arch::Sm100", "sm_120": "cutlass::arch::Sm120"}[arch]
    kernel_sched_tag = "void"

    if op == "scaled_mm":
        out.append(fusion_sm90(cfg, D))
        fusion = "EVT"
        if arch == "sm_90":
            ks = {"ws": "cutlass::gemm::KernelTmaWarpSpecializedFP8FastAccum",
                  "pingpong": "cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum",
                  "cooperative": "cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum"}[sched]
            es = "cutlass::epilogue::TmaWarpSpecializedCooperative" if sched == "cooperative" else "cutlass::epilogue::TmaWarpSpecialized"
            if launcher == "sglang" and sched == "ws":
                kernel_sched_tag = "void"
            else:
                kernel_sched_tag = "cutlass::gemm::PersistentScheduler"
        elif arch == "sm_100":
            ks = {"auto": "cutlass::gemm::collective::KernelScheduleAuto",
                  "1sm": "cutlass::gemm::KernelTmaWarpSpecialized1SmSm100",
                  "2sm": "cutlass::gemm::KernelTmaWarpSpecialized2SmSm100"}[sched]
            if epi_variant == "nosmem":
                es = {"1sm": "cutlass::epilogue::NoSmemWarpSpecialized1Sm", "2sm": "cutlass::epilogue::NoSmemWarpSpecialized2Sm"}[sched]
            elif sched == "auto":
                es = "cutlass::epilogue::collective::EpilogueScheduleAuto"
            else:
                es = {"1sm": "cutlass::epilogue::TmaWarpSpecialized1Sm", "2sm": "cutlass::epilogue::TmaWarpSpecialized2Sm"}[sched]
        else:  # sm_120
            ks = {"auto": "cutlass::gemm::collective::KernelScheduleAuto",
                  "pingpong": "cutlass::gemm::KernelTmaWarpSpecializedPingpong",
                  "cooperative": "cutlass::gemm::KernelTmaWarpSpecializedCooperative"}[sched]
            es = "cutlass::epilogue::collective::EpilogueScheduleAuto"
        out.append("""using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    %s, cutlass::arch::OpClassTensorOp, %s, ClusterShape, %s,
    float, float, ElementC, LayoutCD, %d, ElementD, LayoutCD, %d, %s, %s>::CollectiveOp;""" % (
            archtag, epi_cta_tile, epi_tile_t, alignD, alignD, es, fusion))
        out.append("""using MainloopBuilder = cutlass::gemm::collective::CollectiveBuilder<
    %s, cutlass::arch::OpClassTensorOp, E4M3, cutlass::layout::RowMajor, 16, E4M3, cutlass::layout::ColumnMajor, 16,
    float, TileShape, ClusterShape, %s, %s>;""" % (archtag, stage_type(cfg), ks))
    else:  # blockwise_fp8
        gm, gn, gk = scale_blocks(cfg)
        if arch == "sm_90":
            if launcher == "sglang":
                out.append("using ScaleConfig = decltype(cutlass::detail::sm90_trivial_blockwise_scale_config(%s{}));" % shape(gm, gn, gk))
            else:
                out.append("using ScaleConfig = cutlass::detail::Sm90BlockwiseScaleConfig<%d, %d, %d, cute::GMMA::Major::MN, cute::GMMA::Major::K>;" % (gm, gn, gk))
        else:
            cfgname = {"sm_100": "Sm100BlockwiseScaleConfig", "sm_120": "Sm120BlockwiseScaleConfig"}[arch]
            majors = "cute::UMMA::Major::K, cute::UMMA::Major::MN" if swap else "cute::UMMA::Major::MN, cute::UMMA::Major::K"
            out.append("using ScaleConfig = cutlass::detail::%s<%d, %d, %d, %s>;" % (cfgname, gm, gn, gk, majors))
        out.append("using LayoutSFA = decltype(ScaleConfig::deduce_layoutSFA());")
        out.append("using LayoutSFB = decltype(ScaleConfig::deduce_layoutSFB());")
        if launcher == "vllm" or arch == "sm_120":
            fusion = ", cutlass::epilogue::fusion::LinearCombination<ElementD, float, void, float, cutlass::FloatRoundStyle::round_to_nearest>"
            if launcher == "sglang":
                fusion = ""  # builder default (LinearCombination<ElementD, float, void, float>)
        else:
            fusion = ""
        if arch == "sm_90":
            if launcher == "sglang":
                out.append("using StoreEVT = cutlass::epilogue::fusion::Sm90EVT<cutlass::epilogue::fusion::Sm90AccFetch>;")
                fusion = ", StoreEVT"
            ks = {"cooperative": "cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum",
                  "pingpong": "cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8BlockScaledAccum"}[sched]
            es = "cutlass::epilogue::TmaWarpSpecializedCooperative" if sched == "cooperative" else "cutlass::epilogue::TmaWarpSpecialized"
            kernel_sched_tag = "cutlass::gemm::PersistentScheduler" if launcher == "sglang" else "void"
        elif arch == "sm_100":
            ks = {"1sm": "cutlass::gemm::KernelTmaWarpSpecializedBlockwise1SmSm100",
                  "2sm": "cutlass::gemm::KernelTmaWarpSpecializedBlockwise2SmSm100"}[sched]
            if epi_variant == "nosmem":
                es = {"1sm": "cutlass::epilogue::BlockwiseNoSmemWarpSpecialized1Sm", "2sm": "cutlass::epilogue::BlockwiseNoSmemWarpSpecialized2Sm"}[sched]
            else:
                es = {"1sm": "cutlass::epilogue::TmaWarpSpecialized1Sm", "2sm": "cutlass::epilogue::TmaWarpSpecialized2Sm"}[sched]
            kernel_sched_tag = "cutlass::gemm::PersistentScheduler" if launcher == "sglang" else "void"
        else:  # sm_120
            if sched == "auto":
                ks = "cutlass::gemm::collective::KernelScheduleAuto"
            elif sched == "pingpong":
                ks = "cutlass::gemm::KernelTmaWarpSpecializedBlockwisePingpongSm120"
            elif launcher == "sglang":
                ks = "cutlass::gemm::KernelScheduleSm120Blockwise"
            else:
                ks = "cutlass::gemm::KernelTmaWarpSpecializedBlockwiseCooperativeSm120"
            es = "cutlass::epilogue::collective::EpilogueScheduleAuto"
        out.append("""using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    %s, cutlass::arch::OpClassTensorOp, %s, ClusterShape, %s,
    float, float, ElementC, LayoutCD, %d, ElementD, LayoutCD, %d, %s%s>::CollectiveOp;""" % (
            archtag, epi_cta_tile, epi_tile_t, alignD, alignD, es, fusion))
        out.append("""using MainloopBuilder = cutlass::gemm::collective::CollectiveBuilder<
    %s, cutlass::arch::OpClassTensorOp, E4M3, cute::tuple<cutlass::layout::RowMajor, LayoutSFA>, 16,
    E4M3, cute::tuple<cutlass::layout::ColumnMajor, LayoutSFB>, 16,
    float, TileShape, ClusterShape, %s, %s>;""" % (archtag, stage_type(cfg), ks))
    out.append("using CollectiveMainloop = typename MainloopBuilder::CollectiveOp;")
    out.append("using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int,int,int,int>, CollectiveMainloop, CollectiveEpilogue, %s>;" % kernel_sched_tag)
    body = "\n".join(out)
    full = body + MAIN_3X
    # Builder-only variant: everything before the CollectiveMainloop alias, plus a main that
    # prints MainloopBuilder::PipelineStages (compiled only when the full probe fails).
    bonly = body.split("using CollectiveMainloop =")[0] + MAIN_BUILDER
    return full, bonly


def gen_2x(cfg):
    launcher = cfg.get("launcher", "vllm")
    M, N, K = cfg["tile"]
    wm, wn, wk = cfg["warp"]
    S = int(cfg["stages"])
    D = DTYPE[cfg["d"]]
    bias = cfg.get("bias", "none") or "none"
    if launcher == "vllm":
        # scaled_mm_c2x.cuh cutlass_2x_gemm: ElementC = float, AlignmentCD = 4, stream-K swizzle
        ec, ac, swz, mop = "float", 4, "cutlass::gemm::threadblock::ThreadblockSwizzleStreamK", "cutlass::arch::OpMultiplyAddFastAccum"
    else:
        # fp8_gemm_kernel.cu DeviceGemmFp8RowwiseSm89: ElementC = out type, AlignmentC = 128/bits
        ec, ac, swz, mop = D, 128 // DBITS[cfg["d"]], "cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>", "cutlass::arch::OpMultiplyAdd"
    out = [HEADER_2X]
    out.append("using TB = cutlass::gemm::GemmShape<%d,%d,%d>;" % (M, N, K))
    out.append("using WS = cutlass::gemm::GemmShape<%d,%d,%d>;" % (wm, wn, wk))
    out.append("using IS = cutlass::gemm::GemmShape<16,8,32>;")
    out.append("using ElementD = %s;" % D)
    out.append("using ElementC = %s;" % ec)
    out.append("using OTM = cutlass::epilogue::threadblock::OutputTileThreadLayout<TB, WS, ElementC, %d, 1>;" % ac)
    out.append("""using Acc = cutlass::epilogue::threadblock::VisitorAccFetch;
using ScaleA = cutlass::epilogue::threadblock::VisitorColBroadcast<OTM, float, Stride<_1,_0,_0>>;
using ScaleB = cutlass::epilogue::threadblock::VisitorRowBroadcast<OTM, float, Stride<_0,_1,_0>>;
using C0 = cutlass::epilogue::threadblock::VisitorCompute<cutlass::multiplies, float, float, cutlass::FloatRoundStyle::round_to_nearest>;
using EVT0 = cutlass::epilogue::threadblock::Sm80EVT<C0, ScaleB, Acc>;""")
    if bias == "none":
        out.append("""using C1 = cutlass::epilogue::threadblock::VisitorCompute<cutlass::multiplies, ElementD, float, cutlass::FloatRoundStyle::round_to_nearest>;
using EVTC = cutlass::epilogue::threadblock::Sm80EVT<C1, ScaleA, EVT0>;""")
    else:
        out.append("""using BiasSrc = cutlass::epilogue::threadblock::VisitorRowBroadcast<OTM, ElementD, Stride<_0,_1,_0>>;
using C1 = cutlass::epilogue::threadblock::VisitorCompute<cutlass::multiply_add, ElementD, float, cutlass::FloatRoundStyle::round_to_nearest>;
using EVTC = cutlass::epilogue::threadblock::Sm80EVT<C1, ScaleA, EVT0, BiasSrc>;""")
    out.append("""using DStore = cutlass::epilogue::threadblock::VisitorAuxStore<OTM, ElementD, cutlass::FloatRoundStyle::round_to_nearest, Stride<int64_t,_1,_0>>;
using EVTD = cutlass::epilogue::threadblock::Sm80EVT<DStore, EVTC>;
using GemmKernel = typename cutlass::gemm::kernel::DefaultGemmWithVisitor<
    cutlass::float_e4m3_t, cutlass::layout::RowMajor, cutlass::ComplexTransform::kNone, 16,
    cutlass::float_e4m3_t, cutlass::layout::ColumnMajor, cutlass::ComplexTransform::kNone, 16,
    ElementC, cutlass::layout::RowMajor, %d, float, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm89,
    TB, WS, IS, EVTD, %s, %d, %s, 1>::GemmKernel;
int main() {
  std::printf("{\\"stages\\": %d, \\"smem_bytes\\": %%zu, \\"epilogue_smem\\": %%zu, \\"mainloop_smem\\": %%zu}\\n",
              sizeof(typename GemmKernel::SharedStorage), sizeof(typename GemmKernel::Epilogue::SharedStorage),
              sizeof(typename GemmKernel::Mma::SharedStorage));
  return 0;
}
""" % (ac, swz, S, mop, S))
    return "\n".join(out), None


def gen(cfg):
    if cfg["arch"] == "sm_89":
        return gen_2x(cfg)
    return gen_3x(cfg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("outdir")
    ap.add_argument("--ids", default="")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    want = set(x for x in a.ids.split(",") if x)
    manifest = []
    for line in open(a.rows):
        line = line.strip()
        if not line:
            continue
        row = json.loads(line)
        rid = row["id"]
        if want and rid not in want:
            continue
        cfg = row["config"]
        try:
            full, bonly = gen(cfg)
        except (KeyError, ValueError) as e:
            print("skip %s: cannot generate (%s)" % (rid, e), file=sys.stderr)
            continue
        fn = os.path.join(a.outdir, rid + ".cu")
        open(fn, "w").write(full)
        ent = {"id": rid, "arch_flag": ARCH_FLAG[cfg["arch"]], "file": rid + ".cu"}
        if bonly:
            bfn = rid + ".builder.cu"
            open(os.path.join(a.outdir, bfn), "w").write(bonly)
            ent["builder_only_file"] = bfn
        manifest.append(ent)
    json.dump(manifest, open(os.path.join(a.outdir, "manifest.json"), "w"), indent=1)
    print("wrote %d probes to %s" % (len(manifest), a.outdir))


if __name__ == "__main__":
    main()
