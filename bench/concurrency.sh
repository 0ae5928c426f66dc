#!/bin/sh
# Many kbenches on one database at once (issue 13), ROUNDS times: in each
# round W `kbench run` writers (default 8) create one NEW database together,
# started back to back, then W more write to that EXISTING
# database, each time with 2 readers (`kbench runs` and `kbench summary`,
# 6 calls each) alongside.  Counts the runs stored against the runs
# attempted, the writers that failed, and the readers that failed (for a new
# database, a reader that only says it is not there yet -- no such file, an
# empty file, no runs -- is not counted: that is the truth when it looked).
# Each writer measures sys.null with --max-time 0.05 --replicas 2: the load
# is the database's, not the benchmark's.  Before the fix about one round
# in five lost a run (a writer exiting 1 with "database is locked").
#
# usage: bench/concurrency.sh      (KBENCH=path, ROUNDS=10, W=8)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-10}
W=${W:-8}
mkdir "$WORK/tmp"
FAST="--only sys.null --max-time 0.05 --replicas 2 --tmpdir $WORK/tmp --quiet"

attempted=0 stored=0 wfail=0 rfail=0 rcalls=0

# writers DB TAG: W writers started one after the other as fast as the
# shell can, as issue 13 did: a few milliseconds apart is what the race
# needed (released together at a barrier, they collided less).
writers() {
	for i in $(seq "$W"); do
		(rc=0
		 "$KBENCH" run $FAST --db "$1" --label "$2.$i" >/dev/null 2>"$WORK/w.$2.$i.err" || rc=$?
		 echo $rc >"$WORK/w.$2.$i.rc") &
	done
}

readers() {
	for k in 1 2; do
		(for i in 1 2 3 4 5 6; do
			if [ $((i % 2)) = 0 ]; then cmd=summary; else cmd=runs; fi
			rc=0
			"$KBENCH" $cmd --db "$1" >/dev/null 2>"$WORK/r.$2.$k.$i.err" || rc=$?
			echo $rc >"$WORK/r.$2.$k.$i.rc"
		done) &
	done
}

# tally DB TAG NEW: count what this batch stored and what failed.
tally() {
	for i in $(seq "$W"); do
		attempted=$((attempted + 1))
		if [ "$(cat "$WORK/w.$2.$i.rc")" != 0 ] || [ -s "$WORK/w.$2.$i.err" ]; then
			wfail=$((wfail + 1))
			echo "writer $2.$i: $(cat "$WORK/w.$2.$i.err")" >&2
		fi
	done
	"$KBENCH" runs --db "$1" >"$WORK/list"
	got=$(awk -v t="$2." 'index($3, t) == 1 { n++ } END { print n + 0 }' "$WORK/list")
	stored=$((stored + got))
	for f in "$WORK"/r.$2.*.rc; do
		e=${f%.rc}.err
		rcalls=$((rcalls + 1))
		[ "$(cat "$f")" = 0 ] && [ ! -s "$e" ] && continue
		if [ "$3" = 1 ] && grep -q -e 'no such file' -e 'empty file' -e 'empty database' \
			-e 'no runs in db' "$e"; then
			continue
		fi
		rfail=$((rfail + 1))
		echo "reader $f: $(cat "$e")" >&2
	done
}

echo "kbench: $KBENCH; $ROUNDS rounds of $W writers on a new database then $W on it again"
for r in $(seq "$ROUNDS"); do
	db="$WORK/db$r/results.db"
	writers "$db" "new$r"
	readers "$db" "new$r"
	wait
	tally "$db" "new$r" 1
	writers "$db" "old$r"
	readers "$db" "old$r"
	wait
	tally "$db" "old$r" 0
	rm -rf "$WORK/db$r" "$WORK"/w.* "$WORK"/r.*
done
echo
echo "| rounds | runs attempted | runs stored | writers failed | reader calls | readers failed |"
echo "|---|---|---|---|---|---|"
echo "| $ROUNDS | $attempted | $stored | $wfail | $rcalls | $rfail |"
