#!/bin/bash
# Wall time of the quick suite: `kbench run --suite quick --no-store --quiet`
# timed end to end (process start to exit, python3's monotonic clock) three
# times in a row; target at most 30 s each.  --json is added so that the
# script can count the instances and how many came back noisy (missed their
# precision) or busy (other work used more than 25% of the other CPUs while
# sampling); it changes only how the results are printed, not how long
# they are measured.  Prints a Markdown table, one row per run.
#
# usage: bench/quick_wall.sh      (KBENCH=path/to/kbench, default build/kbench)
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}

now() { python3 -c 'import time; print("%.3f" % time.monotonic())'; }

echo "load average before: $(loadavg); kbench: $KBENCH; $RUNS runs"
echo
echo "| run | wall (s) | instances | noisy | busy | failed/skipped | sum of per-instance wall_s (s) |"
echo "|---|---|---|---|---|---|---|"
: >"$WORK/walls"
for run in $(seq 1 "$RUNS"); do
	t0=$(now)
	"$KBENCH" run --suite quick --no-store --quiet --json >"$WORK/q.json"
	t1=$(now)
	python3 - "$run" "$t0" "$t1" "$WORK/q.json" <<'PY' | tee -a "$WORK/walls"
import json, sys
run, t0, t1, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
res = [r for x in json.load(open(path))["runs"] for r in x["results"]]
noisy = sum(r["status"] == "noisy" for r in res)
busy = sum((r.get("interference") or 0) > 0.25 for r in res)
bad = sum(r["status"] in ("fail", "skip") for r in res)
inner = sum(r.get("wall_s") or 0 for r in res)
print("| %s | %.1f | %d | %d | %d | %d | %.1f |" % (run, t1 - t0, len(res), noisy, busy, bad, inner))
PY
done
echo
python3 - "$WORK/walls" <<'PY'
import sys
w = [float(l.split("|")[2]) for l in open(sys.argv[1])]
print("- wall time: min %.1f s, max %.1f s -> target at most 30 s: %s"
      % (min(w), max(w), "met" if max(w) <= 30 else "NOT met"))
PY
echo
echo "load average after: $(loadavg)"
