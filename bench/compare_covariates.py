#!/usr/bin/env python3
# Which test lets compare see a 5% change on a machine that drifts?  (issue 12)
#
# Reads an export of an A/A set (bench/sensitivity.sh's aa-export.json: N
# runs labelled A, then N labelled B, of one kernel) and, without
# measuring, tests every figure's run medians (logarithms) by several
# tests; the p-values of a table are adjusted together (Benjamini-Hochberg)
# and a mark needs p_adj < 0.05 and a change of at least the threshold, as
# compare does (without its machine-shift term).  For each test: how many
# figures the real split (A against B) marks with B's figures scaled by
# 1.05, and, over every split of the 2N runs into two sets of N (the
# first run always in the first), how many splits have any mark at all
# under A/A, at thresholds 0 and 2%.
#
# The covariates are each run's sentinel medians: getppid (a system call,
# which a kernel change moves) or the dependent adds (which none does).
#
# usage: python3 bench/compare_covariates.py aa-export.json
import itertools
import json
import math
import statistics as st
import sys

from kbstats import ancova, bh, welch


def centred(y, A, B, c, clip):
    sxx = sxy = 0
    for idx in (A, B):
        mc, my = st.mean(c[i] for i in idx), st.mean(y[i] for i in idx)
        for i in idx:
            sxx += (c[i] - mc) ** 2
            sxy += (c[i] - mc) * (y[i] - my)
    be = sxy / sxx
    if clip:
        be = min(max(be, 0), 1)
    adj = [[y[i] - be * (c[i] - st.mean(c[j] for j in idx)) for i in idx] for idx in (A, B)]
    return welch(adj[0], adj[1], 1)


runs = json.load(open(sys.argv[1]))["runs"]
n = len(runs)
cov = {op: [math.log(st.median([p[op] for p in r["sentinel"] if p.get(op)])) for r in runs]
       for op in ("sys_ns", "user_ns")}
figs = {}
for i, r in enumerate(runs):
    for x in r["results"]:
        if x.get("median") and x["status"] not in ("skip", "fail"):
            key = x["id"] + ("[%s]" % x["placement"] if x.get("placement") else "")
            figs.setdefault(key, {})[i] = math.log(x["median"])
figs = {k: [v[i] for i in range(n)] for k, v in figs.items() if len(v) == n}
TESTS = [("Welch", lambda y, A, B: welch([y[i] for i in A], [y[i] for i in B])),
         ("Welch after centring getppid within each side", lambda y, A, B: centred(y, A, B, cov["sys_ns"], 0)),
         ("the same, the slope clipped to [0, 1]", lambda y, A, B: centred(y, A, B, cov["sys_ns"], 1)),
         ("analysis of covariance on getppid", lambda y, A, B: ancova(y, A, B, cov["sys_ns"])),
         ("analysis of covariance on the adds", lambda y, A, B: ancova(y, A, B, cov["user_ns"]))]


def marks(test, A, B, scale, thr):
    ps, ds = [], []
    for y in figs.values():
        y = [v + (math.log(scale) if i in B else 0) for i, v in enumerate(y)]
        d, p = test(y, A, B)
        ps.append(p)
        ds.append(d)
    return sum(1 for q, d in zip(bh(ps), ds) if q < 0.05 and abs(d) >= math.log(1 + thr))


half = n // 2
real = (list(range(half)), list(range(half, n)))
splits = [(list(c), [i for i in range(n) if i not in c])
          for c in itertools.combinations(range(n), half) if 0 in c]
print("| test on %d run medians a side | the 5%% change seen (real split, of %d) | A/A splits with a mark, threshold 0 / 2%% (of %d) |"
      % (half, len(figs), len(splits)))
print("|---|---|---|")
for name, test in TESTS:
    fp = [sum(1 for A, B in splits if marks(test, A, B, 1.0, thr)) for thr in (0.0, 0.02)]
    print("| %s | %d | %d / %d |" % (name, marks(test, *real, 1.05, 0.02), fp[0], fp[1]))
