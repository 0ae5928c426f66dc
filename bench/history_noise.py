#!/usr/bin/env python3
"""How far apart do a figure's sittings lie, by the statistic a run gives
it?  A history's power is bounded by how widely one label's level spreads
(its sitting's own move plus its runs' spread over their count); this
asks which run statistic keeps that spread smallest, without measuring.

From a database of real sittings of one kernel (bench/sittings.sh keeps
one: labels s1, s2, ...), for every figure and each candidate statistic
of a run (from its stored replicas):
  median     the run's median (what kbench stores and history uses)
  mean       the mean of the replicas' log medians
  min        the fastest replica (lower is better) / the best (higher)
  best2      the mean log of the two best replicas
  adds       the median over the machine's adds around the replicas
             (the user-space sentinel, which no kernel change moves)
  p5         the samples' 5th percentile (95th when higher is better)
  p2, p10, p25  other percentiles of the samples, so
  fast10     the mean log of the fastest tenth of the samples
the spread between sittings beyond the runs' (one-way random effects,
moment estimate), a label's spread with RUNS runs, and the share of 5%
and 10% steps the oracle (a z test told where the step is, LABELS labels
split in two) finds with that spread.  Prints Markdown: the mean over
the figures per statistic, then each figure's label spread.

usage: bench/history_noise.py DB [RUNS [LABELS]]
"""
import math
import sqlite3
import statistics as st
import sys

from historylib import spread

db = sys.argv[1]
per = int(sys.argv[2]) if len(sys.argv) > 2 else 5
labels = int(sys.argv[3]) if len(sys.argv) > 3 else 12
con = sqlite3.connect(db)

# (figure) -> sitting -> [run stats]
rows = con.execute(
    "SELECT r.id, r.bench_id, r.placement, r.better, r.median, r.p5, r.p95, u.label, u.id "
    "FROM results r JOIN runs u ON u.id = r.run_id "
    "WHERE r.status IN ('ok', 'noisy') AND r.median > 0 AND u.label LIKE 's%' "
    "AND r.bench_id != 'mem.lat.curve'")
reps = {}
for rid, med, su in con.execute("SELECT result_id, median, sentinel_user FROM result_replicas "
                                "WHERE median > 0 ORDER BY result_id, idx"):
    reps.setdefault(rid, []).append((med, su))

samples = {}
for rid, v in con.execute("SELECT result_id, value FROM samples WHERE value > 0"):
    samples.setdefault(rid, []).append(v)


def quantile(v, f):
    """Linear between order statistics, as stats_quantile_sorted takes it."""
    h = (len(v) - 1) * f
    lo = int(math.floor(h))
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])


STATS = ("median", "mean", "min", "best2", "adds", "p5", "p2", "p10", "p25", "fast10")
data = {}
for rid, bid, place, better, med, p5, p95, label, run in rows:
    rp = reps.get(rid, [])
    if len(rp) < 2:
        continue
    logs = sorted(math.log(m) for m, _ in rp)
    if better == "higher":
        logs.reverse()
    adds = [s for _, s in rp if s and s > 0]
    v = {
        "median": math.log(med),
        "mean": st.mean(logs),
        "min": logs[0],
        "best2": st.mean(logs[:2]),
        "adds": math.log(med) - math.log(st.median(adds)) if adds else float("nan"),
        "p5": math.log(p5 if better == "lower" else p95) if (p5 if better == "lower" else p95) else float("nan"),
    }
    sm = sorted(math.log(x) for x in samples.get(rid, []))
    if better == "higher":
        sm = [-x for x in reversed(sm)]
    sign = -1 if better == "higher" else 1
    for name, f in (("p2", 0.02), ("p10", 0.10), ("p25", 0.25)):
        v[name] = sign * quantile(sm, f) if sm else float("nan")
    v["fast10"] = sign * st.mean(sm[:max(1, len(sm) // 10)]) if sm else float("nan")
    key = bid + ("[%s]" % place if place else "")
    data.setdefault(key, {}).setdefault(label, []).append(v)


def phi(z):
    return 0.5 * math.erfc(-z / math.sqrt(2))


def power(sd, step):
    left = labels // 2
    se = sd * math.sqrt(1.0 / left + 1.0 / (labels - left))
    d = math.log(1 + step)
    return phi(d / se - 1.959964) + phi(-d / se - 1.959964)


res = {}
for key, sit in sorted(data.items()):
    for s in STATS:
        groups = [[v[s] for v in runs if math.isfinite(v[s])] for runs in sit.values()]
        tau2, msw = spread(groups)
        if not math.isfinite(tau2):
            continue
        sd = math.sqrt(tau2 + msw / per)
        res.setdefault(key, {})[s] = (sd, math.sqrt(tau2), math.sqrt(msw))

keys = [k for k in res if all(s in res[k] for s in STATS)]
print("%s: %d figures, %d sittings; a label of %d runs; %d labels split in two"
      % (db, len(keys), len(next(iter(data.values()))), per, labels))
print()
print("| run statistic | median label spread | between sittings (median) | runs (median) | oracle finds 5% | 10% |")
print("|---|---|---|---|---|---|")
for s in STATS:
    sds = [res[k][s][0] for k in keys]
    print("| %s | %.2f%% | %.2f%% | %.2f%% | %.1f%% | %.1f%% |" % (
        s, 100 * st.median(sds), 100 * st.median(res[k][s][1] for k in keys),
        100 * st.median(res[k][s][2] for k in keys),
        100 * st.mean(power(x, 0.05) for x in sds), 100 * st.mean(power(x, 0.10) for x in sds)))
print()
print("| figure | " + " | ".join(STATS) + " |")
print("|---|" + "---|" * len(STATS))
for k in keys:
    print("| %s | " % k + " | ".join("%.1f%% (%.1f)" % (100 * res[k][s][0], 100 * res[k][s][1])
                                     for s in STATS) + " |")
