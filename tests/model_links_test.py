#!/usr/bin/env python3
"""The model library links nothing but the standard library (CTest `model_links`).

Two checks, either one fails the test:
 1. --links FILE: what CMake says tilefit_model links, written at generate time as
    `LINK_LIBRARIES=...` and `INTERFACE_LINK_LIBRARIES=...` lines (tests/CMakeLists.txt): both
    must be empty (no fmt::fmt, no nlohmann_json::nlohmann_json, no other tilefit library).
 2. --archive libtilefit_model.a with --lib LIB...: every symbol the archive's objects use and do
    not define themselves is defined by one of the standard libraries given (libstdc++, libm,
    libc, libgcc_s, the dynamic loader), or is one the linker makes (_GLOBAL_OFFSET_TABLE_,
    __dso_handle). A compiled library used without linking it (fmt's vformat, a CUDA call) shows
    up here as an undefined symbol no standard library defines.

Usage: model_links_test.py --links FILE [--archive A --nm NM --lib L [--lib L ...]]
"""
import argparse
import os
import subprocess
import sys

LINKER_MADE = {"_GLOBAL_OFFSET_TABLE_", "__dso_handle", "_DYNAMIC"}


def symbols(nm, path, *flags):
    out = subprocess.run([nm, "--format=posix", *flags, path], check=True, capture_output=True,
                         text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # posix format: "name type [value size]"; archive member headers end with ':' or ']:'.
        if len(parts) >= 2 and not line.endswith(":"):
            names.add(parts[0].split("@")[0])
    return names


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                             check=True).stdout.splitlines()
        return out if len(out) == len(names) else list(names)
    except (OSError, subprocess.CalledProcessError):
        return list(names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--links", required=True)
    ap.add_argument("--archive")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--lib", action="append", default=[])
    a = ap.parse_args()

    problems = []
    with open(a.links, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            deps = [d for d in value.split(";") if d]
            if deps:
                problems.append(f"tilefit_model {key}: {', '.join(deps)}")

    if a.archive:
        undefined = symbols(a.nm, a.archive, "--undefined-only")
        defined = symbols(a.nm, a.archive, "--defined-only")
        external = sorted(undefined - defined - LINKER_MADE)
        provided = set()
        for lib in a.lib:
            provided |= symbols(a.nm, lib, "-D", "--defined-only")
        missing = [s for s in external if s not in provided]
        if missing:
            shown = demangle(missing)
            problems.append(f"{os.path.basename(a.archive)} uses {len(missing)} symbol(s) no standard library "
                            f"defines: {'; '.join(shown[:10])}" + (" ..." if len(shown) > 10 else ""))
        elif not external:
            problems.append(f"{os.path.basename(a.archive)} uses no outside symbol at all: not the archive?")

    for p in problems:
        print(f"error: {p}; the model links nothing but the standard library", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
