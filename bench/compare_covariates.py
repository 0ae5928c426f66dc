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
from math import lgamma


def betai(a, b, x):
    # The regularised incomplete beta function (Numerical Recipes' continued fraction).
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * math.log(x) + b * math.log(1 - x)

    def cf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d if abs(d) > 1e-30 else 1e30
        h = d
        for m in range(1, 300):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            d = 1 / d if abs(d) > 1e-30 else 1e30
            c = 1 + aa / c
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            d = 1 / d if abs(d) > 1e-30 else 1e30
            c = 1 + aa / c
            h *= d * c
            if abs(d * c - 1) < 1e-12:
                break
        return h
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * cf(a, b, x) / a
    return 1 - math.exp(lbt) * cf(b, a, 1 - x) / b


def t_p(t, df):
    return betai(df / 2, 0.5, df / (df + t * t))


def welch(a, b, dfloss=0):
    va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
    se, d = math.sqrt(va + vb), st.mean(b) - st.mean(a)
    if se == 0:
        return d, 0.0 if d else 1.0
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1)) - dfloss
    return d, t_p(d / se, max(df, 1))


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


def ancova(y, A, B, c):
    ya, yb, ca, cb = [y[i] for i in A], [y[i] for i in B], [c[i] for i in A], [c[i] for i in B]
    ma, mb, mca, mcb = st.mean(ya), st.mean(yb), st.mean(ca), st.mean(cb)
    sxx = sum((x - mca) ** 2 for x in ca) + sum((x - mcb) ** 2 for x in cb)
    sxy = sum((x - mca) * (v - ma) for x, v in zip(ca, ya)) + sum((x - mcb) * (v - mb) for x, v in zip(cb, yb))
    be = sxy / sxx
    res = sum((v - ma - be * (x - mca)) ** 2 for v, x in zip(ya, ca)) + \
        sum((v - mb - be * (x - mcb)) ** 2 for v, x in zip(yb, cb))
    df = len(A) + len(B) - 3
    d = (mb - ma) - be * (mcb - mca)
    se = math.sqrt(res / df * (1 / len(A) + 1 / len(B) + (mcb - mca) ** 2 / sxx))
    return d, t_p(d / se, df) if se > 0 else (0.0 if d else 1.0)


def bh(ps):
    n = len(ps)
    order = sorted(range(n), key=lambda i: ps[i])
    adj, m = [0] * n, 1
    for r in range(n - 1, -1, -1):
        m = min(m, ps[order[r]] * n / (r + 1))
        adj[order[r]] = m
    return adj


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
