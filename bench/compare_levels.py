#!/usr/bin/env python3
"""Would compare see more on runs' fast levels than on their medians?
Measures nothing: reads a database of sittings of one kernel
(bench/sittings.sh; labels s1, s2, ...) and, for every pair of sittings
and every figure, does what compare's test does in outline, once on each
run's median and once on its fast level (the samples' 5th percentile, the
95th where bigger is better):
  Welch's t on the runs' logarithms, 5 against 5, the spread between
  sittings learnt from the other sittings (one-way random effects, moment
  estimate, as stats_sittings) added to the difference's variance twice;
  marked when p < 0.05 and the change is at least THRESHOLD (no
  Benjamini-Hochberg: a figure at a time);
  the detectable change, (t.975 + t.80) standard errors.
Every pair is A/A: a mark is false.  Prints, per level, the share of
figure-pairs marked and the median detectable change, then per figure.

usage: bench/compare_levels.py DB [THRESHOLD_PERCENT]
"""
import functools
import itertools
import math
import sqlite3
import statistics as st
import sys

from historylib import spread


def betacf(a, b, x):
    """The continued fraction of the regularized incomplete beta (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return h


def ibeta(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    lb = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lb) * betacf(a, b, x) / a
    return 1 - math.exp(lb) * betacf(b, a, 1 - x) / b


def t_sf(t, df):
    """P(T > t) for Student's t on df degrees of freedom."""
    p = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t))
    return p if t >= 0 else 1 - p


@functools.lru_cache(maxsize=None)
def t_ppf(q, df):
    """The q quantile of Student's t (q > 0.5), by bisection; df as given (rounded by the caller)."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1 - t_sf(mid, df) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

db = sys.argv[1]
thr = float(sys.argv[2]) / 100 if len(sys.argv) > 2 else 0.05
con = sqlite3.connect(db)
data = {}
for bid, pl, better, med, p5, p95, lab in con.execute(
        "SELECT r.bench_id, r.placement, r.better, r.median, r.p5, r.p95, u.label FROM results r "
        "JOIN runs u ON u.id = r.run_id WHERE r.status IN ('ok', 'noisy') AND u.label LIKE 's%' "
        "AND r.median > 0 AND r.bench_id != 'cpu.mhz'"):
    fast = p5 if better == "lower" else p95
    if not fast or fast <= 0:
        continue
    key = bid + (" [%s]" % pl if pl else "")
    d = data.setdefault(key, {})
    d.setdefault(lab, {"median": [], "fast": []})
    d[lab]["median"].append(math.log(med))
    d[lab]["fast"].append(math.log(fast))


def test(a, b, tau2):
    va, vb = st.variance(a), st.variance(b)
    se2 = va / len(a) + vb / len(b) + 2 * tau2
    df = (va / len(a) + vb / len(b) + 2 * tau2) ** 2 / (
        (va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1) + 1e-300)
    df = max(1.0, df)
    d = st.mean(b) - st.mean(a)
    p = 2 * t_sf(abs(d) / math.sqrt(se2), df)
    det = (t_ppf(0.975, round(df, 1)) + t_ppf(0.80, round(df, 1))) * math.sqrt(se2)
    return p < 0.05 and abs(math.expm1(d)) >= thr, math.expm1(det)


res = {}
for key, sit in data.items():
    labs = sorted(sit, key=lambda s: int(s[1:]))
    if len(labs) < 3:
        continue
    for lev in ("median", "fast"):
        marks, dets = 0, []
        pairs = list(itertools.combinations(labs, 2))
        for a, b in pairs:
            if len(sit[a][lev]) < 2 or len(sit[b][lev]) < 2:
                continue
            t2 = spread([sit[x][lev] for x in labs if x not in (a, b)])[0]
            t2 = t2 if math.isfinite(t2) else 0.0
            m, det = test(sit[a][lev], sit[b][lev], t2)
            marks += m
            dets.append(det)
        res.setdefault(key, {})[lev] = (marks, len(dets), st.median(dets) if dets else float("nan"))

print("%s: %d figures, A/A pairs of sittings; marked: p < 0.05 and at least %.0f%%" % (db, len(res), 100 * thr))
print()
print("| level | figure-pairs marked (false) | median detectable change | figures detecting 5% or less |")
print("|---|---|---|---|")
for lev in ("median", "fast"):
    m = sum(r[lev][0] for r in res.values())
    n = sum(r[lev][1] for r in res.values())
    dets = [r[lev][2] for r in res.values()]
    print("| %s | %d of %d (%.2f%%) | %.1f%% | %d of %d |" % (lev, m, n, 100.0 * m / n, 100 * st.median(dets),
                                                         sum(d <= 0.05 for d in dets), len(dets)))
print()
print("| figure | median: marked | detectable | fast: marked | detectable |")
print("|---|---|---|---|---|")
for key in sorted(res):
    r = res[key]
    print("| %s | %d of %d | %.1f%% | %d of %d | %.1f%% |" % (key, r["median"][0], r["median"][1], 100 * r["median"][2],
                                                        r["fast"][0], r["fast"][1], 100 * r["fast"][2]))
