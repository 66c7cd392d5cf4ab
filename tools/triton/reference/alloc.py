"""Port of Triton 3.6's shared-memory offset assignment (lib/Analysis/Allocation.cpp:405-587):
sort by size (stable, descending), calculateStarts, then first-fit graph colouring until no
interference. Buffers: dict(name, size, align, start, end) with live range [start, end)."""

INF = 1 << 62


def _intersects(a, b):
    return a[0] < b[1] and b[0] < a[1]


def _align(x, a):
    return (x + a - 1) // a * a


def allocate(buffers):
    bufs = [dict(b, offset=0) for b in buffers if b["size"] > 0]
    if not bufs:
        return 0, bufs
    order = sorted(range(len(bufs)), key=lambda i: -bufs[i]["size"])  # stable
    bs = [bufs[i] for i in order]
    rng = lambda b: (b["start"], b["end"])
    # calculateStarts (Allocation.cpp:439)
    triples = [(0, (0, INF), 0)]  # (offset, range, insertion seq) - multimap ordered by offset then insertion
    seq = 1
    xb = list(bs)
    guard = 0
    while xb:
        guard += 1
        if guard > 100000 or not triples:
            raise RuntimeError("calculateStarts did not converge")
        triples.sort(key=lambda t: (t[0], t[2]))
        offset, r, _ = triples.pop(0)
        found = None
        for b in xb:
            xr = rng(b)
            ok = _intersects(xr, r)
            for t in triples:
                ok = ok and not _intersects(t[1], xr)
            if ok:
                found = b
                break
        if found is not None:
            xr = rng(found)
            found["offset"] = _align(offset, found["align"])
            triples.append((found["offset"] + found["size"], (max(r[0], xr[0]), min(r[1], xr[1])), seq)); seq += 1
            if r[0] < xr[0]:
                triples.append((offset, (r[0], xr[1]), seq)); seq += 1
            if xr[1] < r[1]:
                triples.append((offset, (xr[0], r[1]), seq)); seq += 1
            xb.remove(found)

    def interference():
        g = {id(x): set() for x in bs}
        for x in bs:
            for y in bs:
                if x is y:
                    continue
                if _intersects(rng(x), rng(y)) and _intersects((x["offset"], x["offset"] + x["size"]),
                                                              (y["offset"], y["offset"] + y["size"])):
                    g[id(x)].add(id(y))
        return {k: v for k, v in g.items() if v}

    byid = {id(b): b for b in bs}
    g = interference()
    total = 0
    while True:
        colors = {id(b): (0 if b is bs[0] else -1) for b in bs}
        for x in bs:
            avail = [True] * len(bs)
            for y in g.get(id(x), ()):
                c = colors[y]
                if c >= 0:
                    avail[c] = False
            colors[id(x)] = avail.index(True)
        total = 0
        for x in bs:
            new_off = 0
            for y in g.get(id(x), ()):
                new_off = max(new_off, byid[y]["offset"] + byid[y]["size"])
            if colors[id(x)] != 0:
                x["offset"] = _align(new_off, x["align"])
            total = max(total, x["offset"] + x["size"])
        g = interference()
        if not g:
            break
    return total, bs
