#!/bin/sh
# Which files of src/report/ lean on which: the file-level graph of calls
# (a file that calls, or names, a function or table another file defines
# and exports) and of includes (#include "report/..."), and the cycles in
# it.  A cycle means two files cannot be read, tested or changed one
# without the other; the report module is meant to be layered, leaves
# (num.c, model.c, svg.c, html's escaping) never calling up into the
# reports built on them.  Reads the sources only: no build needed.
#
# Prints the include edges, the call edges (each with the names it goes
# by, at most three), then each cycle (a strongly connected set of files,
# and the edges that close it), or "no cycles".  Exits 1 when there is a
# cycle, so that it can guard a check.
#
# usage: bench/include_graph.sh [DIR]      (DIR: src/report by default)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$ROOT/src/report}
exec python3 - "$DIR" <<'PY'
import os, re, sys

top = sys.argv[1]
files = sorted(f for f in os.listdir(top) if f.endswith(('.c', '.h')))
IDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'struct', 'enum',
            'union', 'static', 'const', 'extern', 'typedef', 'inline'}


def clean(text):
    """The text without comments, string and character literals, or preprocessor lines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            out.append(' ')
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            out.append('""' if c == '"' else "''")
        else:
            out.append(c)
            i += 1
    lines = ''.join(out).split('\n')
    # A directive continues over lines ending in a backslash.
    kept, skip = [], False
    for ln in lines:
        if skip or ln.lstrip().startswith('#'):
            skip = ln.rstrip().endswith('\\')
            kept.append('')
        else:
            kept.append(ln)
    # An attribute before a definition would hide its static.
    return re.sub(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)', ' ', '\n'.join(kept))


def exported(code):
    """The names a file defines at its top level without static: functions and tables."""
    names, depth, stmt = set(), 0, []
    for c in code:
        if depth == 0 and c in ';{':
            s = ''.join(stmt).strip()
            stmt = []
            words = IDENT.findall(s)
            if c == '{':
                depth = 1
            if not words or words[0] in ('static', 'extern', 'typedef'):
                continue
            if '(' in s and '=' not in s.split('(')[0]:
                if c == '{':
                    before = IDENT.findall(s.split('(')[0])
                    if before:
                        names.add(before[-1])
            elif '=' in s:
                before = IDENT.findall(s.split('=')[0])
                if before:
                    names.add(before[-1])
            elif c == ';' and words[0] not in ('struct', 'enum', 'union'):
                names.add(words[-1])
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                stmt = []
        elif depth == 0:
            stmt.append(c)
    return names


code, includes = {}, {}
for f in files:
    with open(os.path.join(top, f), encoding='utf-8', errors='replace') as fh:
        text = fh.read()
    includes[f] = sorted(set(m for m in re.findall(r'#\s*include\s+"report/([^"]+)"', text)
                             if m != f))
    code[f] = clean(text)

owner = {}
for f in files:
    if f.endswith('.c'):
        for name in exported(code[f]):
            owner.setdefault(name, f)

calls = {}
for f in files:
    if not f.endswith('.c'):
        continue
    for name in set(IDENT.findall(code[f])):
        g = owner.get(name)
        if g and g != f and name not in KEYWORDS:
            calls.setdefault(f, {}).setdefault(g, set()).add(name)

print('includes (file -> report/ headers it includes):')
for f in files:
    if includes[f]:
        print('  %-12s -> %s' % (f, ' '.join(includes[f])))
print()
print('calls (file -> files whose functions or tables it uses, and by which names):')
for f in sorted(calls):
    for g in sorted(calls[f]):
        names = sorted(calls[f][g])
        more = ' +%d' % (len(names) - 3) if len(names) > 3 else ''
        print('  %-12s -> %-12s %s%s' % (f, g, ' '.join(names[:3]), more))
print()

# Tarjan's strongly connected components over the call edges and the
# header-to-header include edges (a header cycle is a cycle too).
edges = {f: set(calls.get(f, {})) for f in files}
for f in files:
    if f.endswith('.h'):
        edges[f] |= set(h for h in includes[f] if h in edges)
index, low, stack, onstack, sccs, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    onstack.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in onstack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            onstack.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))


sys.setrecursionlimit(10000)
for f in files:
    if f not in index:
        visit(f)
cycles = [c for c in sccs if len(c) > 1]
if not cycles:
    print('no cycles')
    sys.exit(0)
for c in sorted(cycles):
    print('cycle: %s' % ', '.join(c))
    for f in c:
        for g in sorted(edges[f] & set(c)):
            names = sorted(calls.get(f, {}).get(g, ())) or ['#include']
            print('  %-12s -> %-12s %s' % (f, g, ' '.join(names[:4])))
print('%d cycle%s' % (len(cycles), '' if len(cycles) == 1 else 's'))
sys.exit(1)
PY
