#!/bin/bash
# Wall time of the quick suite's benchmarks between processes: `kbench run
# --suite quick --only 'ctx.*,ipc.*' --no-store`, timed end to end (process
# start to exit, python3's monotonic clock), RUNS times in a row (default
# 3); target at most 45 s each.  --json --quiet are added, as in
# bench/quick_wall.sh, so the script can count instances, noisy and busy
# results and name the slowest instances; they change only how results are
# printed.  With no --placement the quick suite measures each of these once,
# placement none (the scheduler chooses), as a user's programs would run.
#
# usage: bench/ipc_quick_wall.sh   (KBENCH=path, RUNS=3)
set -eu
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}

now() { python3 -c 'import time; print("%.3f" % time.monotonic())'; }

echo "load average before: $(loadavg); kbench: $KBENCH; $RUNS runs"
echo
echo "| run | wall (s) | instances | noisy | busy | failed/skipped | sum of per-instance wall_s (s) | slowest instances (s) |"
echo "|---|---|---|---|---|---|---|---|"
: >"$WORK/walls"
for run in $(seq 1 "$RUNS"); do
	t0=$(now)
	"$KBENCH" run --suite quick --only 'ctx.*,ipc.*' --no-store --quiet --json >"$WORK/q.json"
	t1=$(now)
	python3 - "$run" "$t0" "$t1" "$WORK/q.json" <<'PY' | tee -a "$WORK/walls"
import json, sys
run, t0, t1, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
res = [r for x in json.load(open(path))["runs"] for r in x["results"]]
noisy = sum(r["status"] == "noisy" for r in res)
busy = sum((r.get("interference") or 0) > 0.25 for r in res)
bad = sum(r["status"] in ("fail", "skip") for r in res)
inner = sum(r.get("wall_s") or 0 for r in res)
slow = sorted(res, key=lambda r: -(r.get("wall_s") or 0))[:3]
print("| %s | %.1f | %d | %d | %d | %d | %.1f | %s |" % (
    run, t1 - t0, len(res), noisy, busy, bad, inner,
    ", ".join("%s %.1f" % (r["id"], r.get("wall_s") or 0) for r in slow)))
PY
done
echo
python3 - "$WORK/walls" <<'PY'
import sys
w = [float(l.split("|")[2]) for l in open(sys.argv[1])]
print("- wall time: min %.1f s, max %.1f s -> target at most 45 s: %s"
      % (min(w), max(w), "met" if max(w) <= 45 else "NOT met"))
PY
echo
echo "load average after: $(loadavg)"
