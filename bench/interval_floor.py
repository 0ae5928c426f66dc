#!/usr/bin/env python3
# Coverage and width of the printed interval under other floors (issue 12),
# offline, from bench/coverage.sh's invocations (KEEP=dir keeps inv*.json):
# each figure's interval rebuilt from its replicas (their range, the
# interval up to 8 replicas) and floored at REPLICA_MACHINE_Z x the spread
# (interquartile range / median) of the run's sentinel timeline: none, the
# adds' (user), 1.5 or 2 times that, getppid's (sys), or the larger of the
# two (kbench now, src/core/replica.c).  "printed" is the interval kbench
# printed, as a check that the rebuilding matches it.  Prints Markdown.
#
# usage: python3 bench/interval_floor.py dir/inv1.json dir/inv2.json ...
import json
import math
import statistics as st
import sys

from kbstats import quantile

Z = 1.96 / 1.349   # REPLICA_MACHINE_Z


def spread(v):
    """replica.c's replica_spread: the interquartile range over the median."""
    v = [x for x in v if x and x > 0]
    return (quantile(v, 0.75) - quantile(v, 0.25)) / st.median(v)
invs = []
for f in sys.argv[1:]:
    d = json.load(open(f))
    run = d['runs'][0]
    tl = run['sentinel']
    sp = {'sys': spread([p['sys_ns'] for p in tl]), 'user': spread([p['user_ns'] for p in tl])}
    figs = {}
    for r in run['results']:
        reps = r.get('replicas') or []
        if r['status'] in ('skip', 'fail') or not r.get('median') or len(reps) < 2:
            continue
        key = r['id'] + ('[%s]' % r['placement'] if r.get('placement') else '')
        m = [x['median'] for x in reps]
        figs[key] = (r['median'], min(m), max(m), r['ci_low'], r['ci_high'])
    invs.append((sp, figs))
def interval(sp, fig, how):
    med, lo, hi, plo, phi = fig
    if how == 'printed':
        return plo, phi
    w = {'none': 0, 'sys': sp['sys'], 'user': sp['user'], 'max': max(sp['sys'], sp['user']),
         'user x1.5': 1.5 * sp['user'], 'user x2': 2 * sp['user']}[how] * Z
    if med > 0 and lo > 0:
        return med * math.exp(-max(math.log(med / lo), w)), med * math.exp(max(math.log(hi / med), w))
    return lo, hi
print("spreads per invocation:", ", ".join("sys %.3f user %.3f" % (s['sys'], s['user']) for s, _ in invs))
print("| floor | coverage | median half-width |")
print("|---|---|---|")
for how in ('printed', 'none', 'user', 'user x1.5', 'user x2', 'sys', 'max'):
    inn = tot = 0
    hw = []
    for i, (sp, figs) in enumerate(invs):
        for key, fig in figs.items():
            lo, hi = interval(sp, fig, how)
            hw.append(max(hi / fig[0] - 1, 1 - lo / fig[0]))
            for j, (_, other) in enumerate(invs):
                if j != i and key in other:
                    tot += 1
                    inn += lo <= other[key][0] <= hi
    print("| %s | %d of %d = %.1f%% | %.1f%% |" % (how, inn, tot, 100 * inn / tot, 100 * st.median(hw)))
