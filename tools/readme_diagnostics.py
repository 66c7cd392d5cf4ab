#!/usr/bin/env python3
"""Prints the README's diagnostic-code tables from include/tilefit/model/diagnostic_codes.def.

usage: tools/readme_diagnostics.py > /tmp/codes.md   (then paste between the README's markers)
tests/diagnostics_test.cpp checks that the README names every code.
"""
import pathlib
import re

DEF = pathlib.Path(__file__).resolve().parent.parent / "include/tilefit/model/diagnostic_codes.def"
out = []
for line in DEF.read_text().splitlines():
    m = re.match(r"// ---- (.*?) -+$", line)
    if m:
        out.append(f"\n**{m.group(1)}**\n\n| code | severity | values |\n|---|---|---|")
        continue
    m = re.match(r'TILEFIT_DIAGNOSTIC\((\w+), (\w+), "(.*)"\)', line)
    if m:
        keys = ", ".join(f"`{k}`" for k in m.group(3).split()) or "—"
        out.append(f"| `{m.group(1)}` | {m.group(2)} | {keys} |")
print("\n".join(out).strip())
