#!/usr/bin/env python3
# Which interval holds the next invocation's median?  (issue 12)
#
# Recombines what kbench stored, without measuring: for each set of
# invocations (a directory of bench/coverage.sh's inv*.json, KEEP=dir; or
# an export whose runs are the invocations, as bench/sensitivity.sh's
# aa-export.json), every figure's replica medians, its stored interval and
# each run's sentinel timeline are put through several interval rules, and
# each rule's coverage (over all ordered pairs of invocations, whether one's
# median lies in the other's interval) and median half-width are printed.
#
# Rules: the replicas' order-statistic 95% CI (what kbench printed before
# 2026-12-02; recomputed from the replicas, so it does not matter which
# kbench stored the set); that CI widened in quadrature, or floored, by
# 1.96 sd of the run's sentinel (sd = interquartile range / 1.349, the
# larger of getppid and the adds); floored at the sentinel's own
# 2.5-97.5% range; a Student's t prediction interval on the replicas' logs;
# a fixed floor of 3%.
#
# usage: python3 bench/interval_rules.py SET...   (SET: a directory or a JSON file)
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kbstats import ranks  # noqa: E402

med = statistics.median
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
        10: 2.23, 15: 2.13}


def q(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    f = math.floor(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)




def load(path):
    files = sorted(glob.glob(os.path.join(path, "inv*.json"))) if os.path.isdir(path) else [path]
    invs = []
    for f in files:
        for run in json.load(open(f))["runs"]:
            sent = run.get("sentinel") or []
            figs = {}
            for r in run["results"]:
                reps = r.get("replicas") if isinstance(r.get("replicas"), list) else []
                if r.get("median") is None or r["status"] in ("skip", "fail") or len(reps) < 2:
                    continue
                key = r["id"] + (" [%s]" % r["placement"] if r.get("placement") else "")
                figs[key] = dict(m=r["median"], lo=r["ci_low"], hi=r["ci_high"],
                                 reps=sorted(x["median"] for x in reps))
            invs.append(dict(figs=figs, sys=[p["sys_ns"] for p in sent if p.get("sys_ns")],
                             user=[p["user_ns"] for p in sent if p.get("user_ns")]))
    return invs


def sd_rel(inv):
    return max((q(s, .75) - q(s, .25)) / med(s) / 1.349 for s in (inv["sys"], inv["user"]) if len(s) >= 4)


def replicas_ci(f):
    lo, hi = ranks(len(f["reps"]))
    return f["reps"][lo], f["reps"][hi]


def logs(m, lo, hi):
    return math.log(m / lo), math.log(hi / m)


def rule_replicas(inv, f):
    return replicas_ci(f)


def rule_quadrature(inv, f):
    a, b = logs(f["m"], *replicas_ci(f))
    d = 1.96 * sd_rel(inv)
    return f["m"] * math.exp(-math.hypot(a, d)), f["m"] * math.exp(math.hypot(b, d))


def rule_floor(inv, f):
    a, b = logs(f["m"], *replicas_ci(f))
    d = 1.96 * sd_rel(inv)
    return f["m"] * math.exp(-max(a, d)), f["m"] * math.exp(max(b, d))


def rule_quantiles(inv, f):
    a, b = logs(f["m"], *replicas_ci(f))
    wl = max(math.log(med(s) / q(s, .025)) for s in (inv["sys"], inv["user"]))
    wh = max(math.log(q(s, .975) / med(s)) for s in (inv["sys"], inv["user"]))
    return f["m"] * math.exp(-max(a, wl)), f["m"] * math.exp(max(b, wh))


def rule_t(inv, f):
    r = f["reps"]
    if len(r) < 3:
        return replicas_ci(f)
    l = [math.log(x) for x in r]
    h = T975.get(len(r) - 1, 2.1) * statistics.stdev(l) * math.sqrt(2.0 / len(r)) * 1.25
    return f["m"] * math.exp(-h), f["m"] * math.exp(h)


def rule_fixed(inv, f):
    a, b = logs(f["m"], *replicas_ci(f))
    return f["m"] * math.exp(-max(a, 0.03)), f["m"] * math.exp(max(b, 0.03))


def rule_stored(inv, f):
    return f["lo"], f["hi"]


RULES = [("the replicas' 95% CI", rule_replicas),
         ("widened in quadrature by 1.96 sd of the sentinel", rule_quadrature),
         ("floored at 1.96 sd of the sentinel", rule_floor),
         ("floored at the sentinel's 2.5-97.5% range", rule_quantiles),
         ("Student's t prediction interval on the replicas' logs", rule_t),
         ("a fixed floor of 3%", rule_fixed),
         ("as stored by the kbench that measured it", rule_stored)]


def cover(invs, rule):
    hit = tot = 0
    widths = []
    keys = set().union(*[i["figs"].keys() for i in invs])
    for key in keys:
        for i, a in enumerate(invs):
            if key not in a["figs"] or not (a["figs"][key]["m"] > 0 and a["figs"][key]["reps"][0] > 0):
                continue
            lo, hi = rule(a, a["figs"][key])
            m = a["figs"][key]["m"]
            widths.append(max(hi - m, m - lo) / m)
            for j, b in enumerate(invs):
                if i != j and key in b["figs"]:
                    tot += 1
                    hit += lo <= b["figs"][key]["m"] <= hi
    return hit, tot, med(widths)


sets = [(p, load(p)) for p in sys.argv[1:]]
print("| rule | " + " | ".join("%s (%d runs)" % (os.path.basename(p.rstrip("/")), len(v)) for p, v in sets) + " |")
print("|---" * (len(sets) + 1) + "|")
for name, rule in RULES:
    cells = []
    for _, invs in sets:
        h, t, w = cover(invs, rule)
        cells.append("%.1f%% / %.1f%%" % (100.0 * h / t, 100 * w))
    print("| %s | %s |" % (name, " | ".join(cells)))
print("\n(coverage / median relative half-width)")
