#!/usr/bin/env python3
# What a shorter sampling budget costs a figure (issue 12), offline: how much
# of the spread between a run's replicas is the replicas' own sampling, which
# a shorter budget widens, and how much is the machine moving between them,
# which it does not touch.  Reads JSON exports (coverage.sh's inv*.json, or
# any export), and per figure of each run:
#   within   the median over replicas of a replica's own 95% CI half-width
#            (from its samples), relative: its sampling noise, 1.96 sd
#   between  the standard deviation of the replicas' medians, from their
#            interquartile range (/1.349), relative
#   share    (within / 1.96)^2 / between^2, at most 1: the sampling's part of
#            the variance between replicas
# A budget cut by a factor f multiplies the sampling variance by f (fewer
# samples a replica), so the spread between replicas grows by
# sqrt(1 + (f - 1) share); the last line gives that growth's median over the
# figures for the cut from 3 s to 2.5 s (f = 1.2).
#
# usage: python3 bench/replica_budget.py export.json ...
import json
import math
import statistics as st
import sys

CUT = 3.0 / 2.5

rows = []
for f in sys.argv[1:]:
    for run in json.load(open(f))['runs']:
        for r in run['results']:
            reps = [x for x in r.get('replicas') or [] if x.get('median')]
            if len(reps) < 4:
                continue
            meds = [x['median'] for x in reps]
            m = st.median(meds)
            within = st.median([(x['ci_high'] - x['ci_low']) / 2 / x['median'] for x in reps])
            q = st.quantiles(meds, n=4)
            between = (q[2] - q[0]) / 1.349 / m
            share = min(1.0, (within / 1.96 / between) ** 2) if between > 0 else 1.0
            name = r['id'] + (' ' + r['placement'] if r.get('placement') else '')
            rows.append((share, name, within, between))
rows.sort(reverse=True)
print('%-28s %8s %8s %6s' % ('figure', 'within', 'between', 'share'))
for share, name, within, between in rows[:15]:
    print('%-28s %7.2f%% %7.2f%% %5.1f%%' % (name, 100 * within, 100 * between, 100 * share))
shares = [x[0] for x in rows]
grow = [math.sqrt(1 + (CUT - 1) * s) - 1 for s in shares]
print('%d figures: the sampling is a median %.1f%% of the variance between replicas; '
      'at %.1f s instead of 3 the spread between replicas grows by a median %.2f%% '
      '(at most %.1f%%)' % (len(rows), 100 * st.median(shares), 3 / CUT,
                            100 * st.median(grow), 100 * max(grow)))
