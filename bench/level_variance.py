#!/usr/bin/env python3
# Where a figure's run-to-run noise comes from (issue 12), offline: within a
# run (replica to replica) or between runs.  Reads JSON exports (coverage.sh's
# inv*.json, or an export of one label's runs), all runs pooled as one side,
# and per figure prints:
#   slope   its replicas' figure against their sentinel adds, within runs
#           (Theil-Sen on the deviations from each run's medians; cpu.mhz 0)
#   sw%     the replicas' standard deviation within runs, as measured
#   sw_adj  the same with each replica moved to the median adds (compare's
#           cmp_adjust)
#   lev%    the standard deviation of the runs' levels (median of the moved
#           replicas)
#   exp%    what lev% would be from the replicas' noise alone: 1.2533 sw_adj
#           / sqrt(replicas), the median's standard error
#   sb%     the rest, between runs: sqrt(lev^2 - exp^2), 0 when below
# (logarithms, in %).  Where sb is 0, more replicas, not more runs, would
# narrow a comparison.
#
# Then what 5 runs a side could see at best: the smallest change Welch's t
# (5%, two-sided) finds 80% of the time between two sides whose run levels
# vary as lev% does, with nothing else between them (no machine move from
# one side to the other, no correction for the table's many figures):
# (t_.975 + t_.80 at 2n - 2 degrees of freedom) x lev% x sqrt(2 / n).  How
# many figures a 5% change is within for n runs a side, and the runs a
# side at which 80% of the figures are.
#
# usage: python3 bench/level_variance.py export.json ...
import json
import math
import statistics as st
import sys

from kbstats import t_quantile, theil_sen

runs = []
for f in sys.argv[1:]:
    runs += json.load(open(f))['runs']
figs = {}
for ri, run in enumerate(runs):
    for r in run['results']:
        reps = r.get('replicas') or []
        if len(reps) < 3 or r['status'] in ('skip', 'fail') or not all(x.get('sentinel_user_ns') and x.get('median') for x in reps):
            continue
        key = r['id'] + ('[%s]' % r['placement'] if r.get('placement') else '')
        figs.setdefault(key, []).append([(math.log(x['sentinel_user_ns']), math.log(x['median'])) for x in reps])
print("%-26s %5s %6s %6s %6s %6s %6s" % ("figure", "slope", "sw%", "sw_adj", "lev%", "exp%", "sb%"))
out = []
for key, rr in figs.items():
    if len(rr) < 3: continue
    dev = []
    for reps in rr:
        mx = st.median([a for a, _ in reps]); my = st.median([b for _, b in reps])
        dev += [(a - mx, b - my) for a, b in reps]
    # Every so many points: the pairs grow with the square (as stats_within_slope).
    slope = (theil_sen(dev[::max(1, len(dev) // 60)]) or 0.0) if key != 'cpu.mhz' else 0.0
    x0 = st.median([a for reps in rr for a, _ in reps])
    lev, within, within0 = [], [], []
    for reps in rr:
        moved = [b - slope * (a - x0) for a, b in reps]
        m = st.median(moved); lev.append(m)
        within += [v - st.mean(moved) for v in moved]
        raw = [b for _, b in reps]; within0 += [v - st.mean(raw) for v in raw]
    k = len(rr[0])
    sw = math.sqrt(sum(v*v for v in within) / (len(within) - len(rr)))
    sw0 = math.sqrt(sum(v*v for v in within0) / (len(within0) - len(rr)))
    sl = st.stdev(lev)
    expct = 1.2533 * sw / math.sqrt(k)
    sb = math.sqrt(max(0.0, sl*sl - expct*expct))
    out.append((key, slope, sw0, sw, sl, expct, sb))
for key, slope, sw0, sw, sl, e, sb in out:
    print("%-26s %5.2f %6.1f %6.1f %6.1f %6.1f %6.1f" % (key, slope, 100*sw0, 100*sw, 100*sl, 100*e, 100*sb))


def reach(n):
    """The largest run-level spread at which n runs a side find 5% 80% of the time."""
    df = 2 * n - 2
    return 0.05 / ((t_quantile(0.05, df) + t_quantile(0.40, df)) * math.sqrt(2 / n))


levs = sorted((sl, key) for key, _, _, _, sl, _, _ in out)
for n in (5, 8, 10, 15, 20):
    seen = sum(1 for sl, _ in levs if sl <= reach(n))
    print("%2d runs a side: a 5%% change within reach of %d of %d figures (%.0f%%)"
          % (n, seen, len(levs), 100 * seen / len(levs)))
# The 80th percentile's spread, and the fewest runs whose reach takes it in.
worst = levs[math.ceil(0.8 * len(levs)) - 1][0]
need = next((n for n in range(3, 200) if worst <= reach(n)), None)
print("runs a side for 80%% of the figures: %s" % need)
print("out of reach at 5 runs: " + ", ".join("%s (%.1f%%)" % (k, 100 * sl) for sl, k in levs
                                              if sl > reach(5)))
