#!/usr/bin/env python3
"""A figure's level, quiet and in slow spells: reads an export of
bench/levels.sh's database (labels quiet and spells, several invocations
each) and, for each way of reading a figure off its replicas, prints
  half-width  the median of the level's 95% interval half-width (% of it)
  holds       how often one invocation's interval holds another's level
              (every ordered pair of invocations of one label)
  spells/quiet  the level under spells over the quiet one (median of the
              invocations' levels each), per figure and the worst
  slow share  the share of replicas each calls slow, quiet and in spells
The ways: kbench's printed figure as stored (the median, or the level once
kbench prints one: `level`, `level_low`, `level_high`), the same level with
the interval its sitting alone gave (without what the host's spread between
sittings added, values.between_sittings), and the estimators
below computed again from the samples, so that they can be weighed on the
same data.

usage: bench/levels.py EXPORT.json [STEP_PERCENT]   (STEP: the slow step tried besides 5 and 12)
"""
import json
import math
import statistics as st
import sys


def ci_median(v):
    """The order-statistic 95% interval of the median of v (sorted), as kbench's stats_summarize."""
    n = len(v)
    if n == 1:
        return v[0], v[0]
    # The widest ranks j < k with P(X(j) <= m <= X(k)) >= 0.95 under Binomial(n, 1/2).
    best = (0, n - 1)
    for j in range(0, n // 2 + 1):
        k = n - 1 - j
        cover = sum(math.comb(n, i) for i in range(j + 1, k + 1)) / 2 ** n
        if cover >= 0.95:
            best = (j, k)
        else:
            break
    return v[best[0]], v[best[1]]


def quantile(v, q):
    """The q-quantile of sorted v, interpolated (stats_quantile_sorted)."""
    if len(v) == 1:
        return v[0]
    h = (len(v) - 1) * q
    i = int(math.floor(h))
    return v[i] + (h - i) * (v[min(i + 1, len(v) - 1)] - v[i])


def replicas_of(r):
    """The samples of each replica, in the order taken."""
    where = r.get("where") or []
    # The export gives "where" as a record a sample (t, cpu, steal_ns,
    # replica); exports of JSON schema 1 as parallel arrays.
    if isinstance(where, dict):
        ids = where.get("replica")
    else:
        ids = [w.get("replica") for w in where]
    if not ids or len(ids) != len(r["samples"]):
        ids = [0] * len(r["samples"])
    reps = {}
    for x, k in zip(r["samples"], ids):
        reps.setdefault(k, []).append(x)
    return [sorted(reps[k]) for k in sorted(reps)]


def fast_level(r, tau):
    """Each replica's fast level (its samples' 5th percentile, 95th where
    bigger is better); the replicas within tau of the fastest are the fast
    state's, the rest slow.  The level: the median of the fast ones, its
    interval the order-statistic one over them.  Also the slow share and
    depth."""
    up = r["better"] == "higher"
    reps = replicas_of(r)
    if not reps:
        return None
    f = [quantile(s, 0.95 if up else 0.05) for s in reps]
    cost = sorted((1 / x if up else x) for x in f if x > 0)
    if not cost:
        return None
    fast = [c for c in cost if c <= cost[0] * (1 + tau)]
    slow = [c for c in cost if c > cost[0] * (1 + tau)]
    m = st.median(fast)
    lo, hi = ci_median(fast)
    if up:
        m, lo, hi = 1 / m, 1 / hi, 1 / lo
    depth = st.median(slow) / st.median(fast) - 1 if slow else 0
    return m, lo, hi, len(slow) / len(cost), depth


def pooled_p5(r):
    """The samples' 5th percentile over every replica (the history's fast level), no interval."""
    s = sorted(r["samples"])
    return quantile(s, 0.95 if r["better"] == "higher" else 0.05), None, None, None, None


def printed(r):
    if r.get("level") is not None:
        return r["level"], r.get("level_low"), r.get("level_high"), r.get("slow_share"), r.get("slow_depth")
    return r["median"], r["ci_low"], r["ci_high"], None, None


def sitting_alone(r):
    """The printed level with its interval as this sitting's replicas gave it: what
    the host's spread between sittings added (values.between_sittings, logs) taken out."""
    m, lo, hi, share, depth = printed(r)
    s = (r.get("values") or {}).get("between_sittings")
    if not s or lo is None or not m:
        return m, lo, hi, share, depth
    l, h = math.log(m / lo), math.log(hi / m)
    return (m, m * math.exp(-math.sqrt(max(0, l * l - s * s))),
            m * math.exp(math.sqrt(max(0, h * h - s * s))), share, depth)


def main():
    doc = json.load(open(sys.argv[1]))
    tau = float(sys.argv[2]) / 100 if len(sys.argv) > 2 else 0.08
    widened = sum(1 for run in doc["runs"] for r in run["results"]
                  if (r.get("values") or {}).get("between_sittings"))
    print("levels widened by the host's spread between sittings: %d" % widened)
    ways = {"printed (the level)": printed,
            "the level, this sitting's interval alone": sitting_alone,
            "median (as printed before levels)": lambda r: (r["median"], r["ci_low"], r["ci_high"], None, None),
            "pooled p5": pooled_p5}
    for t in sorted({tau, 0.05, 0.12}):
        ways["fast level, step %g%%, no machine floor" % (100 * t)] = lambda r, t=t: fast_level(r, t)
    # figure -> label -> [result per invocation]
    figs = {}
    for run in doc["runs"]:
        for r in run["results"]:
            if r.get("status") not in ("ok", "noisy") or not r.get("samples"):
                continue
            key = r["id"] + ("" if not r.get("placement") else " [%s]" % r["placement"])
            figs.setdefault(key, {}).setdefault(run["label"], []).append(r)
    for name, way in ways.items():
        print("## %s" % name)
        print("| figure | half-width quiet | spells | holds quiet | spells | spells/quiet | slow share quiet | spells |")
        print("|---|---|---|---|---|---|---|---|")
        allhw = {"quiet": [], "spells": []}
        allhold = {"quiet": [], "spells": []}
        ratios = []
        for key in sorted(figs):
            row = [key]
            lv = {}
            hold = {}
            share = {}
            for label in ("quiet", "spells"):
                got = [way(r) for r in figs[key].get(label, [])]
                got = [g for g in got if g]
                lv[label] = [g[0] for g in got]
                hws = [100 * (g[2] - g[1]) / 2 / g[0] for g in got if g[1] is not None and g[0]]
                pairs = [(a, b) for a in got for b in got if a is not b and a[1] is not None]
                hold[label] = [a[1] <= b[0] <= a[2] for a, b in pairs]
                share[label] = [g[3] for g in got if g[3] is not None]
                allhw[label] += hws
                allhold[label] += hold[label]
                row.append("%.1f%%" % st.median(hws) if hws else "-")
            for label in ("quiet", "spells"):
                row.append("%.0f%%" % (100 * sum(hold[label]) / len(hold[label])) if hold[label] else "-")
            if lv["quiet"] and lv["spells"]:
                ratio = st.median(lv["spells"]) / st.median(lv["quiet"])
                if figs[key]["quiet"][0]["better"] == "higher":
                    ratio = 1 / ratio
                ratios.append((ratio, key))
                row.append("%.3f" % ratio)
            else:
                row.append("-")
            for label in ("quiet", "spells"):
                row.append("%.0f%%" % (100 * st.mean(share[label])) if share[label] else "-")
            print("| " + " | ".join(row) + " |")
        for label in ("quiet", "spells"):
            if allhw[label]:
                print("%s: half-width median %.1f%%, intervals hold %.0f%% of %d pairs" % (
                    label, st.median(allhw[label]), 100 * sum(allhold[label]) / max(1, len(allhold[label])),
                    len(allhold[label])))
        if ratios:
            # The farthest from 1 either way: a level that reads lower under
            # spells moved as much as one that reads higher.
            worst = max(ratios, key=lambda rk: abs(math.log(rk[0])))
            print("spells/quiet: median %.3f, worst %.3f (%s)" % (st.median(r for r, _ in ratios), worst[0], worst[1]))
        print()


if __name__ == "__main__":
    main()
