#!/bin/sh
# How long `kbench runs` takes on PostgreSQL right after a large import:
# 10,000 runs of 4 results (the kernels fixture's first run, copied) in 5
# files of 2,000 into a throwaway server of tests/pg.sh, then the listing
# timed.  The import brings the planner's statistics up to date itself
# (store_import's ANALYZE); without that, the first listings are planned
# for empty tables until autovacuum comes round.
# Usage: sh bench/pg_analyze.sh [KBENCH]   (from the repository root)
set -u
KB=${1:-./build/kbench}
KBENCH_TESTS=$(pwd)/tests
export KBENCH_TESTS
. tests/pg.sh
T=$(mktemp -d)
trap 'pg_teardown; rm -rf "$T"' EXIT
pg_setup || { echo "no PostgreSQL: $PG_WHY"; exit 1; }
/usr/bin/python3 - tests/fixtures/kernels.json "$T" <<'PY'
import json, sys, uuid
d = json.load(open(sys.argv[1]))
base = d["runs"][0]
for part in range(5):
    runs = []
    for i in range(2000):
        r = json.loads(json.dumps(base))
        r["uuid"] = r["set"] = uuid.uuid4().hex
        r["label"] = "6.18.%d" % ((part * 2000 + i) // 3)
        r["results"] = r["results"][:4]
        runs.append(r)
    d["runs"] = runs
    json.dump(d, open("%s/part%d.json" % (sys.argv[2], part), "w"))
PY
for f in "$T"/part*.json; do "$KB" import --db "$KBENCH_TEST_PG" "$f" >/dev/null 2>&1; done
s=$(date +%s.%N)
"$KB" runs --db "$KBENCH_TEST_PG" >/dev/null 2>&1
e=$(date +%s.%N)
echo "kbench runs after importing 10,000 runs: $(echo "$e - $s" | bc) s"
pg_psql "select relname, last_analyze is not null, last_autoanalyze is not null from pg_stat_user_tables where relname in ('runs', 'results') order by 1"
