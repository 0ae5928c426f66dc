#!/bin/sh
# How long `kbench history` takes over a store of N real runs, on SQLite
# and on PostgreSQL.
#
# The store is made of the runs of SRC (a store of real runs, a suite's
# every figure each: bench/sittings.sh keeps one) exported once, then
# imported again and again, each copy with new uuids and filed under a label
# of its own (6.18.1, 6.18.2, ...), until N runs are stored: whole runs,
# with their replicas, values and sentinels, as a long history holds them.
# The same export goes into a throwaway PostgreSQL server (tests/pg.sh).
# Each command is timed ROUNDS times, the median printed, with the peak
# resident size from GNU time when it is there.  Prints Markdown.
#
# usage: bench/history_speed.sh SRC [N]      (KBENCH=..., ROUNDS=3, PG=0|1)
. "$(dirname "$0")/lib.sh"
SRC=$1
N=${2:-1000}
ROUNDS=${ROUNDS:-3}
PG=${PG:-1}
GNUTIME=$(command -v /usr/bin/time || true)

"$KBENCH" export --db "$SRC" >"$WORK/src.json" || exit 1
per=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["runs"]))' "$WORK/src.json")
copies=$(((N + per - 1) / per))

# copy K: the export with new uuids (runs and sets), labelled 6.18.K, cut
# to what is left of N.
copy() {
	python3 - "$WORK/src.json" "$1" "$per" "$N" >"$WORK/copy.json" <<'EOF'
import json, sys, uuid
doc = json.load(open(sys.argv[1]))
k, per, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sets = {}
runs = doc["runs"][:max(0, min(per, n - (k - 1) * per))]
for r in runs:
    r["uuid"] = uuid.uuid4().hex
    if r.get("set"):
        r["set"] = sets.setdefault(r["set"], uuid.uuid4().hex)
    r["label"] = "6.18.%d" % k
doc["runs"] = runs
json.dump(doc, sys.stdout)
EOF
}

fill() { # DB: N runs imported into it
	for k in $(seq "$copies"); do
		copy "$k"
		"$KBENCH" import "$WORK/copy.json" --db "$1" >/dev/null || return 1
	done
}

# timeit CMD...: the median wall time of ROUNDS runs, and the peak resident size.
timeit() {
	: >"$WORK/times"
	for r in $(seq "$ROUNDS"); do
		if [ -n "$GNUTIME" ]; then
			"$GNUTIME" -f '%e %M' -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; echo fail; return; }
			cat "$WORK/t" >>"$WORK/times"
		else
			s=$(date +%s.%N)
			"$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; echo fail; return; }
			echo "$(echo "$(date +%s.%N) - $s" | bc) 0" >>"$WORK/times"
		fi
	done
	python3 - "$WORK/times" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
t = statistics.median(float(r[0]) for r in rows)
m = max(int(r[1]) for r in rows)
print("%.2f s%s" % (t, ", %d MB" % (m // 1024) if m else ""))
EOF
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; $N runs: $SRC's $per runs imported $copies times; load average: $(loadavg)"
echo
echo "| store | runs | figures a run | \`history\` (by time) | \`history --by label\` | \`summary\` |"
echo "|---|---|---|---|---|---|"
figs=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$WORK/src.json")
fill "$WORK/h.db" || exit 1
got=$("$KBENCH" runs --db "$WORK/h.db" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
echo "| SQLite | $got | $figs | $(timeit "$KBENCH" history --db "$WORK/h.db") | $(timeit "$KBENCH" history --by label --db "$WORK/h.db") | $(timeit "$KBENCH" summary --db "$WORK/h.db") |"
if [ "$PG" = 1 ]; then
	KBENCH_TEST_PG=
	T=$WORK
	. "$ROOT/tests/pg.sh"
	if pg_setup; then
		fill "$KBENCH_TEST_PG" || exit 1
		got=$("$KBENCH" runs --db "$KBENCH_TEST_PG" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
		echo "| PostgreSQL | $got | $figs | $(timeit "$KBENCH" history --db "$KBENCH_TEST_PG") | $(timeit "$KBENCH" history --by label --db "$KBENCH_TEST_PG") | $(timeit "$KBENCH" summary --db "$KBENCH_TEST_PG") |"
		pg_teardown
	else
		echo "PostgreSQL: $PG_WHY" >&2
	fi
fi
