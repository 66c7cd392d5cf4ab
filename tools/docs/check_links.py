#!/usr/bin/env python3
"""Checks the Markdown of README.md and docs/ (CTest docs_links):

 1. every relative link and image resolves: the file or folder exists, and an anchor
    (`page.md#heading`, `#heading`) names a heading of that page, slugged as GitHub and MkDocs
    slug it (lower case, punctuation dropped, spaces to hyphens);
 2. no user page (README.md, docs/index.md, docs/guide/, docs/reference/) names a measurement
    run ("run Z", "runs C1 and C2") or an issue number ("issue 19", "#46721"): those narratives
    belong to tests/data/*.md, tools/*/README.md and docs/dev/.

Pages another branch is writing are listed in tools/docs/pending_pages.txt: a link to one of them
is accepted while it does not exist, and the check fails once it does (then delete its line).

usage: tools/docs/check_links.py [--root SRC]
"""
import argparse
import pathlib
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
NARRATIVE = [
    (re.compile(r"\b[Rr]uns? [A-Z][0-9]?\b(?!['’]s)"), "names a measurement run"),
    (re.compile(r"\b[Ii]ssues? #?[0-9]+"), "names an issue"),
    (re.compile(r"(?<![\w&/])#[0-9]{2,}\b"), "names an issue number"),
]


def prose_lines(text):
    """(line number, line) outside fenced blocks; inline code is blanked."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, re.sub(r"`[^`]*`", "``", line)


def slug(heading):
    s = re.sub(r"`([^`]*)`", r"\1", heading)
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = s.strip().lower()
    s = re.sub(r"[^\w\s-]", "", s)
    return re.sub(r"[-\s]+", "-", s).strip("-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        out = set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                k = seen.get(base, 0)
                seen[base] = k + 1
                out.add(base if k == 0 else f"{base}_{k}")
                out.add(base if k == 0 else f"{base}-{k}")
        cache[path] = out
    return cache[path]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]))
    a = ap.parse_args()
    root = pathlib.Path(a.root).resolve()
    pending = set()
    plist = root / "tools/docs/pending_pages.txt"
    problems = []
    for line in plist.read_text(encoding="utf-8").splitlines() if plist.exists() else []:
        line = line.split("#", 1)[0].strip()
        if line:
            pending.add((root / line).resolve())
            if (root / line).exists():
                problems.append(f"tools/docs/pending_pages.txt: {line} exists now: delete its line")
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    user = lambda p: p.name == "README.md" and p.parent == root or p.relative_to(root).parts[:2] in {
        ("docs", "guide"), ("docs", "reference"), ("docs", "index.md")}
    checked = 0
    for page in pages:
        rel = page.relative_to(root)
        text = page.read_text(encoding="utf-8")
        for n, line in prose_lines(text):
            if user(page):
                for rx, what in NARRATIVE:
                    m = rx.search(line)
                    if m:
                        problems.append(f"{rel}:{n}: \"{m.group(0)}\" {what}; user pages do not "
                                        "(move the narrative to tests/data/*.md, tools/*/README.md or docs/dev/)")
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue
                checked += 1
                path, _, anchor = target.partition("#")
                dest = (page.parent / path).resolve() if path else page
                if not path == "" and not dest.exists():
                    if dest in pending:
                        continue
                    problems.append(f"{rel}:{n}: link to {target}: {path} does not exist")
                    continue
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    problems.append(f"{rel}:{n}: link to {target}: {dest.relative_to(root)} has no heading #{anchor}")
    for p in problems:
        print(p)
    print(f"{len(pages)} pages, {checked} relative links checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
