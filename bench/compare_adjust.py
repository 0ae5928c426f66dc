#!/usr/bin/env python3
# Which run level and test let compare see a 5% change on a machine whose
# clock moves?  (issue 12)
#
# Reads an export of an A/A set (bench/sensitivity.sh's aa-export.json: N
# runs labelled A, then N labelled B) and, without measuring, tests every
# figure with:
#   medians    the run's median of its replicas, as they are
#   adjusted   each replica first moved to equal sentinel adds along the
#              slope its figure follows them within runs (Theil-Sen on the
#              deviations from each run's medians, both sides pooled: compare
#              now, stats_within_slope), the run's level their median
# each with or without the common state (replicas within 15% of a level both
# sides share: stats_common_state), and by Welch's t on the run levels or by
# covariance analysis on each run's median adds (compare before).  Marks as
# compare's: Benjamini-Hochberg p_adj < 0.05 over the table and a change of
# at least 2% (without the machine-shift term, which compare adds only
# where the figures are not at equal adds).  Prints the marks on the real
# split as measured (A/A), with B's replicas x 1.05, and over the first
# SPLITS splits of the 2N runs into two sets of N, those with any mark.  Then,
# at equal adds in the common state with Welch's t (compare now), a run's
# level taken as the median, the mean without its lowest and highest
# replica, the mean, or the Hodges-Lehmann estimate of its replicas.
#
# usage: python3 bench/compare_adjust.py aa-export.json [SPLITS]   (126)
import json
import math
import statistics as st
import sys

from kbstats import LEVELS, aa_splits, ancova, marked, quantile, theil_sen, welch, window_levels

W = 0.15
runs = json.load(open(sys.argv[1]))["runs"]
nsplits = int(sys.argv[2]) if len(sys.argv) > 2 else 126
n = len(runs)
cov = [math.log(st.median([p["user_ns"] for p in r["sentinel"] if p.get("user_ns")])) for r in runs]
reps, higher = {}, {}
for i, r in enumerate(runs):
    for x in r["results"]:
        if x.get("median") and x["status"] not in ("skip", "fail") and x.get("replicas"):
            key = x["id"] + ("[%s]" % x["placement"] if x.get("placement") else "")
            higher[key] = x.get("better") == "higher"
            reps.setdefault(key, {})[i] = [
                (math.log(p["median"]),
                 math.log(p["sentinel_user_ns"]) if p.get("sentinel_user_ns") else None)
                for p in x["replicas"] if p["median"] > 0]
# As compare: cpu.mhz, the adds' own row, is never moved along them.
reps = {k: v for k, v in reps.items() if len(v) == n and k != "cpu.mhz"}


def slope(k, idx):
    pts = []
    for i in idx:
        v = [(y, x) for y, x in reps[k][i] if x is not None]
        if len(v) < 3:
            return None
        my, mx = st.median(y for y, _ in v), st.median(x for _, x in v)
        pts += [(x - mx, y - my) for y, x in v]
    return theil_sen(pts, 10)


def levels(k, A, B, s, adjust, state, level=st.median):
    """Figure k's run levels (level of its replicas, the median by default), B's
    replicas scaled by exp(s), as bench/scale_side.py does."""
    be = slope(k, A + B) if adjust else None
    x0 = st.median(x for i in A + B for _, x in reps[k][i]) if be is not None else 0
    val = lambda i: [y + (s if i in B else 0) - (be * (x - x0) if be is not None else 0)
                     for y, x in reps[k][i]]
    meds = {i: level(val(i)) for i in A + B}
    if not state or abs(st.median([meds[i] for i in B]) -
                        st.median([meds[i] for i in A])) >= math.log1p(2 * W):
        return meds
    # The better quartile: the state every run visits.
    q = 0.75 if higher[k] else 0.25
    c = (quantile([a for i in A for a in val(i)], q) + quantile([a for i in B for a in val(i)], q)) / 2
    return window_levels(val, ((A, c), (B, c)), meds, W, level)


def marks(A, B, scale, adjust, state, test, level=st.median):
    ps, ds, ks = [], [], []
    for k in reps:
        lv = levels(k, A, B, math.log(scale), adjust, state, level)
        AA, BB = [i for i in A if i in lv], [i for i in B if i in lv]
        if test == "ancova":
            d, p = ancova([lv.get(i) for i in range(n)], AA, BB, cov)
        else:
            d, p = welch([lv[i] for i in AA], [lv[i] for i in BB])
        ps.append(p)
        ds.append(d)
        ks.append(k)
    return marked(ks, ps, ds)


real, splits = aa_splits(n)
splits = splits[:nsplits]
print("%d runs, %d figures (cpu.mhz left out)" % (n, len(reps)))
print()
print("| run level | test | A/A marks | x 1.05 marks | A/A splits with a mark (of %d) |" % len(splits))
print("|---|---|---|---|---|")
missed = {}
for adjust, state, test in ((0, 0, "welch"), (0, 1, "ancova"), (1, 0, "welch"), (1, 1, "welch"),
                            (1, 1, "ancova")):
    name = ("replicas at equal adds" if adjust else "medians") + (", common state" if state else "")
    sc = marks(*real, 1.05, adjust, state, test)
    missed[(name, test)] = sorted(set(reps) - sc)
    print("| %s | %s | %d | %d | %d |" % (name, test, len(marks(*real, 1.0, adjust, state, test)),
                                         len(sc), sum(1 for A, B in splits
                                                      if marks(A, B, 1.0, adjust, state, test))))
print()
# The run's level from its replicas (at equal adds, common state, Welch: compare now).
for lname, level in LEVELS.items():
    sc = marks(*real, 1.05, 1, 1, "welch", level)
    missed[("level " + lname, "welch")] = sorted(set(reps) - sc)
    print("| at equal adds, common state, run level the %s | welch | %d | %d | %d |" %
          (lname, len(marks(*real, 1.0, 1, 1, "welch", level)), len(sc),
           sum(1 for A, B in splits if marks(A, B, 1.0, 1, 1, "welch", level))))
print()
for (name, test), m in missed.items():
    print("- %s, %s, misses the 5%% change in: %s" % (name, test, ", ".join(m) or "none"))
