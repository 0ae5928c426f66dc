#!/bin/sh
# Command-line tests of runs, export and import (issue 5): sets of runs,
# listing, renaming and deleting; JSON export -> import -> export gives the
# same document; importing twice adds nothing; CSV has a row per result; and
# a file that is truncated, hand-edited into nonsense, not an export or from
# a newer kbench is one line and changes nothing.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
# The databases from db_for: files, or on PostgreSQL (KBENCH_TEST_BACKEND=pg)
# databases of the test server; a.db's and b.db's runs move between them.
A=$(db_for a) || { skip "export and import" "$A"; echo "1..$n"; exit 0; }
B=$(db_for b) && C=$(db_for c) && F=$(db_for f) && DESK=$(db_for desk) || { notok "db_for" "$B"; echo "1..$n"; exit 1; }
"$KB" run --only 'sys.null,sys.fstat' --runs 2 --label 'base, one' --db "$A" --max-time 0.1 \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1
"$KB" run --only 'sys.null,fs.create.0k' --label other --db "$A" --max-time 0.1 \
	--tmpdir "$T/tmp" --quiet >/dev/null 2>&1

kb runs --db "$A"
check "runs lists every run, exits 0" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$T/out') = 5 ]"
check "the two runs of --runs 2 are one set, numbered by the first" grep -Eq '^ +2 +1  base, one ' "$T/out"
check "a single run is a set of its own" grep -Eq '^ +3 +3  other ' "$T/out"
check "runs closes with the counts" grep -q '^3 runs in 2 sets under 2 labels$' "$T/out"
kb runs other --db "$A"
check "runs LABEL shows only that label" sh -c "[ \$(wc -l <'$T/out') = 3 ] && grep -q '^1 run in 1 set under 1 label' '$T/out'"
kb runs --json --db "$A"
check "runs --json: every run, its fields typed" sh -c "[ $rc = 0 ] && [ \"\$('$JC' runs-list <'$T/out')\" = 3 ]"
check "runs --json: the set of the second run is the first" grep -q '"set_id": 1,' "$T/out"
kb runs nosuch --db "$A"
check "runs of an unknown label: one line, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"no run or label 'nosuch'\" '$T/err'"

# JSON: export, import into an empty db, export again: the same document.
kb export --db "$A"
cp "$T/out" "$T/a.json"
check "export exits 0 and names itself and its schema" sh -c "[ $rc = 0 ] && grep -q '\"document\": \"export\"' '$T/a.json' && grep -q '\"schema\": 2,' '$T/a.json'"
"$JC" export <"$T/a.json" >"$T/jc" 2>&1
check "export is valid JSON, every result whole" grep -q '^runs 3 results 6 ' "$T/jc"
check "export holds the samples" grep -q '"samples": \[$' "$T/a.json"
kb import "$T/a.json" --db "$B"
check "import into a new db adds every run" sh -c "[ $rc = 0 ] && grep -q 'imported 3 runs' '$T/err'"
kb export --db "$B"
check "export -> import -> export gives the same document" cmp -s "$T/out" "$T/a.json"
kb import "$T/a.json" --db "$B"
check "importing the same file twice adds nothing" sh -c "[ $rc = 0 ] && grep -q 'imported 0 runs .*(3 already in the db)' '$T/err'"
kb export --db "$B"
check "... and changes nothing" cmp -s "$T/out" "$T/a.json"
kb export other --db "$A"
cp "$T/out" "$T/other.json"
kb import - --label moved --db "$C" <"$T/other.json"
check "import from stdin with --label files the runs under it" sh -c "[ $rc = 0 ] && '$KB' runs moved --db '$C' | grep -q '^1 run in 1 set'"

# CSV: a header and one row per result; a label with a comma is quoted.
kb export --format csv --db "$A"
check "csv: a header and a row per result (6)" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$T/out') = 7 ] && head -1 '$T/out' | grep -q '^run_uuid,set_uuid,label,'"
check "csv: a label with a comma is quoted" grep -q '^[0-9a-f]*,[0-9a-f]*,"base, one",' "$T/out"
cp "$T/out" "$T/a.csv"
kb export --db "$A"
check "csv: each figure in its fewest digits, read back the JSON's double exactly" python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
res = [r for run in doc["runs"] for r in run["results"]]
bad = 0
for row, r in zip(rows, res):
    for key in ("median", "ci_low", "ci_high", "level", "level_low", "level_high", "mean", "stddev"):
        if row.get(key) and r.get(key) is not None:
            bad |= float(row[key]) != r[key] or len(row[key]) > len(repr(r[key]))
sys.exit(1 if bad or len(rows) != len(res) else 0)
' "$T/a.csv" "$T/out"
# Texts a spreadsheet would run as formulas (OWASP's CSV injection): a quote
# before them, in a quoted cell; numbers keep their sign.
INJ=$(db_for inj) || INJ="$T/inj.db"
# A spreadsheet also skips blanks (a no-break space too) before one, reads the
# fullwidth signs as ASCII's, and splits ';=1+1' where ';' separates cells.
NBSP=$(printf '\302\240')
for l in '=HYPERLINK("http://x","y")' "+1+cmd|'/C calc'!A0" '-2+3' '@SUM(1)' 'a;=1+1' \
	"${NBSP}=2+2" '＝3+3'; do
	"$KB" run --only sys.null --replicas 1 --label "$l" --db "$INJ" --max-time 0.05 \
		--tmpdir "$T/tmp" --quiet >/dev/null 2>&1
done
kb export --format csv --db "$INJ"
check "csv: labels that start as formulas are quoted with a ' before them" sh -c \
	"grep -q '^[0-9a-f]*,[0-9a-f]*,\"'\''=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",' '$T/out' && grep -q ',\"'\''+1+cmd|'\''/C calc'\''!A0\",' '$T/out' && grep -q ',\"'\''-2+3\",' '$T/out' && grep -q ',\"'\''@SUM(1)\",' '$T/out'"
check "csv: no cell of it starts as a formula" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
assert len(rows) == 8, len(rows)
signs = ("=", "+", "@", "-", "\uff1d", "\uff0b", "\uff0d", "\uff20")
def number(q):
    try:
        return float(q) == float(q)
    except ValueError:
        return False
def formula(c):
    return any(p.lstrip(" \t\u00a0\u3000").startswith(signs) and not number(p)
               for p in c.split(";"))
bad = [c for r in rows[1:] for c in r if formula(c) and not c.startswith("\x27")]
assert not bad, bad
' "$T/out"
kb export --format xml --db "$A"
check "an unknown format is a usage error" sh -c "[ $rc = 2 ] && grep -q 'one of json, csv' '$T/err'"
kb export nosuch --db "$A"
check "export of an unknown label: one line, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"

# Bad files: one line, exit 1, the database exactly as it was.
"$KB" export --db "$B" >"$T/before.json"
bad_import() { # NAME FILE EXPECTED-TEXT
	kb import "$2" --db "$B"
	check "$1: one line, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
	check "$1: says '$3'" grep -q -- "$3" "$T/err"
	"$KB" export --db "$B" >"$T/now.json"
	check "$1: the db is unchanged" cmp -s "$T/now.json" "$T/before.json"
}
# Make the files from a fresh run, so none of their runs is in $B already.
"$KB" run --only sys.null --label fresh --db "$F" --max-time 0.1 --quiet >/dev/null 2>&1
"$KB" export --db "$F" >"$T/f.json"
head -c 700 "$T/f.json" >"$T/trunc.json"
bad_import "a truncated file" "$T/trunc.json" "not valid JSON at line"
sed 's/"schema": 2,/"schema": 3,/' "$T/f.json" >"$T/newer.json"
bad_import "a file from a newer kbench" "$T/newer.json" "made by a newer kbench (JSON schema 3"
printf '{"format": "kbench-export", "version": 2, "runs": []}' >"$T/newer1.json"
bad_import "a file from a newer kbench of the old header" "$T/newer1.json" "made by a newer kbench (export version 2"
"$KB" list --json >"$T/list.json"
bad_import "a kbench document that is not an export" "$T/list.json" 'a kbench "benchmarks" document, not an export'

echo '{"runs": []}' >"$T/other.json"
bad_import "a JSON file that is not an export" "$T/other.json" "not a kbench export"
sed 's/"status": "[a-z]*"/"status": "great"/' "$T/f.json" >"$T/status.json"
bad_import "an unknown status" "$T/status.json" 'run 1, result 1 (sys.null): unknown status "great"'
sed 's/"median": [0-9.e-]*/"median": 1000000/' "$T/f.json" >"$T/median.json"
bad_import "a median edited outside its interval" "$T/median.json" "outside its"
sed '/"n": /d' "$T/f.json" >"$T/nofield.json"
bad_import "a field deleted" "$T/nofield.json" '"n" is missing'
sed 's/"n": [0-9]*/"n": 3/' "$T/f.json" >"$T/n.json"
bad_import "samples that do not match n" "$T/n.json" 'but "n" is 3'
sed 's/"uuid": "[0-9a-f]*"/"uuid": "xyz"/' "$T/f.json" >"$T/uuid.json"
bad_import "a malformed uuid" "$T/uuid.json" "not 32 hexadecimal digits"
sed 's/"label": "fresh",/"label": "fresh", "label": "twice",/' "$T/f.json" >"$T/dup.json"
bad_import "a key given twice" "$T/dup.json" "duplicate object key"
bad_import "a missing file" "$T/nosuch.json" "no such file"
kb import "$T/trunc.json" --db "$T/never.db"
check "a bad file never creates the db" sh -c "[ $rc = 1 ] && [ ! -e '$T/never.db' ]"
kb import "$T/f.json" "$T/trunc.json" --db "$B"
"$KB" export --db "$B" >"$T/now.json"
check "one bad file among several: nothing imported" sh -c "[ $rc = 1 ] && cmp -s '$T/now.json' '$T/before.json'"
kb import --db "$B"
check "import without a file is a usage error" [ "$rc" = 2 ]

# The issue's story: run on two machines, export on each, import both on a third, compare.
for box in box1 box2; do
	"$KB" run --only 'sys.null,sys.fstat' --runs 3 --label $box --db "$T/$box.db" --max-time 0.1 \
		--tmpdir "$T/tmp" --quiet >/dev/null 2>&1
	"$KB" export $box --db "$T/$box.db" >"$T/$box.json"
done
kb import "$T/box1.json" "$T/box2.json" --db "$DESK"
check "two machines' exports imported on a third" sh -c "[ $rc = 0 ] && grep -q '6 runs added' '$T/err'"
kb compare box1 box2 --db "$DESK"
check "... and compared, 3 runs a side: Welch on run medians (no ~)" sh -c \
	"[ $rc = 0 ] && grep -Eq '^sys\.null +[0-9.]+ \+-' '$T/out' && ! grep -q '~\$' '$T/out'"

# A set is named set:N, N its first run, wherever runs are named.
kb runs set:1 --db "$A"
check "runs set:1: the two runs of the set" grep -q '^2 runs in 1 set under 1 label' "$T/out"
kb export --format csv set:1 --db "$A"
check "export set:1: their 4 results" sh -c "[ \$(wc -l <'$T/out') = 5 ]"
kb runs set:3 set:9 --db "$A"
check "an unknown set: one line naming it" sh -c "[ $rc = 1 ] && grep -q \"no set or label 'set:9'\" '$T/err'"

# Rename and delete, all or nothing.
kb runs rename other renamed --db "$A"
check "rename a label" sh -c "[ $rc = 0 ] && grep -q \"renamed 1 run from 'other' to 'renamed'\" '$T/out' && '$KB' runs renamed --db '$A' >/dev/null"
kb runs rename 1 first --db "$A"
check "rename one run by its id" sh -c "[ $rc = 0 ] && '$KB' runs first --db '$A' | grep -Eq '^ +1 +1  first'"
kb runs rename renamed '' --db "$A"
check "an empty new label is a usage error" [ "$rc" = 2 ]
kb runs delete renamed nosuch --db "$A"
check "delete with an unknown selector: one line, nothing deleted" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && '$KB' runs renamed --db '$A' >/dev/null"
kb runs delete set:1 renamed --db "$A"
check "delete a set and a label: every run of both" sh -c "[ $rc = 0 ] && grep -q '^deleted 3 runs' '$T/out' && '$KB' runs --db '$A' | grep -q '^no runs in db'"
kb runs delete --db "$A"
check "delete without a selector is a usage error" [ "$rc" = 2 ]
kb runs --db "$T/none.db"
check "runs of a missing db: exit 1, not created" sh -c "[ $rc = 1 ] && [ ! -e '$T/none.db' ]"

echo "1..$n"
