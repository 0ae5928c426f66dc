#!/bin/bash
# The figures issue 16 names for AIM Suite IX:
#   1. `kbench run --suite aim9` on this machine: its wall time (target: at
#      most 6 minutes, where AIM9's usual 60 s a test takes an hour), and how
#      many of the 60 rates have an interval within +-1% or are flagged
#      (noisy, skipped, failed: never an unflagged wide interval)
#   2. fork_test, exec_test, signal_test and pipe_cpy against kbench's own
#      proc.fork, proc.exec, sig.catch and ipc.pipe.lat measured in the same
#      run: AIM9's operations per second turned into microseconds per
#      operation, and the ratio
# Prints Markdown.
#
# usage: bench/aim9_figures.sh      (KBENCH=path)
set -eu
. "$(dirname "$0")/lib.sh"

echo "load average before: $(loadavg); kbench: $KBENCH"
echo

echo "## 1. kbench run --suite aim9"
echo
t0=$(date +%s.%N)
"$KBENCH" run --no-store --quiet --json --suite aim9 >"$WORK/a.json"
t1=$(date +%s.%N)
python3 - "$WORK/a.json" "$t0" "$t1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
rows = [r for run in doc["runs"] for r in run["results"]]
tight = flagged = wide = 0
for r in rows:
    if r["status"] != "ok":
        flagged += 1
        continue
    hw = max(r["median"] - r["ci_low"], r["ci_high"] - r["median"]) / r["median"]
    if hw <= 0.01:
        tight += 1
    else:
        wide += 1
print("| figure | measured | target |")
print("|---|---|---|")
print("| wall time of `kbench run --suite aim9` | %.0f s (%.1f min) | at most 6 min |" % (wall, wall / 60))
print("| rates within +-1%% | %d of %d | every rate within +-1%% or flagged |" % (tight, len(rows)))
print("| rates flagged (noisy, skip, fail) | %d | |" % flagged)
print("| rates wider than +-1%% and not flagged | %d | 0 |" % wide)
print()
print("| # | test | status | ops/s | +- | wall (s) |")
print("|---|---|---|---|---|---|")
for i, r in enumerate(rows, 1):
    hw = ("%.1f%%" % (100 * max(r["median"] - r["ci_low"], r["ci_high"] - r["median"]) / r["median"])
          if r.get("median") else "-")
    print("| %d | %s | %s | %s | %s | %.1f |" % (i, r["id"][5:], r["status"],
          "%.2f" % r["median"] if r.get("median") else "-", hw, r.get("wall_s") or 0))
PY
echo

echo "## 2. AIM9 against kbench's own rows, in one run"
echo
"$KBENCH" run --no-store --quiet --json \
	--only 'aim9.fork_test,proc.fork,aim9.exec_test,proc.exec,aim9.signal_test,sig.catch,aim9.pipe_cpy,ipc.pipe.lat' \
	>"$WORK/b.json"
python3 - "$WORK/b.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
res = {r["id"]: r for run in doc["runs"] for r in run["results"]}
print("| AIM9 test | AIM9 (us per op) | kbench row | kbench (us) | AIM9 / kbench |")
print("|---|---|---|---|---|")
for a, k in (("aim9.fork_test", "proc.fork"), ("aim9.exec_test", "proc.exec"),
             ("aim9.signal_test", "sig.catch"), ("aim9.pipe_cpy", "ipc.pipe.lat")):
    ra, rk = res.get(a), res.get(k)
    if not ra or not rk or not ra.get("median") or not rk.get("median"):
        print("| %s | - | %s | - | - (%s / %s) |" % (a, k, ra and ra["status"], rk and rk["status"]))
        continue
    us = 1e6 / ra["median"]
    print("| %s | %.3f | %s | %.3f | %.3f |" % (a[5:], us, k, rk["median"], us / rk["median"]))
PY
echo
echo "load average after: $(loadavg)"
