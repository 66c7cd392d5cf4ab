#!/usr/bin/env python3
"""Summarise measure_engines.py IR dumps (dump: true jobs): for each kernel variant the launch, the
measured `shared`, and from the module after AllocateSharedMemoryNv the layouts, ttg.shared and every
op that got an allocation.offset (the summary of tools/triton/summ.py).

usage: summarize_dumps.py JOBS.json RESULTS.jsonl DUMPDIR OUT.md
"""
import json
import os
import re
import sys

LOC = re.compile(r"\s*loc\([^()]*(\([^()]*\))?[^()]*\)")


def summ(path):
    out = []
    for line in open(path):
        s = line.strip()
        if s.startswith("#loc"):
            continue
        if s.startswith("#") and not s.startswith("#smem"):
            out.append("  " + s)
        elif s.startswith("module attributes"):
            m = re.search(r"ttg.shared = (\d+)", s)
            t = re.search(r"tensor_memory_size = (\d+)", s)
            out.append(f"  SHARED={m.group(1) if m else None} TMEM={t.group(1) if t else None}")
        elif "allocation.offset" in s:
            s = LOC.sub("", s)
            m = re.search(r"allocation.offset = (\d+)", s)
            op = re.search(r"(ttg|ttng|tt)\.[a-z_]+", s)
            out.append(f"  off={m.group(1):>7} {op.group(0) if op else '?'} : {s.split(' : ')[-1][:220]}")
    return out


def main():
    jobs = {j["id"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
    res = {}
    for line in open(sys.argv[2]):
        r = json.loads(line)
        res[r["id"]] = r
    d, out = sys.argv[3], []
    for p in sorted(os.listdir(d)):
        if not p.endswith(".alloc.mlir"):
            continue
        i = p[:-len(".alloc.mlir")]
        j, r = jobs.get(i, {}), res.get(i, {})
        desc = {k: j.get(k) for k in ("engine", "kernel", "arch", "quant", "block_shape", "per_channel", "swap_ab",
                                      "use_tma", "naive_block_assignment", "group_size", "variant") if j.get(k) is not None}
        out.append(f"## {i}\n")
        out.append(f"- variant: `{json.dumps(desc)}`")
        out.append(f"- shape: `{json.dumps(j.get('shape'))}`; table `{j.get('table_name')}` key {j.get('key')}")
        out.append(f"- launch: `{json.dumps(r.get('launch'))}`")
        out.append(f"- metadata.shared = {r.get('shared')}, alloc ttg.shared = {r.get('alloc_shared')}"
                   f" (num_warps {r.get('num_warps')}, num_stages {r.get('num_stages')}, num_ctas {r.get('num_ctas')})")
        out.append(f"- files: `{i}.ttgir` (TTGIR after the pipeliner), `{p}` (after AllocateSharedMemoryNv)\n")
        out.append("```")
        out.extend(summ(os.path.join(d, p)))
        out.append("```\n")
    with open(sys.argv[4], "w") as f:
        f.write("# IR dumps: buffers Triton 3.6 allocates per variant\n\n" + "\n".join(out))
    print(sys.argv[4], sum(1 for l in out if l.startswith("## ")), "dumps")


if __name__ == "__main__":
    main()
