#!/usr/bin/env python3
"""Compile and run the probes gen.py writes; emit measured rows.

Usage:
  measure.py ROWS.jsonl CUTLASS_DIR WORKDIR OUT.jsonl [-j N] [--ids a,b] [--nvcc PATH] [--nice 10]

CUTLASS_DIR is a CUTLASS checkout (include/ and tools/util/include/ are used).  For every row
the probe is compiled with
  nvcc -std=c++17 -arch=<sm_89|sm_90a|sm_100a|sm_120a> --expt-relaxed-constexpr -O0
       -I CUTLASS/include -I CUTLASS/tools/util/include
and run (host only; nothing is launched).  Result rows keep the input row's id and config and
carry:
  expect.status  fits | does_not_fit | invalid
                 fits/does_not_fit: smem_bytes <= / > limit_bytes (sm_89, sm_120: 101376;
                 sm_90, sm_100: 232448).  A compile that fails on the collective's
                 "Stages >= 2" (or the builder's "Stages > 0") static_assert is does_not_fit
                 with the builder's stage count (from the builder-only probe) and no sizes, as
                 in tests/data/cutlass-4.7.jsonl.  Any other compile error is invalid; cutlass.error keeps
                 the first error line.
  expect.stages, smem_bytes, epilogue_smem, mainloop_smem
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

LIMIT = {"sm_89": 101376, "sm_90": 232448, "sm_100": 232448, "sm_120": 101376}
STAGE_ASSERTS = ("Stages set to value", "Smem usage is too high", "Stages >= 2")


def compile_run(nvcc, flag, cutlass, src, exe, nice, timeout=1800):
    cmd = ["nice", "-n", str(nice), nvcc, "-std=c++17", "-arch=" + flag, "--expt-relaxed-constexpr",
           "-O0", "-DNDEBUG", "-w", "-I", os.path.join(cutlass, "include"),
           "-I", os.path.join(cutlass, "tools/util/include"), src, "-o", exe]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    dt = time.time() - t0
    if p.returncode != 0:
        return None, p.stdout + p.stderr, dt
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    return r.stdout.strip(), None, dt


def first_error(log):
    lines = log.splitlines()
    for ln in lines:
        if "static assertion failed" in ln or "static_assert" in ln:
            return ln.strip()
    for ln in lines:
        if re.search(r"\berror\b", ln):
            return ln.strip()
    return (lines[0].strip() if lines else "compile failed")


def measure_one(ent, row, args):
    cfg = row["config"]
    arch = cfg["arch"]
    src = os.path.join(args.workdir, ent["file"])
    exe = os.path.join(args.workdir, ent["id"] + ".bin")
    out, err, dt = compile_run(args.nvcc, ent["arch_flag"], args.cutlass, src, exe, args.nice)
    expect = {"limit_bytes": LIMIT[arch]}
    cut = {"version": "4.7.0", "engine_source": row.get("cutlass", {}).get("engine_source", "tilefit fp8 probe"),
           "cxx": "tools/cutlass/fp8_engines/gen.py " + ent["file"], "compile_s": round(dt, 1)}
    if err is None:
        res = json.loads(out)
        expect.update({k: res[k] for k in ("stages", "smem_bytes", "epilogue_smem", "mainloop_smem")})
        expect["status"] = "fits" if res["smem_bytes"] <= LIMIT[arch] else "does_not_fit"
        if "detail" in res:
            cut["detail"] = res["detail"]
        if ent["id"] in args.device_check and ent["arch_flag"] != "sm_89":
            dsrc = os.path.join(args.workdir, ent["id"] + ".device.cu")
            open(dsrc, "w").write(open(src).read() + gen.DEVICE_CHECK)
            cmd = ["nice", "-n", str(args.nice), args.nvcc, "-std=c++17", "-arch=" + ent["arch_flag"],
                   "--expt-relaxed-constexpr", "-O0", "-DNDEBUG", "-w", "-I", os.path.join(args.cutlass, "include"),
                   "-I", os.path.join(args.cutlass, "tools/util/include"), "-c", dsrc, "-o", dsrc + ".o"]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.device_check_timeout)
            except subprocess.TimeoutExpired:
                p = None
            cut["device_check"] = ("timeout (no device-side error before %ds)" % args.device_check_timeout if p is None
                                   else "ok" if p.returncode == 0 else first_error(p.stdout + p.stderr))
            if p is not None and p.returncode != 0:
                expect["status"] = "invalid"
                cut["error"] = cut["device_check"]
    else:
        e = first_error(err)
        cut["error"] = e
        if any(s in err for s in STAGE_ASSERTS) and ent.get("builder_only_file"):
            bsrc = os.path.join(args.workdir, ent["builder_only_file"])
            bout, berr, bdt = compile_run(args.nvcc, ent["arch_flag"], args.cutlass, bsrc, exe + ".b", args.nice)
            if berr is None:
                expect["stages"] = json.loads(bout)["stages"]
                expect["status"] = "does_not_fit"
            else:
                expect["status"] = "invalid"
        else:
            expect["status"] = "invalid"
    order = ["status", "limit_bytes", "stages", "smem_bytes", "epilogue_smem", "mainloop_smem"]
    expect = {k: expect[k] for k in order if k in expect}
    return {"id": row["id"], "config": cfg, "expect": expect, "cutlass": cut}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("cutlass")
    ap.add_argument("workdir")
    ap.add_argument("out")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--ids", default="")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--device-check-ids", default="",
                    help="ids whose kernel body is also compiled (-c) to catch device-side static_asserts")
    ap.add_argument("--device-check-timeout", type=int, default=240)
    args = ap.parse_args()
    args.device_check = set(x for x in args.device_check_ids.split(",") if x)
    os.makedirs(args.workdir, exist_ok=True)
    want = set(x for x in args.ids.split(",") if x)
    rows = []
    for line in open(args.rows):
        if line.strip():
            r = json.loads(line)
            if not want or r["id"] in want:
                rows.append(r)
    ents = []
    for r in rows:
        full, bonly = gen.gen(r["config"])
        fn = r["id"] + ".cu"
        open(os.path.join(args.workdir, fn), "w").write(full)
        ent = {"id": r["id"], "arch_flag": gen.ARCH_FLAG[r["config"]["arch"]], "file": fn}
        if bonly:
            open(os.path.join(args.workdir, r["id"] + ".builder.cu"), "w").write(bonly)
            ent["builder_only_file"] = r["id"] + ".builder.cu"
        ents.append((ent, r))
    results = {}
    partial = open(args.out + ".partial", "w")  # one line per finished row, in completion order
    with cf.ThreadPoolExecutor(max_workers=args.j) as ex:
        futs = {ex.submit(measure_one, e, r, args): r["id"] for e, r in ents}
        for f in cf.as_completed(futs):
            rid = futs[f]
            try:
                res = f.result()
            except Exception as exc:  # noqa: BLE001
                res = {"id": rid, "error": repr(exc)}
            results[rid] = res
            partial.write(json.dumps(res) + "\n")
            partial.flush()
            print(json.dumps({"id": rid, "expect": res.get("expect"), "t": res.get("cutlass", {}).get("compile_s")}), flush=True)
    partial.close()
    with open(args.out, "w") as fo:
        for _, r in ents:
            fo.write(json.dumps(results[r["id"]]) + "\n")


if __name__ == "__main__":
    main()
