#!/usr/bin/env python3
"""Runs every console example of README.md and docs/**/*.md against the built tilefit and compares
its output (CTest docs_examples), so the examples cannot drift from the program.

The convention (docs/dev/writing-docs.md):
  - an example is a fenced block whose info string is `console`;
  - a line starting `$ ` is a command, run by bash from the repository root with the folder of
    the built tilefit first on PATH; lines right after it starting `> ` continue it (as the
    shell's second prompt shows them);
  - every other line, up to the next command, is its expected output: standard output followed
    by standard error (tilefit writes its errors after the results);
  - a line that is only `...` stands for any number of lines (none included), and `...` within a
    line for any text within that line; trailing blanks and blank lines at the end do not count;
  - a command that is only a comment (`$ # ...`) expects nothing.
Blocks that cannot run here (a GPU, another program's output) are `text`, never `console`.

usage: docs_examples_test.py --tilefit BUILD/tilefit [--root SRC] [FILE.md ...]
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(\S*)")


def console_blocks(path):
    """(first line number, [lines]) of every console block, the fence's indentation removed."""
    blocks = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.groups()
        body, j = [], i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence) and lines[j].strip().strip(fence[0]) == ""):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        if info == "console":
            blocks.append((i + 2, body))
        i = j + 1
    return blocks


def commands(start, body):
    """(line number, command, expected lines) of one block."""
    out = []
    for k, line in enumerate(body):
        if line.startswith("$ ") or line == "$":
            out.append([start + k, line[2:], []])
        elif line.startswith("> ") and out and not out[-1][2]:
            out[-1][1] += "\n" + line[2:]
        elif out:
            out[-1][2].append(line)
        else:
            raise ValueError(f"line {start + k}: output before any `$ ` command")
    return out


def line_matches(pattern, line):
    if "..." not in pattern:
        return pattern == line
    rx = ".*".join(re.escape(p) for p in pattern.split("..."))
    return re.fullmatch(rx, line, re.S) is not None


def matches(expected, actual):
    """Whether the actual lines match the expected ones, `...` lines matching any run of lines."""
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i] == "...":
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(expected[i], actual[j]) and go(i + 1, j + 1)
        memo[i, j] = r
        return r

    return go(0, 0)


def trim(lines):
    lines = [l.rstrip() for l in lines]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilefit", required=True)
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[1]))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    files = [pathlib.Path(f) for f in a.files] or [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TILEFIT_")}
    env["PATH"] = str(pathlib.Path(a.tilefit).resolve().parent) + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C.UTF-8"
    ran = failed = 0
    for path in files:
        rel = path.resolve().relative_to(root.resolve())
        for start, body in console_blocks(path):
            try:
                cmds = commands(start, body)
            except ValueError as e:
                print(f"{rel}:{e}")
                failed += 1
                continue
            for line, cmd, expected in cmds:
                if cmd.lstrip().startswith("#"):
                    continue
                ran += 1
                r = subprocess.run(["bash", "-c", cmd], cwd=root, env=env, capture_output=True,
                                   text=True, errors="backslashreplace", timeout=120)
                actual = trim((r.stdout + r.stderr).splitlines())
                want = trim(expected)
                if not matches(want, actual):
                    failed += 1
                    print(f"{rel}:{line}: the output of `{cmd}` (exit {r.returncode}) differs from the example")
                    print("  expected:")
                    print("\n".join("    | " + l for l in want))
                    print("  got:")
                    print("\n".join("    | " + l for l in actual))
    print(f"{ran} console examples run, {failed} differ")
    return 1 if failed or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
