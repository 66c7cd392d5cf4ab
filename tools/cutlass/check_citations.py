#!/usr/bin/env python3
"""Check that the CUTLASS `file:line` citations in tilefit's sources still point at the code
they name.

    check_citations.py --cutlass PATH [--markdown OUT.md] [--json OUT.json] [DIR ...]

DIRs default to src/ and include/ (relative to the current directory). Every C++ comment and
string literal is scanned for citations:

  explicit   `sm90_builder.inl:112-165`, `gemm/device/gemm.h:482-487, 606`,
             `arch.h L44`, `mma_base.h l.128`
  bare       `L240-261`, `(L147-149)`, `array :225`: the file comes from a qualifier word
             before it (`builder L240` -> the file the source's header labels "Builder:";
             `array L269` next to `sm120_mma_tma.hpp:12` -> its sibling `sm120_mma_array_tma.hpp`),
             else from the nearest explicit citation before it in the same comment, else from
             the CUTLASS files named in the source file's header comment (or its .hpp's).
  path only  `epilogue/collective/builders/sm100_builder.inl`: existence is checked.

A file name resolves against the CUTLASS tree (as given, under include/, include/cutlass/, or
by path suffix). When a short name matches several files the one under a directory the same
source file names in full wins; otherwise the one whose cited lines hold the named code.

What a citation claims: the CUTLASS names in the same clause of the comment (the sentence
around the citation; when it names none, the names within 160 characters):
`backticked` code, identifiers with an underscore, CamelCase or a `k` prefix, identifiers
followed by `(`, `<`, `::` or `[`, and "quoted" text (static_assert messages). Only names
that occur somewhere in the CUTLASS tree count (tilefit's own names are ignored). A citation
checks out when at least one of its names occurs within the cited lines, widened by
--tolerance lines (default 3) on each side. A citation whose clause names no CUTLASS code is
`unverified` (file and lines exist; nothing to compare) and does not fail.

Exit status: 0 when every citation checks out, 1 otherwise, 2 on usage errors.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import json
import os
import re
import sys
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

SOURCE_EXTS = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".inl", ".cc")
CUTLASS_EXTS = (".h", ".hpp", ".inl", ".cuh", ".cu", ".py", ".cpp")
FOREIGN_MARKERS = ("TensorRT-LLM", "TRT-LLM", "FlashInfer", "CCCL", "libcudacxx", "vLLM",
                   "SGLang", "Triton", "cutlass_extensions", "nlohmann", "fmt 9", "{fmt}")
# Paths of other projects that tilefit cites (Triton's source tree, fmt, nlohmann_json).
FOREIGN_PREFIXES = ("libcudacxx/", "python/triton/", "third_party/", "backend/", "fmt/")

# ---------------------------------------------------------------------------------------
# Lexing: comments and string literals of a C++ file
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class Segment:
    kind: str                 # "comment" or "string"
    path: str                 # tilefit source file
    text: str
    #: (offset in text, source line) pairs, ascending: maps text offsets to source lines.
    marks: List[Tuple[int, int]]
    full_line: bool = True    # comment: starts its line (no code before it)
    code: str = ""            # trailing comment: the code on its line

    def line_at(self, offset: int) -> int:
        i = bisect.bisect_right([m[0] for m in self.marks], offset) - 1
        return self.marks[max(i, 0)][1]


def lex(path: str, src: str) -> List[Segment]:
    """Comments (consecutive full-line // comments merged into one block) and string
    literals (adjacent literals of one expression merged) of a C++ source."""
    raw: List[Tuple[str, int, str, bool, int, int]] = []  # kind, line, text, full, start, end
    codes: Dict[int, str] = {}
    i, n, line = 0, len(src), 1
    line_start = 0
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            line_start = i
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            full = src[line_start:i].strip() == ""
            raw.append(("comment", line, src[i + 2:j].lstrip("/!").rstrip(), full, i, j))
            codes[len(raw) - 1] = "" if full else src[line_start:i]
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j
            body = src[i + 2:j]
            for k, part in enumerate(body.split("\n")):
                raw.append(("comment", line + k, part.strip().lstrip("*").strip(),
                            k > 0 or src[line_start:i].strip() == "", i, j + 2))
            line += body.count("\n")
            i = j + 2
            continue
        m = re.match(r'R"([^()\\\s]{0,16})\(', src[i:i + 20])
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end
            body = src[i + len(m.group(0)):end]
            raw.append(("string", line, body, False, i, end + len(m.group(1)) + 2))
            line += body.count("\n")
            i = end + len(m.group(1)) + 2
            continue
        if c == '"':
            j = i + 1
            buf = []
            while j < n and src[j] != '"':
                if src[j] == "\\" and j + 1 < n:
                    buf.append({"n": " ", "t": " ", '"': '"', "\\": "\\"}.get(src[j + 1], src[j + 1]))
                    j += 2
                    continue
                if src[j] == "\n":
                    break
                buf.append(src[j])
                j += 1
            raw.append(("string", line, "".join(buf), False, i, j + 1))
            i = j + 1
            continue
        if c == "'":
            # char literal or digit separator (1'000): skip a short literal only
            m = re.match(r"'(\\.|[^'\\\n])'", src[i:i + 5])
            i += len(m.group(0)) if m else 1
            continue
        i += 1
    # Merge: comment blocks (consecutive lines, the later one a full-line comment) and string
    # runs (literals on the same or consecutive lines: one message built in one expression).
    segs: List[Segment] = []
    last_end = 0
    for idx, (kind, ln, text, full, start, end) in enumerate(raw):
        last = segs[-1] if segs else None
        if (last is not None and last.kind == kind and
                ((kind == "comment" and full and last.full_line and
                  last.marks[-1][1] == ln - 1) or
                 (kind == "string" and last.marks[-1][1] >= ln - 1 and
                  ";" not in src[last_end:start] and "{" not in src[last_end:start]))):
            if kind == "comment":
                sep = "\n"
            else:
                # adjacent literals concatenate; anything else between them (+ expr +) is a
                # gap that must not glue two numbers together
                sep = "" if src[last_end:start].strip() == "" else " … "
            last.marks.append((len(last.text) + len(sep), ln))
            last.text += sep + text
            last_end = end
            continue
        segs.append(Segment(kind, path, text, [(0, ln)], full, codes.get(idx, "")))
        last_end = end
    return segs


# ---------------------------------------------------------------------------------------
# The CUTLASS tree
# ---------------------------------------------------------------------------------------

class Tree:
    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.files: List[str] = []   # relative to root
        for base in ("include", "tools", "python", "examples"):
            top = os.path.join(self.root, base)
            for d, _, fs in os.walk(top):
                for f in fs:
                    if f.endswith(CUTLASS_EXTS):
                        self.files.append(os.path.relpath(os.path.join(d, f), self.root))
        self.by_name: Dict[str, List[str]] = {}
        for f in self.files:
            self.by_name.setdefault(os.path.basename(f), []).append(f)
        self._lines: Dict[str, List[str]] = {}
        self._names: Optional[Set[str]] = None

    def lines(self, rel: str) -> List[str]:
        if rel not in self._lines:
            with open(os.path.join(self.root, rel), encoding="utf-8", errors="replace") as f:
                self._lines[rel] = f.read().split("\n")
        return self._lines[rel]

    def scopes(self, rel: str) -> List[Tuple[int, int, str, str]]:
        """(first line, last line, name, declaration text) of every struct/class/union body
        of a file (a light brace scanner: comments and literals skipped)."""
        if not hasattr(self, "_scopes"):
            self._scopes: Dict[str, List[Tuple[int, int, str, str]]] = {}
        if rel in self._scopes:
            return self._scopes[rel]
        text = "\n".join(self.lines(rel))
        clean = re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])'",
                       lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
        line_of = [0] * (len(clean) + 1)
        ln = 1
        for i, ch in enumerate(clean):
            line_of[i] = ln
            if ch == "\n":
                ln += 1
        line_of[len(clean)] = ln
        pending: Dict[int, Tuple[str, str]] = {}   # offset of '{' -> (name, decl)
        for m in re.finditer(r"\b(?:struct|class|union)\s+(?:alignas\s*\([^)]*\)\s*)?"
                             r"([A-Za-z_]\w*)", clean):
            after = clean[m.end():m.end() + 200].lstrip()
            if after[:1] in (",", ">", "=", ")") or after[:1] == "":
                continue   # a template parameter or an elaborated type
            j = m.end()
            depth = 0
            while j < len(clean) and j - m.end() < 4000:
                ch = clean[j]
                if ch in "(<[":
                    depth += 1
                elif ch in ")>]":
                    depth -= 1
                elif ch == ";" and depth <= 0:
                    break
                elif ch == "{":
                    pending[j] = (m.group(1), clean[m.start():j])
                    break
                j += 1
        fn_rx = re.compile(r"([A-Za-z_]\w*)\s*\([^{};]*\)\s*(?:const\s*)?(?:noexcept\s*)?"
                           r"(?:override\s*)?(?:->\s*[^{};()]+)?\s*$")
        out: List[Tuple[int, int, str, str]] = []
        stack: List[Tuple[int, Optional[Tuple[str, str]]]] = []
        for i, ch in enumerate(clean):
            if ch == "{":
                info = pending.get(i)
                if info is None:
                    fm = fn_rx.search(clean[max(0, i - 400):i])
                    if fm and fm.group(1) not in ("if", "for", "while", "switch", "catch",
                                                  "return", "sizeof", "decltype", "alignas"):
                        info = (fm.group(1), fm.group(0))
                stack.append((i, info))
            elif ch == "}" and stack:
                start, info = stack.pop()
                if info:
                    out.append((line_of[start], line_of[i], info[0], info[1]))
        self._scopes[rel] = out
        return out

    def names(self) -> Set[str]:
        """Every identifier of the tree (to tell CUTLASS names from tilefit's own)."""
        if self._names is None:
            s: Set[str] = set()
            rx = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
            for f in self.files:
                s.update(rx.findall("\n".join(self.lines(f))))
            self._names = s
        return self._names

    def resolve(self, token: str) -> List[str]:
        """Files of the tree a cited path may mean."""
        t = token.lstrip("./")
        for prefix in ("", "include/", "include/cutlass/"):
            if os.path.isfile(os.path.join(self.root, prefix + t)):
                return [prefix + t]
        cands = self.by_name.get(os.path.basename(t), [])
        return [c for c in cands if c == t or c.endswith("/" + t)]


# ---------------------------------------------------------------------------------------
# Citations
# ---------------------------------------------------------------------------------------

NAME_PART = r"(?:[\w\-]|\[[\w\-]*\]|\{[\w,\-]*\})+"
PATH_RX = re.compile(
    r"(?<![\w/.\-\]}])(" + NAME_PART + r"(?:/" + NAME_PART + r")*\.(?:hpp|h|inl|cuh|cu|py))\b")
RANGE = r"\d+(?:\s*[-–‑]\s*\d+)?"
# after a path: ":12", ":12-20", " L12", " l.12", then ", 30-40" continuations
LINES_AFTER_PATH = re.compile(
    r"(?::|\s+L|\s+l\.\s?)(" + RANGE + r"(?:\s*,\s*L?" + RANGE + r"(?=[\s),;.\]]|$))*)")
BARE_RX = re.compile(
    r"(?<![\w.:/])(?:L|l\.\s?)(?=\d\d)(" + RANGE + r"(?:\s*,\s*L?" + RANGE + r"(?=[),;\]]|$))*)\b"
    r"|(?<=\s):(" + RANGE + r")\b")


@dataclasses.dataclass
class Citation:
    src: str                     # tilefit file
    line: int                    # tilefit line
    kind: str                    # comment / string
    text: str                    # the citation as written
    token: Optional[str]         # cited path (None: bare line reference)
    ranges: List[Tuple[int, int]]
    offset: int                  # in the segment text
    qualifier: str = ""
    resolved: Optional[str] = None
    how: str = ""
    names: List[str] = dataclasses.field(default_factory=list)
    verdict: str = ""            # ok / unverified / path-only / FAIL / foreign / tilefit
    reason: str = ""
    found: Dict[str, List[int]] = dataclasses.field(default_factory=dict)
    cited_text: List[str] = dataclasses.field(default_factory=list)
    block_names: List[str] = dataclasses.field(default_factory=list)
    elided: bool = False         # written "…name.hpp": the start of the name is left out


def parse_ranges(spec: str) -> List[Tuple[int, int]]:
    out = []
    for part in re.split(r"\s*,\s*", spec.strip()):
        part = part.lstrip("L")
        m = re.match(r"(\d+)(?:\s*[-–‑]\s*(\d+))?$", part)
        if m:
            a = int(m.group(1))
            b = int(m.group(2)) if m.group(2) else a
            out.append((a, b))
    return out


def expand_pattern(token: str) -> List[str]:
    """`sm90_gemm_[array_]tma_{a,b}.hpp` -> every spelling."""
    m = re.search(r"\[([^\]]*)\]", token)
    if m:
        return (expand_pattern(token[:m.start()] + token[m.end():]) +
                expand_pattern(token[:m.start()] + m.group(1) + token[m.end():]))
    m = re.search(r"\{([^}]*)\}", token)
    if m:
        out = []
        for alt in m.group(1).split(","):
            out += expand_pattern(token[:m.start()] + alt + token[m.end():])
        return out
    return [token]


def find_citations(seg: Segment) -> List[Citation]:
    out: List[Citation] = []
    taken: List[Tuple[int, int]] = []
    for m in PATH_RX.finditer(seg.text):
        token = m.group(1)
        end = m.end()
        lm = LINES_AFTER_PATH.match(seg.text, end)
        ranges = parse_ranges(lm.group(1)) if lm else []
        stop = lm.end() if lm else end
        taken.append((m.start(), stop))
        cit = Citation(seg.path, seg.line_at(m.start()), seg.kind,
                       seg.text[m.start():stop].replace("\n", " "), token, ranges, m.start())
        cit.elided = seg.text[max(0, m.start() - 3):m.start()].endswith(("…", "..."))
        out.append(cit)
    for m in BARE_RX.finditer(seg.text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        spec = m.group(1) or m.group(2)
        ranges = parse_ranges(spec)
        if not ranges:
            continue
        before = seg.text[max(0, m.start() - 40):m.start()]
        words = re.findall(r"[A-Za-z][\w\-]*", before.split("(")[-1].split(",")[-1].split(";")[-1])
        qual = " ".join(words[-2:]).lower()
        out.append(Citation(seg.path, seg.line_at(m.start()), seg.kind,
                            seg.text[m.start():m.end()].replace("\n", " "), None, ranges,
                            m.start(), qualifier=qual))
    out.sort(key=lambda c: c.offset)
    return out


# ---------------------------------------------------------------------------------------
# What a comment names
# ---------------------------------------------------------------------------------------

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"

#: Words that are code-like but name no particular code: math and language keywords.
STOP = {"floor", "ceil", "min", "max", "sizeof", "alignof", "alignas", "static_assert",
        "decltype", "bits", "size", "gcd", "abs", "log2", "round_up", "round_down", "ru", "rd",
        "ceil_div", "int", "float", "double", "void", "bool", "true", "false", "nullptr",
        "const", "constexpr", "std", "cute", "cutlass", "gemm", "epilogue", "collective",
        "detail", "kernel", "device", "arch", "fusion", "thread", "threadblock", "warp",
        "layout", "make_shape", "size_t", "operator", "template", "typename", "using", "struct", "class", "union",
        "if", "else", "return", "for", "while", "this"}


def clause_bounds(text: str, pos: int) -> Tuple[int, int]:
    """The sentence around `pos`: boundaries at '. ' + capital, ';', ':' + newline, a blank
    line, a new bullet line, and a new line that starts with a `Label:` or a path (a list)."""
    rx = re.compile(r"\.\s+(?=[A-Z`(\"])|;|:\n|\n\s*\n|\n\s*(?:[*\-•]|\d+\.)\s"
                    r"|\n(?=\s*[A-Za-z][\w \-]{0,24}:\s)|\n(?=\s*[\w./\-\[\]{}]+\.(?:hpp|h|inl|cuh|cu|py)\b)")
    depth_at = []
    d = 0
    for ch in text:
        depth_at.append(d)
        if ch == "(":
            d += 1
        elif ch == ")":
            d = max(0, d - 1)
    bounds = [(m.start(), m.end()) for m in rx.finditer(text)
              if not (m.group(0) == ";" and depth_at[m.start()] > 0)]
    # a line indented less than the one before it starts a new item of an outline
    prev_indent = None
    for m in re.finditer(r"\n([ \t]*)(?=\S)", text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        cur_prev = len(text[line_start:m.start()]) - len(text[line_start:m.start()].lstrip())
        if len(m.group(1)) < cur_prev:
            bounds.append((m.start(), m.start() + 1))
    bounds.sort()
    start, end = 0, len(text)
    for bs, be in bounds:
        if be <= pos:
            start = be
        elif bs >= pos:
            end = bs
            break
    return start, end


def mask_paths(text: str) -> str:
    """Blanks every cited path (and its line numbers) so file names are not taken as code."""
    def blank(m: "re.Match[str]") -> str:
        return " " * (m.end() - m.start())
    out = PATH_RX.sub(blank, text)
    return re.sub(r"(?<![\w.:/])(?:L|l\.\s?)\d+(?:\s*[-–‑]\s*\d+)?", blank, out)


def code_names(text: str) -> List[str]:
    """Code-like names and quoted text in a piece of comment (paths already masked).
    Quoted text right after a possessive ("cute's \"...\"") is attributed to that other code
    and skipped; `a::b::c` counts as `c`."""
    names: List[str] = []

    def add(x: str) -> None:
        if x and x not in names and x.lower() not in STOP:
            names.append(x)

    for q in re.findall(r"`([^`]+)`", text):
        for ident in re.findall(IDENT + r"(?!\s*::)", q):
            if len(ident) > 2 and not ident.isdigit():
                add(ident)
    for m in re.finditer(r'"([^"\n]{8,})"', text):
        if re.search(r"\w's\s*$", text[max(0, m.start() - 12):m.start()]):
            continue
        add('"' + m.group(1).strip() + '"')
    for m in re.finditer(IDENT, text):
        w = m.group(0)
        nxt = text[m.end():m.end() + 2]
        if nxt == "::":
            continue  # a namespace or class qualifier: the last component is the name
        code_like = (
            ("_" in w.strip("_") and not w.isupper()) or
            re.search(r"[a-z][A-Z]", w) is not None or
            re.match(r"k[A-Z]", w) is not None or
            (nxt[:1] in ("(", "<", "[") and len(w) > 2)
        )
        if w.isupper() and "_" not in w:
            code_like = False  # acronyms: TMA, SM120, MXF8F6F4
        if code_like:
            add(w)
    return names


def cutlass_form(n: str, cutlass_names: Set[str]) -> Optional[str]:
    """`n` as CUTLASS spells it (quoted text as is; a plural falls back to its singular),
    or None when CUTLASS has no such name (a tilefit name)."""
    if n.startswith('"'):
        return n
    if n in cutlass_names:
        return n
    if n.endswith("s") and n[:-1] in cutlass_names and n[:-1].lower() not in STOP:
        return n[:-1]
    return None


def clause_for(text: str, pos: int) -> Tuple[int, int]:
    """clause_bounds, continued past a clause that ends in ':' + newline (the lines after it
    explain the citation) up to the next blank line."""
    a, b = clause_bounds(text, pos)
    if text[b:b + 2] == ":\n":
        m = re.compile(r"\n\s*\n").search(text, b + 2)
        b = m.start() if m else len(text)
    return a, b


def claim_names(seg: Segment, cit: Citation, cutlass_names: Set[str]) -> List[str]:
    """The CUTLASS names the clause around `cit` uses (every citation of a clause shares
    them: it checks out when any of them is at its lines)."""
    text = mask_paths(seg.text)
    a, b = clause_for(seg.text, cit.offset)
    out: List[str] = []
    for n in code_names(text[a:b]):
        f = cutlass_form(n, cutlass_names)
        if f and f not in out:
            out.append(f)
    if not seg.full_line and seg.code:
        # a trailing comment claims the code of its line: its numbers (>= 3 digits)
        for num in re.findall(r"(?<![\w.])\d{3,}(?![\w.])", seg.code):
            if num not in out:
                out.append(num)
    return out


def occurs(name: str, text: str) -> bool:
    """`name` in `text` as a whole word; quoted text matches when its first 40 characters
    appear, or when 60% of its words of 3+ characters do (messages tilefit abbreviates)."""
    if name.startswith('"'):
        body = re.sub(r"\s+", " ", name.strip('"'))
        hay = re.sub(r"\s+", " ", text)
        if body[:40] in hay:
            return True
        words = [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", body)]
        return bool(words) and sum(1 for w in words if w in hay) >= 0.6 * len(words) and \
            len(words) >= 2
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", text) is not None


# ---------------------------------------------------------------------------------------
# Resolution and checking
# ---------------------------------------------------------------------------------------

@dataclasses.dataclass
class SourceContext:
    """Per tilefit file: the CUTLASS files its header comment names (with labels), every
    CUTLASS file it cites explicitly, and the directories it names in full."""
    header: List[Tuple[str, str, List[str]]]   # (label, qualifier, files)
    cited: List[str]
    full_dirs: Set[str]


def header_comment(segs: List[Segment]) -> Optional[Segment]:
    return segs[0] if segs and segs[0].kind == "comment" and segs[0].marks[0][1] <= 3 else None


def read_header(seg: Optional[Segment], tree: Tree) -> List[Tuple[str, str, List[str]]]:
    """(label, qualifier, files) for each CUTLASS path of a header comment, e.g.
    `// Builder:   gemm/collective/builders/x.inl` -> ("builder", "", [...]) and
    `//            gemm/collective/y_array.hpp (grouped)` -> (label above, "grouped", [...])."""
    out: List[Tuple[str, str, List[str]]] = []
    if seg is None:
        return out
    label = ""
    for line in seg.text.split("\n"):
        m = re.match(r"\s*([A-Za-z][\w \-]{0,24}?):\s+(.*)$", line)
        body = line
        if m and PATH_RX.search(m.group(2)):
            label = m.group(1).strip().lower()
            body = m.group(2)
        elif not re.match(r"\s{2,}", line):
            label = ""
        for pm in PATH_RX.finditer(body):
            files: List[str] = []
            for t in expand_pattern(pm.group(1)):
                files += tree.resolve(t)
            qual = ""
            q = re.match(r"[^(]*?\(([\w\- ,]+)\)", body[pm.end():pm.end() + 40])
            if q and not re.match(r"\s*[:\d]", body[pm.end():pm.end() + 2]):
                qual = q.group(1).lower()
            if files:
                out.append((label, qual, sorted(set(files))))
    return out


SYNONYMS = {"collective": ["mainloop", "mainloops", "collective", "collectives"],
            "mainloop": ["mainloop", "mainloops"],
            "builder": ["builder", "builders"],
            "kernel": ["kernel", "kernels"],
            "epilogue": ["epilogue"]}


def label_files(ctx: SourceContext, q: List[str]) -> Tuple[List[str], str]:
    """Files of a header label the qualifier words name ("builder L240" -> "Builder: …";
    "array kernel L154" -> the "Kernels:" entry qualified "array" / "grouped")."""
    for word in q[::-1]:
        for lab in SYNONYMS.get(word, [word]):
            hits = [(l, qq, fs) for (l, qq, fs) in ctx.header
                    if l == lab or (l.split() and l.split()[-1] == lab)]
            if not hits:
                continue
            others = [w for w in q if w != word]
            for l, qq, fs in hits:
                if others and any(o in qq for o in others):
                    return fs, f"header label '{l}' ({qq})"
            for l, qq, fs in hits:
                if others and any(o in os.path.basename(f) for f in fs for o in others):
                    return [f for f in fs if any(o in os.path.basename(f) for o in others)], \
                        f"header label '{l}'"
            return hits[0][2], f"header label '{hits[0][0]}'"
    return [], ""


def sibling(tree: Tree, f: str, word: str) -> Optional[str]:
    """The file next to `f` whose name is f's name plus `word` (sm120_mma_tma.hpp + array ->
    sm120_mma_array_tma.hpp)."""
    d, base = os.path.split(f)
    stem, ext = os.path.splitext(base)
    toks = set(stem.split("_"))
    best = []
    for other in tree.files:
        od, ob = os.path.split(other)
        if od != d or ob == base or not ob.endswith(ext):
            continue
        otoks = set(os.path.splitext(ob)[0].split("_"))
        if toks <= otoks and word in otoks and len(otoks - toks) <= 2:
            best.append((len(otoks - toks), other))
    best.sort()
    if best and (len(best) == 1 or best[0][0] < best[1][0]):
        return best[0][1]
    return None


def resolve_bare(cit: Citation, prev_files: List[str], ctx: SourceContext,
                 tree: Tree) -> Tuple[List[str], str]:
    """The file(s) a line reference without a file name means (see the module doc)."""
    q = cit.qualifier.split()
    files, how = label_files(ctx, q)
    if files:
        return files, how
    if prev_files:
        f = prev_files[-1]
        for word in q[::-1]:
            w = word.replace("-", "_")
            if w in os.path.basename(f) or len(w) < 4:
                continue
            sib = sibling(tree, f, w)
            if sib:
                return [sib], f"sibling of {os.path.basename(f)} with '{w}'"
        return [f], "nearest explicit citation in the same comment"
    files = []
    for _, _, fs in ctx.header:
        for f in fs:
            if f not in files:
                files.append(f)
    if files:
        return files, "files named in the source's header comment"
    return [], "no file named before it"


def window(lines: List[str], a: int, b: int, tol: int) -> str:
    lo, hi = max(1, a - tol), min(len(lines), b + tol)
    return "\n".join(lines[lo - 1:hi])


def locate(tree: Tree, rel: str, names: Sequence[str], limit: int = 4) -> Dict[str, List[int]]:
    out: Dict[str, List[int]] = {}
    lines = tree.lines(rel)
    for n in names:
        hits = []
        for i, l in enumerate(lines, 1):
            if occurs(n, l):
                hits.append(i)
                if len(hits) >= limit:
                    break
        out[n] = hits
    return out


def counted_names(tree: Tree, rel: str, names: Sequence[str]) -> List[str]:
    """The names a citation into `rel` is checked against: quoted text always; identifiers
    and numbers only when they occur somewhere in `rel` (a name the file never mentions is
    notation or describes other code)."""
    text = "\n".join(tree.lines(rel))
    return [n for n in names if n.startswith('"') or occurs(n, text)]


def check_lines(tree: Tree, rel: str, cit: Citation, tol: int) -> Tuple[bool, str]:
    """See check_lines_() ; the comment block's names also count for a declaration the
    citation starts at."""
    return check_lines_(tree, rel, cit, tol)


def check_lines_(tree: Tree, rel: str, cit: Citation, tol: int) -> Tuple[bool, str]:
    """(ok, why) for the citation against one file: the lines exist, and one of the counted
    names is within the cited lines ± tol, or names a struct/class enclosing the first cited
    line (its name or its declaration, e.g. the arguments of a specialisation), or the file's
    own name is the enclosing struct's."""
    lines = tree.lines(rel)
    nlines = len(lines) - (1 if lines and lines[-1] == "" else 0)
    for a, b in cit.ranges:
        if a > b:
            return False, f"range {a}-{b} runs backwards"
        if a < 1 or b > nlines:
            return False, f"line {b} is past the end of the file ({nlines} lines)"
    names = counted_names(tree, rel, cit.names)
    if not names:
        return True, "unverified"
    stem = os.path.splitext(os.path.basename(rel))[0]
    for a, b in cit.ranges:
        if any(occurs(n, window(lines, a, b, tol)) for n in names):
            return True, "ok"
        for first, last, sname, decl in tree.scopes(rel):
            if first <= a <= last:
                if sname == stem or any(occurs(n, decl) for n in names
                                        if not n.startswith('"')):
                    return True, "ok (inside " + sname + ")"
            if abs(first - a) <= tol and sname in cit.block_names:
                return True, "ok (cites " + sname + ", which the comment names)"
    return False, "none of the named code is at the cited lines"


def check_tree(dirs: Sequence[str], tree: Tree, tol: int, repo_root: str) -> List[Citation]:
    cutlass_names = tree.names()
    sources: List[str] = []
    for d in dirs:
        for base, _, fs in os.walk(d):
            for f in sorted(fs):
                if f.endswith(SOURCE_EXTS):
                    sources.append(os.path.join(base, f))
    sources.sort()
    segs_by_file: Dict[str, List[Segment]] = {}
    for p in sources:
        with open(p, encoding="utf-8", errors="replace") as f:
            segs_by_file[p] = lex(p, f.read())
    repo_files: Set[str] = set()
    for base, dnames, fs in os.walk(repo_root):
        dnames[:] = [d for d in dnames if not d.startswith(".") and not d.startswith("build")]
        repo_files.update(fs)

    results: List[Citation] = []
    for p in sources:
        segs = segs_by_file[p]
        header = read_header(header_comment(segs), tree)
        stem = os.path.splitext(p)[0]
        for h in (stem + ".hpp", stem + ".h"):
            if h in segs_by_file and h != p:   # a .cpp also reads its .hpp's header
                header += read_header(header_comment(segs_by_file[h]), tree)
        ctx = SourceContext(header, [], set())
        found = [(seg, c) for seg in segs for c in find_citations(seg)]
        for seg, c in found:
            if c.token and "/" in c.token:
                for t in expand_pattern(c.token):
                    r = tree.resolve(t)
                    if len(r) == 1:
                        ctx.full_dirs.add(os.path.dirname(r[0]))
                        ctx.cited.append(r[0])
            elif c.token:
                r = tree.resolve(c.token)
                if len(r) == 1:
                    ctx.cited.append(r[0])
        for _, _, fs in header:
            if len(fs) == 1:
                ctx.full_dirs.add(os.path.dirname(fs[0]))
        ctx.header = [(l, q, ([f for f in fs if os.path.dirname(f) in ctx.full_dirs] or fs)
                       if len(fs) > 1 else fs) for (l, q, fs) in ctx.header]
        by_seg: Dict[int, List[Citation]] = {}
        for seg, c in found:
            by_seg.setdefault(id(seg), []).append(c)
        prev_by_seg: Dict[int, List[str]] = {}
        for seg, c in found:
            c.names = claim_names(seg, c, cutlass_names)
            c.block_names = [n for n in code_names(mask_paths(seg.text)) if not n.startswith('"')]
            prev = prev_by_seg.setdefault(id(seg), [])
            if c.token is None:
                check_bare(c, prev, ctx, tree, tol)
                results.append(c)
                continue
            tokens = expand_pattern(c.token)
            cands: List[str] = []
            for t in tokens:
                cands += tree.resolve(t)
            if c.elided:
                # "…pingpong.hpp" after "sm90_gemm_tma_warpspecialized_cooperative.hpp": the
                # file ending so whose name shares the longest start with the one before it
                ref = os.path.basename(prev[-1]) if prev else ""
                ends = [f for f in tree.files if os.path.basename(f).endswith(c.token)]
                if ref and ends:
                    best = max(ends, key=lambda f: len(os.path.commonprefix(
                        [os.path.basename(f), ref])))
                    cands = [best]
                    c.how = f"elided name completed from {ref}"
            if not cands:
                classify_unknown(c, tokens[0], seg.text, repo_files)
                results.append(c)
                continue
            if len(tokens) > 1:
                missing = [t for t in tokens if not tree.resolve(t)]
                c.resolved, c.how = ", ".join(sorted(set(cands))), "pattern"
                if missing:
                    c.verdict, c.reason = "FAIL", "pattern spellings missing: " + ", ".join(missing)
                else:
                    c.verdict, c.reason = "path-only", "pattern: every spelling exists"
                results.append(c)
                continue
            if not c.how:
                c.how = "path" if len(cands) == 1 else ""
            evaluate(c, cands, tree, tol, ctx.full_dirs)
            if c.resolved and "," not in c.resolved:
                prev.append(c.resolved)
            results.append(c)
    return results


def classify_unknown(c: Citation, token: str, seg_text: str, repo_files: Set[str]) -> None:
    base = os.path.basename(token)
    if base in repo_files or token.startswith(("tilefit/", "src/", "include/tilefit", "../",
                                               "tests/")):
        c.verdict, c.reason = "tilefit", "a tilefit file"
    elif any(mk in seg_text for mk in FOREIGN_MARKERS) or token.startswith(FOREIGN_PREFIXES):
        c.verdict, c.reason = "foreign", "not a CUTLASS file (the text names another project)"
    else:
        c.verdict, c.reason = "FAIL", "no such file in the CUTLASS checkout"


def check_bare(c: Citation, prev: List[str], ctx: SourceContext, tree: Tree, tol: int) -> None:
    cands, how = resolve_bare(c, prev, ctx, tree)
    c.how = how
    if not cands:
        c.verdict, c.reason = "FAIL", "cannot tell which file the line numbers refer to"
        return
    if len(cands) == 1:
        c.resolved = cands[0]
        ok, why = check_lines(tree, cands[0], c, tol)
        absent = why == "unverified" and bool(c.names) and \
            not counted_names(tree, cands[0], c.names)
        if ok and not absent:
            record(c, tree, ok, why)
            return
        # the implied file does not hold it: does another file this source cites?
        others = [f for f in dict.fromkeys(ctx.cited + [f for _, _, fs in ctx.header for f in fs])
                  if f != cands[0]]
        holders = [f for f in others if check_lines(tree, f, c, tol)[1].startswith("ok")]
        if absent and not holders:
            record(c, tree, True, why)   # names foreign to every candidate: notation
            return
        record(c, tree, False, why if not absent else
               "the file it implies never mentions the named code")
        if holders:
            c.reason = (f"the file it implies ({os.path.basename(cands[0])}, {how}) does not hold "
                        f"the named code there; " +
                        ", ".join(os.path.basename(h) for h in holders[:3]) +
                        " does: name the file")
        return
    # several candidate files (the source's header): the one(s) holding the named code
    holders = [f for f in cands if check_lines(tree, f, c, tol)[1].startswith("ok")]
    if len(holders) == 1:
        c.resolved = holders[0]
        c.how = how + "; chosen by content"
        record(c, tree, True, "ok")
    elif holders:
        c.resolved = ", ".join(holders)
        c.verdict = "unclear"
        c.reason = (f"no file named; {len(holders)} of the {len(cands)} files the header names "
                    "hold the named code there")
    elif not c.names:
        c.resolved = ", ".join(cands)
        c.verdict, c.reason = "unclear", "no file named, and the comment names no CUTLASS code"
    else:
        c.resolved = ", ".join(os.path.basename(x) for x in cands)
        c.verdict, c.reason = "FAIL", ("no file named, and none of the files the header names "
                                       "holds the named code at those lines")
        for f in cands:
            for n, hits in locate(tree, f, counted_names(tree, f, c.names)[:3], 2).items():
                if hits:
                    c.found[f"{n} in {f}"] = hits


def evaluate(c: Citation, cands: List[str], tree: Tree, tol: int, full_dirs: Set[str]) -> None:
    """An explicit citation. A short name matching several files: the one under a directory
    the same source names in full, else the one holding the named code; a choice the named
    code contradicts, or that nothing can make, is `unclear` (reported, not failing)."""
    all_cands = list(cands)
    if len(cands) > 1:
        near = [f for f in cands if os.path.dirname(f) in full_dirs]
        if len(near) == 1:
            cands = near
            c.how = "short name; its directory is named in full in the same file"
    if not c.ranges:
        c.resolved = ", ".join(cands)
        c.verdict = "path-only"
        c.reason = "exists" + (" (several files of that name)" if len(cands) > 1 else "")
        return
    if len(cands) == 1:
        c.resolved = cands[0]
        ok, why = check_lines(tree, cands[0], c, tol)
        if not ok and len(all_cands) > 1:
            holders = [f for f in all_cands
                       if f != cands[0] and check_lines(tree, f, c, tol)[1].startswith("ok")]
            if holders:
                record(c, tree, False, why)
                c.verdict = "unclear"
                c.reason = (f"short name: {len(all_cands)} files have it; the one under a "
                            f"directory this source names ({cands[0]}) does not hold the named "
                            f"code there, {', '.join(holders)} does: give the directory")
                return
        record(c, tree, ok, why)
        return
    holders = [f for f in cands if check_lines(tree, f, c, tol)[1].startswith("ok")]
    if len(holders) == 1:
        c.resolved = holders[0]
        c.how = "short name; chosen by content among " + ", ".join(cands)
        record(c, tree, True, "ok")
        return
    c.resolved = ", ".join(cands)
    if holders or not c.names:
        c.verdict = "unclear"
        c.reason = (f"short name matches {len(cands)} files; " +
                    (f"{len(holders)} hold the named code there" if holders
                     else "the comment names no code to tell them apart"))
        return
    c.verdict = "FAIL"
    c.reason = (f"short name matches {len(cands)} files and none holds the named code at those "
                "lines")
    for f in cands:
        for n, hits in locate(tree, f, c.names[:3], 2).items():
            if hits:
                c.found[f"{n} in {f}"] = hits


def record(c: Citation, tree: Tree, ok: bool, why: str) -> None:
    lines = tree.lines(c.resolved)
    c.cited_text = []
    for a, b in c.ranges[:2]:
        for ln in range(a, min(b, a + 1) + 1):
            if 1 <= ln <= len(lines):
                c.cited_text.append(f"{ln}: {lines[ln - 1].strip()[:110]}")
    if ok:
        c.verdict, c.reason = ("unverified" if why == "unverified" else "ok"), why
        return
    c.verdict, c.reason = "FAIL", why
    if c.names:
        c.found = {n: h for n, h in locate(tree, c.resolved, c.names[:6]).items()}


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------

def fmt_ranges(c: Citation) -> str:
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in c.ranges)


def describe(c: Citation) -> str:
    s = f"{c.src}:{c.line}: [{c.kind}] `{c.text}`"
    if c.resolved:
        s += f" -> {c.resolved}" + (f" ({c.how})" if c.how and c.how != "path" else "")
    s += f": {c.reason}"
    if c.names:
        s += "; names: " + ", ".join(c.names[:6])
    return s


def summary(results: List[Citation]) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for c in results:
        out[c.verdict] = out.get(c.verdict, 0) + 1
    return out


def write_markdown(path: str, results: List[Citation], cutlass: str, commit: str,
                   tol: int, dirs: Sequence[str]) -> None:
    s = summary(results)
    lines = [
        "# CUTLASS citations that do not check out",
        "",
        f"Generated by `python3 tools/cutlass/check_citations.py --cutlass <CUTLASS 4.7.0> "
        f"--markdown tools/cutlass/CITATIONS.md {' '.join(dirs)}` (CUTLASS commit "
        f"`{commit[:7]}`, tolerance ±{tol} lines). Regenerate after fixing; the heuristic is "
        "described in `tools/cutlass/README.md`.",
        "",
        f"Citations found in comments and string literals: {len(results)}. Checked OK: "
        f"{s.get('ok', 0)}. Unverified (file and lines exist; the clause names no CUTLASS "
        f"code, or only code the file never mentions): {s.get('unverified', 0)}. Path only "
        f"(no line numbers; the file exists): {s.get('path-only', 0)}. **Failing: "
        f"{s.get('FAIL', 0)}.** Unclear (which file is meant is ambiguous; not failing): "
        f"{s.get('unclear', 0)}. Not CUTLASS: tilefit's own files {s.get('tilefit', 0)}, "
        f"other projects {s.get('foreign', 0)}.",
        "",
    ]

    def entry(c: Citation) -> List[str]:
        out = [f"- **{c.src}:{c.line}** ({c.kind}) `{c.text}`"
               + (f" → `{c.resolved}`" if c.resolved else "")
               + (f" _(file: {c.how})_" if c.how and c.how != "path" else "")]
        out.append(f"  - {c.reason}"
                   + (f"; names in the comment: {', '.join('`' + n + '`' for n in c.names[:6])}"
                      if c.names else ""))
        if c.cited_text:
            out.append("  - the checkout has: " + " / ".join(f"`{t}`" for t in c.cited_text[:3]))
        if c.found:
            where = []
            for n, hits in c.found.items():
                where.append(f"`{n}` " + (f"at {', '.join(map(str, hits))}" if hits
                                          else "not in that file"))
            out.append("  - the named code is: " + "; ".join(where))
        return out

    for title, verdict in (("Failing", "FAIL"), ("Unclear (not failing)", "unclear")):
        picked = [c for c in results if c.verdict == verdict]
        lines.append(f"## {title}: {len(picked)}")
        lines.append("")
        for c in picked:
            lines.extend(entry(c))
        lines.append("")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines).rstrip() + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cutlass", required=True, help="CUTLASS 4.7.0 checkout")
    ap.add_argument("dirs", nargs="*", default=["src", "include"])
    ap.add_argument("--tolerance", type=int, default=3)
    ap.add_argument("--markdown", help="write the failing citations as Markdown")
    ap.add_argument("--json", help="write every citation as JSON")
    ap.add_argument("--all", action="store_true", help="print every citation, not only failures")
    args = ap.parse_args(argv)
    if not os.path.isdir(os.path.join(args.cutlass, "include", "cutlass")):
        print(f"error: {args.cutlass} has no include/cutlass", file=sys.stderr)
        return 2
    for d in args.dirs:
        if not os.path.isdir(d):
            print(f"error: no directory {d}", file=sys.stderr)
            return 2
    tree = Tree(args.cutlass)
    results = check_tree(args.dirs, tree, args.tolerance, os.getcwd())
    for c in results:
        if args.all or c.verdict == "FAIL":
            print(("FAIL " if c.verdict == "FAIL" else f"{c.verdict} ") + describe(c))
            if c.verdict == "FAIL":
                for t in c.cited_text[:2]:
                    print(f"      checkout: {t}")
                for n, hits in list(c.found.items())[:4]:
                    print(f"      {n}: " + (", ".join(map(str, hits)) if hits else "not in file"))
    s = summary(results)
    print(f"\n{len(results)} citations: " + ", ".join(f"{k} {v}" for k, v in sorted(s.items())))
    commit = "?"
    cf = os.path.join(args.cutlass, "COMMIT")
    if os.path.exists(cf):
        commit = open(cf, encoding="utf-8").read().strip()
    if args.markdown:
        write_markdown(args.markdown, results, args.cutlass, commit, args.tolerance, args.dirs)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([dataclasses.asdict(c) for c in results], f, indent=1)
    return 1 if s.get("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
