#!/bin/bash
# kbench's window accounting against contest's old one, on the same
# measurement: for each load, Loads counted between the job's start and end
# (kbench) next to the load's whole-life count scaled by job time / load
# time (contest 2002, which counted the load starting, settling and being
# killed too).  Both come from one `kbench contest` run: the old figure is
# stored as the value old_loads.
#
# SETTLE (seconds the load works alone before the job, default 1) shows how
# the old figure drifts as the load's life outgrows the job's window.
#
# usage: bench/contest_accounting.sh   (KBENCH=path, LOADS=io_load,process_load, SIZE=1, RUNS=1, SETTLE=1)
set -eu
. "$(dirname "$0")/lib.sh"
LOADS=${LOADS:-io_load,process_load}
SIZE=${SIZE:-1}
RUNS=${RUNS:-1}
SETTLE=${SETTLE:-1}
"$KBENCH" contest --loads "noload,$LOADS" --size "$SIZE" --runs "$RUNS" --settle "$SETTLE" --label acct \
	--db "$WORK/c.db" --quiet | tee "$WORK/table.txt"
"$KBENCH" export --db "$WORK/c.db" >"$WORK/c.json"
python3 - "$WORK/c.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("%-14s %8s %10s %12s %9s %10s %s" % ("load", "Time s", "life s", "window", "old", "old/window", "unit"))
for run in doc["runs"]:
    for r in run["results"]:
        v = r["values"]
        if r["status"] != "ok" or "old_loads" not in v:
            continue
        w, old = v["loads"], v["old_loads"]
        print("%-14s %8.1f %10.1f %12.0f %9.0f %10.3f %s" % (r["id"][8:], r["median"], v["load_life_s"],
              w, old, old / w if w else float("nan"), v.get("load_unit", "")))
PY
