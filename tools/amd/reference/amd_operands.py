#!/usr/bin/env python3
"""Python check of docs/dev/triton-amd-model.md §3b (loads left in the loop: num_stages 1, narrow loads on
gfx942, 8-bit BK 16 with MFMA 32) against the rows: python3 amd_operands.py amd-triton-3.6.jsonl
[--split dev|holdout|all]. Uses tools/triton/reference/ll.py's linear layouts."""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "triton", "reference"))
from ll import LL, identity_nd, combine_cta, blocked_ll, cvt_needs_smem  # noqa: E402


def per(numel, contig, eb, w):
    return min(16 // eb, contig, max(numel // (64 * w), 1))


def row_params(r):
    L = r["launch"]
    if "config" in r:
        c = r["config"]
        bm, bn, bk = c["tile"]
        eb = 1 if c["dtype"] == "e4m3" else 2
        d = dict(kern="matmul", quant=c["dtype"], w=c.get("num_warps", 4), s=c.get("stages", 2), arch=c["arch"],
                 blk=False)
    else:
        bm, bn, bk = L["BLOCK_SIZE_M"], L["BLOCK_SIZE_N"], L["BLOCK_SIZE_K"]
        q = r["context"].get("quant")
        eb = {"fp8_w8a8": 1, "int8_w8a8": 1}.get(q, 2)
        d = dict(kern=r["kernel"], quant=q, w=L.get("num_warps", 4), s=L.get("num_stages", 2), arch=r["arch"],
                 blk=bool(r.get("context", {}).get("block_shape")) or r["kernel"].startswith("_w8a8"))
    t = r["triton"]
    d.update(bm=bm, bn=bn, bk=bk, eb=eb, asy=r["hip_async_copy"] == 1, mik=t.get("matrix_instr_nonkdim") or 0,
             kpack=t.get("kpack") or 1)
    d["pa"] = per(bm * bk, bk, eb, d["w"]) * eb * 8
    d["pb"] = per(bk * bn, bk, eb, d["w"]) * eb * 8
    return d


def default_blocked(shape, spt, order, W, T=64):
    tpw, wpc = [1, 1], [1, 1]
    i = order[0]
    tpc = max(1, min(W * T, max(1, shape[i] // spt[i])))
    tpw[i] = max(1, min(tpc, T))
    wpc[i] = max(1, min(tpc // tpw[i], W))
    tpw[order[1]] = T // tpw[i]
    wpc[order[1]] = W // wpc[i]
    return tpw, wpc


def load_layout(shape, kdim, eb, W):
    order = [1, 0] if kdim == 1 else [0, 1]
    spt = [1, 1]
    spt[kdim] = per(shape[0] * shape[1], shape[kdim], eb, W)
    tpw, wpc = default_blocked(shape, spt, order, W)
    return blocked_ll(shape, spt, tpw, wpc, order)


def warps_per_tile(M, N, W, md, nd):
    ret = [1, 1]
    while ret[0] * ret[1] < W:
        if M // (md * 2) // ret[0] >= N // nd // ret[1]:
            if ret[0] < M // md:
                ret[0] *= 2
            else:
                ret[1] *= 2
        else:
            ret[1] *= 2
    return [ret[1], ret[0]] if ret[1] * nd > N else ret


def mfma_dot_ll(shape, op, nonk, kw, wpc):
    dimK, dimN = ("dim1", "dim0") if op == 0 else ("dim0", "dim1")
    kidx = 1 if op == 0 else 0
    t = LL.identity1D(kw, "register", dimK) * LL.identity1D(nonk, "lane", dimN) * LL.identity1D(64 // nonk, "lane", dimK)
    kt = 64 // nonk * kw
    if shape[kidx] > kt:
        t = t * LL.identity1D(shape[kidx] // kt, "register", dimK)
    t = t.transpose_outs([dimK, dimN])
    return combine_cta(t * identity_nd("warp", wpc, [1, 0]), shape)


def mfma(d):
    M, N, K = d["bm"], d["bn"], d["bk"]
    nonk = d["mik"] or (32 if min(M, N) >= 32 else 16 if min(M, N) >= 16 else 0)
    if d["arch"] == "gfx942":
        kb = 4 if d["eb"] == 2 else 8
    elif d["eb"] == 2:
        kb = 8 if K >= (16 if nonk == 32 else 32) else 4
    elif d["quant"] == "int8_w8a8":
        kb = 16 if K >= (32 if nonk == 32 else 64) else 8
    else:
        kb = 16 if K % (64 if nonk == 32 else 128) == 0 else 8
    return nonk, kb * (1 if d["arch"] == "gfx950" else d["kpack"])


def model(d):
    M, N, K, W, S = d["bm"], d["bn"], d["bk"], d["w"], d["s"]
    if "gptq" in d["kern"] or d["quant"] == "int8_w8a16" or min(M, N) < 16:
        return None
    nonk, kw = mfma(d)
    if d["eb"] == 1 and K < 32 and (nonk != 32 or K < 16):
        return None
    ta, tb = M * K * d["eb"], K * N * d["eb"]
    nbuf = S if d["asy"] else S - 1
    pipe = [S >= 2 and (d["arch"] == "gfx950" or p >= 32) for p in (d["pa"], d["pb"])]
    if all(pipe):
        return None  # §4, not this script's
    wpc = warps_per_tile(M, N, W, nonk, nonk)
    lds = [cvt_needs_smem(load_layout([M, K], 1, d["eb"], W), mfma_dot_ll([M, K], 0, nonk, kw, wpc)),
           cvt_needs_smem(load_layout([K, N], 0, d["eb"], W), mfma_dot_ll([K, N], 1, nonk, kw, wpc))]
    total = sum(nbuf * t for t, p in zip((ta, tb), pipe) if p)
    return total + max([t for t, p, l in zip((ta, tb), pipe, lds) if not p and l] + [0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--split", default="dev")
    a = ap.parse_args()
    st = collections.Counter()
    for line in open(a.rows):
        r = json.loads(line)
        if r["expect"]["status"] == "invalid" or (a.split != "all" and r["split"] != a.split):
            continue
        d = row_params(r)
        got = model(d)
        if got is not None:
            st["exact" if got == r["expect"]["smem_bytes"] else "WRONG"] += 1
    print(dict(st))


if __name__ == "__main__":
    main()
