#!/bin/bash
# Issue 18's figures: storing a standard run (about 50 results and 5000
# samples) in PostgreSQL over loopback at most 1 s, next to SQLite's
# figure; `kbench summary` of 100 runs from PostgreSQL at most 2 s.
#
# The run is a real one: EXPORT, an export of one `kbench run --suite
# standard` (made here when not given: several minutes of measuring).
# bench/store/store_speed keeps it as `kbench run` does (the run row, each
# result committed on its own with its samples, the end), nothing measured;
# SQLite and PostgreSQL alternate, ROUNDS rounds each, a fresh database
# each round.  The summary reads 100 copies of the run (new uuids), from a
# throwaway server of tests/pg.sh on 127.0.0.1 and from a file, alternating.
# Prints Markdown.
#
# usage: bench/store_figures.sh      (KBENCH=path, ROUNDS=5, EXPORT=file)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
SPEED=$(dirname "$KBENCH")/store_speed
[ -x "$SPEED" ] || { echo "no $SPEED: build with make (tests on)" >&2; exit 1; }
T=$WORK
. "$ROOT/tests/pg.sh"
KBENCH_TEST_PG=
pg_setup || { echo "skip: no PostgreSQL server: $PG_WHY"; exit 0; }
trap 'pg_teardown; rm -rf "$WORK"' EXIT
BASE=${KBENCH_TEST_PG%/*}

if [ -z "${EXPORT:-}" ]; then
	EXPORT=$WORK/standard.json
	"$KBENCH" run --suite standard --db "$WORK/std.db" --label standard --quiet >/dev/null
	"$KBENCH" export --db "$WORK/std.db" >"$EXPORT"
fi
ms_of() { # CMD...: its wall time in ms
	local t0=$(date +%s%N)
	"$@" >/dev/null
	echo $((($(date +%s%N) - t0) / 1000000))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# table SQLITE-FILE PG-FILE TARGET: the two stores' rounds, a Markdown table.
table() {
	echo "| store | median (ms) | rounds (ms) | target |"
	echo "|---|---|---|---|"
	echo "| SQLite file | $(median <"$1") | $(tr '\n' ' ' <"$1")| (the reference) |"
	echo "| PostgreSQL, loopback | $(median <"$2") | $(tr '\n' ' ' <"$2")| at most $3 |"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(pg_psql 'select version()' | cut -d' ' -f1-2); $ROUNDS rounds, alternating"
echo
: >"$WORK/sqlite.ms"
: >"$WORK/pg.ms"
for k in $(seq "$ROUNDS"); do
	"$SPEED" "$EXPORT" "$WORK/r$k.db" 1 >"$WORK/line"
	read -r ms results samples <"$WORK/line"
	echo "$ms" >>"$WORK/sqlite.ms"
	pg_psql "create database r$k" >/dev/null
	"$SPEED" "$EXPORT" "$BASE/r$k" 1 >"$WORK/line"
	read -r ms results samples <"$WORK/line"
	echo "$ms" >>"$WORK/pg.ms"
done
echo "Storing one standard run ($results results, $samples samples), each result its own transaction:"
echo
table "$WORK/sqlite.ms" "$WORK/pg.ms" 1000

# 100 runs: the standard run under 100 new uuids, imported into both, in
# four files (a file may hold 64 MiB, and 100 standard runs are 68).
python3 - "$EXPORT" "$WORK/hundred" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
for part in range(4):
    runs = []
    for i in range(25 * part, 25 * part + 25):
        r = dict(run)
        r["uuid"] = "%032x" % (0x5eed0000 + i)
        r["set"] = r["uuid"]
        runs.append(r)
    d["runs"] = runs
    json.dump(d, open("%s%d.json" % (sys.argv[2], part), "w"))
PY
pg_psql "create database hundred" >/dev/null
"$KBENCH" import "$WORK"/hundred?.json --db "$BASE/hundred" >/dev/null 2>&1
"$KBENCH" import "$WORK"/hundred?.json --db "$WORK/hundred.db" >/dev/null 2>&1
: >"$WORK/sum.sqlite"
: >"$WORK/sum.pg"
for k in $(seq "$ROUNDS"); do
	ms_of "$KBENCH" summary --db "$WORK/hundred.db" >>"$WORK/sum.sqlite"
	ms_of "$KBENCH" summary --db "$BASE/hundred" >>"$WORK/sum.pg"
done
n=$("$KBENCH" runs --db "$BASE/hundred" | tail -n 1)
echo
echo "\`kbench summary\` of 100 runs ($n):"
echo
table "$WORK/sum.sqlite" "$WORK/sum.pg" 2000
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
