"""A small port of Triton 3.6's LinearLayout machinery (lib/Tools/LinearLayout.cpp, LayoutUtils.cpp,
GenericSwizzling.cpp, lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp) - just what is needed to
size the shared-memory scratch of ttg.convert_layout (lib/Analysis/Allocation.cpp:32-43 and
third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/Allocation.cpp:45-76).

A layout maps in-dims (register, lane, warp, block) to out-dims (dim0, dim1, ...) by XOR of bases.
Bases are stored as tuples with one int per out-dim (in out-dim order)."""


def log2(x):
    assert x > 0 and x & (x - 1) == 0, x
    return x.bit_length() - 1


class LL:
    def __init__(self, bases, outs):
        # bases: list of (inDimName, [tuple,...]) ; outs: list of (outDimName, size)
        self.bases = [(n, [tuple(b) for b in bs]) for n, bs in bases]
        self.outs = [(n, s) for n, s in outs]
        for _, bs in self.bases:
            for b in bs:
                assert len(b) == len(self.outs), (b, self.outs)

    # --- accessors
    def in_names(self):
        return [n for n, _ in self.bases]

    def out_names(self):
        return [n for n, _ in self.outs]

    def has_in(self, n):
        return n in self.in_names()

    def in_bases(self, n):
        for m, bs in self.bases:
            if m == n:
                return bs
        return []

    def in_size_log2(self, n):
        return len(self.in_bases(n))

    def out_size(self, n):
        for m, s in self.outs:
            if m == n:
                return s
        raise KeyError(n)

    def total_out_log2(self):
        return sum(log2(s) for _, s in self.outs)

    def __eq__(self, o):
        return self.bases == o.bases and self.outs == o.outs

    def __repr__(self):
        return "LL(" + ", ".join(f"{n}={[list(b) for b in bs]}" for n, bs in self.bases) + f" -> {self.outs})"

    # --- constructors
    @staticmethod
    def identity1D(size, ind, outd):
        return LL([(ind, [(1 << i,) for i in range(log2(size))])], [(outd, size)])

    @staticmethod
    def zeros1D(size, ind, outd, outsize=1):
        return LL([(ind, [(0,) for i in range(log2(size))])], [(outd, outsize)])

    @staticmethod
    def empty():
        return LL([], [])

    # --- operator* (LinearLayout.cpp:704)
    def __mul__(self, outer):
        inner = self
        in_dims = list(inner.in_names()) + [n for n in outer.in_names() if n not in inner.in_names()]
        out_dims = list(inner.out_names()) + [n for n in outer.out_names() if n not in inner.out_names()]
        out_log2 = {n: 0 for n in out_dims}
        for L in (inner, outer):
            for n, s in L.outs:
                out_log2[n] += log2(s)
        bases = []
        for ind in in_dims:
            ni = inner.in_size_log2(ind) if inner.has_in(ind) else 0
            no = outer.in_size_log2(ind) if outer.has_in(ind) else 0
            rows = [[0] * len(out_dims) for _ in range(ni + no)]
            for oi, od in enumerate(out_dims):
                if inner.has_in(ind) and od in inner.out_names():
                    k = inner.out_names().index(od)
                    for i, b in enumerate(inner.in_bases(ind)):
                        rows[i][oi] = b[k]
                if outer.has_in(ind) and od in outer.out_names():
                    k = outer.out_names().index(od)
                    shift = log2(inner.out_size(od)) if od in inner.out_names() else 0
                    for i, b in enumerate(outer.in_bases(ind)):
                        rows[ni + i][oi] = b[k] << shift
            bases.append((ind, rows))
        return LL(bases, [(n, 1 << out_log2[n]) for n in out_dims])

    def transpose_outs(self, names):
        idx = [self.out_names().index(n) for n in names]
        return LL([(n, [tuple(b[i] for i in idx) for b in bs]) for n, bs in self.bases],
                  [self.outs[i] for i in idx])

    def with_in(self, n, bs):
        """copy with the bases of in-dim n replaced (added at the end if absent)"""
        out = []
        found = False
        for m, b in self.bases:
            if m == n:
                out.append((m, bs)); found = True
            else:
                out.append((m, b))
        if not found:
            out.append((n, bs))
        return LL(out, self.outs)

    def sublayout(self, ins, outs):
        idx = [self.out_names().index(n) for n in outs]
        return LL([(n, [tuple(b[i] for i in idx) for b in bs]) for n, bs in self.bases if n in ins],
                  [self.outs[i] for i in idx])

    def flatten_outs(self):
        """LinearLayout::flattenOuts via reshapeOuts: earlier out-dims are more minor."""
        shifts = []
        s = 0
        for _, sz in self.outs:
            shifts.append(s); s += log2(sz)
        name = self.outs[0][0] if self.outs else "dim0"
        return LL([(n, [(sum(v << shifts[i] for i, v in enumerate(b)),) for b in bs]) for n, bs in self.bases],
                  [(name, 1 << s)])

    def reshape_outs(self, new_outs):
        flat = self.flatten_outs()
        res = []
        for n, bs in flat.bases:
            nb = []
            for (v,) in bs:
                parts = []
                for _, sz in new_outs:
                    parts.append(v % sz); v //= sz
                nb.append(tuple(parts))
            res.append((n, nb))
        return LL(res, new_outs)

    def flat_bases(self, n):
        """flatten(ll, dim) in GenericSwizzling.cpp:41 (layout must have one out dim)"""
        assert len(self.outs) == 1
        return [b[0] for b in self.in_bases(n)]


def identity_nd(ind, shape, order):
    """LayoutUtils.cpp:162 identityStandardND"""
    ret = LL.empty()
    for d in order:
        ret = ret * LL.identity1D(shape[d], ind, f"dim{d}")
    return ret


def ensure_not_smaller(layout, shape):
    """LayoutUtils.cpp:115"""
    kdim = layout.in_names()[0]
    ret = layout
    for od in layout.out_names():
        actual = layout.out_size(od)
        desired = shape[od]
        if desired > actual:
            ret = ret * LL.identity1D(desired // actual, kdim, od)
    return ret


def ensure_not_larger(layout, shape, broadcast_registers=True):
    """LayoutUtils.cpp:39"""
    bases = [(n, [list(b) for b in bs]) for n, bs in layout.bases]
    removed_regs = set()
    for oi, od in enumerate(layout.out_names()):
        actual = layout.out_size(od)
        desired = shape[od]
        if actual <= desired:
            continue
        srt = []
        for n, bs in bases:
            for bi, b in enumerate(bs):
                if b[oi] != 0:
                    srt.append((n, bi, b[oi]))
        srt.sort(key=lambda t: -t[2])
        for n, bi, v in srt:
            if actual <= desired:
                break
            if not broadcast_registers and n == "register":
                removed_regs.add(bi)
            else:
                dict(bases)[n][bi][oi] = 0
            actual >>= 1
    if not broadcast_registers:
        bases = [(n, [b for i, b in enumerate(bs) if not (n == "register" and i in removed_regs)]) for n, bs in bases]
    outs = [(n, min(s, shape[n])) for n, s in layout.outs]
    return LL(bases, outs)


def combine_cta(cta, shape):
    """LinearLayoutConversions.cpp:1267 combineCtaCgaWithShape, single CTA (num_ctas=1)"""
    rank = len(shape)
    names = [f"dim{i}" for i in range(rank)]
    lab = {names[i]: shape[i] for i in range(rank)}
    cta = ensure_not_smaller(cta, lab)
    cta = ensure_not_larger(cta, lab)
    cga = LL([("block", [])], [(n, 1) for n in cta.out_names()])
    return (cta * cga).transpose_outs(names)


def blocked_ll(shape, spt, tpw, wpc, order):
    """LinearLayoutConversions.cpp:849"""
    cta = identity_nd("register", spt, order) * identity_nd("lane", tpw, order) * identity_nd("warp", wpc, order)
    return combine_cta(cta, shape)


def nvidia_mma_ll(shape, version, warps_per_cta, instr_n=8):
    """LinearLayoutConversions.cpp:901 nvidiaMmaTile + :943 NvidiaMmaEncodingAttr::toLinearLayout (rank 2,
    kWidth=2). version 2: tile 16x8, warp order row-major; version 3: tile 16 x instrN, warp order
    column-major."""
    m, n = 16, (8 if version == 2 else instr_n)
    # repOrder [1, 0] -> trivial layout with out dims (dim1, dim0)
    cta = LL([("register", [])], [("dim1", 1), ("dim0", 1)])
    cta = (cta * LL.identity1D(2, "register", "dim1") * LL.identity1D(4, "lane", "dim1")
           * LL.identity1D(8, "lane", "dim0") * LL.identity1D(m // 8, "register", "dim0")
           * LL.identity1D(n // 8, "register", "dim1"))
    warp_order = [1, 0] if version == 2 else [0, 1]
    w = identity_nd("warp", warps_per_cta, warp_order).transpose_outs(cta.out_names())
    cta = cta * w
    return combine_cta(cta, shape)


def slice_ll(dim, parent_fn, shape):
    """LinearLayoutConversions.cpp:1014. parent_fn(parent_shape) -> LL of the parent."""
    pshape = list(shape)
    pshape.insert(dim, 1)
    p = parent_fn(pshape)
    # removeStandardDim: drop out dim `dim`, rename the later ones
    keep = [i for i in range(len(p.outs)) if p.out_names()[i] != f"dim{dim}"]
    newouts = []
    for j, i in enumerate(keep):
        newouts.append((f"dim{j}", p.outs[i][1]))
    bases = []
    for n, bs in p.bases:
        nb = [tuple(b[i] for i in keep) for b in bs]
        if n == "register":
            nb = [b for b in nb if any(b)]
        bases.append((n, nb))
    return LL(bases, newouts)


def tmem_ld_ll(BM, BN, num_warps):
    """Default TMEM load layout (32x32b atom) for an fp32 accumulator in TMEM with
    TensorMemoryEncoding(blockM = 128 if BM >= 128 else 64, blockN = min(BN, 256), colStride 1), one CTA.
    Closed form of lib/Dialect/TritonNvidiaGPU/IR/Dialect.cpp:200-300 getDistributedLayoutForTmemLdSt
    composed with LinearLayoutConversions.cpp:1038 tensorMemoryToLinearLayout, checked against dumps."""
    blockM = 128 if BM >= 128 else 64
    blockN = min(BN, 256)
    warps_to_tile = num_warps // 4
    if blockM == 128:
        # TMEM columns: blockN cols -> dim1, then repsM (BM/128) -> dim0 128.., then repsN -> dim1 blockN..
        col_map = [(0, 1 << i) for i in range(log2(blockN))]
        col_map += [(128 << i, 0) for i in range(log2(BM // 128))]
        col_map += [(0, blockN << i) for i in range(log2(BN // blockN))]
        ncols = len(col_map)
        nreg = ncols - log2(warps_to_tile)
        reg = [(r, c) for r, c in col_map[:nreg]]
        lane = [(1 << i, 0) for i in range(5)]
        warp = [(32, 0), (64, 0)] + [col_map[nreg + i] for i in range(log2(warps_to_tile))]
    else:
        # blockM 64: rows 0..15 in lanes 0..15, rows 16.. in the other warps (row bits 32, 64 -> dim0 16, 32)
        col_map = [(0, 1 << i) for i in range(log2(blockN))]
        col_map += [(0, blockN << i) for i in range(log2(BN // blockN))]
        ncols = len(col_map)
        n_missing = ncols - log2(warps_to_tile)  # log2 of columns per thread group
        # registers take nColsMissing/2 columns, lane 16 takes the next column bit
        reg = col_map[:n_missing - 1]
        lane = [(1 << i, 0) for i in range(4)] + [col_map[n_missing - 1]]
        warp = [(16, 0), (32, 0)] + [col_map[n_missing + i] for i in range(log2(warps_to_tile))]
    ll = LL([("register", reg), ("lane", lane), ("warp", warp), ("block", [])], [("dim0", BM), ("dim1", BN)])
    return ll


def remove_broadcast_regs(ll):
    """LayoutUtils.cpp:271 actionRemoveBroadcastedRegs"""
    return ll.with_in("register", [b for b in ll.in_bases("register") if any(b)])


# ---------------------------------------------------------------- GF(2) helpers
def _echelon(vectors):
    """basis keyed by lowest set bit (pivot), fully reduced (unique RREF rows)."""
    piv = {}
    for v in vectors:
        while v:
            lb = v & -v
            if lb in piv:
                v ^= piv[lb]
            else:
                piv[lb] = v
                break
    # full reduction: clear other pivots' bits
    keys = sorted(piv)
    for p in sorted(piv, reverse=True):
        row = piv[p]
        for q in keys:
            if q != p and (row & q):
                row ^= piv[q]
        piv[p] = row
    # one more pass to be safe
    changed = True
    while changed:
        changed = False
        for p in keys:
            for q in keys:
                if q != p and (piv[p] & q):
                    piv[p] ^= piv[q]; changed = True
    return piv


def nullspace_basis(vectors, dim):
    """GenericSwizzling.cpp:69"""
    piv = _echelon(vectors)
    pcols = {p.bit_length() - 1 for p in piv}
    basis = []
    for free in range(dim):
        if free in pcols:
            continue
        vec = 1 << free
        for p, row in piv.items():
            if row & (1 << free):
                vec ^= p
        basis.append(vec)
    return basis


def complement_basis(basis, dim):
    """GenericSwizzling.cpp:191"""
    piv = _echelon(basis)
    pcols = {p.bit_length() - 1 for p in piv}
    return [1 << i for i in range(dim) if i not in pcols]


def _is_pow2(x):
    return x > 0 and x & (x - 1) == 0


def intersection_basis(b1, b2, dim):
    """GenericSwizzling.cpp:218"""
    if all(_is_pow2(x) for x in b1) and all(_is_pow2(x) for x in b2):
        s2 = set(b2)
        return [b for b in b1 if b != 0 and b in s2]
    ns1 = nullspace_basis(b1, dim)
    ns2 = nullspace_basis(b2, dim)
    return nullspace_basis(ns1 + ns2, dim)


def compute_segment(bank_src, bank_dst, dim, len_segment):
    """GenericSwizzling.cpp:144"""
    s_src = set(bank_src) - {0}
    s_dst = set(bank_dst) - {0}
    segment = [1 << b for b in range(dim) if (1 << b) not in s_src and (1 << b) not in s_dst]
    if len(segment) >= len_segment:
        return segment[:len_segment]
    A = sorted(v for v in s_src if v not in s_dst)
    B = sorted(v for v in s_dst if v not in s_src)
    if len(A) > len(B):
        A, B = B, A
    lbc = min(max(0, len_segment - len(A) - len(segment)), len(A))
    for i in range(lbc, len(A)):
        segment.append(A[i] ^ B[i])
    segment += A[:lbc]
    segment += B[:lbc]
    return segment[:len_segment]


def solve_in_span(cols, v):
    """Express v as XOR of a subset of `cols`, using only the greedy-independent columns (the RREF
    pivot columns of lstsq, LinearLayout.cpp:948); returns the bitmask over column indices or None."""
    piv = {}  # lowbit -> (vector, mask)
    chosen = []
    for ci, c in enumerate(cols):
        vec, mask = c, 1 << ci
        while vec:
            lb = vec & -vec
            if lb in piv:
                pv, pm = piv[lb]
                vec ^= pv; mask ^= pm
            else:
                piv[lb] = (vec, mask)
                break
    vec, mask = v, 0
    while vec:
        lb = vec & -vec
        if lb not in piv:
            return None
        pv, pm = piv[lb]
        vec ^= pv; mask ^= pm
    return mask


def invert_and_compose(B, A):
    """B.invertAndCompose(A) (LinearLayout.cpp:1023) for 1-out-dim layouts: for each in-dim basis of B,
    the in-coordinates of A holding the same element. Returns dict inDim -> list of dict(inDimA -> value)."""
    ident = [d for d in A.in_names() if B.has_in(d) and A.in_bases(d) == B.in_bases(d)]
    a_cols = []  # (dim, idx, vector)
    for d in A.in_names():
        if d in ident:
            continue
        for i, b in enumerate(A.in_bases(d)):
            a_cols.append((d, i, b[0]))
    res = {}
    for d in B.in_names():
        lst = []
        for i, b in enumerate(B.in_bases(d)):
            out = {n: 0 for n in A.in_names()}
            if d in ident:
                out[d] = 1 << i
            else:
                m = solve_in_span([c[2] for c in a_cols], b[0])
                assert m is not None, "Im(B) not in Im(A)"
                for ci, (ad, ai, _) in enumerate(a_cols):
                    if m >> ci & 1:
                        out[ad] |= 1 << ai
            lst.append(out)
        res[d] = lst
    return res


# ---------------------------------------------------------------- optimal swizzling
LDST_SHARED = ((), (0, 1, 2))       # LocalMemOpTile{laneContig, laneAddr}, Utility.cpp:48
LDST_MATRIX = ((0, 1), (2, 3, 4))
LDST_MATRIX_T = ((2, 3, 4), (0, 1))


def src_dst_tiles(cc, bitwidth):
    """lib/Conversion/TritonGPUToLLVM/Utility.cpp:42 getSrcDstTiles; NVIDIA TargetInfo.h:30-31
    (ldmatrix cc >= 75, stmatrix cc >= 90)"""
    src, dst = [LDST_SHARED], [LDST_SHARED]
    ld, st = cc >= 75, cc >= 90
    if ld or st:
        if bitwidth <= 32:
            if st:
                src.append(LDST_MATRIX)
            if ld:
                dst.append(LDST_MATRIX)
        if bitwidth == 16:
            if st:
                src.append(LDST_MATRIX_T)
            if ld:
                dst.append(LDST_MATRIX_T)
    return src, dst


def _tile(a, b, nRegA, nRegB, laneA_ids, laneB_ids):
    """optimalSwizzlingTile, GenericSwizzling.cpp:310"""
    if nRegA < nRegB:
        return _tile(b, a, nRegB, nRegA, laneB_ids, laneA_ids)
    dim = a.total_out_log2()
    cvt = invert_and_compose(b, a)
    regA, regB = a.flat_bases("register"), b.flat_bases("register")
    laneA, laneB = a.flat_bases("lane"), b.flat_bases("lane")
    vb = intersection_basis(regA, regB, dim)
    if len(vb) < nRegB:
        return None
    vb = vb[:nRegB]
    ltA = [laneA[i] for i in laneA_ids]
    ltB = [laneB[i] for i in laneB_ids]
    if any(x == 0 for x in ltA) or any(x == 0 for x in ltB):
        return None
    for i in range(nRegA - nRegB):
        if cvt["lane"][laneB_ids[i]]["register"] == 0:
            return None
    tailB = laneB_ids[len(laneB_ids) - len(laneA_ids):] if laneA_ids else []
    for ia, ib in zip(laneA_ids, tailB):
        if cvt["lane"][ib]["lane"] != (1 << ia):
            return None
    return vb + ltB


def _optimal_swizzling_core(src, dst, bitwidth, vbasis, tile_src, tile_dst, leave_reps=0):
    """optimalSwizzling(...vbasis...) GenericSwizzling.cpp:389-455 + buildReps :102.
    Returns dict(vector, bank, segment, reps) of flattened bases."""
    dim = src.total_out_log2()
    bank_src = list(vbasis) + list(tile_src)
    bank_dst = list(vbasis) + list(tile_dst)
    len_b = min(log2(1024 // ((1 << len(vbasis)) * bitwidth)) if 1024 // ((1 << len(vbasis)) * bitwidth) >= 1 else 0,
                dim - len(vbasis))
    len_s = dim - len_b - len(vbasis)
    sbasis = compute_segment(bank_src, bank_dst, dim, len_s)
    bbasis = complement_basis(list(vbasis) + sbasis, dim)
    src_regs = set(src.flat_bases("register"))
    dst_regs = set(dst.flat_bases("register"))
    seg, reps = [], []
    lr = leave_reps
    for s in sbasis:
        if s in src_regs and s in dst_regs:
            if lr > 0:
                lr -= 1; seg.append(s)
            else:
                reps.append(s)
        else:
            seg.append(s)
    return {"vector": list(vbasis), "bank": bbasis, "segment": seg, "reps": reps}


def _bank_conflicts(tile_src, tile_dst, smem, dim):
    """GenericSwizzling.cpp:243"""
    seg = smem["segment"]
    write = 1 << len(intersection_basis(seg, list(tile_src), dim))
    read = 1 << len(intersection_basis(seg, list(tile_dst), dim))
    return read - 1, write - 1


def _remove_zeros(v):
    return [x for x in v if x != 0]


def optimal_swizzling_ldst(src, dst, bitwidth):
    """GenericSwizzling.cpp:456 (the bank re-ordering at the end does not change the reps)"""
    sf, df = src.flatten_outs(), dst.flatten_outs()
    regS, regD = sf.flat_bases("register"), df.flat_bases("register")
    laneS, laneD = sf.flat_bases("lane"), df.flat_bases("lane")
    dim = src.total_out_log2()
    vb = intersection_basis(regS, regD, dim)
    maxv = log2(128 // bitwidth)
    vb = vb[:maxv]
    if (1 << len(vb)) * bitwidth < 32:
        per_bank = log2(32 // bitwidth)
        warpS = _remove_zeros(sf.flat_bases("warp"))
        warpD = _remove_zeros(df.flat_bases("warp"))
        rm = lambda vec: [r for r in vec if r not in vb]
        rsw = intersection_basis(rm(regS), warpD, dim)
        rdw = intersection_basis(rm(regD), warpS, dim)
        if len(rsw) == len(rdw) and len(rsw) > 0:
            largest = rsw if min(rsw) < min(rdw) else rdw
        else:
            largest = rsw if len(rsw) > len(rdw) else rdw
        vb = vb + largest
        if len(vb) < per_bank:
            vb = vb + intersection_basis(warpS, warpD, dim)
        i = 0
        while len(vb) < per_bank and (i < len(warpS) or i < len(warpD)):
            if i < len(warpS) and warpS[i] not in vb:
                vb.append(warpS[i])
            if len(vb) < per_bank and i < len(warpD) and warpD[i] not in vb:
                vb.append(warpD[i])
            i += 1
        vb = vb[:per_bank]
    log2vec = log2(max(1, ((1 << len(vb)) * bitwidth) // 32))
    tS = laneS[:len(laneS) - log2vec]
    tD = laneD[:len(laneD) - log2vec]
    return _optimal_swizzling_core(sf, df, bitwidth, vb, tS, tD)


def optimal_swizzling(src, dst, src_tiles, dst_tiles, bitwidth):
    """GenericSwizzling.cpp:598"""
    sf, df = src.flatten_outs(), dst.flatten_outs()
    dim = src.total_out_log2()
    total = log2(128 // bitwidth)
    instr = []
    for i_s, ts in enumerate(src_tiles):
        lrs = total - len(ts[0])
        for i_d, td in enumerate(dst_tiles):
            lrd = total - len(td[0])
            t = _tile(sf, df, lrs, lrd, list(ts[0]), list(td[0]))
            if t is not None:
                instr.append(((i_s, i_d), t))
    regS, regD = sf.flat_bases("register"), df.flat_bases("register")
    laneS, laneD = sf.flat_bases("lane"), df.flat_bases("lane")

    def get_tile(ins, regs, lane, vb):
        tile = []
        need = 3 - len(ins[1])
        for r in regs:
            if need == 0:
                break
            if r not in vb:
                tile.append(r); need -= 1
        if need > 0:
            return None
        for i in ins[1]:
            tile.append(lane[i])
        return tile

    tiles = []
    for (i_s, i_d), vb in instr:
        tS = get_tile(src_tiles[i_s], regS, laneS, vb)
        tD = get_tile(dst_tiles[i_d], regD, laneD, vb)
        if tS is None or tD is None:
            continue
        miss = lambda ins: len(ins[0]) + len(ins[1]) - 3
        leave = min(miss(src_tiles[i_s]), miss(dst_tiles[i_d]))
        tiles.append(((i_s, i_d), vb, tS, tD, leave))
    if not tiles:
        return optimal_swizzling_ldst(src, dst, bitwidth), None
    best = None
    for ins, vb, tS, tD, leave in tiles:
        sm = _optimal_swizzling_core(sf, df, bitwidth, vb, tS, tD, leave)
        r, w = _bank_conflicts(tS, tD, sm, dim)
        key = (r + w, -len(sm["reps"]))
        if best is None or key < best[0]:
            best = (key, sm, ins)
    return best[1], best[2]


def cvt_scratch_elems(src, dst, bitwidth, cc):
    """Allocation.cpp (NVIDIA) getNumScratchElemsSwizzledCvt: total elements / 2^#reps"""
    s = remove_broadcast_regs(src)
    d = remove_broadcast_regs(dst)
    st, dt = src_dst_tiles(cc, bitwidth)
    smem, _ = optimal_swizzling(s, d, st, dt, bitwidth)
    return (1 << s.total_out_log2()) >> len(smem["reps"])


# ---------------------------------------------------------------- does a convert need shared memory?
def _minimal_cvt(src, dst):
    """Utility.cpp minimalCvtLayout: comp = dst.invertAndCompose(src), quotiented by block, warp, lane.
    Works on the 2-D layouts (sublayout identity test as in invertAndCompose)."""
    sf, df = src.flatten_outs(), dst.flatten_outs()
    comp = invert_and_compose(df, sf)  # dst in-dims -> src in-dims
    dims = ["block", "warp", "lane", "register"]
    remaining_in = list(dims)
    remaining_out = list(dims)
    for d in ["block", "warp", "lane"]:
        nd = len(df.in_bases(d))
        ns = len(sf.in_bases(d))
        # square sublayout identity
        ok = nd == ns and all(comp[d][i][d] == (1 << i) for i in range(nd))
        # other remaining in-dims do not map into d
        ok = ok and all(comp[o][i][d] == 0 for o in remaining_in if o != d for i in range(len(df.in_bases(o))))
        # d does not map into the other remaining out dims
        ok = ok and all(comp[d][i][o] == 0 for o in remaining_out if o != d for i in range(nd))
        if not ok:
            break
        remaining_in.remove(d); remaining_out.remove(d)
    # out dims that are left (those with a non-trivial image)
    return remaining_out


# ---------------------------------------------------------------- dot operand layouts (mma v2)
def nvidia_dot_ll(shape, op_idx, k_width, warps_per_cta):
    """LinearLayoutConversions.cpp:969 nvidiaDotToLinearLayout (Ampere parent, rank 2) with
    broadcastedDotOperandLayout (:282)"""
    if op_idx == 0:
        tile = [16, k_width * 8]
        order = [1, 0]
    else:
        tile = [k_width * 8, 8]
        order = [0, 1]
    inner, outer = order[0], order[1]
    m, n = tile[outer], tile[inner]
    cta = LL([("register", [])], [(f"dim{d}", 1) for d in order])
    cta = (cta * LL.identity1D(k_width, "register", f"dim{inner}") * LL.identity1D(4, "lane", f"dim{inner}")
           * LL.identity1D(8, "lane", f"dim{outer}") * LL.identity1D(m // 8, "register", f"dim{outer}")
           * LL.identity1D(n // (k_width * 4), "register", f"dim{inner}"))
    k_dim = 1 if op_idx == 0 else 0
    w = LL.empty()
    for d in [1, 0]:  # warp order row-major for Ampere
        if d == k_dim:
            w = w * LL.zeros1D(warps_per_cta[d], "warp", f"dim{d}")
        else:
            w = w * LL.identity1D(warps_per_cta[d], "warp", f"dim{d}")
    cta = cta * w.transpose_outs(cta.out_names())
    return combine_cta(cta, shape)


def mixed_transpositions(src, dst):
    """Number of mixed (register, lane) transpositions of getWarpLayoutConvertDecomposition
    (Analysis/Utility.cpp:257-420) for an intra-warp conversion."""
    s = remove_broadcast_regs(src)
    d = remove_broadcast_regs(dst)
    nreg = max(len(s.in_bases("register")), len(d.in_bases("register")))
    nlane = max(len(s.in_bases("lane")), len(d.in_bases("lane")))
    dims = ["register", "lane"]
    outs = s.out_names()

    def sub(L_):
        bs = []
        for dn, n in (("register", nreg), ("lane", nlane)):
            b = list(L_.in_bases(dn))
            b += [tuple(0 for _ in outs)] * (n - len(b))
            bs.append((dn, b))
        return LL(bs, L_.outs)
    S, T = sub(s), sub(d)
    Sf, Tf = S.flatten_outs(), T.flatten_outs()
    P = invert_and_compose(Sf, Tf)  # S in-dims -> T in-dims
    pb = {dn: [[P[dn][i].get("register", 0), P[dn][i].get("lane", 0)] for i in range(len(Sf.in_bases(dn)))] for dn in dims}
    src_free, dst_free = [], []
    for di, dn in enumerate(dims):
        for i in range(len(Sf.in_bases(dn))):
            sv, tv = Sf.in_bases(dn)[i][0], Tf.in_bases(dn)[i][0]
            if sv == 0 and tv == 0:
                pb[dn][i][di] = 1 << i
            elif sv == 0:
                src_free.append((di, i))
            elif tv == 0:
                dst_free.append((di, i))
    for (sdi, si), (ddi, dj) in zip(src_free, dst_free):
        pb[dims[sdi]][si][ddi] = 1 << dj
    visited = set()
    mixed = 0
    for dn in dims:
        for i in range(len(Sf.in_bases(dn))):
            if (dn, i) in visited:
                continue
            entry = (dn, i)
            cur = entry
            reg_start = lane_start = lane_end = reg_end = -1
            guard = 0
            while True:
                guard += 1
                if guard > 100:
                    return 99
                visited.add(cur)
                vec = pb[cur[0]][cur[1]]
                nxt = None
                for ni, v in enumerate(vec):
                    if v != 0:
                        nxt = (dims[ni], v.bit_length() - 1)
                if nxt is None:
                    return 99
                if cur[0] == "register" and nxt[0] == "lane":
                    reg_start, lane_start = cur[1], nxt[1]
                elif cur[0] == "lane" and nxt[0] == "register":
                    reg_end, lane_end = nxt[1], cur[1]
                if reg_end >= 0:
                    mixed += 1
                    reg_start = lane_start = lane_end = reg_end = -1
                cur = nxt
                if cur == entry:
                    break
    return mixed


def cvt_needs_smem_exact(src, dst):
    """cvtNeedsSharedMemory (Analysis/Utility.cpp:970-1006)"""
    outs = _minimal_cvt(src, dst)
    if not outs or outs == ["register"]:
        return False
    if sorted(outs) == ["lane", "register"]:
        return mixed_transpositions(src, dst) >= 2
    return True


cvt_needs_smem = cvt_needs_smem_exact
