#!/usr/bin/env python3
# How a figure's replicas follow the machine's clock within a run  (issue 12)
#
# Reads an export (bench/sensitivity.sh's aa-export.json, or any) and prints,
# per figure, over its runs: the replicas' spread within a run (the standard
# deviation of their logarithms, each run's mean taken out), their
# correlation with the sentinel's adds measured around each (its logarithm,
# the same way), and the slope compare moves them along (Theil-Sen on the
# deviations from each run's medians: stats_within_slope).  A rate's
# correlation is negative: more calls a second where an add takes less time.
#
# usage: python3 bench/replica_adds.py export.json
import json
import math
import statistics as st
import sys

from kbstats import theil_sen

figs = {}
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run["results"]:
        v = [(math.log(p["median"]), math.log(p["sentinel_user_ns"]))
             for p in r.get("replicas") or [] if p.get("median") and p.get("sentinel_user_ns")]
        if len(v) >= 3:
            key = r["id"] + (" " + r["placement"] if r.get("placement") else "")
            figs.setdefault(key, []).append(v)


def corr(a, b):
    sa, sb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b)) / (sa * sb) if sa > 0 and sb > 0 else float("nan")


print("| figure | runs | replicas' spread within a run | r with their adds | slope |")
print("|---|---|---|---|---|")
for key, runs in figs.items():
    dy, dx, py, px = [], [], [], []
    for v in runs:
        my, mx = st.mean(y for y, _ in v), st.mean(x for _, x in v)
        dy += [y - my for y, _ in v]
        dx += [x - mx for _, x in v]
        my, mx = st.median(y for y, _ in v), st.median(x for _, x in v)
        py += [y - my for y, _ in v]
        px += [x - mx for _, x in v]
    b = theil_sen(list(zip(px, py)))
    print("| %s | %d | %.1f%% | %+.2f | %+.2f |" % (key, len(runs), 100 * math.sqrt(st.mean(y * y for y in dy)),
                                                  corr(dy, dx), b if b is not None else float("nan")))
