#!/usr/bin/env python3
"""Cross-check `tilefit schema` with an independent validator (the Python `jsonschema` package,
Debian python3-jsonschema): every shipped config file validates against the config schema, a
config with an unknown field does not, and `check`/`suggest --format json` over the shipped
configs validate against the results schema.

Usage: scripts/validate_schema.py path/to/tilefit   (run from anywhere; exit 77 without jsonschema)
"""
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (scripts/bootstrap.sh installs it): skipped")
    sys.exit(77)

tool = os.path.abspath(sys.argv[1])
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
files = sorted(glob.glob("configs/*.json"))
for f in files:
    for e in config.iter_errors(json.load(open(f))):
        failures.append(f"{f}: {e.json_path}: {e.message[:200]}")

bad = {"configs": [{"arch": "sm_120", "tile": [128, 128, 64], "stage": 2}]}
if config.is_valid(bad):
    failures.append("a config with the unknown field \"stage\" validates")

outputs = [
    ("check", *files, "--builtin", "--format", "json"),
    ("check", "configs/sm90_hopper.json", "--arch", "sm_90,sm_120", "--format", "json"),
    ("suggest", *files, "--builtin", "--format", "json"),
]
n = 0
for args in outputs:
    doc = json.loads(run(*args))
    n += len(doc["results"])
    for e in results.iter_errors(doc):
        failures.append(f"{' '.join(args[:1])}: {e.json_path}: {e.message[:200]}")

for f in failures:
    print("FAIL:", f)
print(f"jsonschema: {len(files)} config files, {n} results checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
