#!/usr/bin/env python3
"""No include cycle in the sources: follows the `#include "..."` edges between the files under
src/ and include/ and prints each cycle as one line (`a -> b -> a`); exit 1 when there is one.

An include is resolved as the compiler does with `-Isrc -Iinclude`: first relative to the
including file's directory, then under src/, then under include/. Includes that resolve to
nothing in the tree (third-party or system headers) are not edges.

Two checks, each cycle printed with the files it goes through:
 * files: a loop among the files themselves (headers including each other, or a header
   including a .cpp);
 * units: a header and the source file of the same name are one unit
   (include/tilefit/io/config_reader.hpp and src/io/config_reader.cpp are `io/config_reader`),
   and unit A depends on unit B when a file of A includes a file of B. A loop there is two
   source files needing each other's headers (config_decoder.cpp including config_reader.hpp
   while config_reader.cpp includes config_decoder.hpp): the layering cycle the compiler does
   not see. A .cpp including its own header is not a cycle.

Usage: check_includes.py [ROOT]   (ROOT defaults to the repository holding this script)
CTest runs it as `include_cycles`.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".hpp", ".h", ".cpp", ".cc", ".cu", ".cuh", ".inl", ".def")
SEARCH_DIRS = ("src", "include")


def source_files(root):
    for top in SEARCH_DIRS:
        for dirpath, _dirs, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.normpath(os.path.join(dirpath, name))


def resolve(root, including, target):
    """The file `#include "target"` in `including` names, or None when it is not in the tree."""
    for base in [os.path.dirname(including)] + [os.path.join(root, d) for d in SEARCH_DIRS]:
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(candidate):
            return candidate
    return None


def include_graph(root):
    graph = {}
    for path in source_files(root):
        edges = []
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = INCLUDE.match(line)
                if m:
                    dest = resolve(root, path, m.group(1))
                    if dest is not None and dest not in edges:
                        edges.append(dest)
        graph[path] = edges
    for edges in list(graph.values()):
        for dest in edges:
            graph.setdefault(dest, [])
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm, iteratively (no recursion limit)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            edges = graph[node]
            while i < len(edges):
                nxt = edges[i]
                i += 1
                if nxt not in index:
                    work.append((node, i))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                out.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out


def shortest_cycle(graph, start, members):
    """The shortest path start -> ... -> start inside one component (breadth first)."""
    prev = {start: None}
    queue = [start]
    while queue:
        nxt_queue = []
        for node in queue:
            for dest in graph[node]:
                if dest not in members:
                    continue
                if dest == start:
                    path = [node]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    path.reverse()
                    return path + [start]
                if dest not in prev:
                    prev[dest] = node
                    nxt_queue.append(dest)
        queue = nxt_queue
    return None


def unit_of(root, path):
    """`io/config_reader` for include/tilefit/io/config_reader.hpp and src/io/config_reader.cpp."""
    stem = os.path.splitext(os.path.relpath(path, root))[0].replace(os.sep, "/")
    for prefix in ("include/tilefit/", "include/", "src/"):
        if stem.startswith(prefix):
            return stem[len(prefix):]
    return stem


def unit_graph(root, graph):
    """Unit -> the units it includes, each edge with the (from, to) file pair that makes it."""
    units, why = {}, {}
    for src in sorted(graph):
        a = unit_of(root, src)
        units.setdefault(a, [])
        for dest in graph[src]:
            b = unit_of(root, dest)
            units.setdefault(b, [])
            if a != b and b not in units[a]:
                units[a].append(b)
                why[(a, b)] = (src, dest)
    return units, why


def find_cycles(graph):
    found = []
    for component in strongly_connected(graph):
        members = set(component)
        if len(component) == 1 and component[0] not in graph[component[0]]:
            continue
        start = min(component)
        found.append(shortest_cycle(graph, start, members))
    return sorted(found)


def file_cycles(root):
    """Each loop among files, as the list of their paths relative to root."""
    return [[os.path.relpath(p, root) for p in c] for c in find_cycles(include_graph(root))]


def unit_cycles(root):
    """Each loop among units, as the files whose includes make it: a.cpp -> b.hpp, b.cpp -> a.hpp."""
    units, why = unit_graph(root, include_graph(root))
    out = []
    for cycle in find_cycles(units):
        steps = []
        for a, b in zip(cycle, cycle[1:]):
            src, dest = why[(a, b)]
            steps.append(f"{os.path.relpath(src, root)} -> {os.path.relpath(dest, root)}")
        out.append(steps)
    return out


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not all(os.path.isdir(os.path.join(root, d)) for d in SEARCH_DIRS):
        print(f"error: {root}: no src/ and include/ here", file=sys.stderr)
        return 2
    files = file_cycles(root)
    for cycle in files:
        print(" -> ".join(cycle))
    units = unit_cycles(root)
    for steps in units:
        print(", ".join(steps))
    if files or units:
        print(f"error: include cycles: {len(files)} among files, {len(units)} among header/source "
              "units", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
