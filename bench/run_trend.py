#!/usr/bin/env python3
# Does a figure depend on how many runs kbench did before it?  (issue 12)
#
# Reads an export holding --runs sets (bench/sensitivity.sh's aa-export.json:
# two sets of N runs, one kbench process each) and, per figure, the rank
# correlation (Spearman) of each set's run medians with the run's place in
# the set.  A machine that wanders moves figures up in one set and down in
# the next; state that kbench itself carries from run to run (its heap, a
# file system it fills) moves them the same way in every set, and starts
# over with the next process.  Prints, in Markdown, the figures whose
# correlation is at least 0.8 in every set with the same sign, with each
# set's last run against its first.
#
# usage: python3 bench/run_trend.py aa-export.json [MIN_RHO]
import itertools
import json
import sys


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(y):
    x, ry = list(range(len(y))), ranks(y)
    mx, my = sum(x) / len(x), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, ry))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0


doc = json.load(open(sys.argv[1]))
least = float(sys.argv[2]) if len(sys.argv) > 2 else 0.8
sets = {}
for run in doc["runs"]:
    sets.setdefault(run.get("set") or run["uuid"], []).append(run)
per = {}
for name, runs in sets.items():
    runs.sort(key=lambda r: r["started"])
    for i, run in enumerate(runs):
        for x in run["results"]:
            if x.get("median") and x["status"] not in ("skip", "fail"):
                key = x["id"] + ("[%s]" % x["placement"] if x.get("placement") else "")
                per.setdefault(key, {}).setdefault(name, []).append(x["median"])
print("%d sets of %s runs; figures whose medians move with the run's place in every set "
      "(Spearman >= %.1f, one sign):" % (len(sets), "/".join(str(len(r)) for r in sets.values()), least))
print()
print("| figure | rho in each set | last / first run in each set |")
print("|---|---|---|")
found = 0
for key in sorted(per):
    series = [per[key][s] for s in sets if len(per[key].get(s, [])) >= 3]
    if len(series) < len(sets):
        continue
    rho = [spearman(y) for y in series]
    if all(r >= least for r in rho) or all(r <= -least for r in rho):
        found += 1
        print("| %s | %s | %s |" % (key, " ".join("%+.2f" % r for r in rho),
                                    " ".join("%.2f" % (y[-1] / y[0]) for y in series)))
if not found:
    print("| (none) | | |")
# What chance gives: the share of orderings of n runs with rho >= least,
# for every set, either sign, over the figures looked at.
chance = 2.0
for runs in sets.values():
    n = len(runs)
    perms = list(itertools.permutations(range(n))) if n <= 8 else []
    chance *= sum(1 for q in perms if spearman(list(q)) >= least) / len(perms) if perms else 0
print()
print("By chance alone (runs in random order): %.2f of these %d figures." % (chance * len(per), len(per)))
