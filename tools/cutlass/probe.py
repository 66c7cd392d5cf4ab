#!/usr/bin/env python3
"""Regenerate and re-measure tilefit's CUTLASS ground truth.

    probe.py gen     --cutlass PATH --out DIR ROWS.jsonl...
    probe.py measure --cutlass PATH [-j N] [--kernel] [--out DIR] ROWS.jsonl...
    probe.py report  --results DIR ROWS.jsonl...

`gen` writes one host-only probe program (.cu) per row of each JSONL file, derived from the
row's `config` (never from `cutlass.cxx`): the probe instantiates CUTLASS's epilogue and
mainloop CollectiveBuilders and GemmUniversal (or, for sm80_multistage, the 2.x
device::Gemm) and prints the mainloop stage count and the three `sizeof`s tilefit models.
`measure` generates, compiles with nvcc (in parallel), runs each program, writes the
measured rows in the same row format and compares them with each row's `expect`.
`report` repeats the comparison from a results directory (for example one filled on
another machine by the `build.sh` that `gen` writes).

Nothing is launched: the programs only print compile-time constants. CUTLASS is never
copied: the probes #include it from --cutlass. Python 3 standard library only.

Extending: a family is one generator function registered in GENERATORS (family name ->
function(Config) -> Probe). See README.md next to this file.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional, Tuple

# ---------------------------------------------------------------------------------------
# Constants shared with the model (src/model/arch.cpp, tests/data/README.md)
# ---------------------------------------------------------------------------------------

#: Opt-in shared-memory limit per block used for `status` (the rows' `limit_bytes`).
LIMITS = {80: 166912, 86: 101376, 87: 166912, 89: 101376, 90: 232448, 100: 232448,
          101: 232448, 103: 232448, 110: 232448, 120: 101376, 121: 101376}

#: nvcc -arch for each SM (the "a" targets enable the arch-specific MMA instructions).
ARCH_FLAGS = {80: "sm_80", 86: "sm_86", 87: "sm_87", 89: "sm_89", 90: "sm_90a",
              100: "sm_100a", 101: "sm_101a", 103: "sm_103a", 110: "sm_110a",
              120: "sm_120a", 121: "sm_121a"}

COMPARED_FIELDS = ("status", "stages", "smem_bytes", "epilogue_smem", "mainloop_smem")


class GenError(Exception):
    """The config cannot be expressed as a CUTLASS type chain (the probe is not generated)."""


# ---------------------------------------------------------------------------------------
# Config: the tilefit config format (README.md "Config format"), normalised
# ---------------------------------------------------------------------------------------

BITS = {"void": 0, "e2m1": 4, "e2m3": 6, "e3m2": 6, "e4m3": 8, "e5m2": 8, "ue4m3": 8,
        "ue8m0": 8, "s8": 8, "u8": 8, "bf16": 16, "f16": 16, "f32": 32, "tf32": 32,
        "s32": 32}

DTYPE_ALIASES = {"fp4": "e2m1", "fp6": "e3m2", "fp8": "e4m3", "fp16": "f16", "half": "f16",
                 "fp32": "f32", "float": "f32", "int8": "s8", "uint8": "u8", "int32": "s32"}

#: Block-scaled operand names: (element, scale-factor type, vector size).
BLOCK_SCALED = {"nvfp4": ("e2m1", "ue4m3", 16), "mxfp4": ("e2m1", "ue8m0", 32),
                "mxfp6": ("e3m2", "ue8m0", 32), "mxfp8": ("e4m3", "ue8m0", 32)}

CXX_ELEMENT = {
    "void": "void", "e2m1": "cutlass::float_e2m1_t", "e2m3": "cutlass::float_e2m3_t",
    "e3m2": "cutlass::float_e3m2_t", "e4m3": "cutlass::float_e4m3_t",
    "e5m2": "cutlass::float_e5m2_t", "ue4m3": "cutlass::float_ue4m3_t",
    "ue8m0": "cutlass::float_ue8m0_t", "bf16": "cutlass::bfloat16_t", "f16": "cutlass::half_t",
    "f32": "float", "tf32": "cutlass::tfloat32_t", "s8": "int8_t", "u8": "uint8_t",
    "s32": "int32_t",
}


@dataclasses.dataclass
class Operand:
    elem: str
    sf: str = "void"      # scale-factor type; "void" = not block-scaled
    sf_vec: int = 0

    @property
    def block_scaled(self) -> bool:
        return self.sf != "void"

    @property
    def bits(self) -> int:
        return BITS[self.elem]


@dataclasses.dataclass
class Epilogue:
    variant: str = "auto"
    tile: Optional[Tuple[int, int]] = None
    stages_c: Optional[int] = None
    stages_d: Optional[int] = None
    sf_vec: int = 0
    sf: str = "void"


@dataclasses.dataclass
class Config:
    name: str
    sm: int
    family: str
    m: int
    n: int
    k: int
    cluster: Tuple[int, int, int]
    a: Operand
    b: Operand
    c: str
    d: str
    acc: str
    a_k_major: bool
    b_k_major: bool
    cd_row_major: bool
    schedule: str
    epilogue: Epilogue
    grouped: bool
    stages: Optional[int]        # None = auto (StageCountAutoCarveout)
    mma: str
    warp: Optional[Tuple[int, int, int]]
    swap_ab: bool
    raw: dict


def _dtype(value, field: str) -> str:
    if value is None:
        return "void"
    s = str(value).lower()
    s = DTYPE_ALIASES.get(s, s)
    if s not in BITS:
        raise GenError(f"{field}: unknown element type {value!r}")
    return s


def _operand(value, field: str) -> Operand:
    s = str(value).lower()
    if s in BLOCK_SCALED:
        e, sf, v = BLOCK_SCALED[s]
        return Operand(e, sf, v)
    t = _dtype(s, field)
    if t == "void":
        raise GenError(f"{field}: an operand cannot be void")
    return Operand(t)


def parse_arch(value) -> int:
    s = str(value).lower().replace("sm_", "").replace("sm", "").strip()
    s = re.sub(r"[af]$", "", s)
    if re.fullmatch(r"\d+\.\d", s):
        major, minor = s.split(".")
        return int(major) * 10 + int(minor)
    if not re.fullmatch(r"\d+", s):
        raise GenError(f"arch: cannot read {value!r}")
    return int(s)


def _tile(value, a_bits: int) -> Tuple[int, int, int]:
    if isinstance(value, list) and len(value) == 3:
        return tuple(int(x) for x in value)  # type: ignore[return-value]
    s = str(value)
    m = re.fullmatch(r"(?:CtaShape)?(\d+)x(\d+)x(\d+)(B?)", s, re.IGNORECASE)
    if not m:
        raise GenError(f"tile: cannot read {value!r}")
    mm, nn, kk = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if m.group(4):  # K counted in bytes (TensorRT-LLM / FlashInfer enum names)
        kk = kk * 8 // a_bits
    return mm, nn, kk


def infer_family(sm: int, a: Operand, b: Operand, raw: dict) -> str:
    if sm in (120, 121):
        return "sm120_blockscaled" if (a.block_scaled and b.block_scaled) else "sm120_dense"
    if sm == 90:
        return "sm90_tma_ws"
    if sm in (100, 101, 103, 110):
        return "sm100_umma"
    if sm in (80, 86, 87, 89):
        return "sm80_multistage"
    raise GenError(f"no probe family for sm_{sm}")


def normalize(raw: dict) -> Config:
    """The tilefit config (README.md "Config format") with every default applied."""
    sm = parse_arch(raw.get("arch", ""))
    if "dtype" in raw:
        a = _operand(raw["dtype"], "dtype")
        b = _operand(raw["dtype"], "dtype")
    else:
        av, bv = raw.get("a", raw.get("b")), raw.get("b", raw.get("a"))
        if av is None:
            raise GenError("a/b/dtype: no operand type")
        a, b = _operand(av, "a"), _operand(bv, "b")
    if "sf_vec" in raw:
        for op in (a, b):
            if op.block_scaled:
                op.sf_vec = int(raw["sf_vec"])
    d = _dtype(raw.get("d", "bf16"), "d")
    c = _dtype(raw["c"], "c") if "c" in raw else d
    acc = _dtype(raw.get("acc", "f32"), "acc")
    layout = str(raw.get("layout", "tn")).lower()
    if not re.fullmatch(r"[tn]{2,3}", layout):
        raise GenError(f"layout: cannot read {layout!r}")
    epi_raw = raw.get("epilogue", "auto")
    if isinstance(epi_raw, dict):
        epi = Epilogue(variant=str(epi_raw.get("variant", "auto")).lower())
        if "tile" in epi_raw:
            epi.tile = (int(epi_raw["tile"][0]), int(epi_raw["tile"][1]))
        epi.stages_c = epi_raw.get("stages_c")
        epi.stages_d = epi_raw.get("stages_d")
        epi.sf_vec = int(epi_raw.get("sf_vec", 0) or 0)
        epi.sf = _dtype(epi_raw.get("sf"), "epilogue.sf") if epi_raw.get("sf") else "void"
    else:
        epi = Epilogue(variant=str(epi_raw).lower())
    if epi.variant == "blockscale_out":
        epi.sf_vec = epi.sf_vec or 16
        if epi.sf == "void":
            epi.sf = "ue4m3" if epi.sf_vec == 16 else "ue8m0"
    stages = raw.get("stages", "auto")
    family = raw.get("kernel") or infer_family(sm, a, b, raw)
    mm, nn, kk = _tile(raw["tile"], a.bits)
    warp = tuple(int(x) for x in raw["warp"]) if raw.get("warp") else None
    return Config(
        name=str(raw.get("name", "")), sm=sm, family=family, m=mm, n=nn, k=kk,
        cluster=tuple(int(x) for x in raw.get("cluster", [1, 1, 1])),  # type: ignore[arg-type]
        a=a, b=b, c=c, d=d, acc=acc,
        a_k_major=layout[0] == "t", b_k_major=layout[1] == "n",
        cd_row_major=len(layout) < 3 or layout[2] == "t",
        schedule=str(raw.get("schedule", "auto")).lower(), epilogue=epi,
        grouped=bool(raw.get("grouped", False)),
        stages=None if str(stages).lower() == "auto" else int(stages),
        mma=str(raw.get("mma", "auto")).lower(), warp=warp,  # type: ignore[arg-type]
        swap_ab=bool(raw.get("swap_ab", False)), raw=raw)


# ---------------------------------------------------------------------------------------
# Probe: what a generator returns
# ---------------------------------------------------------------------------------------

@dataclasses.dataclass
class Probe:
    family: str
    arch_flag: str
    #: The type chain, one C++ type per role (read by the unit test and written into the
    #: probe as `using` aliases).
    types: Dict[str, str]
    #: The probe program.
    source: str
    #: Stage count the probe reports when the mainloop type cannot be built (None: the
    #: probe's own stages-only mode decides).
    fixed_stages: Optional[int] = None
    notes: List[str] = dataclasses.field(default_factory=list)


# ---------------------------------------------------------------------------------------
# Small C++ helpers
# ---------------------------------------------------------------------------------------

def cxx_elem(t: str) -> str:
    return CXX_ELEMENT[t]


def cxx_operand(op: Operand) -> str:
    """The element type a 3.x builder takes for one operand (block-scaled: the wrapper)."""
    e = cxx_elem(op.elem)
    if not op.block_scaled:
        return e
    if op.sf == "ue4m3" and op.sf_vec == 16 and op.elem == "e2m1":
        return f"cutlass::nv_float4_t<{e}>"
    if op.sf == "ue8m0" and op.sf_vec == 32:
        wrapper = {4: "mx_float4_t", 6: "mx_float6_t", 8: "mx_float8_t"}[op.bits]
        return f"cutlass::{wrapper}<{e}>"
    # Any other pairing: the builder's tuple<T, SF, Int<Vs>> spelling (sm1xx_common.inl).
    return f"cute::tuple<{e}, {cxx_elem(op.sf)}, cute::Int<{op.sf_vec}>>"


def shape(*xs: int) -> str:
    return "cute::Shape<" + ",".join(f"cute::_{x}" for x in xs) + ">"


def row_col(row_major: bool) -> str:
    return "cutlass::layout::RowMajor" if row_major else "cutlass::layout::ColumnMajor"


def io_alignment(t: str) -> int:
    """Elements per 128-bit access for C/D; fp6 needs 128 elements (96 B), fp4 32."""
    b = BITS[t]
    if b == 0:
        return 0
    if b == 6:
        return 128
    return 128 // b


def operand_alignment(op: Operand, unpacked_f4f6: bool) -> int:
    """Elements per access for A/B. Sub-byte operands loaded unpacked (the MXF8F6F4 / F8F6F4
    path) need 128-element alignment; packed fp4 (MXF4/NVF4) 32."""
    if op.bits in (4, 6) and unpacked_f4f6:
        return 128
    if op.bits == 6:
        return 128
    return 128 // op.bits


def c_json(raw: dict) -> str:
    return json.dumps(raw, sort_keys=True)


HEADER_3X = """\
#include <cstddef>
#include <cstdio>

#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/numeric_types.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/epilogue/dispatch_policy.hpp"
#include "cutlass/epilogue/fusion/operations.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/device_kernel.h"
"""

STAGES_OF = """\
namespace tilefit_probe {
// The mainloop dispatch policy read off CollectiveMma<Policy, ...> by pattern matching, which
// does not instantiate the collective: the builder's stage count is known even when the
// collective's own static_asserts (e.g. Stages >= 2) reject it.
template <class T> struct stages_of;
template <class P, class... Rest>
struct stages_of<cutlass::gemm::collective::CollectiveMma<P, Rest...>> {
  static constexpr int value = P::Stages;
};
}  // namespace tilefit_probe
"""

MAIN_3X = """\
int main() {
#ifdef TILEFIT_STAGES_ONLY
  std::printf("{\\"stages\\": %d}\\n", tilefit_probe::stages_of<CollectiveMainloop>::value);
#else
  std::printf("{\\"stages\\": %d, \\"smem_bytes\\": %zu, \\"epilogue_smem\\": %zu, "
              "\\"mainloop_smem\\": %zu}\\n",
              static_cast<int>(CollectiveMainloop::DispatchPolicy::Stages),
              sizeof(typename GemmKernel::SharedStorage),
              sizeof(typename CollectiveEpilogue::SharedStorage),
              sizeof(typename CollectiveMainloop::SharedStorage));
#endif
  return 0;
}
"""

# TensorRT-LLM's FINALIZE fusion (ScaledAccPerColBiasPerRowScaleScatter and, for swap_ab,
# ScaledAccPerRowBiasPerColScaleScatter, cutlass_extensions/epilogue/fusion/
# sm90_visitor_scatter.hpp) is not part of CUTLASS. This is an equivalent written for the
# probe: a fusion operation with the same traits the SM120 epilogue builder reads (ElementAux
# = the output type, GmemLayoutTagAux = the output layout, IsAuxOutSupported), and a
# FusionCallbacks specialisation with the same visitor tree built from CUTLASS nodes:
#   root(empty storage) <- multiplies( router scale broadcast (fp32),
#                                      multiply_add( alpha (ScalarBroadcastPtrArray), acc,
#                                                    bias broadcast (output type) ) )
# The root node stands in for TRT-LLM's Sm90ScatterPtrArray, whose SharedStorage is an empty
# struct; an Sm90Compute<Identity> root has empty storage too. The only non-empty node is
# the row broadcast (bias, or the fp32 router scales with swap_ab): array_aligned<T, CTA_N>.
FINALIZE_FUSION = """\
namespace tilefit_probe {
template <class GmemLayoutTagOut, class ElementOutput_, class ElementCompute_,
          class ElementBias_, class ElementScale_, bool SwapAB_>
struct FinalizeLikeScatter
    : cutlass::epilogue::fusion::ScaledAcc<ElementOutput_, ElementCompute_, ElementCompute_> {
  using ElementBias = ElementBias_;
  using ElementScale = ElementScale_;
  static constexpr int AlignmentBias = 128 / cute::sizeof_bits_v<ElementBias_>;
  static constexpr bool IsPerColBiasSupported = !SwapAB_;
  static constexpr bool IsPerRowBiasSupported = SwapAB_;
  using ElementAux = ElementOutput_;
  using GmemLayoutTagAux = GmemLayoutTagOut;
  static constexpr int AlignmentAux = 128 / cute::sizeof_bits_v<ElementOutput_>;
  static constexpr bool IsAuxOutSupported = true;
};
}  // namespace tilefit_probe

namespace cutlass::epilogue::fusion {
template <int StagesC, int StagesD, int FragmentSize, bool ReuseSmemC, bool DelayTmaStore,
          int NumEpilogueWarpGroups, class GmemLayoutTagOut, class ElementOutput,
          class ElementCompute, class ElementBias, class ElementScale, bool SwapAB,
          class CtaTileShapeMNK, class EpilogueTile, class SmemLayoutAtom, class CopyOpR2S>
struct FusionCallbacks<
    epilogue::Sm90PtrArrayTmaWarpSpecialized<StagesC, StagesD, FragmentSize, ReuseSmemC,
                                             DelayTmaStore, NumEpilogueWarpGroups>,
    tilefit_probe::FinalizeLikeScatter<GmemLayoutTagOut, ElementOutput, ElementCompute,
                                       ElementBias, ElementScale, SwapAB>,
    CtaTileShapeMNK, EpilogueTile, SmemLayoutAtom, CopyOpR2S>
    : Sm90EVT<
          Sm90Compute<cutlass::epilogue::thread::Identity, ElementOutput, ElementCompute,
                      FloatRoundStyle::round_to_nearest>,  // stands in for the scatter store
          Sm90EVT<Sm90Compute<cutlass::multiplies, ElementCompute, ElementCompute,
                              FloatRoundStyle::round_to_nearest>,  // scale * (alpha*acc + bias)
                  cute::conditional_t<SwapAB,
                      Sm90RowBroadcast<0, CtaTileShapeMNK, ElementScale*, ElementCompute,
                                       cute::Stride<cute::_0, cute::_1, int64_t>, 1>,
                      Sm90ColBroadcast<0, CtaTileShapeMNK, ElementScale*, ElementCompute,
                                       cute::Stride<cute::_1, cute::_0, int64_t>, 1>>,
                  Sm90EVT<Sm90Compute<cutlass::homogeneous_multiply_add, ElementCompute,
                                      ElementCompute, FloatRoundStyle::round_to_nearest>,
                          Sm90ScalarBroadcastPtrArray<ElementCompute,
                                                      cute::Stride<cute::_0, cute::_0, int64_t>>,
                          Sm90AccFetch,
                          cute::conditional_t<SwapAB,
                              Sm90ColBroadcast<0, CtaTileShapeMNK, ElementBias*, ElementCompute,
                                               cute::Stride<cute::_1, cute::_0, int64_t>,
                                               128 / cute::sizeof_bits_v<ElementBias>>,
                              Sm90RowBroadcast<0, CtaTileShapeMNK, ElementBias*, ElementCompute,
                                               cute::Stride<cute::_0, cute::_1, int64_t>,
                                               128 / cute::sizeof_bits_v<ElementBias>>>>>> {
  using Operation = tilefit_probe::FinalizeLikeScatter<GmemLayoutTagOut, ElementOutput,
                                                       ElementCompute, ElementBias,
                                                       ElementScale, SwapAB>;
};
}  // namespace cutlass::epilogue::fusion
"""


def aliases(types: Dict[str, str], order: List[str]) -> str:
    lines = []
    for key in order:
        if key in types:
            lines.append(f"using {key} = {types[key]};")
    return "\n".join(lines)


def render_3x(cfg: Config, types: Dict[str, str], row_id: str, origin: str,
              extra_decls: str = "") -> str:
    """A CUTLASS 3.x probe: epilogue builder, mainloop builder (carve-out = the epilogue's
    SharedStorage), GemmUniversal."""
    order = ["Arch", "OpClass", "ElementA", "LayoutA", "ElementB", "LayoutB", "ElementC",
             "LayoutC", "ElementD", "LayoutD", "ElementAccumulator", "ElementCompute",
             "TileShape", "ClusterShape", "MainloopSchedule", "EpilogueSchedule",
             "EpilogueTile", "Fusion", "ProblemShape"]
    body = [
        f"// tilefit CUTLASS probe, generated by tools/cutlass/probe.py: do not edit.",
        f"// row:    {row_id}",
        f"// from:   {origin}",
        f"// config: {c_json(cfg.raw)}",
        f"// family: {cfg.family}",
        HEADER_3X,
        "using namespace cute;",
        "",
        STAGES_OF,
        extra_decls,
        aliases(types, order),
        f"constexpr int AlignmentA = {types['AlignmentA']};",
        f"constexpr int AlignmentB = {types['AlignmentB']};",
        f"constexpr int AlignmentC = {types['AlignmentC']};",
        f"constexpr int AlignmentD = {types['AlignmentD']};",
        "",
        "using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<",
        "    Arch, OpClass, TileShape, ClusterShape, EpilogueTile,",
        "    ElementAccumulator, ElementCompute,",
        "    ElementC, LayoutC, AlignmentC,",
        "    ElementD, LayoutD, AlignmentD,",
        "    EpilogueSchedule, Fusion>::CollectiveOp;",
        "",
        f"using StageCountType = {types['StageCountType']};",
        "",
        "using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<",
        "    Arch, OpClass,",
        "    ElementA, LayoutA, AlignmentA,",
        "    ElementB, LayoutB, AlignmentB,",
        "    ElementAccumulator, TileShape, ClusterShape,",
        "    StageCountType, MainloopSchedule>::CollectiveOp;",
        "",
        "#ifndef TILEFIT_STAGES_ONLY",
        "using GemmKernel = cutlass::gemm::kernel::GemmUniversal<",
        "    ProblemShape, CollectiveMainloop, CollectiveEpilogue>;",
        "#endif",
        "",
        "#ifdef TILEFIT_DEVICE_KERNEL",
        "// Instantiates the kernel for the device, so that device-side static_asserts (for",
        "// example the cooperative kernel's M >= 128) are checked too.",
        "void* tilefit_device_kernel() {",
        "  return reinterpret_cast<void*>(&cutlass::device_kernel<GemmKernel>);",
        "}",
        "#endif",
        "",
        MAIN_3X,
    ]
    return "\n".join(body)


def stage_count_type(cfg: Config) -> str:
    if cfg.stages is None:
        return ("cutlass::gemm::collective::StageCountAutoCarveout<"
                "static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>")
    return f"cutlass::gemm::collective::StageCount<{cfg.stages}>"


def common_3x_types(cfg: Config, arch: str, unpacked: bool) -> Dict[str, str]:
    """Element, layout, shape and problem-shape types every 3.x family shares."""
    ptr = "*" if cfg.grouped else ""
    block = cfg.a.block_scaled or cfg.b.block_scaled
    t = {
        "Arch": f"cutlass::arch::{arch}",
        "OpClass": "cutlass::arch::OpClassBlockScaledTensorOp" if block
                   else "cutlass::arch::OpClassTensorOp",
        "ElementA": cxx_operand(cfg.a),
        "LayoutA": row_col(cfg.a_k_major) + ptr,
        "ElementB": cxx_operand(cfg.b),
        "LayoutB": row_col(not cfg.b_k_major) + ptr,
        "ElementC": cxx_elem(cfg.c),
        "LayoutC": row_col(cfg.cd_row_major) + ptr,
        "ElementD": cxx_elem(cfg.d),
        "LayoutD": row_col(cfg.cd_row_major) + ptr,
        "ElementAccumulator": cxx_elem(cfg.acc),
        "ElementCompute": cxx_elem(cfg.acc) if cfg.acc != "s32" else "float",
        "TileShape": shape(cfg.m, cfg.n, cfg.k),
        "ClusterShape": shape(*cfg.cluster),
        "ProblemShape": ("cutlass::gemm::GroupProblemShape<cute::Shape<int,int,int>>"
                         if cfg.grouped else "cute::Shape<int,int,int,int>"),
        "AlignmentA": str(operand_alignment(cfg.a, unpacked)),
        "AlignmentB": str(operand_alignment(cfg.b, unpacked)),
        "AlignmentD": str(io_alignment(cfg.d)),
        "StageCountType": stage_count_type(cfg),
    }
    # void C: the alignment is not used; CUTLASS's examples pass D's.
    t["AlignmentC"] = str(io_alignment(cfg.c) if cfg.c != "void" else io_alignment(cfg.d))
    if cfg.epilogue.tile:
        t["EpilogueTile"] = shape(*cfg.epilogue.tile)
    else:
        t["EpilogueTile"] = "cutlass::epilogue::collective::EpilogueTileAuto"
    t["Fusion"] = (f"cutlass::epilogue::fusion::LinearCombination<"
                   f"{t['ElementD']}, {t['ElementCompute']}, {t['ElementC']}, "
                   f"{t['ElementCompute']}>")
    return t


def reject_epilogue_stage_overrides(cfg: Config) -> None:
    if cfg.epilogue.stages_c is not None or cfg.epilogue.stages_d is not None:
        raise GenError("epilogue stages_c / stages_d overrides cannot be passed through the "
                       "epilogue CollectiveBuilder (it derives StagesC/StagesD itself)")


def blockscale_fusion(cfg: Config, types: Dict[str, str], sf_row_major: bool) -> str:
    e = cfg.epilogue
    return (f"cutlass::epilogue::fusion::LinCombBlockScaleFactor<{e.sf_vec}, "
            f"{types['ElementD']}, {types['ElementCompute']}, {cxx_elem(e.sf)}, "
            f"{row_col(sf_row_major)}, {types['ElementC']}>")


# ---------------------------------------------------------------------------------------
# Family generators
# ---------------------------------------------------------------------------------------

def sm120_instruction(cfg: Config) -> str:
    """select_instr (builders/sm1xx_common.inl): 'mxf4nvf4' for fp4 x fp4 under an automatic
    or NV schedule, 'mxf8f6f4' when forced or when any operand is 6/8-bit."""
    if cfg.mma == "f8f6f4":
        return "mxf8f6f4"
    if cfg.a.bits == 4 and cfg.b.bits == 4:
        return "mxf4nvf4"
    return "mxf8f6f4"


def gen_sm120(cfg: Config, row_id: str, origin: str) -> Probe:
    """sm120_blockscaled and sm120_dense (builders sm120_blockscaled_mma_builder.inl,
    sm120_mma_builder.inl, sm120_array_mma_builder.inl; epilogue sm120_builder.inl), with
    TensorRT-LLM's MoE launch (epilogue trtllm_default / finalize, swap_ab) as
    moe_gemm_tma_ws_launcher.inl builds it (docs/dev/sm120-moe-finalize.md §1.2)."""
    reject_epilogue_stage_overrides(cfg)
    block = cfg.family == "sm120_blockscaled"
    instr = sm120_instruction(cfg) if block else "f8f6f4"
    unpacked = (instr == "mxf8f6f4") if block else True
    t = common_3x_types(cfg, "Sm120", unpacked)
    notes: List[str] = []
    v = cfg.epilogue.variant
    trtllm = v in ("trtllm_default", "finalize")
    sched = cfg.schedule

    # ---- mainloop schedule --------------------------------------------------------------
    if trtllm:
        # The launcher passes KernelScheduleAuto (-> KernelPtrArrayTmaWarpSpecialized
        # CooperativeBlockScaledSm120<3> for pointer strides).
        t["MainloopSchedule"] = "cutlass::gemm::collective::KernelScheduleAuto"
    elif block and cfg.mma in ("nvf4", "f8f6f4"):
        if cfg.grouped:
            if cfg.mma == ("f8f6f4" if instr == "mxf8f6f4" else "nvf4") and \
                    sm120_instruction(dataclasses.replace(cfg, mma="auto")) == instr:
                t["MainloopSchedule"] = grouped_sm120_schedule(sched, dense=False)
                notes.append("grouped: no ptr-array schedule names the instruction; the "
                             "automatic choice is the requested one")
            else:
                raise GenError("mma override on a grouped SM120 kernel: CUTLASS 4.7 has no "
                               "ptr-array schedule that names the instruction")
        else:
            kind = {"mxf8f6f4": "Mxf8f6f4",
                    "mxf4nvf4": "Nvf4" if cfg.a.sf_vec == 16 else "Mxf4"}[instr]
            pp = "Pingpong" if sched == "pingpong" else ""
            t["MainloopSchedule"] = f"cutlass::gemm::KernelTmaWarpSpecialized{pp}{kind}Sm120"
    elif cfg.grouped:
        t["MainloopSchedule"] = grouped_sm120_schedule(sched, dense=not block)
    else:
        t["MainloopSchedule"] = {
            "auto": "cutlass::gemm::collective::KernelScheduleAuto",
            "cooperative": "cutlass::gemm::KernelTmaWarpSpecializedCooperative",
            "pingpong": "cutlass::gemm::KernelTmaWarpSpecializedPingpong",
        }.get(sched, f"cutlass::gemm::UnknownSchedule_{sched}")

    # ---- epilogue schedule, C/D, fusion ---------------------------------------------------
    extra = ""
    if trtllm:
        # ElementC = ElementD (the output type) on SM120; RowMajor* C/D, ColumnMajor* with
        # swap_ab (TransposeLayoutTag); 64x32 auto epilogue tile; TmaWarpSpecialized.
        out = cfg.d
        t["ElementC"] = cxx_elem(out)
        t["AlignmentC"] = t["AlignmentD"] = str(io_alignment(out))
        lay = row_col(not cfg.swap_ab) + "*"
        t["LayoutC"] = t["LayoutD"] = lay
        t["EpilogueSchedule"] = "cutlass::epilogue::TmaWarpSpecialized"
        t["ProblemShape"] = "cutlass::gemm::GroupProblemShape<cute::Shape<int64_t,int64_t,int64_t>>"
        t["Fusion"] = (f"cutlass::epilogue::fusion::LinearCombination<{cxx_elem(out)}, "
                       f"{t['ElementCompute']}, {cxx_elem(out)}, {t['ElementCompute']}>")
        if not cfg.grouped:
            raise GenError(f"epilogue {v!r} is TensorRT-LLM's grouped MoE epilogue: needs "
                           "grouped: true")
        if v == "finalize":
            t["ElementD"] = "void"
            t["Fusion"] = (f"tilefit_probe::FinalizeLikeScatter<{row_col(not cfg.swap_ab)}, "
                           f"{cxx_elem(out)}, {t['ElementCompute']}, {cxx_elem(out)}, float, "
                           f"{'true' if cfg.swap_ab else 'false'}>")
            extra = FINALIZE_FUSION
            notes.append("finalize: TensorRT-LLM's ScaledAcc*Scatter fusion is replaced by the "
                         "equivalent tilefit_probe::FinalizeLikeScatter (same SharedStorage)")
    else:
        if cfg.swap_ab:
            raise GenError("swap_ab is modelled for the TensorRT-LLM MoE epilogues only")
        t["EpilogueSchedule"] = epilogue_schedule_sm90_style(cfg, sched)
        if v == "blockscale_out":
            t["Fusion"] = blockscale_fusion(cfg, t, sf_row_major=cfg.cd_row_major)
    source = render_3x(cfg, t, row_id, origin, extra)
    return Probe(cfg.family, ARCH_FLAGS[cfg.sm], t, source, notes=notes)


def grouped_sm120_schedule(sched: str, dense: bool) -> str:
    if dense:
        # The SM120 dense ptr-array builder takes its own tags (SchedulerPipelineStageCount 2).
        pp = "Pingpong" if sched == "pingpong" else "Cooperative"
        return f"cutlass::gemm::KernelPtrArrayTmaWarpSpecialized{pp}Sm120<2>"
    return {
        "auto": "cutlass::gemm::collective::KernelScheduleAuto",
        "cooperative": "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative",
        "pingpong": "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong",
    }.get(sched, f"cutlass::gemm::UnknownSchedule_{sched}")


def epilogue_schedule_sm90_style(cfg: Config, sched: str) -> str:
    """SM90/SM120 epilogue schedule tags. `auto` (and blockscale_out / a bare tile) ->
    EpilogueScheduleAuto; `tma` -> the TMA schedule matching the kernel; `nosmem` -> the
    no-smem schedule (SM120's builder rejects it: the probe then fails to compile)."""
    v = cfg.epilogue.variant
    pingpong = sched == "pingpong" or (sched == "auto" and cfg.sm == 90 and cfg.m == 64)
    if v in ("auto", "blockscale_out"):
        return "cutlass::epilogue::collective::EpilogueScheduleAuto"
    if v == "tma":
        if cfg.grouped:
            return ("cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong" if pingpong
                    else "cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative")
        return ("cutlass::epilogue::TmaWarpSpecialized" if pingpong
                else "cutlass::epilogue::TmaWarpSpecializedCooperative")
    if v == "nosmem":
        return ("cutlass::epilogue::PtrArrayNoSmemWarpSpecialized" if cfg.grouped
                else "cutlass::epilogue::NoSmemWarpSpecialized")
    raise GenError(f"epilogue {v!r} is not a {cfg.family} epilogue")


def gen_sm90(cfg: Config, row_id: str, origin: str) -> Probe:
    """sm90_tma_ws (builders sm90_gmma_builder.inl, sm90_builder.inl). tf32/f32 operands are
    passed as `float` (the builder runs them as tf32)."""
    reject_epilogue_stage_overrides(cfg)
    if cfg.a.block_scaled or cfg.b.block_scaled:
        raise GenError("block-scaled operands are not an SM90 GMMA type")
    sm90_cfg = dataclasses.replace(
        cfg, a=Operand("f32" if cfg.a.elem == "tf32" else cfg.a.elem),
        b=Operand("f32" if cfg.b.elem == "tf32" else cfg.b.elem))
    t = common_3x_types(sm90_cfg, "Sm90", unpacked=False)
    sched = cfg.schedule
    v = cfg.epilogue.variant
    if sched == "auto" and v in ("tma", "nosmem"):
        # An explicit epilogue needs the matching kernel: resolve Auto as the model does
        # (KernelScheduleAuto with TMA-compatible alignment: pingpong for M = 64).
        sched = "pingpong" if cfg.m == 64 else "cooperative"
    pa = "PtrArray" if cfg.grouped else ""
    t["MainloopSchedule"] = {
        "auto": "cutlass::gemm::collective::KernelScheduleAuto",
        "cooperative": f"cutlass::gemm::Kernel{pa}TmaWarpSpecializedCooperative",
        "pingpong": f"cutlass::gemm::Kernel{pa}TmaWarpSpecializedPingpong",
    }.get(sched, f"cutlass::gemm::UnknownSchedule_{sched}")
    t["EpilogueSchedule"] = epilogue_schedule_sm90_style(cfg, sched)
    if cfg.swap_ab:
        raise GenError("swap_ab is modelled for the TensorRT-LLM SM120 MoE kernels only")
    return Probe(cfg.family, ARCH_FLAGS[cfg.sm], t, render_3x(cfg, t, row_id, origin))


def sm100_instruction(cfg: Config) -> str:
    """select_instr for SM100 block-scaled (sm1xx_common.inl:731-800)."""
    if cfg.mma == "f8f6f4":
        return "Mxf8f6f4"
    if cfg.mma == "nvf4" or (cfg.a.bits == 4 and cfg.b.bits == 4 and cfg.a_k_major
                             and cfg.b_k_major):
        return "Nvf4" if cfg.a.sf_vec == 16 else "Mxf4"
    return "Mxf8f6f4"


def sm100_two_sm(cfg: Config, block: bool) -> bool:
    """1SM/2SM as the model resolves `schedule`: explicit, or the builder's Auto rule."""
    if cfg.schedule == "2sm":
        return True
    if cfg.schedule == "1sm":
        return False
    even = cfg.cluster[0] % 2 == 0
    return even and (cfg.m == 256 if block else cfg.m % 128 == 0)


def gen_sm100(cfg: Config, row_id: str, origin: str) -> Probe:
    """sm100_umma (builders sm100_umma_builder.inl, sm100_blockscaled_umma_builder.inl,
    sm100_builder.inl)."""
    reject_epilogue_stage_overrides(cfg)
    block = cfg.a.block_scaled or cfg.b.block_scaled
    instr = sm100_instruction(cfg) if block else ""
    unpacked = instr == "Mxf8f6f4" if block else True
    t = common_3x_types(cfg, "Sm100", unpacked)
    v = cfg.epilogue.variant
    if cfg.swap_ab:
        raise GenError("swap_ab is modelled for the TensorRT-LLM SM120 MoE kernels only")
    two = sm100_two_sm(cfg, block)
    sm = "2Sm" if two else "1Sm"
    pa = "PtrArray" if cfg.grouped else ""
    explicit_epilogue = v in ("tma", "nosmem", "blockscale_out")
    if cfg.schedule == "auto" and not cfg.grouped and not explicit_epilogue:
        t["MainloopSchedule"] = "cutlass::gemm::collective::KernelScheduleAuto"
    else:
        # KernelScheduleAuto builds the non-ptr-array mainloop, so grouped kernels (and an
        # explicit epilogue, which must match 1SM/2SM) get the explicit tag.
        t["MainloopSchedule"] = f"cutlass::gemm::Kernel{pa}TmaWarpSpecialized{sm}{instr}Sm100"
    if v == "auto":
        t["EpilogueSchedule"] = "cutlass::epilogue::collective::EpilogueScheduleAuto"
    elif v in ("tma", "blockscale_out"):
        t["EpilogueSchedule"] = f"cutlass::epilogue::{pa}TmaWarpSpecialized{sm}"
    elif v == "nosmem":
        t["EpilogueSchedule"] = f"cutlass::epilogue::{pa}NoSmemWarpSpecialized{sm}"
    else:
        raise GenError(f"epilogue {v!r} is not an SM100 UMMA epilogue")
    if v == "blockscale_out":
        # The SM100 model (and its measured rows) use the row-major scale-factor store.
        t["Fusion"] = blockscale_fusion(cfg, t, sf_row_major=True)
    return Probe(cfg.family, ARCH_FLAGS[cfg.sm], t, render_3x(cfg, t, row_id, origin))


def sm80_instruction(a: str, b: str) -> Tuple[Tuple[int, int, int], str]:
    half = ("f16", "bf16")
    f32 = ("f32", "tf32")
    i8 = ("s8", "u8")
    if a in half and a == b:
        return (16, 8, 16), "cutlass::arch::OpMultiplyAdd"
    if a in f32 and a == b:
        return (16, 8, 8), "cutlass::arch::OpMultiplyAdd"
    if a in i8 and b in i8:
        return (16, 8, 32), "cutlass::arch::OpMultiplyAddSaturate"
    if (a in half and b in i8) or (a in i8 and b in half):
        return (16, 8, 16), "cutlass::arch::OpMultiplyAddMixedInputUpcast"
    raise GenError(f"operands {a} x {b}: not an Sm80 tensor-op combination")


def gen_sm80(cfg: Config, row_id: str, origin: str) -> Probe:
    """sm80_multistage: CUTLASS 2.x cutlass::gemm::device::Gemm (OpClassTensorOp, Sm80)."""
    if cfg.a.block_scaled or cfg.b.block_scaled:
        raise GenError("CUTLASS 2.x device::Gemm has no block-scaled operands")
    if cfg.c not in ("void", cfg.d):
        raise GenError("device::Gemm has one ElementC for the source C and the output D")
    if cfg.grouped:
        raise GenError("grouped: the 2.x GemmGrouped is not probed")
    warp = cfg.warp or (64, 64, 64)          # DefaultGemmConfiguration<TensorOp, Sm80>
    stages = cfg.stages if cfg.stages is not None else 3
    instr, op = sm80_instruction(cfg.a.elem, cfg.b.elem)
    d = cfg.d
    acc = cxx_elem(cfg.acc)
    if d in ("s8", "u8"):
        epi = f"cutlass::epilogue::thread::LinearCombinationClamp<{cxx_elem(d)}, {128 // BITS[d]}, int32_t, float>"
    else:
        compute = "float" if cfg.acc == "s32" else acc
        epi = (f"cutlass::epilogue::thread::LinearCombination<{cxx_elem(d)}, {128 // BITS[d]}, "
               f"{acc}, {compute}>")
    t = {
        "ElementA": cxx_elem(cfg.a.elem),
        "LayoutA": row_col(cfg.a_k_major),
        "ElementB": cxx_elem(cfg.b.elem),
        "LayoutB": row_col(not cfg.b_k_major),
        "ElementC": cxx_elem(d),
        "LayoutC": row_col(cfg.cd_row_major),
        "ElementAccumulator": acc,
        "ThreadblockShape": f"cutlass::gemm::GemmShape<{cfg.m}, {cfg.n}, {cfg.k}>",
        "WarpShape": f"cutlass::gemm::GemmShape<{warp[0]}, {warp[1]}, {warp[2]}>",
        "InstructionShape": f"cutlass::gemm::GemmShape<{instr[0]}, {instr[1]}, {instr[2]}>",
        "EpilogueOutputOp": epi,
        "Operator": op,
        "Stages": str(stages),
        "AlignmentA": str(128 // cfg.a.bits),
        "AlignmentB": str(128 // cfg.b.bits),
    }
    order = ["ElementA", "LayoutA", "ElementB", "LayoutB", "ElementC", "LayoutC",
             "ElementAccumulator", "ThreadblockShape", "WarpShape", "InstructionShape",
             "EpilogueOutputOp", "Operator"]
    src = "\n".join([
        "// tilefit CUTLASS probe, generated by tools/cutlass/probe.py: do not edit.",
        f"// row:    {row_id}",
        f"// from:   {origin}",
        f"// config: {c_json(cfg.raw)}",
        f"// family: {cfg.family}",
        "#include <cstddef>",
        "#include <cstdio>",
        "",
        '#include "cutlass/cutlass.h"',
        '#include "cutlass/numeric_types.h"',
        '#include "cutlass/gemm/device/gemm.h"',
        '#include "cutlass/epilogue/thread/linear_combination.h"',
        '#include "cutlass/epilogue/thread/linear_combination_clamp.h"',
        "",
        aliases(t, order),
        f"constexpr int Stages = {t['Stages']};",
        f"constexpr int AlignmentA = {t['AlignmentA']};",
        f"constexpr int AlignmentB = {t['AlignmentB']};",
        "",
        "using Gemm = cutlass::gemm::device::Gemm<",
        "    ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator,",
        "    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,",
        "    ThreadblockShape, WarpShape, InstructionShape, EpilogueOutputOp,",
        "    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, Stages,",
        "    AlignmentA, AlignmentB, /*SplitKSerial=*/false, Operator>;",
        "using GemmKernel = typename Gemm::GemmKernel;",
        "",
        "#ifdef TILEFIT_DEVICE_KERNEL",
        "void* tilefit_device_kernel() {",
        "  return reinterpret_cast<void*>(&cutlass::Kernel<GemmKernel>);",
        "}",
        "#endif",
        "",
        "int main() {",
        '  std::printf("{\\"stages\\": %d, \\"smem_bytes\\": %zu, \\"epilogue_smem\\": %zu, "',
        '              "\\"mainloop_smem\\": %zu}\\n", Stages,',
        "              sizeof(typename GemmKernel::SharedStorage),",
        "              sizeof(typename GemmKernel::Epilogue::SharedStorage),",
        "              sizeof(typename GemmKernel::Mma::SharedStorage));",
        "  return 0;",
        "}",
        "",
    ])
    return Probe(cfg.family, ARCH_FLAGS[cfg.sm], t, src, fixed_stages=stages)


#: family -> generator(config, row id, origin) -> Probe. Add a family here (for example the
#: vLLM / SGLang FP8 engine kernels of issue 11) with one function.
GENERATORS: Dict[str, Callable[[Config, str, str], Probe]] = {
    "sm120_blockscaled": gen_sm120,
    "sm120_dense": gen_sm120,
    "sm90_tma_ws": gen_sm90,
    "sm100_umma": gen_sm100,
    "sm80_multistage": gen_sm80,
}


def generate(row: dict, origin: str = "") -> Probe:
    if "launcher" in row["config"]:
        raise GenError("an engine-built kernel (launcher): measure it with tools/cutlass/fp8_engines/")
    cfg = normalize(row["config"])
    gen = GENERATORS.get(cfg.family)
    if gen is None:
        raise GenError(f"no probe generator for family {cfg.family!r}")
    if cfg.sm not in ARCH_FLAGS:
        raise GenError(f"no nvcc target for sm_{cfg.sm}")
    return gen(cfg, row.get("id", cfg.name), origin)


# ---------------------------------------------------------------------------------------
# Rows, selection, files
# ---------------------------------------------------------------------------------------

@dataclasses.dataclass
class Item:
    file: str        # JSONL path as given
    stem: str        # file name without .jsonl
    index: int       # 0-based line index
    row: dict
    key: str         # "<stem>/<safe id>"


def safe(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", s)[:150]


def is_cutlass_row(row: dict) -> bool:
    """Rows this script can probe: CUTLASS kernel configs. Triton rows (kernel triton_*) are
    measured by tools/triton/, engine launcher rows (config.launcher) by fp8_engines/, rows
    without a config (tuned-table entries of the engines' Triton kernels) by tools/engines/."""
    if "config" not in row:
        return False
    c = row["config"]
    return "launcher" not in c and not str(c.get("kernel", "")).startswith("triton_")


def load_rows(paths: List[str], skipped: Optional[List[str]] = None) -> List[Item]:
    """The CUTLASS rows of the JSONL files; the keys of other rows go to `skipped`."""
    items = []
    for p in paths:
        stem = os.path.basename(p)
        stem = stem[:-6] if stem.endswith(".jsonl") else stem
        seen = set()
        with open(p, encoding="utf-8") as f:
            for i, line in enumerate(f):
                if not line.strip():
                    continue
                row = json.loads(line)
                rid = safe(str(row.get("id", f"row{i}")))
                base, n = rid, 2
                while rid in seen:
                    rid = f"{base}_{n}"
                    n += 1
                seen.add(rid)
                if not is_cutlass_row(row):
                    if skipped is not None:
                        skipped.append(f"{safe(stem)}/{rid}")
                    continue
                items.append(Item(p, stem, i, row, f"{safe(stem)}/{rid}"))
    return items


def features(item: Item) -> set:
    """The (family, feature, value) triples a stratified sample must cover: every config
    field value (tile, name and arch aside), the expected status, and the source file."""
    c = item.row["config"]
    fam = str(c.get("kernel"))
    out = {(fam, "file", item.stem), (fam, "status", item.row.get("expect", {}).get("status"))}
    for k, v in c.items():
        if k in ("name", "tile", "arch", "kernel", "warp"):
            continue
        if k == "stages":
            v = "auto" if str(v) == "auto" else "fixed"
        out.add((fam, k, json.dumps(v, sort_keys=True)))
    return out


def select(items: List[Item], only: Optional[str], sample: Optional[int]) -> List[Item]:
    """All rows, or a stratified sample: greedy set cover of features() (each step takes the
    row covering most not yet covered features, ties broken by family round-robin and file
    order), then round-robin over families until `sample` rows."""
    if only:
        rx = re.compile(only)
        items = [it for it in items if rx.search(it.key)]
    if sample is None or sample >= len(items):
        return items
    feats = {id(it): features(it) for it in items}
    covered: set = set()
    picked: List[Item] = []
    left = list(items)
    fam_count: Dict[str, int] = {}
    fam = lambda it: str(it.row["config"].get("kernel"))  # noqa: E731
    while left and len(picked) < sample:
        best = max(left, key=lambda it: (len(feats[id(it)] - covered),
                                         -fam_count.get(fam(it), 0),
                                         -left.index(it)))
        if not feats[id(best)] - covered:
            break
        covered |= feats[id(best)]
        picked.append(best)
        left.remove(best)
        fam_count[fam(best)] = fam_count.get(fam(best), 0) + 1
    while left and len(picked) < sample:
        best = min(left, key=lambda it: (fam_count.get(fam(it), 0), left.index(it)))
        picked.append(best)
        left.remove(best)
        fam_count[fam(best)] = fam_count.get(fam(best), 0) + 1
    picked.sort(key=lambda it: (it.file, it.index))
    return picked


def write_probes(items: List[Item], out: str) -> Dict[str, dict]:
    """Writes <out>/<stem>/<id>.cu and <out>/manifest.json; returns the manifest."""
    manifest: Dict[str, dict] = {}
    for it in items:
        entry = {"file": it.file, "index": it.index, "id": it.row.get("id")}
        try:
            p = generate(it.row, f"{it.file}:{it.index + 1}")
        except (GenError, KeyError, ValueError, TypeError) as e:
            entry["gen_error"] = str(e)
            manifest[it.key] = entry
            continue
        path = os.path.join(out, it.key + ".cu")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(p.source)
        entry.update({"cu": it.key + ".cu", "arch_flag": p.arch_flag, "family": p.family,
                      "fixed_stages": p.fixed_stages, "notes": p.notes,
                      "stages_auto": normalize(it.row["config"]).stages is None,
                      "sm": normalize(it.row["config"]).sm})
        manifest[it.key] = entry
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    write_build_script(out, manifest)
    return manifest


BUILD_SH = r"""#!/usr/bin/env bash
# Compiles and runs every probe of this directory without Python (for a machine with nvcc
# only); `probe.py report --results DIR` then reads DIR/<stem>/<id>.result.json.
#   usage: build.sh CUTLASS_DIR [JOBS] [NVCC]
set -u
CUTLASS="$1"; JOBS="${2:-4}"; NVCC="${3:-nvcc}"
cd "$(dirname "$0")"
one() {
  cu="$1"; arch="$2"; base="${cu%.cu}"
  flags=(-std=c++17 "-arch=$arch" -I "$CUTLASS/include" -I "$CUTLASS/tools/util/include")
  start=$(date +%s)
  "$NVCC" "${flags[@]}" -o "$base.bin" "$cu" >"$base.full.log" 2>&1; rc=$?
  out=""; srun=""
  if [ $rc -eq 0 ]; then out=$("./$base.bin" 2>&1); else
    "$NVCC" "${flags[@]}" -DTILEFIT_STAGES_ONLY -o "$base.s.bin" "$cu" >"$base.stages.log" 2>&1 \
      && srun=$("./$base.s.bin" 2>&1); fi
  end=$(date +%s)
  python_free_json "$rc" "$out" "$srun" "$((end-start))" "$base"
}
python_free_json() {
  # rc, stdout of the probe, stdout of the stages-only probe, seconds, base
  esc() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n' ' '; }
  printf '{"compile_rc": %s, "run": "%s", "stages_run": "%s", "seconds": %s, "log": "%s"}\n' \
    "$1" "$(esc "$2")" "$(esc "$3")" "$4" "$(esc "$(grep -m1 -E 'error' "$5.full.log" 2>/dev/null)")" \
    >"$5.result.json"
  rm -f "$5.bin" "$5.s.bin"
}
export -f one python_free_json
export CUTLASS NVCC
"""


def write_build_script(out: str, manifest: Dict[str, dict]) -> None:
    lines = [BUILD_SH, "cat <<'EOF' | xargs -P \"$JOBS\" -n 2 bash -c 'one \"$0\" \"$1\"'"]
    for key, e in sorted(manifest.items()):
        if "cu" in e:
            lines.append(f"{e['cu']} {e['arch_flag']}")
    lines.append("EOF")
    path = os.path.join(out, "build.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(path, 0o755)


# ---------------------------------------------------------------------------------------
# Compiling and running
# ---------------------------------------------------------------------------------------

ERROR_RX = re.compile(r"error\b.*", re.IGNORECASE)


def first_error(log: str, cutlass: str) -> Tuple[str, str]:
    """(message, where) of the first compiler error: `error: ...` and the file:line it names,
    the file relative to CUTLASS's include/ when it lies there."""
    for line in log.splitlines():
        if not re.search(r"\(\d+\): (?:catastrophic )?error\b|^\s*(?:nvcc |ptxas )?(?:fatal )?error\b",
                         line):
            continue
        m = re.search(r"((?:catastrophic |fatal )?error\b:?.*)$", line)
        if not m:
            continue
        where = ""
        loc = re.match(r"^(.*?)\((\d+)\): ", line)
        if loc:
            path = loc.group(1)
            inc = os.path.join(os.path.abspath(cutlass), "include") + os.sep
            ap = os.path.abspath(path)
            if ap.startswith(inc):
                path = ap[len(inc):]
            else:
                path = os.path.basename(path)
            where = f"{path}:{loc.group(2)}"
        msg = m.group(1).strip()
        if not msg.startswith("error"):
            msg = "error: " + msg
        return msg, where
    tail = [l for l in log.splitlines() if l.strip()]
    return (tail[-1].strip() if tail else "compile failed"), ""


def distinct_errors(log: str, cutlass: str, limit: int = 5) -> List[str]:
    """The first `limit` different compiler errors, `message (file:line)`."""
    out: List[str] = []
    for line in log.splitlines():
        # nvcc's diagnostics: "file(line): error: ..." or "error: ..." (not echoed source)
        if not re.search(r"\(\d+\): error\b|^\s*(?:nvcc )?error\b", line):
            continue
        msg, where = first_error(line, cutlass)
        text = msg + (f" ({where})" if where else "")
        if text not in out:
            out.append(text)
        if len(out) >= limit:
            break
    return out


def run_cmd(cmd: List[str], timeout: int, cwd: Optional[str] = None) -> Tuple[int, str]:
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + f"\nerror: timed out after {timeout} s"


def compile_one(args, work: str, key: str, entry: dict) -> dict:
    """Compiles and runs one probe; writes and returns <work>/<key>.result.json."""
    cu = os.path.join(work, entry["cu"])
    base = cu[:-3]
    flags = [args.nvcc, "-std=c++17", f"-arch={entry['arch_flag']}",
             "-I", os.path.join(args.cutlass, "include"),
             "-I", os.path.join(args.cutlass, "tools", "util", "include")]
    flags += shlex.split(args.nvcc_flags or "")
    res: dict = {"key": key, "host": platform.node()}
    t0 = time.time()
    rc, log = run_cmd(flags + ["-o", base + ".bin", cu], args.timeout)
    res["compile_rc"] = rc
    if rc == 0:
        rrc, out = run_cmd([base + ".bin"], 60)
        res["run"] = out.strip()
        res["run_rc"] = rrc
    else:
        res["error"], res["error_at"] = first_error(log, args.cutlass)
        res["errors"] = distinct_errors(log, args.cutlass)
        with open(base + ".log", "w", encoding="utf-8") as f:
            f.write(truncate(log))
        if entry.get("fixed_stages") is None:
            src, slog = run_cmd(flags + ["-DTILEFIT_STAGES_ONLY", "-o", base + ".s.bin", cu],
                                args.timeout)
            if src == 0:
                rrc, out = run_cmd([base + ".s.bin"], 60)
                res["stages_run"] = out.strip()
            else:
                res["stages_error"] = first_error(slog, args.cutlass)[0]
    if args.kernel and rc == 0:
        krc, klog = run_cmd(flags + ["-DTILEFIT_DEVICE_KERNEL", "-c", "-o",
                                     base + ".k.o", cu], args.kernel_timeout)
        res["kernel_rc"] = krc
        if krc != 0:
            res["kernel_error"], res["kernel_error_at"] = first_error(klog, args.cutlass)
            res["kernel_errors"] = distinct_errors(klog, args.cutlass)
            with open(base + ".kernel.log", "w", encoding="utf-8") as f:
                f.write(truncate(klog))
    res["seconds"] = round(time.time() - t0, 1)
    for ext in (".bin", ".s.bin", ".k.o"):
        if os.path.exists(base + ext):
            os.remove(base + ext)
    with open(base + ".result.json", "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
    return res


def truncate(log: str, lines: int = 60) -> str:
    """nvcc's template backtraces run to megabytes: keep the head, and every error line with
    the three lines after it (at most 40 errors)."""
    parts = log.split("\n")
    if len(parts) <= lines:
        return log
    keep = parts[:lines]
    errors = [i for i, l in enumerate(parts) if re.search(r"\berror\b", l) and i >= lines]
    for i in errors[:40]:
        keep.append(f"... [line {i + 1}]")
        keep.extend(parts[i:i + 4])
    keep.append(f"... ({len(parts)} lines in all, {len(errors)} more error lines after line {lines})")
    return "\n".join(keep) + "\n"


def parse_json_line(text: str) -> Optional[dict]:
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                pass
    return None


def measured_row(item: Item, entry: dict, res: Optional[dict], nvcc_version: str,
                 cutlass_commit: str) -> dict:
    """The measured row in the format of tests/data (id, config, expect, cutlass)."""
    cfg_raw = item.row["config"]
    sm = entry.get("sm") or parse_arch(cfg_raw.get("arch", 0))
    limit = LIMITS.get(sm)
    expect: dict = {}
    info: dict = {"version": "4.7.0", "commit": cutlass_commit, "nvcc": nvcc_version,
                  "arch_flag": entry.get("arch_flag"), "probe": entry.get("cu"),
                  "measured_by": "tools/cutlass/probe.py"}
    if entry.get("notes"):
        info["notes"] = entry["notes"]
    if "gen_error" in entry:
        expect["status"] = "not_generated"
        info["error"] = entry["gen_error"]
    elif res is None:
        expect["status"] = "not_measured"
    elif res.get("compile_rc") == 0:
        sizes = parse_json_line(res.get("run", ""))
        if not sizes:
            expect["status"] = "not_measured"
            info["error"] = "probe printed no result: " + res.get("run", "")[:200]
        else:
            expect.update({k: sizes[k] for k in ("stages", "smem_bytes", "epilogue_smem",
                                                 "mainloop_smem")})
            if res.get("kernel_rc") not in (None, 0):
                expect["status"] = "invalid"
                info["error"] = res.get("kernel_error")
                info["error_at"] = res.get("kernel_error_at")
                if res.get("kernel_errors"):
                    info["errors"] = res["kernel_errors"]
                info["verdict"] = "invalid_device_kernel"
            else:
                expect["status"] = "fits" if sizes["smem_bytes"] <= limit else "does_not_fit"
                info["verdict"] = "ok" if expect["status"] == "fits" else "exceeds_capacity"
                if res.get("kernel_rc") == 0:
                    info["device_kernel"] = "instantiated"
    else:
        stages = entry.get("fixed_stages")
        srun = parse_json_line(res.get("stages_run", ""))
        if stages is None and srun:
            stages = srun.get("stages")
        info["error"] = res.get("error")
        info["error_at"] = res.get("error_at")
        if res.get("errors"):
            info["errors"] = res["errors"]
        if stages is not None:
            expect["stages"] = stages
        if (entry.get("stages_auto") and entry.get("fixed_stages") is None and
                stages is not None and stages < 2):
            expect["status"] = "does_not_fit"
            info["verdict"] = "smem_compile_fail"
        else:
            expect["status"] = "invalid"
            info["verdict"] = "compile_error"
    expect["limit_bytes"] = limit
    order = ["status", "stages", "smem_bytes", "epilogue_smem", "mainloop_smem", "limit_bytes"]
    expect = {k: expect[k] for k in order if k in expect}
    return {"id": item.row.get("id"), "config": cfg_raw, "expect": expect, "cutlass": info}


def compare(item: Item, measured: dict) -> List[Tuple[str, object, object]]:
    """[(field, expected, measured)] for every compared field present in the row's expect
    that the measurement does not reproduce."""
    exp = item.row.get("expect", {})
    got = measured["expect"]
    diffs = []
    for f in COMPARED_FIELDS:
        if f in exp and exp[f] != got.get(f):
            diffs.append((f, exp[f], got.get(f, "—")))
    return diffs


def nvcc_version(nvcc: str) -> str:
    try:
        out = subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, text=True).stdout
        m = re.search(r"release (\d+\.\d+)", out)
        return m.group(1) if m else "?"
    except OSError:
        return "?"


def cutlass_commit(path: str) -> str:
    for candidate in (os.path.join(path, "COMMIT"),):
        if os.path.exists(candidate):
            return open(candidate, encoding="utf-8").read().strip()
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        if out.returncode == 0:
            return out.stdout.strip()
    except OSError:
        pass
    return "?"


def cutlass_version(path: str) -> str:
    try:
        text = open(os.path.join(path, "include", "cutlass", "version.h"),
                    encoding="utf-8").read()
    except OSError:
        return "?"
    parts = [re.search(rf"#define CUTLASS_{k} (\d+)", text) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(p.group(1) for p in parts) if all(parts) else "?"


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------

def report(items: List[Item], manifest: Dict[str, dict], results: Dict[str, dict],
           out_dir: Optional[str], nvcc_ver: str, commit: str, stream=sys.stdout) -> int:
    """Writes <out_dir>/<stem>.measured.jsonl and prints, per file and field, how many rows
    agree with `expect`, then every disagreement and every row not measured. Returns 1 when
    anything disagrees or was not measured."""
    per_file: Dict[str, Dict[str, List[int]]] = {}
    disagreements: List[str] = []
    missing: List[str] = []
    measured_by_file: Dict[str, List[dict]] = {}
    agree = 0
    for it in items:
        entry = manifest.get(it.key, {})
        m = measured_row(it, entry, results.get(it.key), nvcc_ver, commit)
        measured_by_file.setdefault(it.stem, []).append(m)
        if m["expect"]["status"] in ("not_measured", "not_generated"):
            err = m["cutlass"].get("error")
            missing.append(f"{it.key}: {m['expect']['status']}" + (f" ({err})" if err else ""))
            continue
        stats = per_file.setdefault(it.stem, {f: [0, 0] for f in ("rows",) + COMPARED_FIELDS})
        stats["rows"][1] += 1
        diffs = compare(it, m)
        exp = it.row.get("expect", {})
        for f in COMPARED_FIELDS:
            if f in exp:
                stats[f][1] += 1
                if not any(d[0] == f for d in diffs):
                    stats[f][0] += 1
        if not diffs:
            agree += 1
            stats["rows"][0] += 1
            continue
        text = ", ".join(f"{f}: expected {e}, measured {g}" for f, e, g in diffs)
        err = m["cutlass"].get("error")
        if err:
            at = m["cutlass"].get("error_at")
            text += f" [{err}" + (f" at {at}" if at else "") + "]"
        disagreements.append(f"{it.key}: {text}")
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        for stem, rows in measured_by_file.items():
            with open(os.path.join(out_dir, f"{stem}.measured.jsonl"), "w", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
    w = stream.write
    measured = len(items) - len(missing)
    w(f"\nCUTLASS {commit[:12]} · nvcc {nvcc_ver} · {len(items)} rows selected, "
      f"{measured} measured\n")
    w(f"{'file':<24}{'agree/rows':>12}" + "".join(f"{f:>15}" for f in COMPARED_FIELDS) + "\n")
    for stem, st in sorted(per_file.items()):
        rows_cell = f"{st['rows'][0]}/{st['rows'][1]}"
        w(f"{stem:<24}{rows_cell:>12}" +
          "".join(f"{f'{st[f][0]}/{st[f][1]}':>15}" for f in COMPARED_FIELDS) + "\n")
    w(f"measured rows agreeing on every field their expect has: {agree}/{measured}\n")
    if disagreements:
        w(f"\n{len(disagreements)} disagreement(s):\n")
        for d in disagreements:
            w(f"  {d}\n")
    else:
        w("no disagreements\n")
    if missing:
        w(f"\n{len(missing)} row(s) not measured:\n")
        for d in missing:
            w(f"  {d}\n")
    return 1 if disagreements or missing else 0


def load_results(work: str, manifest: Dict[str, dict]) -> Dict[str, dict]:
    """Results of a work directory: <stem>/<id>.result.json files, and the results.jsonl
    bundle `measure` appends to (one file to copy back from another machine)."""
    results: Dict[str, dict] = {}
    bundle = os.path.join(work, "results.jsonl")
    if os.path.exists(bundle):
        with open(bundle, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if r.get("key") in manifest:
                        results[r["key"]] = r
    for key, e in manifest.items():
        if "cu" not in e:
            continue
        path = os.path.join(work, e["cu"][:-3] + ".result.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
            # build.sh writes a flatter record: normalise it.
            if "error" not in r and r.get("compile_rc") not in (0, None) and r.get("log"):
                msg = r["log"]
                r["error"], r["error_at"] = first_error(msg, "")
            results[key] = r
    return results


# ---------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------

def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, needs_cutlass=True):
        if needs_cutlass:
            p.add_argument("--cutlass", required=True, help="CUTLASS 4.7.0 checkout")
        p.add_argument("rows", nargs="+", help="JSONL files of rows (tests/data/*.jsonl)")
        p.add_argument("--only", help="regex on <file stem>/<row id>")
        p.add_argument("--sample", type=int, help="a stratified sample of N rows")
        p.add_argument("--keys", help="file of <stem>/<id> keys, one a line: measure only these, "
                                      "in this order")

    g = sub.add_parser("gen", help="write one probe program per row")
    common(g)
    g.add_argument("--out", required=True, help="directory for the .cu files")

    m = sub.add_parser("measure", help="generate, compile, run, compare")
    common(m)
    m.add_argument("-j", "--jobs", type=int, default=2)
    m.add_argument("--work", help="directory for probes and results (default: build/cutlass-probes)")
    m.add_argument("--out", help="directory for <stem>.measured.jsonl (default: the work dir)")
    m.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    m.add_argument("--nvcc-flags", default="", help="extra nvcc flags")
    m.add_argument("--timeout", type=int, default=900, help="seconds per nvcc call")
    m.add_argument("--kernel", action="store_true",
                   help="also instantiate the device kernel (slow): device-side static_asserts "
                        "then count, as for the cooperative kernel's M >= 128")
    m.add_argument("--kernel-timeout", type=int, default=1800)
    m.add_argument("--reuse", action="store_true",
                   help="skip probes that already have a result in the work directory")

    r = sub.add_parser("report", help="compare results already in a directory")
    common(r, needs_cutlass=False)
    r.add_argument("--results", required=True, help="work directory of a previous measure/gen")
    r.add_argument("--out", help="directory for <stem>.measured.jsonl")
    r.add_argument("--nvcc-version", default="?")
    r.add_argument("--commit", default="?")

    args = ap.parse_args(argv)
    skipped: List[str] = []
    items = select(load_rows(args.rows, skipped), args.only, args.sample)
    if skipped:
        print(f"skipped {len(skipped)} rows that are not CUTLASS kernel configs (Triton rows: "
              f"tools/triton/; engine launcher rows: tools/cutlass/fp8_engines/)", file=sys.stderr)
    if args.keys:
        with open(args.keys, encoding="utf-8") as f:
            order = [l.strip() for l in f if l.strip()]
        by_key = {it.key: it for it in items}
        items = [by_key[k] for k in order if k in by_key]

    if args.cmd == "gen":
        manifest = write_probes(items, args.out)
        bad = {k: e["gen_error"] for k, e in manifest.items() if "gen_error" in e}
        print(f"wrote {len(manifest) - len(bad)} probe(s) to {args.out}")
        for k, why in bad.items():
            print(f"  not generated: {k}: {why}")
        return 0 if not bad else 1

    if args.cmd == "report":
        with open(os.path.join(args.results, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        results = load_results(args.results, manifest)
        return report(items, manifest, results, args.out, args.nvcc_version, args.commit)

    # measure
    args.cutlass = os.path.abspath(args.cutlass)
    if not os.path.isdir(os.path.join(args.cutlass, "include", "cutlass")):
        print(f"error: {args.cutlass} has no include/cutlass", file=sys.stderr)
        return 2
    if shutil.which(args.nvcc) is None and not os.path.exists(args.nvcc):
        print(f"error: nvcc not found ({args.nvcc})", file=sys.stderr)
        return 2
    work = os.path.abspath(args.work or os.path.join("build", "cutlass-probes"))
    manifest = write_probes(items, work)
    ver = nvcc_version(args.nvcc)
    commit = cutlass_commit(args.cutlass)
    print(f"CUTLASS {cutlass_version(args.cutlass)} ({commit[:12]}), nvcc {ver}, "
          f"{len(items)} row(s), {args.jobs} job(s), work dir {work}", flush=True)
    results: Dict[str, dict] = load_results(work, manifest) if args.reuse else {}
    todo = [(k, e) for k, e in manifest.items() if "cu" in e and k not in results]
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(compile_one, args, work, k, e): k for k, e in todo}
        for fut in concurrent.futures.as_completed(futs):
            k = futs[fut]
            try:
                results[k] = fut.result()
            except Exception as e:  # noqa: BLE001 - report and continue
                results[k] = {"key": k, "compile_rc": -1, "error": f"probe.py: {e}"}
            done += 1
            r = results[k]
            with open(os.path.join(work, "results.jsonl"), "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
            state = ("ok" if r.get("compile_rc") == 0 else "compile error")
            if r.get("kernel_rc") not in (None, 0):
                state += ", device kernel rejected"
            print(f"[{done}/{len(todo)}] {k}: {state} ({r.get('seconds', '?')} s)", flush=True)
    return report(items, manifest, results, args.out or work, ver, commit)


if __name__ == "__main__":
    sys.exit(main())
