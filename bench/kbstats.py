# What bench/'s Python needs of kbench's statistics, written once (imported
# by bench/coverage.sh, interval_tradeoff.sh, interval_rules.py,
# compare_covariates.py, compare_states.py, compare_adjust.py, replica_adds.py,
# level_variance.py and interval_floor.py).
import itertools
import math
import statistics as st
from math import comb, lgamma


def ranks(n):
    """kbench's stats_median_ci_ranks: the 0-based ranks of the tightest
    symmetric order-statistic interval holding the median of n values with
    95%, else the whole range."""
    cdf = lambda j: sum(comb(n, k) for k in range(j + 1)) / 2.0 ** n
    if cdf(0) > 0.025:
        return 0, n - 1
    j = 1
    while j < n // 2 and cdf(j) <= 0.025:
        j += 1
    return j - 1, n - j


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


def t_quantile(p, df):
    """The t at which the two-sided p-value is p (bisection on t_p)."""
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_p(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def welch(a, b, dfloss=0):
    va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
    se, d = math.sqrt(va + vb), st.mean(b) - st.mean(a)
    if se == 0:
        return d, 0.0 if d else 1.0
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1)) - dfloss
    return d, t_p(d / se, max(df, 1))


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


def quantile(v, f):
    """Linear interpolation between order statistics, as gsl's quantile."""
    v = sorted(v)
    x = f * (len(v) - 1)
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])


def aa_splits(n):
    """An A/A set of n runs (A first, then B): its real split, and every split
    of the runs into two halves with run 0 in the first (each split once)."""
    half = n // 2
    real = (list(range(half)), list(range(half, n)))
    return real, [(list(c), [i for i in range(n) if i not in c])
                  for c in itertools.combinations(range(n), half) if 0 in c]


def marked(keys, ps, ds):
    """compare's marks: Benjamini-Hochberg p_adj < 0.05 over the table and a
    change (a logarithm) of at least 2%, without the machine-shift term."""
    return {k for k, q, d in zip(keys, bh(ps), ds) if q < 0.05 and abs(d) >= math.log(1.02)}


def theil_sen(points, least=1):
    """The median of the pairwise slopes of points [(x, y)] whose x differ
    (stats_within_slope's estimate, on deviations already taken); None with
    fewer than `least` such pairs."""
    s = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in itertools.combinations(points, 2) if b[0] != a[0]]
    return st.median(s) if len(s) >= max(least, 1) else None


def trimmed_mean(v):
    """The mean without the lowest and the highest value (from 5 values), else the median."""
    v = sorted(v)
    return st.mean(v[1:-1]) if len(v) >= 5 else st.median(v)


def hodges_lehmann(v):
    """The median of the Walsh averages (every pair's mean, each value with itself too)."""
    return st.median((a + b) / 2 for i, a in enumerate(v) for b in v[i:])


# A run's level from its replicas, by name: what compare_adjust.py tries.
LEVELS = {"median": st.median, "trimmed mean": trimmed_mean, "mean": st.mean,
          "hodges-lehmann": hodges_lehmann}


def window_levels(val, sides, meds, w, level=st.median):
    """Each run's level in a window: level (the median) of its values (val(i),
    logs) within +-w of its side's centre; sides is [(runs, centre), ...].
    Where a side has fewer than 3 runs with a value inside, meds (the
    medians) instead."""
    out = {}
    for runs, centre in sides:
        for i in runs:
            inside = [a for a in val(i) if abs(a - centre) <= math.log1p(w)]
            if inside:
                out[i] = level(inside)
    if any(sum(1 for i in runs if i in out) < 3 for runs, _ in sides):
        return meds
    return out
