#!/bin/sh
# Command-line tests of the rate family (issue 15): `kbench list --suite
# rates` lists its nine rows, unit calls/s, bigger better; two labels of
# short runs give summary's "System call rates" table a column each and a
# row per call, and compare a section of its own.  The figures themselves
# are not judged here (the machine is shared); their checks are
# tests/unit/test_faults.c's and tests/cli_faults.sh's.  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.05 --replicas 1 --tmpdir $T/tmp --quiet"
DB="$T/r.db"
IDS='rate.getppid rate.write rate.read rate.socket rate.select rate.gettimeofday rate.clock_gettime rate.clock_gettime_coarse rate.time'

kb list --suite rates
check "list --suite rates exits 0" [ "$rc" = 0 ]
check "list --suite rates lists the nine, in the family's order" \
	[ "$(awk '/^[a-z0-9]+\./ { print $1 }' "$T/out" | tr '\n' ' ')" = "$IDS " ]
check "each in calls/s, bigger is better, in rates and standard" \
	[ "$(grep -Ec '^rate\.[a-z_]+ +calls/s +higher +standard,rates( |$)' "$T/out")" = 9 ]
kb list --suite quick
check "list --suite quick has none of them" sh -c "! grep -q '^rate\.' '$T/out'"
kb list --suite standard
check "list --suite standard has all nine" [ "$(grep -c '^rate\.' "$T/out")" = 9 ]
kb list --suite rates --json
check "list --suite rates --json gives the unit" \
	[ "$(grep -c '"unit": "calls/s"' "$T/out")" = 9 ]

kb run --suite rates --runs 2 --label UP --db "$DB" $FAST
check "two runs of the rates under UP exit 0" [ "$rc" = 0 ]
check "run prints the rates table" grep -q '^System call rates - calls per second - bigger is better$' "$T/out"
kb run --suite rates --label SMP --db "$DB" $FAST
check "a run under SMP exits 0" [ "$rc" = 0 ]

kb summary --db "$DB"
check "summary exits 0" [ "$rc" = 0 ]
sed -n '/^System call rates/,/^$/p' "$T/out" >"$T/table"
check "summary: a column per label, in the order first seen" \
	grep -Eq '^Call +UP \[2\] +SMP$' "$T/table"
check "summary: a row per call, each with a figure per label" \
	[ "$(grep -Ec '^(getppid|write|read|socket|select|gettimeofday|clock_gettime) +[0-9]+ +\+-[0-9.]+% +[0-9]+$' "$T/table")" = 7 ]
check "summary: the table fits 80 columns (its notes are free text)" \
	[ "$(grep -v '^  ' "$T/table" | awk 'length > 80' | wc -l)" = 0 ]
check "summary: the rates are not among Other results" \
	sh -c "! sed -n '/^Other results/,\$p' '$T/out' | grep -q 'rate\.'"

# Where the OS has no coarse clock, its row skips: compare has nothing to compare.
if "$KB" list --suite rates | grep -q '^rate.clock_gettime_coarse .*\[skip'; then
	compared=8
else
	compared=9
fi
kb compare UP SMP --db "$DB"
check "compare exits 0" [ "$rc" = 0 ]
check "compare: the rates in a section of their own" \
	sh -c "sed -n '/^System call rates (calls\/s)\$/,/(geometric mean/p' '$T/out' | grep -c '^rate\.' | grep -qx $compared"
if [ $compared = 9 ]; then
	check "compare: the coarse clock's id whole" grep -q '^rate\.clock_gettime_coarse ' "$T/out"
else
	skip "compare: the coarse clock's id whole" "the OS has no CLOCK_MONOTONIC_COARSE"
fi

kb run --only rate.getppid --json --no-store $FAST
check "run --json: a rate in calls/s, higher better" \
	sh -c "[ $rc = 0 ] && grep -q '\"unit\": \"calls/s\"' '$T/out' && grep -q '\"better\": \"higher\"' '$T/out'"

echo "1..$n"
