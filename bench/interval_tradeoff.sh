#!/bin/bash
# The interval's coverage against the time spent on it (issue 12).
#
# Reads the runs of a database (kbench export, oldest first, e.g. the ten
# runs bench/sensitivity.sh keeps in KEEP/aa.db), and for K = 1, 2, 3, ...
# consecutive runs pooled into one measurement (their replicas together, as
# if one run had taken K times as many: the median of all replica medians,
# the order-statistic 95% CI over them; a run from before replicas counts as
# one, with its own interval when alone), asks how often the next group's
# median falls in a group's interval, pairing every group with every later
# one, and how wide the intervals are.  The time is what K runs took.
# Prints Markdown.
#
# usage: bench/interval_tradeoff.sh DB [KMAX]     (KBENCH=...)
set -eu
. "$(dirname "$0")/lib.sh"
DB=$1
KMAX=${2:-3}
"$KBENCH" export --db "$DB" >"$WORK/runs.json"
BENCH_DIR="$ROOT/bench" python3 - "$WORK/runs.json" "$KMAX" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, os.environ["BENCH_DIR"])
from kbstats import ranks
doc = json.load(open(sys.argv[1])); kmax = int(sys.argv[2])
runs = doc["runs"]
def wall(run):
    return sum(r.get("wall_s") or 0 for r in run["results"])
keys = []
for r in runs[0]["results"]:
    if r["status"] in ("ok", "noisy") and r["median"] is not None:
        keys.append((r["id"], r.get("placement"), r.get("parallel")))
def find(run, key):
    for r in run["results"]:
        if (r["id"], r.get("placement"), r.get("parallel")) == key and r["median"] is not None:
            return r
    return None
def reps(run, key):
    # A run from before replicas is one block: its median stands for it.
    r = find(run, key)
    if not r:
        return []
    return [p["median"] for p in r["replicas"]] if r.get("replicas") else [r["median"]]
print("| runs pooled | replicas a figure | time per measurement (s) | pairs | coverage | median half-width |")
print("|---|---|---|---|---|---|")
for k in range(1, kmax + 1):
    groups = [runs[i:i + k] for i in range(0, len(runs) - k + 1, k)]
    if len(groups) < 2:
        break
    hit = tot = 0
    widths, nrep = [], []
    for key in keys:
        iv = []
        for g in groups:
            v = sorted(x for run in g for x in reps(run, key))
            if not v:
                iv.append(None)
                continue
            m = statistics.median(v)
            if len(v) == 1:
                # One block: the interval its samples gave, as run printed it.
                r = find(g[0], key)
                lo, hi = r["ci_low"], r["ci_high"]
            else:
                a, b = ranks(len(v))
                lo, hi = v[a], v[b]
            iv.append((m, lo, hi))
            widths.append(max(hi - m, m - lo) / m)
            nrep.append(len(v))
        for i in range(len(iv)):
            for j in range(len(iv)):
                if i != j and iv[i] and iv[j]:
                    tot += 1
                    hit += iv[i][1] <= iv[j][0] <= iv[i][2]
    t = statistics.median(sum(wall(r) for r in g) for g in groups)
    print("| %d | %d | %.0f | %d | %.0f%% | %.1f%% |" % (k, statistics.median(nrep), t, tot,
          100.0 * hit / max(tot, 1), 100 * statistics.median(widths)))
PY
