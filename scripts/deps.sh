#!/usr/bin/env bash
# Proves the library's top-level modules import one way: builds the graph of `crate::<module>`
# references between the folders/files directly under src/ (every `use crate::x` and inline
# `crate::x::` path, tests included) and fails when it has a cycle.
#
# Usage: scripts/deps.sh [--graph]   (--graph also prints every edge)
# `cargo test --test cli layers` enforces the stronger rule (each module imports only earlier
# layers of the pipeline); this script prints the graph for a reader.
# Left out: `test_support` (cfg(test) helpers for unit tests).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "$@" <<'PY'
import os, re, sys
# Not a pipeline stage: the crate-wide unit-test support.
SHIMS = {"test_support"}
src = "src"
modules = {}
for entry in sorted(os.listdir(src)):
    path = os.path.join(src, entry)
    name = entry[:-3] if entry.endswith(".rs") else entry
    if name in ("main", "lib", "cli") or name in SHIMS:  # the binary and the crate root
        continue
    files = [path] if os.path.isfile(path) else [
        os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if f.endswith(".rs")]
    modules.setdefault(name, []).extend(files)
edges = {m: set() for m in modules}
ref = re.compile(r"crate::([a-z_][a-z0-9_]*)")
for m, files in modules.items():
    for f in files:
        for line in open(f, encoding="utf-8"):
            if line.lstrip().startswith("//"):
                continue
            for target in ref.findall(line):
                if target != m and target in modules:
                    edges[m].add(target)
if "--graph" in sys.argv:
    for m in sorted(edges):
        print(f"{m} -> {', '.join(sorted(edges[m])) or '(nothing)'}")
# Cycles: strongly connected components of more than one module (Tarjan).
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
for v in sorted(edges):
    if v not in index:
        visit(v)
if sccs:
    for comp in sccs:
        members = set(comp)
        why = [f"{a} -> {b}" for a in comp for b in sorted(edges[a] & members)]
        print(f"cycle between {', '.join(comp)}: {'; '.join(why)}")
    sys.exit(1)
print(f"no import cycle between the {len(modules)} top-level modules")
PY
