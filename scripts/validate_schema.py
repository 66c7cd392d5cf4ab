#!/usr/bin/env python3
"""Cross-check `tilefit schema` with an independent validator (the Python `jsonschema` package,
Debian python3-jsonschema).

`schema config`: every shipped config file, tuned table and sweep space (configs/, docs/pictures/,
tests/data/tuned/, tests/data/amd_tables/ok/) and every measured config (the config of each row of
tests/data/*.jsonl and of the measured rows CMake unpacks into the build tree: CUTLASS, Triton,
attention and AMD rows as config objects, the engines' rows as tuned-table entries, the kernel
names as kernel names) validates; a config with an unknown field does not.

`schema results`: every JSON output of check, sweep and suggest validates, on NVIDIA targets and
on AMD ones (gfx942, gfx950), over the shipped configs, the AMD tables and the measured configs;
the "config" each sweep and suggest result prints validates against `schema config` (one config
object).

Usage: scripts/validate_schema.py path/to/tilefit   (run from anywhere; exit 77 without jsonschema)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (scripts/bootstrap.sh installs it): skipped")
    sys.exit(77)

tool = os.path.abspath(sys.argv[1])
build_data = os.path.join(os.path.dirname(tool), "tests", "data")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)


def run(*args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    return p.stdout


config = jsonschema.Draft202012Validator(json.loads(run("schema", "config")))
results = jsonschema.Draft202012Validator(json.loads(run("schema", "results")))
jsonschema.Draft202012Validator.check_schema(config.schema)
jsonschema.Draft202012Validator.check_schema(results.schema)

failures = []


def check_config(label, doc):
    for e in config.iter_errors(doc):
        failures.append(f"schema config: {label}: {e.json_path}: {e.message[:200]}")
        return


# ---- inputs: the shipped files --------------------------------------------------------------
files = sorted(glob.glob("configs/*.json"))
inputs = files + sorted(glob.glob("docs/pictures/*.json"))
inputs += sorted(glob.glob("tests/data/tuned/**/*.json", recursive=True))
amd_tables = sorted(f for f in glob.glob("tests/data/amd_tables/ok/*.json")
                    if "backend=flydsl" not in f)  # FlyDSL's own configs: skipped by check
inputs += amd_tables
for f in inputs:
    check_config(f, json.load(open(f)))

# ---- inputs: every measured config ----------------------------------------------------------
row_files = sorted(glob.glob("tests/data/*.jsonl")) + sorted(glob.glob(os.path.join(build_data, "*.jsonl")))
measured = {}  # file -> distinct configs (as text) the rows hold
rows = 0
for path in row_files:
    seen = set()
    with open(path) as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            rows += 1
            if isinstance(row.get("config"), dict):
                text = json.dumps(row["config"], sort_keys=True)
            elif "entry" in row and "key" in row:
                text = json.dumps({"table": {row["key"]: row["entry"]}}, sort_keys=True)
            elif "name" in row and "expect" in row:
                text = json.dumps(row["name"])
            else:
                failures.append(f"{path}: a row without a config: {line[:120]}")
                continue
            seen.add(text)
    measured[path] = sorted(seen)
n_measured = 0
for path, texts in measured.items():
    configs, tables = [], []
    for t in texts:
        v = json.loads(t)
        if isinstance(v, dict) and list(v) == ["table"]:
            tables.append(v["table"])
        else:
            configs.append(v)
    n_measured += len(texts)
    # One document per file; on a failure, each config alone names the first that fails.
    if configs and not config.is_valid({"configs": configs}):
        for i, c in enumerate(configs):
            if not config.is_valid(c if isinstance(c, dict) else [c]):
                check_config(f"{os.path.basename(path)} config {json.dumps(c)[:160]}",
                             c if isinstance(c, dict) else [c])
                break
    for t in tables:
        check_config(f"{os.path.basename(path)} entry {json.dumps(t)[:160]}", t)

bad = {"configs": [{"arch": "sm_120", "tile": [128, 128, 64], "stage": 2}]}
if config.is_valid(bad):
    failures.append("a config with the unknown field \"stage\" validates")
if config.is_valid({"1": {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64,
                          "waves_per_eu": -1}}):
    failures.append("a tuned entry with waves_per_eu -1 validates")

# ---- outputs: check, sweep and suggest in JSON, NVIDIA and AMD --------------------------------
tmp = tempfile.mkdtemp(prefix="tilefit_schema_")
amd_configs = os.path.join(tmp, "amd_rows.json")
with open(amd_configs, "w") as fh:  # the AMD rows' configs (their own arch: gfx942, gfx950)
    amd = [json.loads(t) for p, ts in measured.items() if "amd" in os.path.basename(p) for t in ts]
    json.dump({"configs": [c for c in amd if isinstance(c, dict)][:3000]}, fh)
attention = os.path.join(tmp, "attention_rows.json")
with open(attention, "w") as fh:
    att = [json.loads(t) for p, ts in measured.items() if "attention" in os.path.basename(p)
           for t in ts]
    json.dump({"configs": [c for c in att if isinstance(c, dict)][:2000]}, fh)
h100 = "configs/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json"
outputs = [
    ("check", *files, "--builtin", "--format", "json"),
    ("check", "configs/sm90_hopper.json", "--arch", "sm_90,sm_120", "--format", "json"),
    ("check", "configs", "--format", "json"),
    ("check", *amd_tables, "--arch", "gfx942,gfx950", "--format", "json"),
    ("check", h100, "--arch", "gfx942,sm_90", "--format", "json"),
    ("check", amd_configs, "--format", "json"),
    ("check", attention, "--format", "json"),
    ("suggest", *files, "--builtin", "--format", "json"),
    ("suggest", *amd_tables, "--arch", "gfx950", "--format", "json"),
    ("suggest", h100, "--arch", "gfx942", "--format", "json"),
    ("sweep", "docs/pictures/moe_space.json", "--arch", "sm_90,sm_120", "--format", "json"),
    ("sweep", "docs/pictures/fp8_space.json", "--format", "json", "--all"),
    ("sweep", *amd_tables, "--arch", "gfx942,gfx950", "--format", "json", "--all"),
    ("sweep", h100, "--arch", "gfx950", "--format", "json"),
    # usage errors under --format json: still a results document, with "errors"
    ("check", "configs/sm90_hopper.json", "--arch", "nope", "--format", "json"),
    ("check", "configs/sm90_hopper.json", "--bogus", "--format", "json"),
    ("suggest", "configs/sm90_hopper.json", "--arch", "nope", "--format", "json"),
    ("sweep", "docs/pictures/moe_space.json", "--arch", "nope", "--format", "json"),
]
n = 0
n_emitted = 0
archs = set()
for args in outputs:
    text = run(*args)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        failures.append(f"{' '.join(args)[:160]}: not JSON: {text[:200]!r}")
        continue
    n += len(doc["results"])
    for r in doc["results"]:
        archs.add(r.get("arch"))
        # The config a result prints (sweep, suggest) is an input too: one config object.
        for c in [r.get("config")] + [x.get("config") for x in r.get("suggestions", [])]:
            if isinstance(c, dict):
                n_emitted += 1
                check_config(f"{args[0]}'s \"config\" {json.dumps(c)[:160]}", c)
    for e in results.iter_errors(doc):
        failures.append(f"schema results: {' '.join(args)[:160]}: {e.json_path}: {e.message[:200]}")
        break
for a in ("gfx942", "gfx950", "sm_90", "sm_120"):
    if a not in archs:
        failures.append(f"no result on {a}: the outputs above no longer cover it")

for f in failures:
    print("FAIL:", f)
print(f"jsonschema: {len(inputs)} input files, {n_measured} distinct measured configs of {rows} rows, "
      f"{n} results checked ({n_emitted} emitted configs), {len(failures)} failures")
sys.exit(1 if failures else 0)
