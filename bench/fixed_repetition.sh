#!/bin/bash
# What fixed-repetition timing (lmbench's way) would have cost for the
# precision kbench's adaptive sampling reached.  Runs `kbench run --suite
# SUITE --json` once (or reads a saved document: JSON=file), then for every
# result that met its precision:
#  - n_i, the samples kbench took before the 95% CI of the median was
#    within PRECISION (1%);
#  - whether lmbench's fixed 11 repetitions would have met it: the CI of
#    the median of the first 11 samples, by the same order statistics
#    (binomial ranks) kbench uses;
#  - the fixed count that would have met it for every instance, max(n_i),
#    and the sampling time that count costs when every instance gets it.
# A sample lasts the sample target (10 ms, calibrated), so sampling time
# is samples x 10 ms; setup and calibration are the same either way and
# are left out of both.
#
# usage: bench/fixed_repetition.sh   (KBENCH=path, SUITE=quick, JSON=saved.json)
set -eu
. "$(dirname "$0")/lib.sh"
SUITE=${SUITE:-quick}
if [ -n "${JSON:-}" ]; then
	cp "$JSON" "$WORK/run.json"
else
	"$KBENCH" run --suite "$SUITE" --no-store --quiet --json >"$WORK/run.json" || true
fi
python3 - "$WORK/run.json" <<'PY'
import json, math, sys

def ranks(n, conf=0.95):
    # Symmetric order statistics (lo, hi), 0-based, with P(x[lo] <= median
    # <= x[hi]) >= conf under binomial(n, 1/2); None when n is too small.
    best = None
    for lo in range(n // 2 + 1):
        hi = n - 1 - lo
        cover = sum(math.comb(n, k) for k in range(lo + 1, hi + 1)) / 2 ** n
        if cover >= conf:
            best = (lo, hi)
    return best

def halfwidth(xs):
    xs = sorted(xs)
    n = len(xs)
    r = ranks(n)
    if r is None:
        return float("inf")
    med = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return max(med - xs[r[0]], xs[r[1]] - med) / med

doc = json.load(open(sys.argv[1]))
rows = [r for run in doc["runs"] for r in run["results"]
        if r["status"] == "ok" and r["samples"]]
noisy = sum(1 for run in doc["runs"] for r in run["results"] if r["status"] == "noisy")
if not rows:
    sys.exit("no result met its precision")
ns = [len(r["samples"]) for r in rows]
# Met within 11 samples (kbench stopped by then), or the first 11 would have met it.
met11 = sum(1 for r in rows if len(r["samples"]) <= 11 or halfwidth(r["samples"][:11]) <= 0.01)
nmax = max(ns)
sample_s = 0.010
adaptive = sum(ns) * sample_s
fixed = nmax * len(rows) * sample_s
print("%d results met 1%% (another %d were noisy and are left out)" % (len(rows), noisy))
print("samples taken: median %d, max %d (%s)" % (sorted(ns)[len(ns) // 2], nmax,
      ", ".join(r["id"] for r in rows if len(r["samples"]) == nmax)))
print("lmbench's fixed 11 repetitions: 1%% met on %d of %d" % (met11, len(rows)))
print("sampling time: adaptive %.1f s; a fixed %d for all, to meet 1%% everywhere: %.1f s (%.1fx)"
      % (adaptive, nmax, fixed, fixed / adaptive))
PY
