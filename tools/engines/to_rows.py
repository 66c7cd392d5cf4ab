#!/usr/bin/env python3
"""Join gen_jobs.py jobs with measure_engines.py results into ground-truth rows
(tests/data/engines-triton-3.6.jsonl format, README.md in this folder).

usage: to_rows.py OUT.jsonl JOBS.json:RESULTS.jsonl [JOBS.json:RESULTS.jsonl ...]
Jobs without a result (a run stopped at its time limit) give no row; sanity_* jobs are skipped.
"""
import json
import sys

# opt-in shared memory per block (bytes), `tilefit archs`
LIMITS = {"sm_80": 166912, "sm_86": 101376, "sm_89": 101376, "sm_90": 232448, "sm_100": 232448,
          "sm_103": 232448, "sm_120": 101376, "sm_121": 101376}


def row_of(job, res):
    launch = dict(res.get("launch", {}))
    for k in ("num_warps", "num_stages", "num_ctas"):
        if k in res:
            launch[k] = res[k]  # what the compiled kernel used (Triton's default where not passed)
    passed = set(job["config"])  # as the launcher passes it (gen_jobs.py)
    launch["defaults_applied"] = [k for k in ("num_warps", "num_stages", "num_ctas") if k not in passed]
    row = {"id": job["id"], "engine": job["engine"], "commit": job["commit"], "table": job["table"],
           "table_name": job["table_name"], "key": job["key"], "entry": job["entry"], "arch": job["arch"],
           "kernel": job["kernel"], "launch": launch}
    ctx = {"quant": job["quant"], "shape": job["shape"]}
    for k in ("block_shape", "per_channel", "swap_ab", "use_tma", "use_td", "naive_block_assignment",
              "group_size", "has_zp", "variant", "c_sorted", "filter_expert"):
        if k in job and job[k] is not None:
            ctx[k] = job[k]
    row["context"] = ctx
    if len(job["refs"]) > 1:
        row["also"] = [r for r in job["refs"][1:]]
    if "shared" in res:
        s = res["shared"]
        row["expect"] = {"status": "fits" if s <= LIMITS[job["arch"]] else "does_not_fit", "smem_bytes": s,
                         "limit_bytes": LIMITS[job["arch"]]}
        row["triton"] = {"version": res.get("triton", "3.6.0"), "metadata_shared": s}
    else:
        row["expect"] = {"status": "invalid", "error": res["error"]}
        if res.get("mlir"):
            row["expect"]["detail"] = res["mlir"][0]
        row["triton"] = {"version": res.get("triton", "3.6.0")}
    return row


def current_signatures():
    """Signatures of every launch the current gen_jobs.py rules make from the tables: a result
    measured under an earlier version of the rules (a stale job) gives no row."""
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_jobs as g
    tables, _ = g.read_tables("/work/engines/tables")
    sigs = set()
    for t in tables:
        for key, entry in t["entries"]:
            for arch, cc in g.TARGETS.items():
                for job in g.launches(t, key, entry, cc):
                    sigs.add(g.launch_signature(job))
    return sigs


def main():
    out = sys.argv[1]
    rows = {}
    valid = current_signatures()
    stale = 0
    for pair in sys.argv[2:]:
        jp, rp = pair.split(":")
        jobs = {j["id"]: j for j in json.load(open(jp))["jobs"]}
        for line in open(rp):
            r = json.loads(line)
            if r["id"].startswith("sanity_") or r["id"] not in jobs:
                continue
            if r.get("error", "").startswith("OutOfMemoryError"):
                continue  # the harness's own failure (tensor allocation), not a measurement
            j = jobs[r["id"]]
            if j["sig"] not in valid:
                stale += 1
                continue
            rows[j["sig"]] = row_of(j, r)  # a later measurement of the same launch replaces it
    ordered = sorted(rows.values(), key=lambda r: (r["engine"], r["kernel"], r["table"], int(r["key"]), r["arch"]))
    seen = set()
    with open(out, "w") as f:
        for r in ordered:
            assert r["id"] not in seen, r["id"]
            seen.add(r["id"])
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(len(ordered), "rows ->", out, f"({stale} stale results dropped)")


if __name__ == "__main__":
    main()
