#!/usr/bin/env python3
# Can compare see through the machine's states?  (issue 12)
#
# On this VM the figures between two processes (ctx.*, ipc.* with placement
# none) fall in a fast or a slow state ~40% apart, for tens of seconds at a
# time and all together; a run's median of 8 replicas then depends on how
# many fell in each.  This reads an export of an A/A set (bench/
# sensitivity.sh's aa-export.json: N runs labelled A, then N labelled B)
# and, without measuring, tests every figure (analysis of covariance on
# each run's sentinel adds, as compare does) on three kinds of run level:
#   medians          the run's median of its replicas (compare before)
#   own window       the median of the run's replicas within +-W of its own
#                    side's lower quartile (a window a side each)
#   common window    the same within +-W of the level halfway between the two
#                    sides' lower quartiles (compare now: stats_common_state;
#                    upper quartiles where higher is better)
# with B's replicas scaled by 1.03 to 2.0 on the real split, and, over every
# split of the 2N runs into two sets of N, how many A/A splits get a mark.
# Marks as compare's: Benjamini-Hochberg p_adj < 0.05 over the table and a
# change of at least 2% (without the machine-shift term).  A run with no
# replica in its window is left out; under 3 runs a side, the medians; and,
# as compare, the medians where they moved by twice the window or more.
#
# usage: python3 bench/compare_states.py aa-export.json [W ...]   (W: 0.15)
import json
import math
import statistics as st
import sys

from kbstats import aa_splits, ancova, marked, quantile, window_levels


runs = json.load(open(sys.argv[1]))["runs"]
widths = [float(w) for w in sys.argv[2:]] or [0.15]
n = len(runs)
half = n // 2
cov = [math.log(st.median([p["user_ns"] for p in r["sentinel"] if p.get("user_ns")])) for r in runs]
reps = {}
for i, r in enumerate(runs):
    for x in r["results"]:
        if x.get("median") and x["status"] not in ("skip", "fail") and x.get("replicas"):
            key = x["id"] + ("[%s]" % x["placement"] if x.get("placement") else "")
            v = [math.log(p["median"]) for p in x["replicas"] if p["median"] > 0]
            # Higher is better: the logarithms negated, so the better quartile is the lower.
            reps.setdefault(key, {})[i] = [-a for a in v] if x.get("better") == "higher" else v
reps = {k: v for k, v in reps.items() if len(v) == n}


def levels(k, A, B, s, kind, w):
    """The run levels of figure k, B's replicas shifted by s (a logarithm)."""
    val = lambda i: [a + (s if i in B else 0) for a in reps[k][i]]
    meds = {i: st.median(val(i)) for i in A + B}
    if kind == "medians":
        return meds
    # As compare: a change of twice the window or more is left to the medians.
    if kind == "common" and abs(st.median([meds[i] for i in B]) -
                                st.median([meds[i] for i in A])) >= math.log1p(2 * w):
        return meds
    qa = quantile([a for i in A for a in val(i)], 0.25)
    qb = quantile([a for i in B for a in val(i)], 0.25)
    return window_levels(val, ((A, qa if kind == "own" else (qa + qb) / 2),
                               (B, qb if kind == "own" else (qa + qb) / 2)), meds, w)


def marks(A, B, scale, kind, w):
    ps, ds, ks = [], [], []
    for k in reps:
        lv = levels(k, A, B, math.log(scale), kind, w)
        AA, BB = [i for i in A if i in lv], [i for i in B if i in lv]
        y = [lv.get(i) for i in range(n)]
        d, p = ancova(y, AA, BB, cov)
        ps.append(p)
        ds.append(d)
        ks.append(k)
    return marked(ks, ps, ds)


real, splits = aa_splits(n)
scales = (1.03, 1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 2.0)
print("%d runs, %d figures; B's replicas scaled on the real split (A: runs 1-%d), figures marked:"
      % (n, len(reps), half))
print()
print("| run level | " + " | ".join("x %g" % s for s in scales) + " | A/A splits with a mark (of %d) |"
      % len(splits))
print("|---|" + "---|" * (len(scales) + 1))
kinds = [("medians", "medians", 0)] + [(k, "%s window +-%.0f%%" % (k, w * 100), w)
                                       for w in widths for k in ("own", "common")]
missed = {}
for kind, name, w in kinds:
    seen = [marks(*real, s, kind, w) for s in scales]
    missed[name] = sorted(set(reps) - seen[1])
    fp = sum(1 for A, B in splits if marks(A, B, 1.0, kind, w))
    print("| %s | %s | %d |" % (name, " | ".join(str(len(m)) for m in seen), fp))
print()
for name, m in missed.items():
    print("- %s misses the 5%% change in: %s" % (name, ", ".join(m) or "none"))
