"""The oracle's speed on the installed Triton.

    python tools/oracle/bench.py proof [ROWS.jsonl ...]     # per version: configs, exact, per target
    python tools/oracle/bench.py rows [ROWS.jsonl ...]      # per version and target, from the proof's rows
    python tools/oracle/bench.py versions [ROWS.jsonl ...]  # where consecutive versions give other bytes
    python tools/oracle/bench.py pairs --arch sm_90,sm_120,gfx942 --tiles 4
    python tools/oracle/bench.py pairs --arch sm_90,sm_120,gfx942 --sample 6 --seed 0   # tiles of the tuner grid
    python tools/oracle/bench.py share --arch sm_90,sm_120,gfx942,sm_100 --sample 4 --seed 1
    python tools/oracle/bench.py grid --arch sm_90 --processes 2 [--cache PATH]

``rows``: the proof timed each config twice in the same process, one after the other (the oracle,
then triton.compile): medians per config, totals, and the ratios oracle/full, per version and target.
``grid``: the 1,920-config tutorial-matmul grid of python/tests/test_triton.py through the oracle over
``--processes`` processes, then again from the persistent cache; prints the wall times.
"""
import argparse
import itertools
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent.parent / "python")]


def rows(paths, revision=1):
    data = {}
    for p in paths:
        for line in pathlib.Path(p).read_text().splitlines():
            r = json.loads(line)
            if r["f"][0] == "invalid":
                continue  # a refusal stops the full compile early: not a fair pair
            if r.get("r", 1) < revision:
                continue
            data.setdefault(r["v"], {}).setdefault(r["a"], []).append((r["os"], r["fs"]))
    out = []
    print("| Triton | target | configs | oracle median s | full median s | median ratio | oracle total s | "
          "full total s | total ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for v in sorted(data):
        per = data[v]
        for a in sorted(per) + ["all"]:
            xs = per[a] if a != "all" else [x for ys in per.values() for x in ys]
            om = statistics.median(o for o, _ in xs)
            fm = statistics.median(f for _, f in xs)
            mr = statistics.median(o / f for o, f in xs if f > 0)
            ot = sum(o for o, _ in xs)
            ft = sum(f for _, f in xs)
            print(f"| {v} | {a} | {len(xs)} | {om:.3f} | {fm:.3f} | {mr:.1%} | {ot:.0f} | {ft:.0f} | {ot / ft:.1%} |")
            out.append({"v": v, "a": a, "n": len(xs), "oracle_median": om, "full_median": fm, "median_ratio": mr,
                        "oracle_total": ot, "full_total": ft, "total_ratio": ot / ft})
    return out


def proof(paths):
    """Per version: configs compiled, exact (the oracle equals the full compile), per target, refusals."""
    import collections
    print("| Triton | configs | exact | " + " | ".join(ARCHS) + " | refused by Triton | kernels |")
    print("|---|---:|---:|" + "---:|" * len(ARCHS) + "---:|---|")
    for p in paths:
        rs = [json.loads(line) for line in pathlib.Path(p).read_text().splitlines() if line.strip()]
        if not rs:
            continue
        per = collections.Counter(r["a"] for r in rs)
        ks = sorted({r["k"] for r in rs})
        print(f"| {rs[0]['v']} | {len(rs)} | {sum(r['ok'] for r in rs)} | " +
              " | ".join(str(per.get(a, 0)) for a in ARCHS) +
              f" | {sum(r['f'][0] == 'invalid' for r in rs)} | {', '.join(ks)} |")


ARCHS = ["sm_75", "sm_80", "sm_89", "sm_90", "sm_100", "sm_120", "gfx942", "gfx950"]


def grid(arch, processes, cache_path):
    import kernels as K
    import grid as G
    from tilefit.triton import oracle
    sig, consts = G.signature("matmul", "fp16")
    cfgs = [dict(consts, BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=g, num_warps=w, num_stages=s)
            for (m, n, k, g) in TUNER_TILES for w in (4, 8) for s in (2, 3, 4, 5)]
    assert len(cfgs) == 1920
    cache = oracle.Cache(cache_path or os.path.join(tempfile.mkdtemp(), "oracle.sqlite"))
    t0 = time.perf_counter()
    first = oracle.compile_many(K.matmul_kernel, cfgs, signature=sig, arch=arch, cache=cache, processes=processes)
    t1 = time.perf_counter()
    again = oracle.compile_many(K.matmul_kernel, cfgs, signature=sig, arch=arch, cache=cache)
    t2 = time.perf_counter()
    assert all(a.cached for a in again) and [a.smem_bytes for a in again] == [f.smem_bytes for f in first]
    fits = sum(r.fits for r in first)
    per = sorted(r.seconds for r in first if not r.cached)
    print(json.dumps({"triton": first[0].triton_version, "arch": arch, "configs": len(cfgs), "processes": processes,
                      "fits": fits, "wall_s": round(t1 - t0, 2), "per_config_median_s": round(statistics.median(per), 4),
                      "cached_wall_s": round(t2 - t1, 4)}))


TUNER_TILES = list(itertools.product((16, 32, 64, 128, 256), (32, 64, 128, 256), (64, 128, 256), (1, 16, 32, 64)))


def pairs(archs, n_tiles, sample=0, seed=0, share=True):
    """A tuner's grid: tiles x num_warps {4, 8} x num_stages {2..5} of the tutorial matmul (fp16), through
    the oracle (one compile_many per arch: the front end shared across warps/stages) and through
    triton.compile, in the same process one after the other; prints the per-config medians and totals.
    ``sample`` > 0: that many tiles (M, N, K, GROUP_SIZE_M) drawn with ``seed`` from the 1,920-config
    grid of ``grid`` (a uniform sample of a real tuner's grid); else the first ``n_tiles`` small tiles.
    Both paths are warmed with one config first (imports, first dialect loads)."""
    import random
    import prove
    import grid as G
    import kernels as K
    from tilefit.triton import oracle
    oracle.share_stages = share
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="tilefit-bench-cache-")
    if sample:
        tiles = random.Random(seed).sample(TUNER_TILES, sample)
    else:
        tiles = [(m, n, k, 8) for m in (64, 128) for n in (64, 128) for k in (32, 64)][:n_tiles]
    sig, consts = G.signature("matmul", "fp16")
    out = []
    for arch in archs:
        warm = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=4)
        oracle.compile(K.matmul_kernel, sig, dict(consts, **warm), arch=arch)
        prove.full_compile("matmul", "fp16", arch, warm, 4, 2)
        cfgs = [dict(BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=g, num_warps=w, num_stages=s)
                for (m, n, k, g) in tiles for w in (4, 8) for s in (2, 3, 4, 5)]
        t0 = time.perf_counter()
        rs = oracle.compile_many(K.matmul_kernel, [dict(consts, **c) for c in cfgs], signature=sig, arch=arch)
        ot = time.perf_counter() - t0
        fulls = []
        for c in cfgs:
            c = dict(c)
            w, s = c.pop("num_warps"), c.pop("num_stages")
            f, secs, _ = prove.full_compile("matmul", "fp16", arch, c, w, s)
            fulls.append(secs)
            assert f[1] == rs[len(fulls) - 1].smem_bytes, (arch, c, w, s, f, rs[len(fulls) - 1])
        om = statistics.median(r.seconds for r in rs)
        fm = statistics.median(fulls)
        ft = sum(fulls)
        row = {"triton": rs[0].triton_version, "arch": arch, "grid": f"tuner sample {sample} seed {seed}" if sample
               else f"{len(tiles)} small tiles", "share_stages": share, "configs": len(cfgs),
               "oracle_median_s": round(om, 4),
               "full_median_s": round(fm, 4), "median_ratio": round(om / fm, 4), "oracle_total_s": round(ot, 2),
               "full_total_s": round(ft, 2), "total_ratio": round(ot / ft, 4)}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def share(archs, sample, seed, repeats):
    """The oracle alone over a tuner-grid sample, with and without the num_stages split (alternating,
    ``repeats`` times, the per-process front-end store emptied before each pass): wall times."""
    import random
    import grid as G
    import kernels as K
    from tilefit.triton import oracle
    tiles = random.Random(seed).sample(TUNER_TILES, sample)
    sig, consts = G.signature("matmul", "fp16")
    for arch in archs:
        cfgs = [dict(consts, BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=g, num_warps=w,
                     num_stages=s) for (m, n, k, g) in tiles for w in (4, 8) for s in (2, 3, 4, 5)]
        oracle.compile(K.matmul_kernel, sig, dict(consts, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                                                  GROUP_SIZE_M=4), arch=arch)
        walls = {True: [], False: []}
        bytes_ = {}
        for _ in range(repeats):
            for on in (False, True):
                oracle.share_stages = on
                oracle._frontend.__init__()
                t0 = time.perf_counter()
                rs = oracle.compile_many(K.matmul_kernel, cfgs, signature=sig, arch=arch)
                walls[on].append(time.perf_counter() - t0)
                bytes_[on] = [r.smem_bytes for r in rs]
        oracle.share_stages = True
        assert bytes_[True] == bytes_[False]
        off, on = statistics.median(walls[False]), statistics.median(walls[True])
        print(json.dumps({"triton": rs[0].triton_version, "arch": arch, "configs": len(cfgs), "whole_s": round(off, 3),
                          "split_s": round(on, 3), "saved": round(1 - on / off, 3)}), flush=True)


def versions(paths):
    """The same config compiled fully by two versions (the proof grid is the same in every version):
    per pair of consecutive versions and (kernel, target), how many common configs got other bytes
    (or another verdict)."""
    import collections
    full = {}
    for p in paths:
        for line in pathlib.Path(p).read_text().splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            k = json.dumps([r["k"], r["t"], r["a"], r["c"], r["w"], r["s"]], sort_keys=True)
            full.setdefault(r["v"], {})[k] = tuple(r["f"])
    vs = sorted(full, key=lambda v: tuple(int(x) for x in v.split(".")))
    print("| from | to | configs in both | other result | where (kernel, target: differing / common) |")
    print("|---|---|---:|---:|---|")
    for a, b in zip(vs, vs[1:]):
        common = collections.Counter()
        other = collections.Counter()
        for k in full[a].keys() & full[b].keys():
            kk = json.loads(k)
            cell = f"{kk[0]} {kk[2]}"
            common[cell] += 1
            if full[a][k] != full[b][k]:
                other[cell] += 1
        where = ", ".join(f"{c}: {other[c]}/{common[c]}" for c in sorted(other)) or "none"
        print(f"| {a} | {b} | {sum(common.values())} | {sum(other.values())} | {where} |")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rows")
    r.add_argument("paths", nargs="*")
    r.add_argument("--revision", type=int, default=2, help="only rows timed with this oracle revision or later")
    pr = sub.add_parser("proof")
    pr.add_argument("paths", nargs="*")
    pa = sub.add_parser("pairs")
    pa.add_argument("--arch", default="sm_90,sm_120,gfx942")
    pa.add_argument("--tiles", type=int, default=4)
    pa.add_argument("--sample", type=int, default=0, help="tiles drawn from the 1,920-config tuner grid")
    pa.add_argument("--seed", type=int, default=0)
    pa.add_argument("--no-share-stages", action="store_true", help="every config runs make_ttgir whole")
    ve = sub.add_parser("versions")
    ve.add_argument("paths", nargs="*")
    sh = sub.add_parser("share")
    sh.add_argument("--arch", default="sm_90,sm_120,gfx942,sm_100")
    sh.add_argument("--sample", type=int, default=4)
    sh.add_argument("--seed", type=int, default=1)
    sh.add_argument("--repeats", type=int, default=3)
    g = sub.add_parser("grid")
    g.add_argument("--arch", default="sm_90")
    g.add_argument("--processes", type=int, default=2)
    g.add_argument("--cache")
    a = ap.parse_args()
    if a.cmd == "rows":
        rows(a.paths or sorted(str(p) for p in (HERE / "rows").glob("triton-*.jsonl")), a.revision)
    elif a.cmd == "pairs":
        pairs(a.arch.split(","), a.tiles, a.sample, a.seed, not a.no_share_stages)
    elif a.cmd == "versions":
        versions(a.paths or sorted(str(p) for p in (HERE / "rows").glob("triton-*.jsonl")))
    elif a.cmd == "share":
        share(a.arch.split(","), a.sample, a.seed, a.repeats)
    elif a.cmd == "proof":
        proof(a.paths or sorted(str(p) for p in (HERE / "rows").glob("triton-*.jsonl")))
    else:
        grid(a.arch, a.processes, a.cache)


if __name__ == "__main__":
    main()
