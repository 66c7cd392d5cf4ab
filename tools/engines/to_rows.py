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


def main():
    out = sys.argv[1]
    rows = {}
    for pair in sys.argv[2:]:
        jp, rp = pair.split(":")
        jobs = {j["id"]: j for j in json.load(open(jp))["jobs"]}
        for line in open(rp):
            r = json.loads(line)
            if r["id"].startswith("sanity_") or r["id"] not in jobs:
                continue
            j = jobs[r["id"]]
            rows[j["sig"]] = row_of(j, r)  # a later measurement of the same launch replaces it
    ordered = sorted(rows.values(), key=lambda r: (r["engine"], r["kernel"], r["table"], int(r["key"]), r["arch"]))
    seen = set()
    with open(out, "w") as f:
        for r in ordered:
            assert r["id"] not in seen, r["id"]
            seen.add(r["id"])
            f.write(json.dumps(r) + "\n")
    print(len(ordered), "rows ->", out)


if __name__ == "__main__":
    main()
