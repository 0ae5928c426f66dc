#!/bin/sh
# Command-line tests of `kbench show`: a figure and a curve read back from a
# temporary database, selected by run id and by label, as text and JSON;
# and bad input (no database, an unknown id, an id never measured, be it a
# registry row or one of the catalogue's, time.*, an unknown run or label)
# getting one line on stderr, the right exit status and no file created.
# TAP output like tests/cli.sh; timings are never asserted.  The curve is
# measured small (--size 1m, --suite quick), a few seconds.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
OPTS="--tmpdir $T/tmp --quiet"
DB="$T/db/results.db"
# fits FILE: no line of FILE is wider than 80 columns
fits() { awk 'length > 80 { print; bad = 1 } END { exit bad }' "$1"; }

# --- help and usage --------------------------------------------------------
kb show --help;			check "show --help exits 0" [ "$rc" = 0 ]
check "show --help gives the synopsis" grep -q '^usage: kbench show ID|sentinel \[RUN|LABEL\] ' "$T/out"
check "show --help lists --db and --json" sh -c "grep -q -- '--db PATH' \"$T/out\" && grep -q -- '--json' \"$T/out\""
kb --help;			check "kbench --help lists show" grep -q '^  show ' "$T/out"
kb show;			check "show without an id exits 2" [ "$rc" = 2 ]
check "show without an id says so" grep -q 'name the result to show' "$T/err"
kb show sys.null 1 2;		check "show with three arguments exits 2" [ "$rc" = 2 ]
kb show sys.null --bogus;	check "show with an unknown option exits 2" [ "$rc" = 2 ]

# --- no database yet: one line, exit 1, nothing created ----------------------
kb show sys.null --db "$DB"
check "show of a missing db exits 1" [ "$rc" = 1 ]
check "show of a missing db: one line" [ "$(lines "$T/err")" = 1 ]
check "show of a missing db creates nothing" [ ! -e "$T/db" ]
kb show nosuch.bench --db "$DB"
check "show of an unknown id exits 1" [ "$rc" = 1 ]
check "show of an unknown id: one line naming it" sh -c "[ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"unknown benchmark 'nosuch.bench'\" \"$T/err\""
check "show of an unknown id creates nothing" [ ! -e "$T/db" ]

# --- ids beyond the registry (the catalogue): known, so never measured --------
EMPTY="$T/empty.db"
echo '{"format": "kbench-export", "version": 1, "runs": []}' >"$T/empty.json"
kb import "$T/empty.json" --db "$EMPTY"
check "an empty db is made by importing no runs" [ "$rc" = 0 ]
kb show time.nosuch --db "$EMPTY"
check "show of a timed job never measured exits 1" [ "$rc" = 1 ]
check "show of a timed job never measured: never measured, not unknown" sh -c "[ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"'time.nosuch' was never measured\" \"$T/err\""
kb show contest.noload --db "$EMPTY"
check "show of a contest load never measured: never measured" sh -c "[ $rc = 1 ] && grep -q \"'contest.noload' was never measured\" \"$T/err\""
for id in bogus.x contest.bogus time. time.a/b; do
	kb show "$id" --db "$EMPTY"
	check "show $id: unknown benchmark, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"unknown benchmark '$id'\" \"$T/err\""
done

# --- a figure ----------------------------------------------------------------
kb run --only sys.null,sys.fstat --max-time 0.2 --db "$DB" --label first $OPTS
check "a first run exits 0" [ "$rc" = 0 ]
kb run --only sys.null --max-time 0.2 --db "$DB" --label second $OPTS
check "a second run exits 0" [ "$rc" = 0 ]
ls -l "$T/db" >"$T/before"
kb show sys.null --db "$DB"
check "show of a figure exits 0" [ "$rc" = 0 ]
check "show names the id, unit and direction" grep -q '^sys.null - us - smaller is better$' "$T/out"
check "show takes the latest run by default" grep -q "^run 2 'second' on " "$T/out"
check "show prints the median" grep -q '^median: *[0-9.]* us$' "$T/out"
check "show prints the 95% CI" grep -q '^95% CI: *[0-9.]* to [0-9.]* us (+-[0-9.]*%)$' "$T/out"
check "show prints how sampling ended" grep -q '^status: *\(ok\|noisy\), stopped at ' "$T/out"
check "show of a figure fits 80 columns" fits "$T/out"
kb show sys.null first --db "$DB"
check "show selects a run by label" grep -q "^run 1 'first' on " "$T/out"
kb show sys.null 1 --db "$DB"
check "show selects a run by id" grep -q "^run 1 'first' on " "$T/out"
kb show sys.fstat --db "$DB"
check "show finds the latest run that has the id" grep -q "^run 1 'first' on " "$T/out"
KBENCH_DB="$DB" "$KB" show sys.null >"$T/out" 2>"$T/err"; rc=$?
check "KBENCH_DB names the database for show" [ "$rc" = 0 ]
kb show sys.null --db "$DB" --json
check "show --json exits 0" [ "$rc" = 0 ]
check "show --json holds the one run and result" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 1 results 1 '"
check "show --json has the samples" grep -q '"samples": \[$' "$T/out"
check "show wrote nothing to the db" sh -c "ls -l \"$T/db\" | cmp -s - \"$T/before\""

# --- bad selections ----------------------------------------------------------
kb show sys.fstat second --db "$DB"
check "an id the run lacks exits 1" [ "$rc" = 1 ]
check "an id the run lacks: one line naming both" sh -c "[ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"no result for 'sys.fstat' in run or label 'second'\" \"$T/err\""
kb show mem.read.bw --db "$DB"
check "an id never measured exits 1" [ "$rc" = 1 ]
check "an id never measured: one line" sh -c "[ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"'mem.read.bw' was never measured\" \"$T/err\""
kb show sys.null no-such-label --db "$DB"
check "an unknown label exits 1" [ "$rc" = 1 ]
check "an unknown label: one line naming it" sh -c "[ \$(wc -l <\"$T/err\") = 1 ] && grep -q \"no run or label 'no-such-label'\" \"$T/err\""
kb show sys.null 99 --db "$DB"
check "an unknown run id exits 1" [ "$rc" = 1 ]

# --- a curve -----------------------------------------------------------------
kb run --suite quick --only mem.lat.curve --size 1m --max-time 0.05 --db "$DB" $OPTS
check "a small latency curve runs" [ "$rc" = 0 ]
kb show mem.lat.curve --db "$DB"
check "show of a curve exits 0" [ "$rc" = 0 ]
check "the curve has a column per series" grep -q '^   size  *page  *random$' "$T/out"
check "the curve has a line per size, written as 1K" grep -q '^     1K  *[0-9.]*\*\? *[0-9.]*\*\?$' "$T/out"
check "the curve ends at --size" grep -q '^     1M ' "$T/out"
check "the detected levels are next to the OS's" grep -q '^cache  detected  OS reports$' "$T/out"
check "show of a curve fits 80 columns" fits "$T/out"
kb show mem.lat.curve --db "$DB" --json
check "show --json of a curve is valid" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 1 results 1 '"
check "show --json has the points" grep -q '"series": "random"' "$T/out"
kb summary --db "$DB"
check "summary points at show for the curve" grep -q '^  run 3 mem.lat.curve: [0-9]* points (kbench show mem.lat.curve 3)$' "$T/out"
check "summary opens with the basic system parameters" grep -q '^Basic system parameters$' "$T/out"
# 80 columns, but what the default label (the OS and release) takes over lmbench's 13
lab="$(uname -s) $(uname -r)"
wide=$((80 + (${#lab} > 13 ? ${#lab} - 13 : 0)))
check "summary fits 80 columns but its labels" \
	awk -v w="$wide" 'length > w { print; bad = 1 } END { exit bad }' "$T/out"

echo "1..$n"
