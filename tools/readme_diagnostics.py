#!/usr/bin/env python3
"""Prints the README's diagnostic-code tables from include/tilefit/model/diagnostic_codes.def
and the .def files it includes (each rule library's and each family's own codes).

usage: tools/readme_diagnostics.py > /tmp/codes.md   (then paste between the README's markers)
tests/diagnostics_test.cpp checks that the README names every code; tests/family_parts_test.cpp
that each family's codes are in its table.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEF = ROOT / "include/tilefit/model/diagnostic_codes.def"
ENTRY = re.compile(r'^TILEFIT_DIAGNOSTIC(?:_PHRASED)?\((\w+), (\w+), "([^"]*)",', re.M)
TITLE = re.compile(r"^// ---- (.*?) -+$")
INCLUDE = re.compile(r'^#include "([^"]+)"')


def lines(path):
    """The lines of a .def file, with its includes expanded in place."""
    for line in path.read_text().splitlines():
        m = INCLUDE.match(line)
        if m:
            yield from lines((path.parent / m.group(1)).resolve())
        else:
            yield line


out = []
for line in lines(DEF):
    m = TITLE.match(line)
    if m:
        out.append(f"\n**{m.group(1)}**\n\n| code | severity | values |\n|---|---|---|")
        continue
    m = ENTRY.match(line)
    if m:
        keys = ", ".join(f"`{k}`" for k in m.group(3).split()) or "—"
        out.append(f"| `{m.group(1)}` | {m.group(2)} | {keys} |")
print("\n".join(out).strip())
