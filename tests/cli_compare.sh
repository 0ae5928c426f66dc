#!/bin/sh
# Command-line tests of kbench compare (issue 5, first part): two labels of
# three runs each compared section by section, a run id as a side, and bad
# input (a side named twice, an unknown label, nothing in common) as one
# line.  Then --json: one document jsoncheck accepts, with the text's rows,
# and bad input still one line and nothing on stdout.  Timings are never
# asserted: which changes are significant on this machine is not known in
# advance, only that every row has its parts.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
DB="$T/cmp.db"
for r in 1 2 3; do
	for l in base other; do
		"$KB" run --only 'sys.null,sys.fstat' --label $l --db "$DB" --max-time 0.1 \
			--tmpdir "$T/tmp" --quiet >/dev/null 2>&1
	done
done
"$KB" run --only ipc.pipe.lat --label lonely --db "$DB" --max-time 0.1 --tmpdir "$T/tmp" --quiet >/dev/null 2>&1

kb compare base other --db "$DB"
check "compare of two labels exits 0" [ "$rc" = 0 ]
check "the header names the base and the correction" sh -c "grep -q '^Base base; ' '$T/out' && grep -q 'Benjamini-Hochberg adjusted p' '$T/out'"
check "a section in lmbench's order" grep -q '^Processor, processes (us)' "$T/out"
check "one line per instance, with a signed change" grep -Eq '^sys\.null +[0-9.]+ \+-[0-9.]+%.* [-+][0-9.]+%' "$T/out"
check "an instance only in other tables' sections is absent" sh -c "! grep -q 'ipc.pipe.lat' '$T/out'"
# A row ends with its marks, then the change's interval: "+5.3% *~  +3.1..+7.6".
check "3 runs a side: runs compared, not samples (no ~)" sh -c "! grep -Eq '~( +[-+][0-9.]+\.\.[-+][0-9.]+)?\$' '$T/out'"
check "... each replica at equal machine speed, and the notes say so" \
	grep -q '^replicas compared at equal machine speed: each moved along how its figure$' "$T/out"
check "the section closes with a geometric mean and counts" sh -c \
	"grep -Eq '^  other against base: gain [0-9.]+x \\(geometric mean' '$T/out' &&
	grep -Eq '^  [0-9]+ better, [0-9]+ worse, [0-9]+ unchanged, [0-9]+ cannot tell$' '$T/out'"
check "every line of a comparison of two sides fits 80 columns" \
	[ "$(LC_ALL=C.UTF-8 wc -L <"$T/out")" -le 80 ]
cp "$T/out" "$T/text"
kb compare base 2 --db "$DB"
check "a run id as a side: its replicas compared, marked ~, the change's interval after" \
	grep -Eq '^sys\.null .*~ +[-+][0-9.]+\.\.[-+][0-9.]+$' "$T/out"

kb compare base other --db "$DB" --json
check "--json exits 0 with a document jsoncheck accepts" \
	sh -c "[ $rc = 0 ] && '$JC' compare <'$T/out' >'$T/jc'"
check "--json: the base named, 3 runs a side compared with their replicas at equal adds" \
	grep -Eq '^base base sides 2 rows [1-9][0-9]* significant [0-9]+ ancova 0 adjusted [1-9][0-9]* welch 0 replicas 0 mw 0 state [0-9]+ threshold 0.02 as_measured 0$' "$T/jc"
check "--json: the slope they were moved along" grep -Eq '"slope": -?[0-9]' "$T/out"
# A text row starts with its id (family, dot); jsoncheck's sixth word counts the rows.
check "--json: the text's rows, no more, no fewer" \
	[ "$(grep -c '^[a-z][a-z0-9_]*\.' "$T/text")" = "$(awk '{ print $6 }' "$T/jc")" ]
check "--json: a row has an adjusted p and a significant field" \
	sh -c "grep -Eq '\"p_adj\": [0-9]' '$T/out' && grep -Eq '\"significant\": (true|false)' '$T/out'"
check "--json: the correction is named" grep -q '"correction": "benjamini-hochberg"' "$T/out"
check "--json: nothing on stderr" [ ! -s "$T/err" ]
# One model: the tables in the JSON are the text's, row for row and cell for cell.
check "--json: its tables are the text's, row for row" python3 -c '
import json, re, sys
doc = json.load(open(sys.argv[1]))
# Blanks aside: a mark is glued to its figure in the text, a cell of its own in the JSON.
text = [re.sub(r"\s", "", l) for l in open(sys.argv[2]) if re.match(r"[a-z][a-z0-9_]*\.", l)]
rows = [re.sub(r"\s", "", "".join(r["cells"])) for t in doc["tables"] for r in t["rows"] if "cells" in r]
sys.exit(0 if rows == text and rows else 1)
' "$T/out" "$T/text"
kb compare base 2 --db "$DB" --json --threshold 10
check "--json, a run id as a side: replicas compared, the threshold as a fraction" \
	sh -c "[ $rc = 0 ] && '$JC' compare <'$T/out' | grep -Eq ' welch 0 replicas [1-9][0-9]* mw 0 state 0 threshold 0.1 as_measured 0$'"
check "--json: Welch on the replicas gives a ratio" grep -Eq '"ratio": [0-9]' "$T/out"
check "--json: each side's sentinel" grep -Eq '"sentinel_user_ns": [0-9]' "$T/out"
kb compare base other --db "$DB" --json --as-measured
check "--as-measured: nothing at equal adds, the runs' medians by Welch, and it says so" \
	sh -c "[ $rc = 0 ] && '$JC' compare <'$T/out' | grep -Eq ' ancova 0 adjusted 0 welch [1-9][0-9]* replicas 0 mw 0 state [0-9]+ threshold 0.02 as_measured 1$'"

kb compare base base --db "$DB"
check "a side named twice exits 2" [ "$rc" = 2 ]
check "a side named twice: says so" grep -q "'base' is named twice" "$T/err"
kb compare base nosuch --db "$DB"
check "an unknown label exits 1 with one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
check "an unknown label is named" grep -q "no run or label 'nosuch'" "$T/err"
kb compare base lonely --db "$DB"
check "nothing in common exits 1 with one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
check "nothing in common: says so" grep -q 'no benchmark instance in common' "$T/err"
kb compare base lonely --db "$DB" --json
check "--json, nothing in common: one line, nothing on stdout" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && [ ! -s '$T/out' ]"
kb compare base nosuch --db "$DB" --json
check "--json, an unknown label: one line, nothing on stdout" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && [ ! -s '$T/out' ]"
kb compare base --db "$DB"
check "one side only is a usage error" [ "$rc" = 2 ]
kb compare base other --db "$T/none.db"
check "a missing db exits 1 and is not created" sh -c "[ $rc = 1 ] && [ ! -e '$T/none.db' ]"

echo "1..$n"
