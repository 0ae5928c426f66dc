#!/bin/sh
# Command-line tests of kbench summary's rows: one per label by default,
# "LABEL [N]" where N runs were merged, one per run with --each, and --json
# still one object per run.  Prints TAP lines; tests/run.sh counts them.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.1 --tmpdir $T/tmp --quiet"
DB="$T/x.db"
# The rows of the Processor, Processes table whose OS cell (13 characters
# after the host's 9 and a space, right-aligned) is exactly $1.
proc_rows() {
	sed -n '/^Processor, Processes/,/^$/p' "$T/out" |
		awk -v os="$1" '{ c = substr($0, 11, 13); sub(/^ +/, "", c) } c == os { n++ }
				END { print n + 0 }'
}

kb run --only sys.null --runs 2 --label L --db "$DB" $FAST
check "two runs under one label exit 0" [ "$rc" = 0 ]
kb run --only sys.null --label M --db "$DB" $FAST
check "a run under another label exits 0" [ "$rc" = 0 ]

kb summary --db "$DB"
check "summary exits 0" [ "$rc" = 0 ]
check "summary merges the label's runs into one row 'L [2]'" [ "$(proc_rows 'L [2]')" = 1 ]
check "summary shows no row of one of L's runs" [ "$(proc_rows L)" = 0 ]
check "a label of one run has no count" [ "$(proc_rows M)" = 1 ]
# L's runs are 1 and 2: a note on the merged row names the label, not them.
check "no note names one of a merged row's runs" sh -c "! grep -q -E '^  run [12] ' \"$T/out\""

kb summary L --db "$DB"
check "summary LABEL shows that label's row" [ "$(proc_rows 'L [2]')" = 1 ]

kb summary --each --db "$DB"
check "summary --each exits 0" [ "$rc" = 0 ]
check "summary --each shows a row per run" [ "$(proc_rows L)" = 2 ]
check "summary --each shows no count" [ "$(proc_rows 'L [2]')" = 0 ]

kb summary L --db "$DB" --json
check "summary --json stays one object per run" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 2 results 2'"

kb summary --help
check "summary --help lists --each" grep -q -- '--each' "$T/out"

echo "1..$n"
