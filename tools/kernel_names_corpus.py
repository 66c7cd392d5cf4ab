#!/usr/bin/env python3
"""Writes kernel-name test rows from the CUTLASS library generator.

Every GEMM the CUTLASS 4.7 library generator (python/cutlass_library) instantiates is turned into
one JSON line {"name": ..., "expect": <config> | "reject"}: the config tilefit should read from
the kernel's name, computed here from the generator's operation objects (kernel schedule enums,
tile descriptions, tensor descriptions) and not from the name, or "reject" for what tilefit does
not model. tests/kernel_name_test.cpp reads tests/data/kernel-names.jsonl (a sample: a few rows
of every kind of kernel); set TILEFIT_KERNEL_NAMES to a full file to check all of them.

  tools/kernel_names_corpus.py --cutlass /path/to/cutlass-4.7.0 --out tests/data/kernel-names.jsonl --per-group 2
  tools/kernel_names_corpus.py --cutlass /path/to/cutlass-4.7.0 --out /tmp/all.jsonl --per-group 0

The architectures are sm80 (all kernels), sm90a, sm100a (default kernels) and sm120a (all).
"""
import argparse
import collections
import json
import os
import sys
import tempfile


def operations(cutlass, archs, kernels):
    """The generator's GEMM operations for `archs` (';'-separated), as plain dicts."""
    lib = os.path.join(cutlass, "python", "cutlass_library")
    sys.path.insert(0, lib)
    import generator as g  # noqa: E402
    from library import OperationKind  # noqa: E402
    build = tempfile.mkdtemp()
    argv = ["--build-dir", build, "--curr-build-dir", build, "--generator-target", "none",
            "--architectures", archs, "--cuda-version", "13.0", "--disable-cutlass-package-imports"]
    if kernels:
        argv += ["--kernels", kernels]
    args = g.define_parser().parse_args(argv)
    manifest = g.Manifest(args)
    g.GenerateSM80(manifest, args.cuda_version)
    g.GenerateSM90(manifest, args.cuda_version)
    if any(a.startswith(("100", "120")) for a in archs.split(";")):
        g.GenerateSM100(manifest, args.cuda_version)
        g.GenerateSM120(manifest, args.cuda_version)
    for cc_ops in manifest.operations.get(OperationKind.Gemm, {}).values():
        for name, ops in cc_ops.items():
            op = ops[0]
            td, mi = op.tile_description, op.tile_description.math_instruction
            d = dict(name=name, arch=op.arch, kind=op.gemm_kind.name, opclass=mi.opcode_class.name,
                     inst=list(mi.instruction_shape), mia=mi.element_a.name, macc=mi.element_accumulator.name,
                     mathop=mi.math_operation.name, a=op.A.element.name, b=op.B.element.name,
                     c=op.C.element.name, d=op.D.element.name, la=op.A.layout.name, lb=op.B.layout.name,
                     lc=op.C.layout.name, ala=op.A.alignment, alc=op.C.alignment, tile=list(td.threadblock_shape),
                     warps=list(td.warp_count) if td.warp_count else None, stages=td.stages,
                     cluster=list(td.cluster_shape), ks=op.kernel_schedule.name,
                     es=op.epilogue_schedule.name, ts=op.tile_scheduler.name)
            if hasattr(op, "ScaleFactorA"):
                d.update(sfa=op.ScaleFactorA.name, sfb=op.ScaleFactorB.name, sfd=op.ScaleFactorD.element.name,
                         sfd_layout=op.ScaleFactorD.layout.name if op.ScaleFactorD.layout else None,
                         sfvec=op.ScaleFactorVectorSize)
            yield d


LETTER = {"RowMajor": "t", "ColumnMajor": "n"}
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s8": 8, "u8": 8, "s32": 32, "e4m3": 8, "e5m2": 8}


def block_scaled(sf, e):
    if sf == "ue4m3" and e == "e2m1":
        return "nvfp4"
    if sf == "ue8m0":
        return {"e2m1": "mxfp4", "e3m2": "mxfp6", "e2m3": "mxfp6", "e4m3": "mxfp8", "e5m2": "mxfp8"}.get(e)
    return None


def expect(o):
    """The config tilefit should read from o's name (without "name" and "comment"), or "reject"."""
    arch, ks, es, kind = o["arch"], o["ks"], o["es"], o["kind"]
    if "Sparse" in kind or "Blockwise" in kind or "Moe" in kind or "Planar" in kind or kind == "Grouped":
        return "reject"
    if o["opclass"] not in ("TensorOp", "BlockScaledTensorOp") or o["ts"] == "StreamK":
        return "reject"
    for t in (o["a"], o["b"], o["c"], o["d"]):
        if t in ("f8", "f6", "f4", "f64", "s4", "u4", "s2", "u2", "b1") or t.startswith("c"):
            return "reject"
    if "complex" in o["mathop"] or o["mathop"] in ("multiply_add_fast_f32", "multiply_add_fast_f16",
                                                  "multiply_add_fast_bf16", "xor_popc", "and_popc"):
        return "reject"
    if arch < 90:  # CUTLASS 2.x, sm80_multistage
        if tuple(o["inst"]) not in ((16, 8, 16), (16, 8, 8), (16, 8, 32)) or o["la"] not in LETTER:
            return "reject"
        mixed = o["a"] != o["b"]
        if not mixed and o["ala"] * BITS[o["a"]] != 128:
            return "reject"  # 128-bit A/B accesses only
        if o["alc"] * BITS[o["c"]] < 128 or o["c"] == "tf32" or (mixed and o["macc"] == "f16"):
            return "reject"
        t, w = o["tile"], o["warps"]
        return {"arch": "sm_80", "kernel": "sm80_multistage", "tile": t,
                "warp": [t[0] // w[0], t[1] // w[1], t[2] // w[2]], "a": o["a"], "b": o["b"],
                "c": o["c"], "d": o["d"], "acc": o["macc"],
                "layout": LETTER[o["la"]] + LETTER[o["lb"]] + LETTER[o["lc"]], "stages": o["stages"]}
    if arch == 90 and kind == "Universal":
        return "reject"  # 2.x kinds named for sm90 (f64, complex)
    if (ks in ("WarpSpecialized1SmSm100", "TmaWarpSpecialized", "TmaWarpSpecializedFP8FastAccum", "Tma",
               "Multistage") or "CpAsync" in ks or "Mixed" in ks or "FastFP32" in ks or "Ultra" in ks
            or "Interleaved" in ks):
        return "reject"
    bs = o["opclass"] == "BlockScaledTensorOp"
    epi = "nosmem" if "NoSmem" in es else "tma" if "Tma" in es else "auto"
    if arch == 90:
        if BITS[o["a"]] != BITS[o["b"]]:
            return "reject"  # mixed-input mainloop
        if BITS[o["a"]] != 16 and not (o["la"] == "RowMajor" and o["lb"] == "ColumnMajor"):
            return "reject"  # register-sourced mainloop
        if ks == "ScheduleAuto" and (o["ala"] * BITS[o["a"]]) % 128:
            return "reject"  # the automatic schedule picks cp.async
        sched = "auto" if ks == "ScheduleAuto" else "cooperative" if "Cooperative" in ks else "pingpong"
        family = "sm90_tma_ws"
    elif arch == 100:
        sched = "1sm" if "1Sm" in ks else "2sm" if "2Sm" in ks else "auto"
        family = "sm100_umma"
    else:
        sched = "cooperative" if "Cooperative" in ks else "pingpong" if "Pingpong" in ks else "auto"
        family = "sm120_blockscaled" if bs else "sm120_dense"
    # SM100 names carry the MMA tile (get_collective_tile_shape).
    tile = o["tile"] if arch != 100 else [o["inst"][0], o["inst"][1], o["tile"][2]]
    cfg = {"arch": "sm_%d" % arch, "kernel": family, "tile": tile}
    cluster = list(o["cluster"])
    epilogue = None
    if bs:
        fa, fb = block_scaled(o["sfa"], o["a"]), block_scaled(o["sfb"], o["b"])
        if fa is None or fb is None:
            return "reject"
        cfg.update(a=fa, b=fb, sf_vec=16 if "Nvf4" in ks else 32)
        mma = "f8f6f4" if "Mxf8f6f4" in ks else "nvf4" if ("Nvf4" in ks or "Mxf4" in ks) else "auto"
        cta_n = o["tile"][1] // cluster[1] if cluster[1] > 0 else o["tile"][1]
        if arch == 100 and "Nvf4" in ks and cta_n == 256:  # gemm_operation.py:1000-1007
            epi = "tma" if epi in ("auto", "tma") else epi
            epilogue = {"variant": epi, "tile": [128, 64]}
        if o["sfd"] != "void":
            if o["sfd"] not in ("ue8m0", "ue4m3") or o["sfvec"] not in (16, 32) or epi == "nosmem":
                return "reject"
            if arch == 120 and LETTER[o["sfd_layout"]] != LETTER[o["lc"]]:
                return "reject"
            if arch == 100 and o["sfd_layout"] != "RowMajor":
                return "reject"
            epilogue = dict(variant="blockscale_out", **({"tile": epilogue["tile"]} if epilogue else {}),
                            sf_vec=o["sfvec"], sf=o["sfd"])
    else:
        cfg.update(a=o["a"], b=o["b"])
    if arch == 100 and cluster[0] == 0:  # run-time cluster
        if sched == "2sm" and epi == "auto":
            return "reject"
        cluster = [2 if sched == "2sm" else 1, 1, 1]
    cfg["cluster"] = cluster
    cfg.update(c=None if o["c"] == "void" else o["c"], d=o["d"], acc=o["macc"])
    cfg["layout"] = LETTER[o["la"]] + LETTER[o["lb"]] + LETTER[o["lc"]]
    cfg["schedule"] = sched
    cfg["epilogue"] = epilogue if epilogue else epi
    cfg["grouped"] = "Grouped" in kind
    if bs:
        cfg["mma"] = mma
    cfg["stages"] = "auto" if o["stages"] == 0 else o["stages"]
    return cfg


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cutlass", required=True, help="a CUTLASS 4.7.0 checkout")
    p.add_argument("--out", required=True)
    p.add_argument("--per-group", type=int, default=2,
                   help="rows kept per kind of kernel (kind, opclass, schedules, scheduler, types, "
                        "cluster); 0 = every kernel")
    args = p.parse_args()
    ops = {}
    for archs, kernels in (("80", "all"), ("80;90a;100a;120a", ""), ("120a", "all")):
        for o in operations(args.cutlass, archs, kernels):
            ops.setdefault(o["name"], o)
    kept = collections.Counter()
    rows = 0
    with open(args.out, "w") as f:
        for name in sorted(ops):
            o = ops[name]
            e = expect(o)
            # Rejected kernels: one per reason-bearing kind; accepted ones: per schedule pair, A type,
            # B same or not, void C, output scale factors, run-time cluster and layout of C.
            if e == "reject":
                group = (o["arch"], o["kind"], o["opclass"], o["ks"], o["ts"], o["mathop"], o["a"])
            else:
                group = (o["arch"], o["kind"], o["ks"], o["es"], o["a"], o["b"] == o["a"],
                         o["c"] == "void", o.get("sfd"), o["cluster"][0] == 0, o["lc"])
            if args.per_group and kept[group] >= args.per_group:
                continue
            kept[group] += 1
            f.write(json.dumps({"name": name, "expect": e}) + "\n")
            rows += 1
    print(f"{rows} rows of {len(ops)} kernels -> {args.out}")


if __name__ == "__main__":
    main()
