#!/usr/bin/env python3
"""Join measure_attention.py results into rows (README.md "Row format").

usage: to_rows.py OUT.jsonl JOBS.json:RESULTS.jsonl[.gz] ...

One row per kernel launch: {"id", "engine", "config", "launch", "cc", "status", "shared",
"error", "holdout", "context", "dump"}. The row's config is the job's config with the overrides
as concrete values (what the launch got: "half" of BLOCK_N 32 is "block_n": 16); a launcher that
refused the config gives a row with stage "launcher" and no launch. Harness errors give no row
(counted on stderr)."""
import gzip
import json
import sys

ENGINE = {"vllm": "vllm@6adad087", "sglang": "sglang@d6ef6888"}
CONFIG_ORDER = ["kernel", "launcher", "op", "stage", "arch", "q_heads", "kv_heads", "head_dim", "head_dim_v",
                "kv_lora_rank", "rope_dim", "act_dtype", "kv_dtype", "q_dtype", "page_size", "sliding_window",
                "sinks", "logit_cap", "alibi", "phase", "num_seqs", "max_seqlen_q", "max_seq_len", "max_kv_splits",
                "sm_count", "context_len", "use_pdl", "deterministic", "block_m", "block_n", "block_h", "block_q",
                "tile_size", "block_dmodel", "block_dpe", "block_dv", "num_kv_splits", "num_warps", "num_stages"]


def opener(p):
    return gzip.open(p, "rt") if p.endswith(".gz") else open(p)


def main():
    out, srcs = sys.argv[1], sys.argv[2:]
    rows, dropped = [], 0
    for src in srcs:
        jobs_path, src = src.split(":", 1)
        overrides = {j["id"]: j.get("overrides", {}) for j in json.load(open(jobs_path))["jobs"]}
        # the overrides of one job resolve to the same values in every launch that has the knob:
        # gather them per job first
        res = [json.loads(l) for l in opener(src) if l.strip()]
        for r in res:
            r["overrides"] = overrides[r["id"]]
        per_job = {}
        for r in res:
            for k, v in (r.get("launch", {}) or {}).get("overrides_applied", {}).items():
                per_job.setdefault(r["id"], {}).setdefault(k, v)
            li = r.get("launcher_inputs") or {}
            for k in ("num_kv_splits", "max_kv_splits"):
                if k in (r.get("overrides") or {}) and k in li:
                    per_job.setdefault(r["id"], {})[k] = li[k]
        for r in res:
            if r.get("status") not in ("ok", "invalid"):
                dropped += 1
                continue
            cfg = dict(r["config"])
            cfg.update(per_job.get(r["id"], {}))
            cfg["stage"] = r.get("stage") or "all"
            cfg = {k: cfg[k] for k in CONFIG_ORDER if k in cfg}
            launch = r.get("launch")
            if launch:
                launch = {k: launch[k] for k in ("kernel", "file", "stage", "constexprs", "specialised_ints", "ints",
                                                 "tensors", "none_args", "options", "num_warps", "num_stages",
                                                 "q_dtype", "kv_dtype", "out_dtype", "grid") if k in launch}
            row = {"id": f"{r['id']}.{cfg['stage']}", "engine": ENGINE[r["engine"]], "config": cfg, "launch": launch,
                   "cc": r["cc"], "status": r["status"]}
            if r["status"] == "ok":
                row["shared"] = r["shared"]
                if r.get("alloc_shared") not in (None, r["shared"]):
                    row["alloc_shared"] = r["alloc_shared"]
            else:
                row["error"] = r.get("error")
                if str(row["error"]).startswith("PTXASError"):
                    # the reason is ptxas's own line, not the repro command the message ends with
                    import re
                    why = [re.sub(r"^ptxas\S*\s*(/\S+, line \d+; )?", "", x).strip()
                           for x in (r.get("error_full") or "").splitlines() if "fatal" in x or "error   :" in x]
                    if why:
                        row["error"] = "PTXASError: " + why[0][:300]
            row["holdout"] = bool(r.get("holdout"))
            row["context"] = dict(r.get("context") or {}, launcher_inputs=r.get("launcher_inputs"))
            if r.get("dump"):
                row["dump"] = r["dump"]
            rows.append(row)
    # unique ids: a job whose op launches the same stage twice (none expected) gets a suffix
    seen = {}
    for row in rows:
        n = seen.get(row["id"], 0)
        seen[row["id"]] = n + 1
        if n:
            row["id"] += f".{n}"
    with open(out, "w") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{len(rows)} rows ({sum(r['status'] == 'ok' for r in rows)} ok), {dropped} harness errors dropped",
          file=sys.stderr)


if __name__ == "__main__":
    main()
