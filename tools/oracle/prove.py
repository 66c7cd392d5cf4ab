"""The oracle's proof on the installed Triton: every job of grid.py compiled fully (triton.compile:
metadata.shared, metadata.tmem_size, or the error) and through the oracle, one jsonl row each,
appended as it goes (a second run resumes where the file stops).

    nice -n 10 /work/venvs/t3.6.0/bin/python tools/oracle/prove.py --out tools/oracle/rows/triton-3.6.0.jsonl

Row fields: v Triton version, k kernel, t dtype, a arch, c constexprs, w num_warps, s num_stages;
o / f: the oracle's and the full compile's [status, shared bytes, tmem columns]; os / fs seconds;
fe the full compile's error (first line); ok: the oracle equals the full compile; r the oracle's
revision (absent: 1).
"""
import argparse
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent.parent / "python")]

import grid as G  # noqa: E402
import kernels as K  # noqa: E402


# The oracle's revision the row was timed with (1: every config printed its TTGIR; 2: only where a
# refusal after the allocation pass is possible; 3: configs differing only in num_stages share
# make_ttgir's passes before its first num_stages reader). Bytes are the same; speed differs.
REVISION = 3


def key(k, t, a, c, w, s):
    return json.dumps([k, t, a, c, w, s], sort_keys=True)


def full_compile(kernel, dtype, arch, consts, w, s):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from tilefit.triton import oracle
    fn = K.KERNELS[kernel][0]
    sig0, c0 = G.signature(kernel, dtype)
    consts = dict(c0, **consts)
    a, ta, warp, _limit = oracle.resolve_arch(arch)
    target = GPUTarget("cuda" if isinstance(ta, int) else "hip", ta, warp)
    sig = oracle._full_signature(fn, sig0, set(consts))
    attrs = oracle._default_attrs(sig, None, sig0)
    backend = make_backend(target)
    src = ASTSource(fn=fn, signature=sig, constexprs=consts,
                    attrs={(fn.arg_names.index(k), ): backend.parse_attr(v) for k, v in attrs.items()})
    t0 = time.perf_counter()
    try:
        ck = triton.compile(src, target=target, options={"num_warps": w, "num_stages": s})
    except Exception as e:  # noqa: BLE001
        return ["invalid", None, None], time.perf_counter() - t0, oracle._first_line(e)
    md = ck.metadata
    tmem = getattr(md, "tmem_size", None)
    return ["fits", int(md.shared), tmem], time.perf_counter() - t0, None


def oracle_compile(kernel, dtype, arch, consts, w, s):
    from tilefit.triton import oracle
    fn = K.KERNELS[kernel][0]
    sig0, c0 = G.signature(kernel, dtype)
    r = oracle.compile(fn, sig0, dict(c0, **consts), arch=arch, num_warps=w, num_stages=s)
    st = "invalid" if r.status == "invalid" else "fits"  # the full compile has no limit: compare bytes
    return [st, r.smem_bytes, r.tmem_columns], r.seconds, r.message


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=1e9, help="stop starting new jobs after this long")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shard", default="0/1", help="i/n: this process runs every n-th job from i")
    args = ap.parse_args()
    import triton
    version = triton.__version__
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a row cut by a stopped run: measured again
                done.add(key(r["k"], r["t"], r["a"], r["c"], r["w"], r["s"]))
    cache = tempfile.mkdtemp(prefix="tilefit-prove-cache-")
    os.environ["TRITON_CACHE_DIR"] = cache
    i, n = (int(x) for x in args.shard.split("/"))
    t_start = time.time()
    jobs = G.grid(args.seed)[i::n]
    good = total = 0
    with out.open("a") as f:
        for (k, t, a, c, w, s) in jobs:
            if time.time() - t_start > args.seconds:
                break
            kk = key(k, t, a, c, w, s)
            if kk in done:
                continue
            o, os_, om = oracle_compile(k, t, a, c, w, s)
            fr, fs, fe = full_compile(k, t, a, c, w, s)
            if fr[0] == "invalid" or o[0] == "invalid":
                ok = fr[0] == o[0]
            else:
                ok = o[1] == fr[1] and (o[2] or 0) == (fr[2] or 0)
            row = {"v": version, "r": REVISION, "k": k, "t": t, "a": a, "c": c, "w": w, "s": s, "o": o, "f": fr,
                   "os": round(os_, 4), "fs": round(fs, 4), "ok": ok}
            if fe:
                row["fe"] = fe[:200]
            if om and o[0] == "invalid":
                row["oe"] = om[:200]
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
            f.flush()
            total += 1
            good += ok
            shutil.rmtree(cache, ignore_errors=True)
            os.makedirs(cache, exist_ok=True)
    print(f"triton {version}: {good}/{total} exact this run", file=sys.stderr)


if __name__ == "__main__":
    main()
